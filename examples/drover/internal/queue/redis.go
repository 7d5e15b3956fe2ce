package queue

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// deadLetterCap bounds the dead-letter list so a poison producer cannot
// fill Redis. Oldest entries are trimmed first.
const deadLetterCap = 20000

// promoteBatch is the maximum number of delayed jobs moved per PromoteDue call.
const promoteBatch = 500

// promoteScript atomically moves due members of the delayed sorted set onto
// the ready list, so two drover instances never promote the same job twice.
var promoteScript = redis.NewScript(`
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, member in ipairs(due) do
  redis.call('ZREM', KEYS[1], member)
  redis.call('LPUSH', KEYS[2], member)
end
return #due
`)

// Redis implements Queue on plain Redis data structures:
//
//	<name>:ready       LIST   jobs waiting to run (LPUSH in, BLMOVE out from the right)
//	<name>:processing  LIST   jobs currently held by a worker
//	<name>:delayed     ZSET   jobs waiting for their retry time, scored by unix ms
//	<name>:dead        LIST   jobs that exhausted their retries
type Redis struct {
	rdb        redis.UniversalClient
	ready      string
	processing string
	delayed    string
	dead       string
}

// NewRedis returns a queue named name on the given client.
func NewRedis(rdb redis.UniversalClient, name string) *Redis {
	return &Redis{
		rdb:        rdb,
		ready:      name + ":ready",
		processing: name + ":processing",
		delayed:    name + ":delayed",
		dead:       name + ":dead",
	}
}

// Ping reports whether Redis is reachable; used by /readyz.
func (q *Redis) Ping(ctx context.Context) error {
	return q.rdb.Ping(ctx).Err()
}

func (q *Redis) Enqueue(ctx context.Context, job *Job) error {
	if job.Type == "" {
		return ErrInvalidJob
	}
	if job.ID == "" {
		job.ID = newID()
	}
	if job.EnqueuedAt.IsZero() {
		job.EnqueuedAt = time.Now().UTC()
	}
	raw, err := encode(job)
	if err != nil {
		return fmt.Errorf("encode job %s: %w", job.ID, err)
	}
	return q.rdb.LPush(ctx, q.ready, raw).Err()
}

func (q *Redis) Dequeue(ctx context.Context, wait time.Duration) (*Job, error) {
	raw, err := q.rdb.BLMove(ctx, q.ready, q.processing, "RIGHT", "LEFT", wait).Result()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	job, err := decode(raw)
	if err != nil {
		// An undecodable entry would be redelivered forever; park it.
		pipe := q.rdb.TxPipeline()
		pipe.LRem(ctx, q.processing, 1, raw)
		pipe.LPush(ctx, q.dead, raw)
		if _, perr := pipe.Exec(ctx); perr != nil {
			return nil, errors.Join(err, perr)
		}
		return nil, fmt.Errorf("decode job: %w", err)
	}
	return job, nil
}

func (q *Redis) Ack(ctx context.Context, job *Job) error {
	return q.rdb.LRem(ctx, q.processing, 1, job.raw).Err()
}

func (q *Redis) Retry(ctx context.Context, job *Job, delay time.Duration, cause error) error {
	held := job.raw
	job.Attempt++
	if cause != nil {
		job.LastError = cause.Error()
	}
	raw, err := encode(job)
	if err != nil {
		return fmt.Errorf("encode job %s: %w", job.ID, err)
	}
	at := time.Now().Add(delay).UnixMilli()
	_, err = q.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.LRem(ctx, q.processing, 1, held)
		pipe.ZAdd(ctx, q.delayed, redis.Z{Score: float64(at), Member: raw})
		return nil
	})
	if err == nil {
		job.raw = raw
	}
	return err
}

func (q *Redis) DeadLetter(ctx context.Context, job *Job, cause error) error {
	held := job.raw
	if cause != nil {
		job.LastError = cause.Error()
	}
	raw, err := encode(job)
	if err != nil {
		return fmt.Errorf("encode job %s: %w", job.ID, err)
	}
	_, err = q.rdb.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
		pipe.LRem(ctx, q.processing, 1, held)
		pipe.LPush(ctx, q.dead, raw)
		pipe.LTrim(ctx, q.dead, 0, deadLetterCap-1)
		return nil
	})
	return err
}

func (q *Redis) PromoteDue(ctx context.Context, now time.Time) (int, error) {
	n, err := promoteScript.Run(ctx, q.rdb,
		[]string{q.delayed, q.ready},
		strconv.FormatInt(now.UnixMilli(), 10), promoteBatch,
	).Int()
	if err != nil {
		return 0, fmt.Errorf("promote delayed jobs: %w", err)
	}
	return n, nil
}

func (q *Redis) RequeueInFlight(ctx context.Context) (int, error) {
	moved := 0
	for {
		err := q.rdb.LMove(ctx, q.processing, q.ready, "RIGHT", "RIGHT").Err()
		if errors.Is(err, redis.Nil) {
			return moved, nil
		}
		if err != nil {
			return moved, err
		}
		moved++
	}
}

func (q *Redis) Stats(ctx context.Context) (Stats, error) {
	pipe := q.rdb.Pipeline()
	ready := pipe.LLen(ctx, q.ready)
	delayed := pipe.ZCard(ctx, q.delayed)
	processing := pipe.LLen(ctx, q.processing)
	dead := pipe.LLen(ctx, q.dead)
	if _, err := pipe.Exec(ctx); err != nil {
		return Stats{}, err
	}
	return Stats{
		Ready:      ready.Val(),
		Delayed:    delayed.Val(),
		Processing: processing.Val(),
		Dead:       dead.Val(),
	}, nil
}

var _ Queue = (*Redis)(nil)
