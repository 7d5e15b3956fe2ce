/**
 * Spool behaviour on a real directory: ordering, size accounting and
 * dropping the oldest batches once spool.maxMB is exceeded.
 */
module spool_test;

import std.conv : to;
import std.file : exists, mkdirRecurse, rmdirRecurse, tempDir;
import std.path : baseName, buildPath;
import std.process : thisProcessID;

import harrow.config : SpoolConfig;
import harrow.encoder : EncodedBody;
import harrow.metrics : Metrics;
import harrow.spool : Spool;

private string freshDir(string name)
{
	auto dir = buildPath(tempDir, "harrow-" ~ name ~ "-" ~ thisProcessID.to!string);
	if (exists(dir))
		rmdirRecurse(dir);
	mkdirRecurse(dir);
	return dir;
}

private EncodedBody bodyOf(size_t n, bool gzip = true)
{
	EncodedBody b;
	b.data = new immutable(ubyte)[](n);
	b.contentEncoding = gzip ? "gzip" : null;
	return b;
}

@("entries come back oldest first")
unittest
{
	auto dir = freshDir("order");
	scope (exit) rmdirRecurse(dir);

	auto s = new Spool(SpoolConfig(dir, 1));
	foreach (id; 1 .. 4)
		s.put(id, bodyOf(100, id != 2));
	auto list = s.entries();
	assert(list.length == 3);
	assert(!list[1].gzip && list[0].gzip);
	assert(s.bytesUsed == 300);

	s.remove(list[0]);
	assert(s.entries().length == 2);
	assert(s.bytesUsed == 200);
}

@("oldest batches are dropped above maxMB")
unittest
{
	auto dir = freshDir("trim");
	scope (exit) rmdirRecurse(dir);

	auto m = new Metrics;
	auto s = new Spool(SpoolConfig(dir, 1), m); // 1 MB
	foreach (id; 1 .. 6)
		s.put(id, bodyOf(300 * 1024)); // 5 x 300 KiB
	assert(s.bytesUsed <= 1024 * 1024);
	assert(s.entries().length == 3);
	assert(m.spoolBytesUsed == s.bytesUsed);
}

@("existing files are counted on start")
unittest
{
	auto dir = freshDir("reopen");
	scope (exit) rmdirRecurse(dir);

	auto a = new Spool(SpoolConfig(dir, 4));
	a.put(7, bodyOf(2048));
	auto b = new Spool(SpoolConfig(dir, 4));
	assert(b.bytesUsed == 2048);
	assert(b.entries().length == 1);
}
