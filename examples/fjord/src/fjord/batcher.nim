## Turns the stream of readings into write batches.
##
## A batch is due when `batchSize` readings are waiting, or when the oldest
## waiting reading has sat for `flushIntervalMs`. While the database is down
## the buffer keeps filling up to `maxBuffered`; past that the oldest readings
## are dropped, because recent telemetry matters more than old telemetry.

import std/deques
import ./reading

type
  Batcher* = object
    batchSize*: int
    flushIntervalMs*: int
    maxBuffered*: int
    pending: Deque[Reading]
    lastFlushAt: float ## epoch seconds
    dropped*: int64

proc initBatcher*(batchSize, flushIntervalMs, maxBuffered: int, now: float): Batcher =
  doAssert batchSize > 0 and maxBuffered >= batchSize
  Batcher(batchSize: batchSize, flushIntervalMs: flushIntervalMs,
          maxBuffered: maxBuffered, pending: initDeque[Reading](batchSize * 2),
          lastFlushAt: now)

proc len*(b: Batcher): int = b.pending.len

proc add*(b: var Batcher, r: sink Reading) =
  if b.pending.len >= b.maxBuffered:
    discard b.pending.popFirst()
    inc b.dropped
  b.pending.addLast(r)

proc flushDue*(b: Batcher, now: float): bool =
  if b.pending.len == 0:
    return false
  b.pending.len >= b.batchSize or
    (now - b.lastFlushAt) * 1000.0 >= b.flushIntervalMs.float

proc take*(b: var Batcher, now: float): seq[Reading] =
  ## Removes and returns up to `batchSize` readings, oldest first.
  let n = min(b.batchSize, b.pending.len)
  result = newSeqOfCap[Reading](n)
  for _ in 0 ..< n:
    result.add b.pending.popFirst()
  b.lastFlushAt = now
