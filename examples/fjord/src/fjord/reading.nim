## A single sensor reading: wire format and decoding.
##
## Gateways (Signal K / NMEA 2000 bridges) publish one JSON object per
## message on `vessels/<vessel-id>/...`:
##
## .. code-block:: json
##   {"sensor": "engine.port.coolant_temp", "ts": 1718031234567, "value": 82.5, "unit": "C"}
##
## `ts` is milliseconds since the Unix epoch. The vessel id comes from the
## topic, never from the payload.

import std/[math, strutils]
import jsony

const
  MaxPayloadBytes* = 16_384
  MaxSensorNameLen* = 128
  MaxUnitLen* = 16
  SensorNameChars = {'a'..'z', '0'..'9', '_', '.', '-'}

type
  Reading* = object
    vessel*: string
    sensor*: string
    tsMs*: int64
    value*: float
    unit*: string

  WireReading = object
    sensor: string
    ts: int64
    value: float
    unit: string

  DecodeError* = object of ValueError

proc fail(msg: string) {.noreturn.} =
  raise newException(DecodeError, msg)

proc decodeReading*(vessel, payload: string): Reading =
  ## Raises `DecodeError` for anything we would not want in the table.
  if vessel.len == 0:
    fail "topic carries no vessel id"
  if payload.len > MaxPayloadBytes:
    fail "payload too large: " & $payload.len & " bytes"
  var wire: WireReading
  try:
    wire = payload.fromJson(WireReading)
  except JsonError as e:
    fail "malformed JSON: " & e.msg
  if wire.sensor.len == 0 or wire.sensor.len > MaxSensorNameLen or
      not wire.sensor.allCharsInSet(SensorNameChars):
    fail "bad sensor name: " & wire.sensor.escape
  if wire.ts <= 0:
    fail "missing or non-positive ts"
  if wire.value.classify in {fcNan, fcInf, fcNegInf}:
    fail "value is not a finite number"
  if wire.unit.len > MaxUnitLen:
    fail "unit longer than " & $MaxUnitLen & " bytes"
  Reading(vessel: vessel, sensor: wire.sensor, tsMs: wire.ts,
          value: wire.value, unit: wire.unit)
