/**
 * Loads harrow's JSON configuration.
 *
 * Every key is optional: a value missing from the file keeps the built-in
 * default declared below. Environment variables are applied last, so a
 * container can point at another collector without a new config file.
 */
module harrow.config;

import std.algorithm : among, canFind;
import std.conv : to, ConvException;
import std.exception : enforce;
import std.file : exists, readText;
import std.format : format;
import std.process : environment;
import std.string : startsWith;

import vibe.data.json;

// --- built-in defaults -------------------------------------------------------

/// Address the status server (/healthz, /readyz, /metrics) binds to.
enum string defaultStatusBind = "127.0.0.1";
/// Port of the status server when `status.port` is not configured.
enum ushort defaultStatusPort = 9614;

/// Collector endpoint batches are POSTed to.
enum string defaultCollectorUrl = "http://127.0.0.1:7071/ingest";
/// Name of the environment variable holding the collector bearer token.
enum string defaultTokenEnv = "HARROW_COLLECTOR_TOKEN";
/// How long a single POST may take before the attempt counts as failed.
enum uint defaultRequestTimeoutSeconds = 17;
/// zlib level used to compress batch bodies (0 disables compression).
enum int defaultGzipLevel = 6;

/// A batch is flushed once it holds this many lines ...
enum uint defaultMaxLines = 1750;
/// ... or this many KiB of encoded payload ...
enum uint defaultMaxKiB = 896;
/// ... or when its oldest line has waited this long, whichever comes first.
enum uint defaultFlushIntervalMs = 2300;

/// Delay before the first retry of a failed batch.
enum uint defaultInitialBackoffMs = 650;
/// Upper bound for the delay between two attempts.
enum uint defaultMaxBackoffSeconds = 75;
/// After this long the batch stops being retried and goes to the spool.
enum uint defaultMaxElapsedSeconds = 510;
/// Retry delays are spread by +/- this fraction.
enum double defaultJitter = 0.2;

/// Directory holding batches that could not be delivered.
enum string defaultSpoolDir = "/var/lib/harrow/spool";
/// Once the spool exceeds this size the oldest batches are dropped.
enum uint defaultSpoolMaxMB = 384;

/// How often each tailed file is checked for new data and rotation.
enum uint defaultTailPollIntervalMs = 250;
/// Where read offsets are persisted between restarts.
enum string defaultCheckpointFile = "/var/lib/harrow/offsets.json";
/// Where to start reading a file harrow has never seen: "beginning" or "end".
enum string defaultStartAt = "end";

/// One of trace, debug, info, warn, error.
enum string defaultLogLevel = "info";

// --- configuration structs ---------------------------------------------------

struct StatusConfig
{
	string bind = defaultStatusBind;
	ushort port = defaultStatusPort;
}

struct CollectorConfig
{
	string url = defaultCollectorUrl;
	string tokenEnv = defaultTokenEnv;
	/// Filled from the environment variable named by `tokenEnv`, never from the file.
	string token;
	uint requestTimeoutSeconds = defaultRequestTimeoutSeconds;
	int gzipLevel = defaultGzipLevel;
}

struct BatchConfig
{
	uint maxLines = defaultMaxLines;
	uint maxKiB = defaultMaxKiB;
	uint flushIntervalMs = defaultFlushIntervalMs;
}

struct RetryConfig
{
	uint initialBackoffMs = defaultInitialBackoffMs;
	uint maxBackoffSeconds = defaultMaxBackoffSeconds;
	uint maxElapsedSeconds = defaultMaxElapsedSeconds;
	double jitter = defaultJitter;
}

struct SpoolConfig
{
	string dir = defaultSpoolDir;
	uint maxMB = defaultSpoolMaxMB;

	ulong maxBytes() const @safe pure nothrow @nogc
	{
		return cast(ulong) maxMB * 1024 * 1024;
	}
}

struct TailConfig
{
	uint pollIntervalMs = defaultTailPollIntervalMs;
	string checkpointFile = defaultCheckpointFile;
	string startAt = defaultStartAt;
}

struct SourceConfig
{
	string path;
	string tag;
}

struct LogConfig
{
	string level = defaultLogLevel;
}

