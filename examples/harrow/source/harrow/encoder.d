/**
 * Turns a batch into the request body the collector expects: one JSON
 * object per line (NDJSON), optionally gzip-compressed.
 */
module harrow.encoder;

import std.array : appender;
import std.zlib : Compress, HeaderFormat, UnCompress;

import harrow.batcher : Batch;

struct EncodedBody
{
	immutable(ubyte)[] data;
	string contentType = "application/x-ndjson";
	/// "gzip" or null when the body is sent uncompressed.
	string contentEncoding;
	size_t rawSize;
}

/// Encodes `b`. `gzipLevel` 0 sends plain NDJSON.
EncodedBody encode(in Batch b, int gzipLevel)
{
	auto buf = appender!(char[]);
	buf.reserve(b.bytes);
	foreach (ref r; b.records)
	{
		buf.put(r.toJson().toString());
		buf.put('\n');
	}
	auto raw = cast(immutable(ubyte)[]) buf.data.idup;

	EncodedBody body_;
	body_.rawSize = raw.length;
	if (gzipLevel == 0)
	{
		body_.data = raw;
		return body_;
	}
	auto c = new Compress(gzipLevel, HeaderFormat.gzip);
	auto packed = cast(const(ubyte)[]) c.compress(raw);
	packed ~= cast(const(ubyte)[]) c.flush();
	body_.data = packed.idup;
	body_.contentEncoding = "gzip";
	return body_;
}

unittest
{
	import std.algorithm : count;
	import harrow.record : makeRecord;

	Batch b;
	b.records = [
		makeRecord("api", "/a.log", 0, "first"),
		makeRecord("api", "/a.log", 6, `quoted "second"`),
	];
	auto plain = encode(b, 0);
	assert(plain.contentEncoding is null);
	assert((cast(string) plain.data).count('\n') == 2);

	auto gz = encode(b, 6);
	assert(gz.contentEncoding == "gzip");
	assert(gz.rawSize == plain.data.length);
	auto u = new UnCompress(HeaderFormat.gzip);
	auto back = cast(const(ubyte)[]) u.uncompress(gz.data.dup);
	back ~= cast(const(ubyte)[]) u.flush();
	assert(back == plain.data);
}
