/**
 * On-disk spool for batches the collector would not take.
 *
 * Each undeliverable batch is written as one file. When the spool grows past
 * `spool.maxMB` the oldest files are deleted (and counted as dropped), so a
 * long collector outage costs the oldest logs rather than the disk.
 * The shipper replays spooled files, oldest first, once deliveries succeed
 * again.
 */
module harrow.spool;

import std.algorithm : sort, startsWith, endsWith;
import std.array : array;
import std.conv : to;
import std.datetime.systime : Clock;
import std.file;
import std.format : format;
import std.path : baseName, buildPath;

import vibe.core.log;

import harrow.config : SpoolConfig;
import harrow.encoder : EncodedBody;
import harrow.metrics : Metrics;

struct SpoolEntry
{
	string path;
	ulong size;
	bool gzip;
}

final class Spool
{
	private
	{
		string dir;
		ulong maxBytes;
		ulong used;
		Metrics metrics;
	}

	this(in SpoolConfig cfg, Metrics metrics = null)
	{
		dir = cfg.dir;
		maxBytes = cfg.maxBytes;
		this.metrics = metrics;
		mkdirRecurse(dir);
		foreach (e; entries())
			used += e.size;
		if (used)
			logInfo("spool: %s bytes waiting in %s", used, dir);
		report();
	}

	/// Writes `body_` for batch `id`, then trims the spool to its size limit.
	void put(ulong id, in EncodedBody body_)
	{
		immutable name = format("%013d-%08d.ndjson%s", Clock.currStdTime / 10_000, id,
			body_.contentEncoding == "gzip" ? ".gz" : "");
		immutable tmp = buildPath(dir, "." ~ name ~ ".tmp");
		write(tmp, body_.data);
		rename(tmp, buildPath(dir, name));
		used += body_.data.length;
		trim();
		report();
	}

	/// Spooled batches, oldest first (file names start with a timestamp).
	SpoolEntry[] entries()
	{
		SpoolEntry[] list;
		foreach (DirEntry de; dirEntries(dir, SpanMode.shallow))
		{
			auto n = baseName(de.name);
			if (!de.isFile || n.startsWith(".") || !(n.endsWith(".ndjson") || n.endsWith(".ndjson.gz")))
				continue;
			list ~= SpoolEntry(de.name, de.size, n.endsWith(".gz"));
		}
		list.sort!((a, b) => baseName(a.path) < baseName(b.path));
		return list;
	}

	/// Removes an entry after it has been delivered.
	void remove(in SpoolEntry e)
	{
		if (exists(e.path))
		{
			std.file.remove(e.path);
			used = used > e.size ? used - e.size : 0;
		}
		report();
	}

	ulong bytesUsed() const @safe pure nothrow @nogc
	{
		return used;
	}

	private void trim()
	{
		if (used <= maxBytes)
			return;
		foreach (e; entries())
		{
			if (used <= maxBytes)
				break;
			logWarn("spool: over %s bytes, dropping %s", maxBytes, baseName(e.path));
			std.file.remove(e.path);
			used -= e.size;
			if (metrics !is null)
				metrics.spoolDropped(e.size);
		}
	}

	private void report()
	{
		if (metrics !is null)
			metrics.spoolBytes(used);
	}
}
