import std/unittest
import fjord/[batcher, reading]

proc r(i: int): Reading =
  Reading(vessel: "test", sensor: "depth.below_keel", tsMs: 1_700_000_000_000 + i,
          value: i.float, unit: "m")

suite "batcher":
  test "due when the batch is full":
    var b = initBatcher(batchSize = 3, flushIntervalMs = 200, maxBuffered = 9, now = 0.0)
    b.add r(1)
    b.add r(2)
    check not b.flushDue(0.01)
    b.add r(3)
    check b.flushDue(0.01)
    check b.take(0.01).len == 3
    check b.len == 0

  test "due after the flush interval even if not full":
    var b = initBatcher(batchSize = 3, flushIntervalMs = 200, maxBuffered = 9, now = 0.0)
    b.add r(1)
    check not b.flushDue(0.15)
    check b.flushDue(0.25)

  test "an empty buffer is never due":
    let b = initBatcher(batchSize = 3, flushIntervalMs = 200, maxBuffered = 9, now = 0.0)
    check not b.flushDue(60.0)

  test "take returns at most one batch, oldest first":
    var b = initBatcher(batchSize = 3, flushIntervalMs = 200, maxBuffered = 9, now = 0.0)
    for i in 1 .. 5:
      b.add r(i)
    let first = b.take(1.0)
    check first.len == 3
    check first[0].value == 1.0
    check b.len == 2

  test "drops the oldest readings beyond maxBuffered":
    var b = initBatcher(batchSize = 3, flushIntervalMs = 200, maxBuffered = 4, now = 0.0)
    for i in 1 .. 6:
      b.add r(i)
    check b.len == 4
    check b.dropped == 2
    check b.take(1.0)[0].value == 3.0
