// Package worker runs jobs from a queue.Queue on a fixed number of goroutines.
package worker

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/kestrel-labs/drover/internal/metrics"
	"github.com/kestrel-labs/drover/internal/queue"
	"github.com/kestrel-labs/drover/internal/retry"
)

// Handler executes one job attempt. Returning an error wrapped with
// retry.Permanent dead-letters the job without further attempts.
type Handler func(ctx context.Context, job *queue.Job) error

// ErrNoHandler is recorded on jobs whose type nobody registered.
var ErrNoHandler = errors.New("no handler registered for job type")

// Options configures a Pool.
type Options struct {
	Concurrency  int
	JobTimeout   time.Duration
	PollInterval time.Duration
	MaxRetries   int
	Backoff      *retry.Backoff
	Logger       *zap.Logger
	Metrics      *metrics.Metrics
}

// Pool pulls jobs from a queue and executes them with bounded concurrency.
type Pool struct {
	q        queue.Queue
	opts     Options
	log      *zap.Logger
	mu       sync.RWMutex
	handlers map[string]Handler
}

// NewPool validates opts and returns an idle pool.
func NewPool(q queue.Queue, opts Options) (*Pool, error) {
	if opts.Concurrency < 1 {
		return nil, fmt.Errorf("worker: concurrency must be >= 1, got %d", opts.Concurrency)
	}
	if opts.JobTimeout <= 0 || opts.PollInterval <= 0 {
		return nil, errors.New("worker: job timeout and poll interval must be positive")
	}
	if opts.Backoff == nil {
		return nil, errors.New("worker: backoff is required")
	}
	log := opts.Logger
	if log == nil {
		log = zap.NewNop()
	}
	return &Pool{q: q, opts: opts, log: log, handlers: make(map[string]Handler)}, nil
}

// Handle registers h for jobs of the given type, replacing any previous one.
func (p *Pool) Handle(jobType string, h Handler) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.handlers[jobType] = h
}

func (p *Pool) handler(jobType string) (Handler, bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	h, ok := p.handlers[jobType]
	return h, ok
}

// Run starts the workers and the delayed-job promoter and blocks until ctx
// is cancelled and every worker has finished its current job. Jobs already
// running are not cancelled by ctx; they keep their own timeout.
func (p *Pool) Run(ctx context.Context) error {
	var wg sync.WaitGroup

	wg.Add(1)
	go func() {
		defer wg.Done()
		p.promote(ctx)
	}()

	for i := 0; i < p.opts.Concurrency; i++ {
		wg.Add(1)
		go func(id int) {
			defer wg.Done()
			p.work(ctx, id)
		}(i)
	}

	p.log.Info("worker pool started",
		zap.Int("concurrency", p.opts.Concurrency),
		zap.Duration("job_timeout", p.opts.JobTimeout),
		zap.Duration("poll_interval", p.opts.PollInterval),
		zap.Int("max_retries", p.opts.MaxRetries),
	)
	wg.Wait()
	p.log.Info("worker pool stopped")
	return nil
}

func (p *Pool) promote(ctx context.Context) {
	ticker := time.NewTicker(p.opts.PollInterval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-ticker.C:
			n, err := p.q.PromoteDue(ctx, now)
			if err != nil {
				if ctx.Err() == nil {
					p.log.Warn("promoting delayed jobs failed", zap.Error(err))
				}
				continue
			}
			if n > 0 && p.opts.Metrics != nil {
				p.opts.Metrics.Promoted.Add(float64(n))
			}
		}
	}
}

func (p *Pool) work(ctx context.Context, id int) {
	log := p.log.With(zap.Int("worker", id))
	for ctx.Err() == nil {
		job, err := p.q.Dequeue(ctx, p.opts.PollInterval)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			log.Warn("dequeue failed", zap.Error(err))
			sleep(ctx, p.opts.PollInterval)
			continue
		}
		if job == nil {
			continue
		}
		// Detach from ctx so a shutdown signal lets the job finish and be
		// acknowledged instead of being cut off mid-write.
		p.process(context.WithoutCancel(ctx), log, job)
	}
}

func (p *Pool) process(ctx context.Context, log *zap.Logger, job *queue.Job) {
	log = log.With(zap.String("job_id", job.ID), zap.String("job_type", job.Type), zap.Int("attempt", job.Attempt))

	if p.opts.Metrics != nil {
		p.opts.Metrics.InFlight.Inc()
		defer p.opts.Metrics.InFlight.Dec()
	}

	start := time.Now()
	err := p.execute(ctx, job)
	took := time.Since(start)

	switch {
	case err == nil:
		if ackErr := p.q.Ack(ctx, job); ackErr != nil {
			log.Error("ack failed; job may run again", zap.Error(ackErr))
		}
		p.observe(job.Type, metrics.OutcomeSucceeded, took)
		log.Debug("job succeeded", zap.Duration("took", took))

	case retry.IsPermanent(err) || errors.Is(err, ErrNoHandler) || job.Attempt >= p.opts.MaxRetries:
		if dlErr := p.q.DeadLetter(ctx, job, err); dlErr != nil {
			log.Error("dead-lettering failed", zap.Error(dlErr), zap.NamedError("cause", err))
		}
		p.observe(job.Type, metrics.OutcomeDeadLetter, took)
		log.Warn("job dead-lettered", zap.Error(err), zap.Duration("took", took))

	default:
		delay := p.opts.Backoff.Delay(job.Attempt + 1)
		if rErr := p.q.Retry(ctx, job, delay, err); rErr != nil {
			log.Error("scheduling retry failed", zap.Error(rErr), zap.NamedError("cause", err))
		}
		p.observe(job.Type, metrics.OutcomeRetried, took)
		log.Info("job failed, retry scheduled", zap.Error(err), zap.Duration("retry_in", delay))
	}
}

// execute runs the handler under the job timeout and converts panics into
// ordinary (retryable) errors.
func (p *Pool) execute(ctx context.Context, job *queue.Job) (err error) {
	h, ok := p.handler(job.Type)
	if !ok {
		return fmt.Errorf("%w: %q", ErrNoHandler, job.Type)
	}

	ctx, cancel := context.WithTimeout(ctx, p.opts.JobTimeout)
	defer cancel()

	defer func() {
		if r := recover(); r != nil {
			p.log.Error("handler panicked", zap.Any("panic", r), zap.ByteString("stack", debug.Stack()))
			err = fmt.Errorf("handler panic: %v", r)
		}
	}()

	err = h(ctx, job)
	if err == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		err = fmt.Errorf("job exceeded timeout of %s", p.opts.JobTimeout)
	}
	return err
}

func (p *Pool) observe(jobType, outcome string, took time.Duration) {
	if p.opts.Metrics != nil {
		p.opts.Metrics.ObserveJob(jobType, outcome, took)
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
