// Package config loads drover's YAML configuration and fills in built-in
// defaults for every key the file leaves out.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

const (
	// DefaultConcurrency is the number of jobs processed in parallel when
	// worker.concurrency is not configured.
	DefaultConcurrency = 14

	// DefaultJobTimeoutSeconds bounds how long a single job may run before
	// its context is cancelled and the attempt counts as failed.
	DefaultJobTimeoutSeconds = 45

	// DefaultMaxRetries is how many times a failed job is retried before it
	// is moved to the dead-letter list.
	DefaultMaxRetries = 7

	// DefaultPollIntervalMS is how long a worker blocks waiting for a job
	// and how often delayed jobs are promoted back to the ready list.
	DefaultPollIntervalMS = 750

	// DefaultShutdownGraceSeconds is how long in-flight jobs get to finish
	// after SIGTERM before the process exits anyway.
	DefaultShutdownGraceSeconds = 25

	// DefaultBackoffBaseMS is the delay before the first retry.
	DefaultBackoffBaseMS = 400

	// DefaultBackoffMaxSeconds caps the delay between two attempts.
	DefaultBackoffMaxSeconds = 90

	// DefaultBackoffJitter spreads retry delays by +/- this fraction.
	DefaultBackoffJitter = 0.2

	// DefaultHTTPPort serves /healthz, /readyz and /metrics.
	DefaultHTTPPort = 7460

	// DefaultMetricsPath is where Prometheus metrics are exposed.
	DefaultMetricsPath = "/metrics"

	// DefaultRedisAddr is used when neither the config file nor
	// DROVER_REDIS_ADDR provide an address.
	DefaultRedisAddr = "127.0.0.1:6379"

	// DefaultQueueName prefixes every Redis key drover touches.
	DefaultQueueName = "drover"

	// DefaultLogLevel is one of debug, info, warn, error.
	DefaultLogLevel = "info"

	// DefaultLogFormat is either json or console.
	DefaultLogFormat = "json"
)

// Config is the complete runtime configuration.
type Config struct {
	Redis  RedisConfig  `yaml:"redis"`
	Worker WorkerConfig `yaml:"worker"`
	Retry  RetryConfig  `yaml:"retry"`
	HTTP   HTTPConfig   `yaml:"http"`
	Log    LogConfig    `yaml:"log"`
}

// RedisConfig describes the connection to the queue backend.
type RedisConfig struct {
	Addr     string `yaml:"addr"`
	Password string `yaml:"password"`
	DB       int    `yaml:"db"`
	Queue    string `yaml:"queue"`
}

// WorkerConfig controls the worker pool.
type WorkerConfig struct {
	Concurrency          int `yaml:"concurrency"`
	JobTimeoutSeconds    int `yaml:"job_timeout_seconds"`
	PollIntervalMS       int `yaml:"poll_interval_ms"`
	ShutdownGraceSeconds int `yaml:"shutdown_grace_seconds"`
}

// RetryConfig controls how failed jobs are rescheduled.
type RetryConfig struct {
	MaxRetries        int     `yaml:"max_retries"`
	BackoffBaseMS     int     `yaml:"backoff_base_ms"`
	BackoffMaxSeconds int     `yaml:"backoff_max_seconds"`
	Jitter            float64 `yaml:"jitter"`
}

// HTTPConfig controls the health and metrics listener.
type HTTPConfig struct {
	Port        int    `yaml:"port"`
	MetricsPath string `yaml:"metrics_path"`
}

// LogConfig controls zap logger construction.
type LogConfig struct {
	Level  string `yaml:"level"`
	Format string `yaml:"format"`
}

// Defaults returns the configuration used when no file is given.
func Defaults() Config {
	return Config{
		Redis: RedisConfig{
			Addr:  DefaultRedisAddr,
			Queue: DefaultQueueName,
		},
		Worker: WorkerConfig{
			Concurrency:          DefaultConcurrency,
			JobTimeoutSeconds:    DefaultJobTimeoutSeconds,
			PollIntervalMS:       DefaultPollIntervalMS,
			ShutdownGraceSeconds: DefaultShutdownGraceSeconds,
		},
		Retry: RetryConfig{
			MaxRetries:        DefaultMaxRetries,
			BackoffBaseMS:     DefaultBackoffBaseMS,
			BackoffMaxSeconds: DefaultBackoffMaxSeconds,
			Jitter:            DefaultBackoffJitter,
		},
		HTTP: HTTPConfig{
			Port:        DefaultHTTPPort,
			MetricsPath: DefaultMetricsPath,
		},
		Log: LogConfig{
			Level:  DefaultLogLevel,
			Format: DefaultLogFormat,
		},
	}
}

