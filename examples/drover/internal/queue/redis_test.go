package queue

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

func newTestQueue(t *testing.T) (*Redis, *miniredis.Miniredis) {
	t.Helper()
	mr := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	t.Cleanup(func() { _ = rdb.Close() })
	return NewRedis(rdb, "drover-test"), mr
}

func TestEnqueueDequeueAck(t *testing.T) {
	ctx := context.Background()
	q, mr := newTestQueue(t)

	job := NewJob("webhook.deliver", json.RawMessage(`{"url":"https://example.com/hook"}`))
	if err := q.Enqueue(ctx, job); err != nil {
		t.Fatalf("Enqueue: %v", err)
	}

	got, err := q.Dequeue(ctx, 100*time.Millisecond)
	if err != nil {
		t.Fatalf("Dequeue: %v", err)
	}
	if got == nil || got.ID != job.ID {
		t.Fatalf("Dequeue returned %+v, want job %s", got, job.ID)
	}
	if n, _ := mr.List("drover-test:processing"); len(n) != 1 {
		t.Fatalf("processing list has %d entries, want 1", len(n))
	}

	if err := q.Ack(ctx, got); err != nil {
		t.Fatalf("Ack: %v", err)
	}
	stats, err := q.Stats(ctx)
	if err != nil {
		t.Fatalf("Stats: %v", err)
	}
	if stats != (Stats{}) {
		t.Errorf("stats after ack = %+v, want all zero", stats)
	}
}

func TestDequeueTimeoutReturnsNil(t *testing.T) {
	q, _ := newTestQueue(t)
	job, err := q.Dequeue(context.Background(), 50*time.Millisecond)
	if err != nil {
		t.Fatalf("Dequeue: %v", err)
	}
	if job != nil {
		t.Fatalf("expected no job, got %+v", job)
	}
}

func TestEnqueueRequiresType(t *testing.T) {
	q, _ := newTestQueue(t)
	if err := q.Enqueue(context.Background(), &Job{}); !errors.Is(err, ErrInvalidJob) {
		t.Fatalf("Enqueue(empty) = %v, want ErrInvalidJob", err)
	}
}

func TestRetryThenPromote(t *testing.T) {
	ctx := context.Background()
	q, _ := newTestQueue(t)

	if err := q.Enqueue(ctx, NewJob("report.render", nil)); err != nil {
		t.Fatal(err)
	}
	job, err := q.Dequeue(ctx, 100*time.Millisecond)
	if err != nil || job == nil {
		t.Fatalf("Dequeue: %v %v", job, err)
	}

	if err := q.Retry(ctx, job, 2*time.Second, errors.New("upstream 503")); err != nil {
		t.Fatalf("Retry: %v", err)
	}
	stats, _ := q.Stats(ctx)
	if stats.Delayed != 1 || stats.Processing != 0 {
		t.Fatalf("stats after retry = %+v", stats)
	}

	// Not due yet.
	if n, err := q.PromoteDue(ctx, time.Now()); err != nil || n != 0 {
		t.Fatalf("PromoteDue(now) = %d, %v; want 0", n, err)
	}
	// Due after the delay.
	if n, err := q.PromoteDue(ctx, time.Now().Add(3*time.Second)); err != nil || n != 1 {
		t.Fatalf("PromoteDue(later) = %d, %v; want 1", n, err)
	}

	again, err := q.Dequeue(ctx, 100*time.Millisecond)
	if err != nil || again == nil {
		t.Fatalf("Dequeue after promote: %v %v", again, err)
	}
	if again.Attempt != 1 || again.LastError != "upstream 503" {
		t.Errorf("retried job = %+v, want attempt 1 with last error", again)
	}
}

func TestDeadLetter(t *testing.T) {
	ctx := context.Background()
	q, mr := newTestQueue(t)

	_ = q.Enqueue(ctx, NewJob("invoice.email", nil))
	job, _ := q.Dequeue(ctx, 100*time.Millisecond)
	if err := q.DeadLetter(ctx, job, errors.New("mailbox does not exist")); err != nil {
		t.Fatalf("DeadLetter: %v", err)
	}
	dead, err := mr.List("drover-test:dead")
	if err != nil || len(dead) != 1 {
		t.Fatalf("dead list = %v, %v", dead, err)
	}
	var parked Job
	if err := json.Unmarshal([]byte(dead[0]), &parked); err != nil {
		t.Fatal(err)
	}
	if parked.LastError != "mailbox does not exist" {
		t.Errorf("LastError = %q", parked.LastError)
	}
}

func TestRequeueInFlight(t *testing.T) {
	ctx := context.Background()
	q, _ := newTestQueue(t)

	for i := 0; i < 3; i++ {
		_ = q.Enqueue(ctx, NewJob("noop", nil))
	}
	for i := 0; i < 2; i++ {
		if j, _ := q.Dequeue(ctx, 100*time.Millisecond); j == nil {
			t.Fatal("expected job")
		}
	}
	n, err := q.RequeueInFlight(ctx)
	if err != nil {
		t.Fatalf("RequeueInFlight: %v", err)
	}
	if n != 2 {
		t.Errorf("requeued %d, want 2", n)
	}
	stats, _ := q.Stats(ctx)
	if stats.Ready != 3 || stats.Processing != 0 {
		t.Errorf("stats = %+v, want 3 ready, 0 processing", stats)
	}
}
