## Exponential backoff with "equal jitter": the n-th delay is drawn from
## [ceiling/2, ceiling] where ceiling = min(max, initial * multiplier^n).
##
## Used both for database write retries (writer.nim) and for MQTT reconnects
## (mqtt_client.nim), so that a fleet of gateways coming back after a shore
## power cut does not hammer the broker in lockstep.

import std/[math, random]

type
  Backoff* = object
    initialMs*: int
    maxMs*: int
    multiplier*: float
    attempt*: int
    rng: Rand

proc initBackoff*(initialMs, maxMs: int, multiplier = 2.0, seed = 0'i64): Backoff =
  ## A `seed` of 0 seeds from the clock; tests pass a fixed seed.
  doAssert initialMs > 0, "initialMs must be positive"
  doAssert maxMs >= initialMs, "maxMs must be >= initialMs"
  doAssert multiplier >= 1.0, "multiplier must be >= 1.0"
  result = Backoff(initialMs: initialMs, maxMs: maxMs, multiplier: multiplier)
  result.rng = if seed == 0: initRand() else: initRand(seed)

proc ceilingMs*(b: Backoff): int =
  ## Upper bound of the next delay, before jitter.
  let raw = b.initialMs.float * pow(b.multiplier, b.attempt.float)
  if raw >= b.maxMs.float: b.maxMs else: raw.int

proc nextDelayMs*(b: var Backoff): int =
  let ceiling = b.ceilingMs
  let half = ceiling div 2
  result = half + b.rng.rand(ceiling - half)
  inc b.attempt

proc reset*(b: var Backoff) =
  b.attempt = 0
