/**
 * Process-wide counters, rendered in the Prometheus text format on
 * `/metrics` by the status server.
 */
module harrow.metrics;

import std.array : appender;
import std.conv : to;
import std.format : formattedWrite;

import harrow.batcher : FlushReason;

final class Metrics
{
	private
	{
		ulong[string] linesRead;        // by source tag
		ulong[string] rotations;        // by source tag
		ulong[FlushReason] batches;     // by close reason
		ulong linesBatched;
		ulong batchesShipped;
		ulong batchesFailed;
		ulong retries;
		ulong bytesShipped;
		ulong spoolUsed;
		ulong spoolDroppedBytes;
		ulong spoolDroppedFiles;
		double lastShipSeconds = 0;
	}

	void lineRead(string tag) @safe nothrow { linesRead[tag]++; }
	void rotated(string tag) @safe nothrow { rotations[tag]++; }

	void batchClosed(FlushReason r, size_t lines) @safe nothrow
	{
		batches[r]++;
		linesBatched += lines;
	}

	void shipped(size_t bytes, double seconds) @safe nothrow
	{
		batchesShipped++;
		bytesShipped += bytes;
		lastShipSeconds = seconds;
	}

	void shipFailed() @safe nothrow { batchesFailed++; }
	void retried() @safe nothrow { retries++; }
	void spoolBytes(ulong n) @safe nothrow { spoolUsed = n; }

	void spoolDropped(ulong bytes) @safe nothrow
	{
		spoolDroppedFiles++;
		spoolDroppedBytes += bytes;
	}

	ulong spoolBytesUsed() const @safe nothrow { return spoolUsed; }

	string render() const @safe
	{
		auto w = appender!string;
		void counter(string name, string help)
		{
			w.formattedWrite("# HELP %s %s\n# TYPE %s counter\n", name, help, name);
		}

		counter("harrow_lines_read_total", "Lines read from tailed files.");
		foreach (tag, n; linesRead)
			w.formattedWrite("harrow_lines_read_total{source=\"%s\"} %s\n", tag, n);
		counter("harrow_rotations_total", "Log rotations or truncations detected.");
		foreach (tag, n; rotations)
			w.formattedWrite("harrow_rotations_total{source=\"%s\"} %s\n", tag, n);
		counter("harrow_batches_total", "Batches closed, by reason.");
		foreach (r, n; batches)
			w.formattedWrite("harrow_batches_total{reason=\"%s\"} %s\n", r.to!string, n);
		counter("harrow_batches_shipped_total", "Batches accepted by the collector.");
		w.formattedWrite("harrow_batches_shipped_total %s\n", batchesShipped);
		counter("harrow_batches_failed_total", "Batches that ran out of retries.");
		w.formattedWrite("harrow_batches_failed_total %s\n", batchesFailed);
		counter("harrow_retries_total", "Collector requests that were retried.");
		w.formattedWrite("harrow_retries_total %s\n", retries);
		counter("harrow_shipped_bytes_total", "Compressed bytes sent to the collector.");
		w.formattedWrite("harrow_shipped_bytes_total %s\n", bytesShipped);
		counter("harrow_spool_dropped_bytes_total", "Spooled bytes deleted to stay under spool.maxMB.");
		w.formattedWrite("harrow_spool_dropped_bytes_total %s\n", spoolDroppedBytes);
		w.put("# HELP harrow_spool_bytes Bytes currently waiting in the spool.\n# TYPE harrow_spool_bytes gauge\n");
		w.formattedWrite("harrow_spool_bytes %s\n", spoolUsed);
		w.put("# HELP harrow_last_ship_seconds Duration of the last successful POST.\n# TYPE harrow_last_ship_seconds gauge\n");
		w.formattedWrite("harrow_last_ship_seconds %.3f\n", lastShipSeconds);
		return w.data;
	}
}

unittest
{
	import std.algorithm : canFind;

	auto m = new Metrics;
	m.lineRead("api");
	m.lineRead("api");
	m.batchClosed(FlushReason.interval, 2);
	m.spoolBytes(4096);
	auto text = m.render();
	assert(text.canFind(`harrow_lines_read_total{source="api"} 2`));
	assert(text.canFind(`harrow_batches_total{reason="interval"} 1`));
	assert(text.canFind("harrow_spool_bytes 4096"));
}
