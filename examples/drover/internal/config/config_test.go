package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "drover.yaml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatalf("write config: %v", err)
	}
	return path
}

func TestDefaultsAreValid(t *testing.T) {
	cfg := Defaults()
	if err := cfg.Validate(); err != nil {
		t.Fatalf("Defaults() does not validate: %v", err)
	}
	if cfg.Worker.Concurrency != DefaultConcurrency {
		t.Errorf("concurrency = %d, want %d", cfg.Worker.Concurrency, DefaultConcurrency)
	}
	if got, want := cfg.JobTimeout(), DefaultJobTimeoutSeconds*time.Second; got != want {
		t.Errorf("JobTimeout() = %s, want %s", got, want)
	}
	if got, want := cfg.PollInterval(), DefaultPollIntervalMS*time.Millisecond; got != want {
		t.Errorf("PollInterval() = %s, want %s", got, want)
	}
}

func TestLoadEmptyPathUsesDefaults(t *testing.T) {
	for _, key := range []string{"DROVER_REDIS_ADDR", "DROVER_REDIS_PASSWORD", "DROVER_LOG_LEVEL"} {
		t.Setenv(key, "")
	}
	cfg, err := Load("")
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if cfg != Defaults() {
		t.Errorf("Load(\"\") = %+v, want defaults", cfg)
	}
}

func TestLoadOverlaysFileOnDefaults(t *testing.T) {
	path := writeConfig(t, `
worker:
  concurrency: 5
retry:
  max_retries: 3
`)
	cfg, err := Load(path)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if cfg.Worker.Concurrency != 5 {
		t.Errorf("concurrency = %d, want 5", cfg.Worker.Concurrency)
	}
	if cfg.Retry.MaxRetries != 3 {
		t.Errorf("max_retries = %d, want 3", cfg.Retry.MaxRetries)
	}
	if cfg.Worker.JobTimeoutSeconds != DefaultJobTimeoutSeconds {
		t.Errorf("job_timeout_seconds = %d, want default %d", cfg.Worker.JobTimeoutSeconds, DefaultJobTimeoutSeconds)
	}
	if cfg.HTTP.Port != DefaultHTTPPort {
		t.Errorf("http.port = %d, want default %d", cfg.HTTP.Port, DefaultHTTPPort)
	}
}

func TestLoadEmptyFile(t *testing.T) {
	cfg, err := Load(writeConfig(t, ""))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if cfg.Retry.MaxRetries != DefaultMaxRetries {
		t.Errorf("max_retries = %d, want %d", cfg.Retry.MaxRetries, DefaultMaxRetries)
	}
}

func TestLoadRejectsUnknownKeys(t *testing.T) {
	_, err := Load(writeConfig(t, "worker:\n  concurency: 4\n"))
	if err == nil || !strings.Contains(err.Error(), "concurency") {
		t.Fatalf("expected unknown field error, got %v", err)
	}
}

func TestLoadRejectsInvalidValues(t *testing.T) {
	_, err := Load(writeConfig(t, "worker:\n  concurrency: 0\nhttp:\n  port: 70000\n"))
	if err == nil {
		t.Fatal("expected validation error")
	}
	for _, want := range []string{"worker.concurrency", "http.port"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
}

func TestEnvOverridesFile(t *testing.T) {
	t.Setenv("DROVER_REDIS_ADDR", "redis.test:6380")
	t.Setenv("DROVER_REDIS_PASSWORD", "s3cret")
	cfg, err := Load(writeConfig(t, "redis:\n  addr: localhost:6379\n"))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if cfg.Redis.Addr != "redis.test:6380" {
		t.Errorf("redis.addr = %q, want env value", cfg.Redis.Addr)
	}
	if cfg.Redis.Password != "s3cret" {
		t.Errorf("redis.password not taken from env")
	}
}
