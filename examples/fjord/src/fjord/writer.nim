## Writes batches of readings to TimescaleDB.
##
## Each batch is one multi-row INSERT. A failed INSERT is retried up to
## `writeRetries` more times with backoff; if the database is still away the
## batch is spooled to disk as JSON lines and replayed on the next start.
##
## db_postgres formats parameters on the client side, so the 65535
## bind-parameter limit of the wire protocol does not apply to large batches.

import std/[algorithm, asyncdispatch, os, strutils, times]
import db_connector/db_postgres
import chronicles
import jsony

import ./config
import ./reading
import ./backoff

const SpoolExt = ".jsonl"

type
  WriteResult* = enum
    wrWritten
    wrSpooled

  Writer* = ref object
    db: DbSettings
    opts: WriterSettings
    conn: DbConn
    connected: bool
    written*: int64
    failedBatches*: int64
    spooledBatches*: int64

proc newWriter*(db: DbSettings, opts: WriterSettings): Writer =
  Writer(db: db, opts: opts)

proc isConnected*(w: Writer): bool = w.connected

proc connect*(w: Writer) =
  ## Opens the connection if needed. Raises `DbError` when that fails.
  if w.connected:
    return
  # An empty host/user/password with a URL as "database" lets libpq parse
  # the URL itself (postgresql://user:pass@host:port/db?sslmode=...).
  w.conn = open("", "", "", w.db.url)
  w.conn.exec(sql"SET statement_timeout = ?", $w.db.statementTimeoutMs)
  w.connected = true
  info "connected to database", table = w.db.table

proc disconnect*(w: Writer) =
  if w.connected:
    try:
      w.conn.close()
    except DbError:
      discard
    w.connected = false

proc insertSql(table: string, rows: int): SqlQuery =
  var q = "INSERT INTO " & table & " (time, vessel, sensor, value, unit) VALUES "
  for i in 0 ..< rows:
    if i > 0:
      q.add ", "
    q.add "(to_timestamp(? / 1000.0), ?, ?, ?, ?)"
  # Gateways re-publish after their own reconnects; the unique index on
  # (vessel, sensor, time) makes those duplicates harmless.
  q.add " ON CONFLICT DO NOTHING"
  sql(q)

proc insertBatch(w: Writer, batch: openArray[Reading]) =
  var args = newSeqOfCap[string](batch.len * 5)
  for r in batch:
    args.add $r.tsMs
    args.add r.vessel
    args.add r.sensor
    args.add $r.value
    args.add r.unit
  w.conn.exec(insertSql(w.db.table, batch.len), args)

proc spool(w: Writer, batch: seq[Reading]) =
  createDir(w.opts.spoolDir)
  let name = "batch-" & $getTime().toUnix & "-" & $batch.len & SpoolExt
  let path = w.opts.spoolDir / name
  var f = open(path, fmWrite)
  defer: f.close()
  for r in batch:
    f.writeLine(r.toJson())
  inc w.spooledBatches
  warn "spooled batch to disk", path, rows = batch.len

proc writeBatch*(w: Writer, batch: seq[Reading],
                 spoolOnFailure = true): Future[WriteResult] {.async.} =
  if batch.len == 0:
    return wrWritten
  var bo = initBackoff(w.opts.backoffInitialMs, w.opts.backoffMaxMs,
                       w.opts.backoffMultiplier)
  var attempt = 0
  while true:
    try:
      w.connect()
      w.insertBatch(batch)
      w.written += batch.len
      return wrWritten
    except DbError as e:
      w.disconnect()
      if attempt >= w.opts.writeRetries:
        inc w.failedBatches
        error "giving up on batch", rows = batch.len, attempts = attempt + 1, err = e.msg
        if spoolOnFailure:
          w.spool(batch)
        return wrSpooled
      let delay = bo.nextDelayMs()
      inc attempt
      warn "batch write failed, retrying", attempt, delayMs = delay, err = e.msg
      await sleepAsync(delay)

proc replaySpool*(w: Writer): Future[int] {.async.} =
  ## Writes spooled batches back, oldest first, and deletes each file once it
  ## is in the database. Stops at the first batch that fails again.
  if not dirExists(w.opts.spoolDir):
    return 0
  var files: seq[string]
  for path in walkFiles(w.opts.spoolDir / "batch-*" & SpoolExt):
    files.add path
  files.sort()
  for path in files:
    var batch: seq[Reading]
    for line in lines(path):
      if line.len > 0:
        batch.add line.fromJson(Reading)
    if (await w.writeBatch(batch, spoolOnFailure = false)) != wrWritten:
      warn "spool replay interrupted", remaining = files.len - result
      return
    removeFile(path)
    inc result
  if result > 0:
    info "replayed spooled batches", count = result
