import std/unittest
import fjord/topics

suite "topic filters":
  test "single-level wildcard captures the vessel id":
    let p = parsePattern("vessels/+/n2k/#")
    check p.matches("vessels/solveig/n2k/engine/port")
    check p.vesselOf("vessels/solveig/n2k/engine/port") == "solveig"
    check not p.matches("vessels/solveig/ais/123456789")

  test "'#' also matches the parent level":
    let p = parsePattern("vessels/+/n2k/#")
    check p.matches("vessels/solveig/n2k")
    check not p.matches("vessels/solveig")

  test "'+' matches exactly one level":
    let p = parsePattern("vessels/+/bilge/+")
    check p.matches("vessels/kari/bilge/aft")
    check not p.matches("vessels/kari/bilge")
    check not p.matches("vessels/kari/bilge/aft/extra")
    check p.captures("vessels/kari/bilge/aft") == @["kari", "aft"]

  test "empty levels are levels too":
    let p = parsePattern("vessels/+/bilge/+")
    check p.matches("vessels//bilge/fwd")
    check p.vesselOf("vessels//bilge/fwd") == ""

  test "wildcards do not match $-topics":
    check not parsePattern("#").matches("$SYS/broker/uptime")
    check not parsePattern("+/broker/uptime").matches("$SYS/broker/uptime")
    check parsePattern("$SYS/#").matches("$SYS/broker/uptime")

  test "topic names containing wildcards never match":
    check not parsePattern("vessels/#").matches("vessels/+/n2k")

  test "invalid filters are rejected":
    for bad in ["", "vessels/#/n2k", "vessels/a+/n2k", "vessels/#x"]:
      expect TopicError:
        discard parsePattern(bad)
