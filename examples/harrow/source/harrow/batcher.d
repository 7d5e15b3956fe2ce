/**
 * Groups log records into batches for the shipper.
 *
 * A batch is closed when it reaches `batch.maxLines` lines or `batch.maxKiB`
 * of payload, or when its oldest record has waited `batch.flushIntervalMs`.
 */
module harrow.batcher;

import core.time : Duration, MonoTime, msecs;

import vibe.core.core : Timer, setTimer;
import vibe.core.log;

import harrow.config : BatchConfig;
import harrow.metrics : Metrics;
import harrow.record : LogRecord;

/// Why a batch was closed; exported as a metric label.
enum FlushReason
{
	lines,
	bytes,
	interval,
	shutdown,
}

struct Batch
{
	ulong id;
	LogRecord[] records;
	size_t bytes;
	FlushReason reason;

	size_t length() const @safe pure nothrow @nogc
	{
		return records.length;
	}
}

alias BatchSink = void delegate(Batch) @safe;

final class Batcher
{
	private
	{
		BatchConfig cfg;
		BatchSink sink;
		Metrics metrics;
		LogRecord[] pending;
		size_t pendingBytes;
		MonoTime oldest;
		ulong nextId = 1;
		Timer ticker;
	}

	this(BatchConfig cfg, BatchSink sink, Metrics metrics = null) @safe
	{
		this.cfg = cfg;
		this.sink = sink;
		this.metrics = metrics;
	}

	/// Starts the timer that closes batches which have waited long enough.
	/// It ticks at a quarter of the flush interval so a batch is never held
	/// much longer than configured.
	void start() @safe
	{
		immutable tick = (cfg.flushIntervalMs / 4 < 20 ? 20 : cfg.flushIntervalMs / 4).msecs;
		ticker = setTimer(tick, () nothrow @safe {
			try
				flushIfDue(MonoTime.currTime);
			catch (Exception e)
				logError("batcher: flush failed: %s", e.msg);
		}, true);
	}

	void stop() @safe
	{
		if (ticker)
			ticker.stop();
		flush(FlushReason.shutdown);
	}

	void add(LogRecord rec) @safe
	{
		if (pending.length == 0)
			oldest = MonoTime.currTime;
		pending ~= rec;
		pendingBytes += rec.encodedSize;
		if (pending.length >= cfg.maxLines)
			flush(FlushReason.lines);
		else if (pendingBytes >= cast(size_t) cfg.maxKiB * 1024)
			flush(FlushReason.bytes);
	}

	/// Closes the pending batch if its oldest record is older than the interval.
	void flushIfDue(MonoTime now) @safe
	{
		if (pending.length && now - oldest >= cfg.flushIntervalMs.msecs)
			flush(FlushReason.interval);
	}

	size_t pendingLines() const @safe pure nothrow @nogc
	{
		return pending.length;
	}

	private void flush(FlushReason reason) @safe
	{
		if (pending.length == 0)
			return;
		auto b = Batch(nextId++, pending, pendingBytes, reason);
		pending = null;
		pendingBytes = 0;
		if (metrics !is null)
			metrics.batchClosed(reason, b.length);
		logDebug("batch %s closed (%s lines, %s bytes, %s)", b.id, b.length, b.bytes, reason);
		sink(b);
	}
}

unittest
{
	import harrow.record : makeRecord;

	Batch[] out_;
	BatchConfig cfg;
	cfg.maxLines = 3;
	cfg.maxKiB = 1024;
	cfg.flushIntervalMs = 200;
	auto b = new Batcher(cfg, (Batch x) @safe { out_ ~= x; });

	foreach (i; 0 .. 7)
		b.add(makeRecord("t", "/t.log", i * 10, "line"));
	assert(out_.length == 2);
	assert(out_[0].length == 3 && out_[0].reason == FlushReason.lines);
	assert(b.pendingLines == 1);

	b.flushIfDue(MonoTime.currTime + 250.msecs);
	assert(out_.length == 3 && out_[2].reason == FlushReason.interval);
	assert(out_[2].id == 3);
}

unittest
{
	import harrow.record : makeRecord;
	import std.array : replicate;

	Batch[] out_;
	BatchConfig cfg;
	cfg.maxLines = 1000;
	cfg.maxKiB = 1;
	auto b = new Batcher(cfg, (Batch x) @safe { out_ ~= x; });
	b.add(makeRecord("t", "/t.log", 0, "x".replicate(2000)));
	assert(out_.length == 1 && out_[0].reason == FlushReason.bytes);
}
