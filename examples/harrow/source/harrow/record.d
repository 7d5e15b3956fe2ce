/**
 * A single log line as it travels from a tailer to the collector.
 */
module harrow.record;

import std.datetime.systime : Clock, SysTime;

import vibe.data.json;

struct LogRecord
{
	/// Tag of the source the line came from (`sources[].tag`).
	string tag;
	/// Absolute path of the file it was read from.
	string path;
	/// Byte offset of the line's first character in that file.
	ulong offset;
	/// When harrow read the line (not when the application wrote it).
	SysTime readAt;
	/// The line without its trailing newline.
	string line;

	/// Size the record adds to a batch body; used for `batch.maxKiB`.
	size_t encodedSize() const @safe pure nothrow
	{
		// Field names, quotes and separators: a generous constant is
		// accurate enough for a size limit.
		return line.length + tag.length + path.length + 96;
	}

	Json toJson() const
	{
		auto j = Json.emptyObject;
		j["tag"] = tag;
		j["path"] = path;
		j["offset"] = offset;
		j["ts"] = readAt.toISOExtString();
		j["line"] = line;
		return j;
	}
}

LogRecord makeRecord(string tag, string path, ulong offset, string line)
{
	return LogRecord(tag, path, offset, Clock.currTime(), line);
}

unittest
{
	auto r = makeRecord("api", "/var/log/api.log", 42, `GET /v1/items 200`);
	auto j = r.toJson();
	assert(j["tag"].get!string == "api");
	assert(j["offset"].get!long == 42);
	assert(r.encodedSize > r.line.length);
}