struct HarrowConfig
{
	StatusConfig status;
	CollectorConfig collector;
	BatchConfig batch;
	RetryConfig retry;
	SpoolConfig spool;
	TailConfig tail;
	SourceConfig[] sources;
	LogConfig log;
}

class ConfigException : Exception
{
	this(string msg, string file = __FILE__, size_t line = __LINE__) @safe pure nothrow
	{
		super(msg, file, line);
	}
}

// --- loading -----------------------------------------------------------------

/// Reads `path` (if non-empty) on top of the defaults, applies the
/// environment and validates the result.
HarrowConfig loadConfig(string path)
{
	string text;
	if (path.length)
	{
		if (!exists(path))
			throw new ConfigException(format("config file %s does not exist", path));
		text = readText(path);
	}
	auto cfg = parseConfig(text, path.length ? path : "<defaults>");
	applyEnv(cfg, (string name) => environment.get(name));
	cfg.validate();
	return cfg;
}

/// Parses a JSON document into a config. An empty string yields the defaults.
HarrowConfig parseConfig(string text, string origin = "<string>")
{
	HarrowConfig cfg;
	if (text.length == 0)
		return cfg;

	Json root;
	try
		root = parseJsonString(text, origin);
	catch (JSONException e)
		throw new ConfigException(format("%s: %s", origin, e.msg));

	if (root.type != Json.Type.object)
		throw new ConfigException(origin ~ ": top level must be an object");

	foreach (string key, value; root)
	{
		if (!key.among("status", "collector", "batch", "retry", "spool", "tail", "sources", "log"))
			throw new ConfigException(format("%s: unknown section %s", origin, key));
	}

	auto status = section(root, "status");
	read(status, "bind", cfg.status.bind);
	read(status, "port", cfg.status.port);

	auto collector = section(root, "collector");
	read(collector, "url", cfg.collector.url);
	read(collector, "tokenEnv", cfg.collector.tokenEnv);
	read(collector, "requestTimeoutSeconds", cfg.collector.requestTimeoutSeconds);
	read(collector, "gzipLevel", cfg.collector.gzipLevel);

	auto batch = section(root, "batch");
	read(batch, "maxLines", cfg.batch.maxLines);
	read(batch, "maxKiB", cfg.batch.maxKiB);
	read(batch, "flushIntervalMs", cfg.batch.flushIntervalMs);

	auto retry = section(root, "retry");
	read(retry, "initialBackoffMs", cfg.retry.initialBackoffMs);
	read(retry, "maxBackoffSeconds", cfg.retry.maxBackoffSeconds);
	read(retry, "maxElapsedSeconds", cfg.retry.maxElapsedSeconds);
	read(retry, "jitter", cfg.retry.jitter);

	auto spool = section(root, "spool");
	read(spool, "dir", cfg.spool.dir);
	read(spool, "maxMB", cfg.spool.maxMB);

	auto tail = section(root, "tail");
	read(tail, "pollIntervalMs", cfg.tail.pollIntervalMs);
	read(tail, "checkpointFile", cfg.tail.checkpointFile);
	read(tail, "startAt", cfg.tail.startAt);

	auto log = section(root, "log");
	read(log, "level", cfg.log.level);

	if (auto sources = "sources" in root)
	{
		if (sources.type != Json.Type.array)
			throw new ConfigException(origin ~ ": sources must be an array");
		foreach (src; *sources)
		{
			SourceConfig s;
			read(src, "path", s.path);
			read(src, "tag", s.tag);
			cfg.sources ~= s;
		}
	}
	return cfg;
}

private Json section(Json root, string name)
{
	auto p = name in root;
	if (p is null)
		return Json.emptyObject;
	if (p.type != Json.Type.object)
		throw new ConfigException(name ~ " must be an object");
	return *p;
}

private void read(T)(Json obj, string key, ref T target)
{
	auto p = key in obj;
	if (p is null || p.type == Json.Type.null_)
		return;
	try
	{
		static if (is(T == string))
			target = p.get!string;
		else static if (is(T == double))
			target = p.type == Json.Type.int_ ? p.get!long.to!double : p.get!double;
		else
			target = p.get!long.to!T;
	}
	catch (Exception e)
		throw new ConfigException(format("%s: %s", key, e.msg));
}

