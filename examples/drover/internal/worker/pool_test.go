package worker

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/kestrel-labs/drover/internal/queue"
	"github.com/kestrel-labs/drover/internal/retry"
)

// memQueue is an in-memory queue.Queue that records what the pool did.
type memQueue struct {
	mu      sync.Mutex
	ready   []*queue.Job
	acked   []string
	retried map[string][]time.Duration
	dead    map[string]string
	done    chan struct{}
	expect  int
}

func newMemQueue(expectFinal int, jobs ...*queue.Job) *memQueue {
	return &memQueue{
		ready:   jobs,
		retried: make(map[string][]time.Duration),
		dead:    make(map[string]string),
		done:    make(chan struct{}),
		expect:  expectFinal,
	}
}

func (m *memQueue) finished() {
	if len(m.acked)+len(m.dead) == m.expect {
		close(m.done)
	}
}

func (m *memQueue) Enqueue(_ context.Context, job *queue.Job) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ready = append(m.ready, job)
	return nil
}

func (m *memQueue) Dequeue(ctx context.Context, wait time.Duration) (*queue.Job, error) {
	m.mu.Lock()
	if len(m.ready) > 0 {
		job := m.ready[0]
		m.ready = m.ready[1:]
		m.mu.Unlock()
		return job, nil
	}
	m.mu.Unlock()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(wait):
		return nil, nil
	}
}

func (m *memQueue) Ack(_ context.Context, job *queue.Job) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.acked = append(m.acked, job.ID)
	m.finished()
	return nil
}

func (m *memQueue) Retry(_ context.Context, job *queue.Job, delay time.Duration, cause error) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	job.Attempt++
	job.LastError = cause.Error()
	m.retried[job.ID] = append(m.retried[job.ID], delay)
	m.ready = append(m.ready, job) // no delay in tests
	return nil
}

func (m *memQueue) DeadLetter(_ context.Context, job *queue.Job, cause error) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.dead[job.ID] = cause.Error()
	m.finished()
	return nil
}

func (m *memQueue) PromoteDue(context.Context, time.Time) (int, error) { return 0, nil }
func (m *memQueue) RequeueInFlight(context.Context) (int, error)       { return 0, nil }
func (m *memQueue) Stats(context.Context) (queue.Stats, error)         { return queue.Stats{}, nil }

func runPool(t *testing.T, q *memQueue, opts Options, register func(*Pool)) {
	t.Helper()
	if opts.Concurrency == 0 {
		opts.Concurrency = 2
	}
	if opts.JobTimeout == 0 {
		opts.JobTimeout = time.Second
	}
	opts.PollInterval = 10 * time.Millisecond
	opts.Backoff = retry.New(100*time.Millisecond, time.Second, 0)

	p, err := NewPool(q, opts)
	if err != nil {
		t.Fatalf("NewPool: %v", err)
	}
	register(p)

	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() {
		_ = p.Run(ctx)
		close(stopped)
	}()

	select {
	case <-q.done:
	case <-time.After(5 * time.Second):
		t.Fatal("jobs did not finish in time")
	}
	cancel()
	<-stopped
}

func TestSucceedsAfterRetries(t *testing.T) {
	job := queue.NewJob("flaky", nil)
	q := newMemQueue(1, job)

	var calls int
	runPool(t, q, Options{MaxRetries: 5}, func(p *Pool) {
		p.Handle("flaky", func(context.Context, *queue.Job) error {
			calls++
			if calls < 3 {
				return errors.New("temporary")
			}
			return nil
		})
	})

	if len(q.acked) != 1 {
		t.Fatalf("acked = %v, want the job", q.acked)
	}
	want := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond}
	got := q.retried[job.ID]
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("retry delays = %v, want %v", got, want)
	}
}

func TestDeadLettersAfterMaxRetries(t *testing.T) {
	job := queue.NewJob("always-fails", nil)
	q := newMemQueue(1, job)

	runPool(t, q, Options{MaxRetries: 3}, func(p *Pool) {
		p.Handle("always-fails", func(context.Context, *queue.Job) error {
			return errors.New("boom")
		})
	})

	if got := len(q.retried[job.ID]); got != 3 {
		t.Errorf("retries = %d, want 3", got)
	}
	if q.dead[job.ID] != "boom" {
		t.Errorf("dead cause = %q, want boom", q.dead[job.ID])
	}
}

func TestPermanentErrorSkipsRetries(t *testing.T) {
	job := queue.NewJob("bad-input", nil)
	q := newMemQueue(1, job)

	runPool(t, q, Options{MaxRetries: 7}, func(p *Pool) {
		p.Handle("bad-input", func(context.Context, *queue.Job) error {
			return retry.Permanent(errors.New("payload missing url"))
		})
	})

	if len(q.retried[job.ID]) != 0 {
		t.Errorf("permanent error was retried %d times", len(q.retried[job.ID]))
	}
	if _, ok := q.dead[job.ID]; !ok {
		t.Error("job not dead-lettered")
	}
}

func TestUnknownTypeIsDeadLettered(t *testing.T) {
	job := queue.NewJob("nobody-handles-this", nil)
	q := newMemQueue(1, job)

	runPool(t, q, Options{MaxRetries: 7}, func(*Pool) {})

	if _, ok := q.dead[job.ID]; !ok {
		t.Fatal("job with unknown type should be dead-lettered")
	}
}

func TestJobTimeoutCountsAsFailure(t *testing.T) {
	job := queue.NewJob("slow", nil)
	q := newMemQueue(1, job)

	runPool(t, q, Options{MaxRetries: 0, JobTimeout: 20 * time.Millisecond}, func(p *Pool) {
		p.Handle("slow", func(ctx context.Context, _ *queue.Job) error {
			<-ctx.Done()
			return ctx.Err()
		})
	})

	if cause := q.dead[job.ID]; cause != context.DeadlineExceeded.Error() {
		t.Errorf("dead cause = %q, want deadline exceeded", cause)
	}
}

func TestPanicIsRecovered(t *testing.T) {
	job := queue.NewJob("panics", nil)
	q := newMemQueue(1, job)

	runPool(t, q, Options{MaxRetries: 0}, func(p *Pool) {
		p.Handle("panics", func(context.Context, *queue.Job) error {
			panic("nil map write")
		})
	})

	if cause := q.dead[job.ID]; cause != "handler panic: nil map write" {
		t.Errorf("dead cause = %q", cause)
	}
}

func TestNewPoolValidates(t *testing.T) {
	q := newMemQueue(0)
	if _, err := NewPool(q, Options{Concurrency: 0, JobTimeout: time.Second, PollInterval: time.Second, Backoff: retry.New(time.Second, time.Minute, 0)}); err == nil {
		t.Error("expected error for zero concurrency")
	}
	if _, err := NewPool(q, Options{Concurrency: 1, JobTimeout: time.Second, PollInterval: time.Second}); err == nil {
		t.Error("expected error for missing backoff")
	}
}
