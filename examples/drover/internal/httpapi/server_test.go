package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
)

type fakePinger struct{ err error }

func (f fakePinger) Ping(context.Context) error { return f.err }

func newTestServer(t *testing.T, redisErr error) http.Handler {
	t.Helper()
	reg := prometheus.NewRegistry()
	counter := prometheus.NewCounter(prometheus.CounterOpts{Name: "drover_test_total", Help: "test"})
	reg.MustRegister(counter)
	counter.Add(3)
	return New(":0", "/metrics", "v0.9.0-test", reg, fakePinger{err: redisErr}, zap.NewNop()).Handler()
}

func get(t *testing.T, h http.Handler, path string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec
}

func TestHealthz(t *testing.T) {
	rec := get(t, newTestServer(t, nil), "/healthz")
	if rec.Code != http.StatusOK {
		t.Fatalf("status = %d, want 200", rec.Code)
	}
	var body map[string]string
	if err := json.NewDecoder(rec.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if body["status"] != "ok" || body["version"] != "v0.9.0-test" {
		t.Errorf("body = %v", body)
	}
}

func TestHealthzIgnoresRedis(t *testing.T) {
	rec := get(t, newTestServer(t, errors.New("connection refused")), "/healthz")
	if rec.Code != http.StatusOK {
		t.Fatalf("liveness must not depend on redis, got %d", rec.Code)
	}
}

func TestReadyz(t *testing.T) {
	if rec := get(t, newTestServer(t, nil), "/readyz"); rec.Code != http.StatusOK {
		t.Errorf("ready with healthy redis: status = %d", rec.Code)
	}
	rec := get(t, newTestServer(t, errors.New("dial tcp: connection refused")), "/readyz")
	if rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("status = %d, want 503", rec.Code)
	}
	if !strings.Contains(rec.Body.String(), "connection refused") {
		t.Errorf("body does not explain failure: %s", rec.Body.String())
	}
}

func TestMetrics(t *testing.T) {
	rec := get(t, newTestServer(t, nil), "/metrics")
	if rec.Code != http.StatusOK {
		t.Fatalf("status = %d", rec.Code)
	}
	if !strings.Contains(rec.Body.String(), "drover_test_total 3") {
		t.Errorf("metrics output missing counter:\n%s", rec.Body.String())
	}
}

func TestMethodNotAllowed(t *testing.T) {
	rec := httptest.NewRecorder()
	newTestServer(t, nil).ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/healthz", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /healthz status = %d, want 405", rec.Code)
	}
}
