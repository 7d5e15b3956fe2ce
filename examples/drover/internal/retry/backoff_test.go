package retry

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestDelayWithoutJitter(t *testing.T) {
	b := New(400*time.Millisecond, 90*time.Second, 0)
	cases := []struct {
		attempt int
		want    time.Duration
	}{
		{0, 400 * time.Millisecond},
		{1, 400 * time.Millisecond},
		{2, 800 * time.Millisecond},
		{3, 1600 * time.Millisecond},
		{6, 12800 * time.Millisecond},
		{8, 51200 * time.Millisecond},
		{9, 90 * time.Second},
		{60, 90 * time.Second},
		{5000, 90 * time.Second},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("attempt_%d", tc.attempt), func(t *testing.T) {
			if got := b.Delay(tc.attempt); got != tc.want {
				t.Errorf("Delay(%d) = %s, want %s", tc.attempt, got, tc.want)
			}
		})
	}
}

func TestDelayJitterBounds(t *testing.T) {
	b := New(time.Second, time.Minute, 0.2)

	b.rand = func() float64 { return 0 }
	if got, want := b.Delay(2), 1600*time.Millisecond; got != want {
		t.Errorf("low jitter: Delay(2) = %s, want %s", got, want)
	}

	b.rand = func() float64 { return 0.999999 }
	if got := b.Delay(2); got < 2390*time.Millisecond || got > 2400*time.Millisecond {
		t.Errorf("high jitter: Delay(2) = %s, want just under 2.4s", got)
	}
}

func TestDelayNeverExceedsMax(t *testing.T) {
	b := New(time.Second, 10*time.Second, 0.5)
	b.rand = func() float64 { return 0.999999 }
	for attempt := 1; attempt < 20; attempt++ {
		if got := b.Delay(attempt); got > 10*time.Second {
			t.Fatalf("Delay(%d) = %s exceeds max", attempt, got)
		}
	}
}

func TestPermanent(t *testing.T) {
	if Permanent(nil) != nil {
		t.Fatal("Permanent(nil) must be nil")
	}
	base := errors.New("422 unprocessable")
	err := fmt.Errorf("deliver webhook: %w", Permanent(base))
	if !IsPermanent(err) {
		t.Error("wrapped permanent error not detected")
	}
	if !errors.Is(err, base) {
		t.Error("Permanent must keep the cause unwrappable")
	}
	if IsPermanent(base) {
		t.Error("plain error reported as permanent")
	}
}
