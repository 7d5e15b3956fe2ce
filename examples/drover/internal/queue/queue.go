// Package queue defines the job model and the storage contract the worker
// pool relies on. The production implementation lives in redis.go.
package queue

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"time"
)

// ErrInvalidJob is returned by Enqueue for jobs without a type.
var ErrInvalidJob = errors.New("queue: job type is required")

// Job is a unit of work. It is stored JSON-encoded in Redis.
type Job struct {
	ID         string          `json:"id"`
	Type       string          `json:"type"`
	Payload    json.RawMessage `json:"payload,omitempty"`
	Attempt    int             `json:"attempt"`
	EnqueuedAt time.Time       `json:"enqueued_at"`
	LastError  string          `json:"last_error,omitempty"`

	// raw is the exact encoding the job was dequeued with. Redis list
	// removal matches on value, so Ack/Retry/DeadLetter need it verbatim.
	raw string
}

// Stats is a point-in-time view of queue sizes, exported as metrics.
type Stats struct {
	Ready      int64
	Delayed    int64
	Processing int64
	Dead       int64
}

// Queue is the storage contract used by the worker pool.
type Queue interface {
	// Enqueue stores a new job on the ready list.
	Enqueue(ctx context.Context, job *Job) error
	// Dequeue blocks for up to wait and returns (nil, nil) when no job arrived.
	Dequeue(ctx context.Context, wait time.Duration) (*Job, error)
	// Ack removes a finished job from the processing list.
	Ack(ctx context.Context, job *Job) error
	// Retry reschedules a failed job to become ready again after delay.
	Retry(ctx context.Context, job *Job, delay time.Duration, cause error) error
	// DeadLetter parks a job that will not be retried.
	DeadLetter(ctx context.Context, job *Job, cause error) error
	// PromoteDue moves delayed jobs whose time has come back to ready.
	PromoteDue(ctx context.Context, now time.Time) (int, error)
	// RequeueInFlight returns jobs left in processing by a crashed worker.
	RequeueInFlight(ctx context.Context) (int, error)
	// Stats reports list sizes.
	Stats(ctx context.Context) (Stats, error)
}

// NewJob builds a job with a fresh ID.
func NewJob(jobType string, payload json.RawMessage) *Job {
	return &Job{
		ID:         newID(),
		Type:       jobType,
		Payload:    payload,
		EnqueuedAt: time.Now().UTC(),
	}
}

func newID() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		// crypto/rand failing means the host is badly broken; fall back to
		// a time-based ID rather than refusing to enqueue.
		return time.Now().UTC().Format("20060102T150405.000000000")
	}
	return hex.EncodeToString(b[:])
}

func encode(job *Job) (string, error) {
	b, err := json.Marshal(job)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

func decode(raw string) (*Job, error) {
	var job Job
	if err := json.Unmarshal([]byte(raw), &job); err != nil {
		return nil, err
	}
	job.raw = raw
	return &job, nil
}
