// Package retry decides how long to wait between attempts of a failed job
// and lets handlers mark errors as not worth retrying.
package retry

import (
	"errors"
	"math"
	"math/rand/v2"
	"time"
)

// DefaultFactor is the multiplier applied to the delay after every attempt.
const DefaultFactor = 2.0

// Backoff computes capped exponential delays with symmetric jitter.
//
// The delay for attempt n (1-based) is Base * Factor^(n-1), capped at Max,
// then spread uniformly within +/- Jitter of that value.
type Backoff struct {
	Base   time.Duration
	Max    time.Duration
	Factor float64
	Jitter float64

	// rand returns a float in [0, 1). Tests replace it for determinism.
	rand func() float64
}

// New returns a Backoff with DefaultFactor.
func New(base, max time.Duration, jitter float64) *Backoff {
	return &Backoff{
		Base:   base,
		Max:    max,
		Factor: DefaultFactor,
		Jitter: jitter,
		rand:   rand.Float64,
	}
}

// Delay returns how long to wait before running attempt again.
func (b *Backoff) Delay(attempt int) time.Duration {
	if attempt < 1 {
		attempt = 1
	}
	d := float64(b.Base) * math.Pow(b.Factor, float64(attempt-1))
	if d > float64(b.Max) || math.IsInf(d, 0) {
		d = float64(b.Max)
	}
	if b.Jitter > 0 {
		r := rand.Float64
		if b.rand != nil {
			r = b.rand
		}
		spread := d * b.Jitter
		d = d - spread + 2*spread*r()
	}
	if d > float64(b.Max) {
		d = float64(b.Max)
	}
	if d < 0 {
		d = 0
	}
	return time.Duration(d)
}

type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }

// Permanent wraps err so the worker pool dead-letters the job immediately
// instead of scheduling another attempt. Permanent(nil) returns nil.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err: err}
}

// IsPermanent reports whether err, or any error it wraps, was marked Permanent.
func IsPermanent(err error) bool {
	var p *permanentError
	return errors.As(err, &p)
}
