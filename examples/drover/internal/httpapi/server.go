// Package httpapi serves drover's operational endpoints: liveness,
// readiness and Prometheus metrics.
package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.uber.org/zap"
)

// readinessTimeout bounds each dependency check behind /readyz.
const readinessTimeout = 2 * time.Second

// Pinger is anything /readyz should check, typically the Redis queue.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Server wraps an http.Server with drover's routes.
type Server struct {
	srv *http.Server
	log *zap.Logger
}

// New builds the server. metricsPath is usually "/metrics".
func New(addr, metricsPath, version string, reg prometheus.Gatherer, redis Pinger, log *zap.Logger) *Server {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "version": version})
	})
	mux.HandleFunc("GET /readyz", readyHandler(redis))
	mux.Handle("GET "+metricsPath, promhttp.HandlerFor(reg, promhttp.HandlerOpts{
		EnableOpenMetrics: true,
	}))

	return &Server{
		srv: &http.Server{
			Addr:              addr,
			Handler:           mux,
			ReadHeaderTimeout: 5 * time.Second,
			ReadTimeout:       10 * time.Second,
			WriteTimeout:      30 * time.Second,
			IdleTimeout:       90 * time.Second,
		},
		log: log,
	}
}

// Handler exposes the router for tests.
func (s *Server) Handler() http.Handler { return s.srv.Handler }

// Start listens in the background. Errors other than a normal shutdown are
// sent on the returned channel.
func (s *Server) Start() (<-chan error, error) {
	ln, err := net.Listen("tcp", s.srv.Addr)
	if err != nil {
		return nil, err
	}
	errc := make(chan error, 1)
	go func() {
		s.log.Info("http server listening", zap.String("addr", ln.Addr().String()))
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			errc <- err
		}
		close(errc)
	}()
	return errc, nil
}

// Shutdown stops accepting connections and waits for active requests.
func (s *Server) Shutdown(ctx context.Context) error {
	return s.srv.Shutdown(ctx)
}

func readyHandler(redis Pinger) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), readinessTimeout)
		defer cancel()
		if err := redis.Ping(ctx); err != nil {
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{
				"status": "unavailable",
				"redis":  err.Error(),
			})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ready", "redis": "ok"})
	}
}

func writeJSON(w http.ResponseWriter, code int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(body)
}
