// Command drover runs background jobs from a Redis-backed queue.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/spf13/cobra"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/kestrel-labs/drover/internal/config"
	"github.com/kestrel-labs/drover/internal/httpapi"
	"github.com/kestrel-labs/drover/internal/jobs"
	"github.com/kestrel-labs/drover/internal/metrics"
	"github.com/kestrel-labs/drover/internal/queue"
	"github.com/kestrel-labs/drover/internal/retry"
	"github.com/kestrel-labs/drover/internal/worker"
)

// version is overridden at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	if err := newRootCmd().Execute(); err != nil {
		os.Exit(1)
	}
}

func newRootCmd() *cobra.Command {
	var configPath string

	root := &cobra.Command{
		Use:          "drover",
		Short:        "Background job worker backed by Redis",
		SilenceUsage: true,
	}
	root.PersistentFlags().StringVarP(&configPath, "config", "c", "",
		"path to a YAML config file; built-in defaults are used for anything it leaves out")

	root.AddCommand(
		newRunCmd(&configPath),
		newEnqueueCmd(&configPath),
		newVersionCmd(),
	)
	return root
}

func newRunCmd(configPath *string) *cobra.Command {
	var concurrency int

	cmd := &cobra.Command{
		Use:   "run",
		Short: "Start the worker pool and the health/metrics server",
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := config.Load(*configPath)
			if err != nil {
				return err
			}
			if concurrency > 0 {
				cfg.Worker.Concurrency = concurrency
			}
			return run(cmd.Context(), cfg)
		},
	}
	cmd.Flags().IntVar(&concurrency, "concurrency", 0,
		"override worker.concurrency from the config file")
	return cmd
}

func run(parent context.Context, cfg config.Config) error {
	log, err := newLogger(cfg.Log)
	if err != nil {
		return err
	}
	defer func() { _ = log.Sync() }()

	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	defer stop()

	rdb := redis.NewClient(&redis.Options{
		Addr:     cfg.Redis.Addr,
		Password: cfg.Redis.Password,
		DB:       cfg.Redis.DB,
		// Blocking BLMOVE calls must not be cut short by the read timeout.
		ReadTimeout:  cfg.PollInterval() + 3*time.Second,
		PoolSize:     cfg.Worker.Concurrency + 4,
		MinIdleConns: 2,
	})
	defer rdb.Close()

	q := queue.NewRedis(rdb, cfg.Redis.Queue)
	if err := q.Ping(ctx); err != nil {
		return fmt.Errorf("connect to redis at %s: %w", cfg.Redis.Addr, err)
	}
	if n, err := q.RequeueInFlight(ctx); err != nil {
		return fmt.Errorf("requeue in-flight jobs: %w", err)
	} else if n > 0 {
		log.Warn("requeued jobs left in processing by a previous run", zap.Int("count", n))
	}

	m := metrics.New()
	go m.SampleQueue(ctx, q, 15*time.Second)

	pool, err := worker.NewPool(q, worker.Options{
		Concurrency:  cfg.Worker.Concurrency,
		JobTimeout:   cfg.JobTimeout(),
		PollInterval: cfg.PollInterval(),
		MaxRetries:   cfg.Retry.MaxRetries,
		Backoff:      retry.New(cfg.BackoffBase(), cfg.BackoffMax(), cfg.Retry.Jitter),
		Logger:       log,
		Metrics:      m,
	})
	if err != nil {
		return err
	}
	webhook := &jobs.Webhook{
		Client:    &http.Client{Timeout: cfg.JobTimeout()},
		UserAgent: "drover/" + version,
	}
	pool.Handle(jobs.WebhookType, webhook.Handle)
	pool.Handle("noop", jobs.Noop)

	srv := httpapi.New(cfg.ListenAddr(), cfg.HTTP.MetricsPath, version, m.Registry, q, log)
	srvErr, err := srv.Start()
	if err != nil {
		return fmt.Errorf("start http server: %w", err)
	}

	poolDone := make(chan struct{})
	go func() {
		_ = pool.Run(ctx)
		close(poolDone)
	}()

	select {
	case <-ctx.Done():
		log.Info("shutdown requested", zap.Duration("grace", cfg.ShutdownGrace()))
	case err := <-srvErr:
		stop()
		if err != nil {
			log.Error("http server failed", zap.Error(err))
		}
	}

	select {
	case <-poolDone:
	case <-time.After(cfg.ShutdownGrace()):
		log.Warn("shutdown grace period elapsed; unfinished jobs will be requeued on next start")
	}

	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shutdownCtx)
}

func newEnqueueCmd(configPath *string) *cobra.Command {
	var payload string

	cmd := &cobra.Command{
		Use:   "enqueue TYPE",
		Short: "Put a single job on the queue",
		Example: `  drover enqueue noop
  drover enqueue webhook.deliver --payload '{"url":"https://example.com/hooks/42","body":{"event":"ping"}}'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := config.Load(*configPath)
			if err != nil {
				return err
			}
			var raw json.RawMessage
			if payload != "" {
				if !json.Valid([]byte(payload)) {
					return errors.New("--payload is not valid JSON")
				}
				raw = json.RawMessage(payload)
			}

			rdb := redis.NewClient(&redis.Options{
				Addr:     cfg.Redis.Addr,
				Password: cfg.Redis.Password,
				DB:       cfg.Redis.DB,
			})
			defer rdb.Close()

			job := queue.NewJob(args[0], raw)
			if err := queue.NewRedis(rdb, cfg.Redis.Queue).Enqueue(cmd.Context(), job); err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), job.ID)
			return nil
		},
	}
	cmd.Flags().StringVarP(&payload, "payload", "p", "", "JSON payload for the job")
	return cmd
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the drover version",
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintln(cmd.OutOrStdout(), version)
		},
	}
}

func newLogger(cfg config.LogConfig) (*zap.Logger, error) {
	level, err := zapcore.ParseLevel(cfg.Level)
	if err != nil {
		return nil, fmt.Errorf("log.level: %w", err)
	}
	var zc zap.Config
	if cfg.Format == "console" {
		zc = zap.NewDevelopmentConfig()
	} else {
		zc = zap.NewProductionConfig()
		zc.EncoderConfig.TimeKey = "ts"
		zc.EncoderConfig.EncodeTime = zapcore.ISO8601TimeEncoder
	}
	zc.Level = zap.NewAtomicLevelAt(level)
	return zc.Build(zap.Fields(zap.String("service", "drover"), zap.String("version", version)))
}
