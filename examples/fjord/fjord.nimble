# Package

version = "0.7.3"
author = "Ingrid Solberg"
description = "Ingests boat sensor telemetry from MQTT into TimescaleDB"
license = "MIT"
srcDir = "src"
bin = @["fjord"]


# Dependencies

requires "nim >= 2.0.4"
requires "nmqtt == 1.0.6"
requires "db_connector >= 0.1.0"
requires "chronicles == 0.10.3"
requires "jsony == 1.1.5"
requires "parsetoml == 0.7.1"


# Tasks

task test, "Run the unit tests":
  for file in listFiles("tests"):
    let (_, name, ext) = splitFile(file)
    if ext == ".nim" and name.startsWith("t"):
      exec "nim c -r --hints:off " & file

task fmt, "Format the sources with nimpretty":
  for dir in ["src", "src/fjord", "tests"]:
    for file in listFiles(dir):
      if file.endsWith(".nim"):
        exec "nimpretty --maxLineLen:100 --indent:2 " & file
