import std/unittest
import fjord/reading

suite "reading decoding":
  test "decodes a well-formed payload":
    let r = decodeReading("solveig",
      """{"sensor":"engine.port.coolant_temp","ts":1718031234567,"value":82.5,"unit":"C"}""")
    check r.vessel == "solveig"
    check r.sensor == "engine.port.coolant_temp"
    check r.tsMs == 1718031234567
    check r.value == 82.5
    check r.unit == "C"

  test "unit is optional":
    let r = decodeReading("kari", """{"sensor":"bilge.aft.level","ts":1,"value":0}""")
    check r.unit == ""

  test "rejects malformed input":
    for payload in [
        """not json""",
        """{"sensor":"","ts":1,"value":1}""",
        """{"sensor":"Engine Temp","ts":1,"value":1}""",
        """{"sensor":"engine.rpm","value":1}""",
        """{"sensor":"engine.rpm","ts":1,"value":1,"unit":"revolutions-per-minute"}"""]:
      expect DecodeError:
        discard decodeReading("kari", payload)

  test "rejects a topic without a vessel id":
    expect DecodeError:
      discard decodeReading("", """{"sensor":"engine.rpm","ts":1,"value":1}""")

  test "rejects oversized payloads":
    var big = newString(MaxPayloadBytes + 1)
    expect DecodeError:
      discard decodeReading("kari", big)