/// Environment overrides. `lookup` returns null for unset variables.
void applyEnv(ref HarrowConfig cfg, scope string delegate(string) lookup)
{
	if (auto v = lookup("HARROW_COLLECTOR_URL"))
		cfg.collector.url = v;
	if (auto v = lookup("HARROW_STATUS_PORT"))
	{
		try
			cfg.status.port = v.to!ushort;
		catch (ConvException)
			throw new ConfigException("HARROW_STATUS_PORT is not a port number: " ~ v);
	}
	if (auto v = lookup("HARROW_LOG_LEVEL"))
		cfg.log.level = v;
	if (auto v = lookup(cfg.collector.tokenEnv))
		cfg.collector.token = v;
}

/// Rejects configurations harrow cannot run with.
void validate(const ref HarrowConfig cfg)
{
	string[] errs;
	if (!cfg.collector.url.startsWith("http://", "https://"))
		errs ~= "collector.url must be an http(s) URL, got " ~ cfg.collector.url;
	if (cfg.collector.requestTimeoutSeconds == 0)
		errs ~= "collector.requestTimeoutSeconds must be > 0";
	if (cfg.collector.gzipLevel < 0 || cfg.collector.gzipLevel > 9)
		errs ~= format("collector.gzipLevel must be 0..9, got %s", cfg.collector.gzipLevel);
	if (cfg.batch.maxLines == 0)
		errs ~= "batch.maxLines must be > 0";
	if (cfg.batch.flushIntervalMs < 50)
		errs ~= format("batch.flushIntervalMs must be >= 50, got %s", cfg.batch.flushIntervalMs);
	if (cfg.retry.jitter < 0 || cfg.retry.jitter >= 1)
		errs ~= format("retry.jitter must be in [0, 1), got %s", cfg.retry.jitter);
	if (cfg.retry.maxElapsedSeconds * 1000 < cfg.retry.initialBackoffMs)
		errs ~= "retry.maxElapsedSeconds is shorter than the first backoff";
	if (cfg.spool.maxMB == 0)
		errs ~= "spool.maxMB must be > 0";
	if (!cfg.tail.startAt.among("beginning", "end"))
		errs ~= "tail.startAt must be \"beginning\" or \"end\", got " ~ cfg.tail.startAt;
	if (!["trace", "debug", "info", "warn", "error"].canFind(cfg.log.level))
		errs ~= "log.level is not a known level: " ~ cfg.log.level;
	if (cfg.sources.length == 0)
		errs ~= "at least one entry in sources is required";
	foreach (i, s; cfg.sources)
		if (s.path.length == 0)
			errs ~= format("sources[%s].path must not be empty", i);

	if (errs.length)
	{
		import std.array : join;
		throw new ConfigException("invalid configuration:\n  " ~ errs.join("\n  "));
	}
}

// --- tests -------------------------------------------------------------------

unittest
{
	auto cfg = parseConfig("");
	assert(cfg.status.port == defaultStatusPort);
	assert(cfg.batch.maxLines == defaultMaxLines);
	assert(cfg.batch.flushIntervalMs == defaultFlushIntervalMs);
	assert(cfg.retry.maxElapsedSeconds == defaultMaxElapsedSeconds);
	assert(cfg.spool.maxBytes == cast(ulong) defaultSpoolMaxMB << 20);
}

unittest
{
	// Keys that are left out keep their defaults.
	auto cfg = parseConfig(`{"batch": {"maxLines": 99}, "sources": [{"path": "/x.log"}]}`);
	assert(cfg.batch.maxLines == 99);
	assert(cfg.batch.maxKiB == defaultMaxKiB);
	assert(cfg.sources.length == 1 && cfg.sources[0].path == "/x.log");
}

unittest
{
	import std.exception : assertThrown;
	assertThrown!ConfigException(parseConfig(`{"batchh": {}}`));
	assertThrown!ConfigException(parseConfig(`{"batch": {"maxLines": "lots"}}`));
}

unittest
{
	auto cfg = parseConfig(`{"sources": [{"path": "/a.log"}]}`);
	string[string] env = ["HARROW_STATUS_PORT": "9700", "HARROW_COLLECTOR_TOKEN": "s3cret"];
	applyEnv(cfg, (string k) => env.get(k, null));
	assert(cfg.status.port == 9700);
	assert(cfg.collector.token == "s3cret");
	assert(cfg.collector.url == defaultCollectorUrl);
	validate(cfg);
}
