import std/unittest
import fjord/backoff

suite "backoff":
  test "delays stay within [ceiling/2, ceiling]":
    var b = initBackoff(100, 3200, seed = 42)
    var ceiling = 100
    for _ in 0 ..< 8:
      let d = b.nextDelayMs()
      check d >= ceiling div 2
      check d <= ceiling
      ceiling = min(ceiling * 2, 3200)

  test "ceiling is capped at maxMs":
    var b = initBackoff(100, 3200, seed = 7)
    for _ in 0 ..< 20:
      discard b.nextDelayMs()
    check b.ceilingMs == 3200

  test "reset starts over":
    var b = initBackoff(100, 3200, multiplier = 3.0, seed = 7)
    for _ in 0 ..< 4:
      discard b.nextDelayMs()
    b.reset()
    check b.attempt == 0
    check b.ceilingMs == 100