// Load reads the YAML file at path on top of Defaults and then applies
// environment overrides. An empty path yields the defaults plus environment.
func Load(path string) (Config, error) {
	cfg := Defaults()

	if path != "" {
		raw, err := os.ReadFile(path)
		if err != nil {
			return Config{}, fmt.Errorf("read config: %w", err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(raw))
		dec.KnownFields(true)
		// An empty file decodes to io.EOF and simply means "use the defaults".
		if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
			return Config{}, fmt.Errorf("parse %s: %w", path, err)
		}
	}

	applyEnv(&cfg)

	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// applyEnv lets deployments inject secrets and addresses without editing YAML.
func applyEnv(cfg *Config) {
	if v := os.Getenv("DROVER_REDIS_ADDR"); v != "" {
		cfg.Redis.Addr = v
	}
	if v := os.Getenv("DROVER_REDIS_PASSWORD"); v != "" {
		cfg.Redis.Password = v
	}
	if v := os.Getenv("DROVER_LOG_LEVEL"); v != "" {
		cfg.Log.Level = v
	}
}

// Validate rejects configurations the worker cannot run with.
func (c Config) Validate() error {
	var errs []error
	if c.Redis.Addr == "" {
		errs = append(errs, errors.New("redis.addr must not be empty"))
	}
	if c.Redis.Queue == "" {
		errs = append(errs, errors.New("redis.queue must not be empty"))
	}
	if c.Worker.Concurrency < 1 {
		errs = append(errs, fmt.Errorf("worker.concurrency must be >= 1, got %d", c.Worker.Concurrency))
	}
	if c.Worker.JobTimeoutSeconds < 1 {
		errs = append(errs, fmt.Errorf("worker.job_timeout_seconds must be >= 1, got %d", c.Worker.JobTimeoutSeconds))
	}
	if c.Worker.PollIntervalMS < 50 {
		errs = append(errs, fmt.Errorf("worker.poll_interval_ms must be >= 50, got %d", c.Worker.PollIntervalMS))
	}
	if c.Retry.MaxRetries < 0 {
		errs = append(errs, fmt.Errorf("retry.max_retries must be >= 0, got %d", c.Retry.MaxRetries))
	}
	if c.Retry.Jitter < 0 || c.Retry.Jitter >= 1 {
		errs = append(errs, fmt.Errorf("retry.jitter must be in [0, 1), got %g", c.Retry.Jitter))
	}
	if c.HTTP.Port < 1 || c.HTTP.Port > 65535 {
		errs = append(errs, fmt.Errorf("http.port out of range: %d", c.HTTP.Port))
	}
	if !strings.HasPrefix(c.HTTP.MetricsPath, "/") {
		errs = append(errs, fmt.Errorf("http.metrics_path must start with '/', got %q", c.HTTP.MetricsPath))
	}
	switch c.Log.Format {
	case "json", "console":
	default:
		errs = append(errs, fmt.Errorf("log.format must be json or console, got %q", c.Log.Format))
	}
	return errors.Join(errs...)
}

// JobTimeout returns the per-job execution limit.
func (c Config) JobTimeout() time.Duration {
	return time.Duration(c.Worker.JobTimeoutSeconds) * time.Second
}

// PollInterval returns the blocking dequeue / promotion interval.
func (c Config) PollInterval() time.Duration {
	return time.Duration(c.Worker.PollIntervalMS) * time.Millisecond
}

// ShutdownGrace returns how long to wait for in-flight jobs on shutdown.
func (c Config) ShutdownGrace() time.Duration {
	return time.Duration(c.Worker.ShutdownGraceSeconds) * time.Second
}

// BackoffBase returns the first retry delay.
func (c Config) BackoffBase() time.Duration {
	return time.Duration(c.Retry.BackoffBaseMS) * time.Millisecond
}

// BackoffMax returns the retry delay cap.
func (c Config) BackoffMax() time.Duration {
	return time.Duration(c.Retry.BackoffMaxSeconds) * time.Second
}

// ListenAddr returns the address the HTTP server binds to.
func (c Config) ListenAddr() string {
	return fmt.Sprintf(":%d", c.HTTP.Port)
}
