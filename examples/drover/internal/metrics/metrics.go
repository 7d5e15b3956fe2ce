// Package metrics holds drover's Prometheus collectors.
package metrics

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/kestrel-labs/drover/internal/queue"
)

// Outcome labels for drover_jobs_processed_total.
const (
	OutcomeSucceeded  = "succeeded"
	OutcomeRetried    = "retried"
	OutcomeDeadLetter = "dead_lettered"
)

// Metrics groups every collector the worker updates.
type Metrics struct {
	Registry    *prometheus.Registry
	Processed   *prometheus.CounterVec
	Duration    *prometheus.HistogramVec
	InFlight    prometheus.Gauge
	QueueLength *prometheus.GaugeVec
	Promoted    prometheus.Counter
}

// New creates a dedicated registry with Go and process collectors plus the
// drover_* series.
func New() *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		Registry: reg,
		Processed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "drover",
			Name:      "jobs_processed_total",
			Help:      "Jobs that finished an attempt, by job type and outcome.",
		}, []string{"type", "outcome"}),
		Duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "drover",
			Name:      "job_duration_seconds",
			Help:      "Wall-clock time of a single job attempt.",
			Buckets:   []float64{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300},
		}, []string{"type"}),
		InFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "drover",
			Name:      "jobs_in_flight",
			Help:      "Jobs currently being executed by this process.",
		}),
		QueueLength: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Namespace: "drover",
			Name:      "queue_length",
			Help:      "Number of jobs per queue state, sampled periodically.",
		}, []string{"state"}),
		Promoted: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "drover",
			Name:      "delayed_jobs_promoted_total",
			Help:      "Delayed jobs moved back to the ready list.",
		}),
	}
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.Processed, m.Duration, m.InFlight, m.QueueLength, m.Promoted,
	)
	return m
}

// ObserveJob records the outcome and duration of one attempt.
func (m *Metrics) ObserveJob(jobType, outcome string, took time.Duration) {
	m.Processed.WithLabelValues(jobType, outcome).Inc()
	m.Duration.WithLabelValues(jobType).Observe(took.Seconds())
}

// SampleQueue polls queue sizes every interval until ctx is done.
func (m *Metrics) SampleQueue(ctx context.Context, q queue.Queue, interval time.Duration) {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		if stats, err := q.Stats(ctx); err == nil {
			m.QueueLength.WithLabelValues("ready").Set(float64(stats.Ready))
			m.QueueLength.WithLabelValues("delayed").Set(float64(stats.Delayed))
			m.QueueLength.WithLabelValues("processing").Set(float64(stats.Processing))
			m.QueueLength.WithLabelValues("dead").Set(float64(stats.Dead))
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}
