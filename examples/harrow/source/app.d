/**
 * harrow - tails log files and ships them to an HTTP collector.
 *
 *   harrow --config /etc/harrow/harrow.json
 *   harrow --config config/harrow.dev.json --check
 */
module app;

import core.time : seconds;
import std.getopt;
import std.stdio : stderr, writefln, writeln;

import vibe.core.core : exitEventLoop, runApplication, runTask, setTimer, Timer;
import vibe.core.log;

import harrow.batcher : Batch, Batcher;
import harrow.checkpoint : CheckpointStore;
import harrow.config;
import harrow.metrics : Metrics;
import harrow.shipper : Shipper;
import harrow.spool : Spool;
import harrow.status : startStatusServer;
import harrow.tailer : FileTailer;

enum string harrowVersion = "0.7.2";

/// How often read offsets are written to `tail.checkpointFile`.
enum uint checkpointSaveSeconds = 5;

int main(string[] args)
{
	string configPath;
	bool checkOnly;
	bool showVersion;

	try
	{
		auto opts = getopt(args,
			"config|c", "Path to the JSON config file (built-in defaults when omitted)", &configPath,
			"check", "Validate the configuration and exit", &checkOnly,
			"version", "Print the version and exit", &showVersion);
		if (opts.helpWanted)
		{
			defaultGetoptPrinter("harrow " ~ harrowVersion ~ " - ships log files to an HTTP collector", opts.options);
			return 0;
		}
	}
	catch (GetOptException e)
	{
		stderr.writeln("harrow: ", e.msg);
		return 2;
	}

	if (showVersion)
	{
		writeln("harrow ", harrowVersion);
		return 0;
	}

	HarrowConfig cfg;
	try
		cfg = loadConfig(configPath);
	catch (ConfigException e)
	{
		stderr.writeln("harrow: ", e.msg);
		return 2;
	}

	if (checkOnly)
	{
		writefln("config OK: %s source(s), collector %s, status port %s",
			cfg.sources.length, cfg.collector.url, cfg.status.port);
		return 0;
	}

	setLogLevel(toLogLevel(cfg.log.level));
	logInfo("harrow %s starting with %s source(s)", harrowVersion, cfg.sources.length);

	auto metrics = new Metrics;
	auto spool = new Spool(cfg.spool, metrics);
	auto shipper = new Shipper(cfg.collector, cfg.retry, spool, metrics);
	auto batcher = new Batcher(cfg.batch, (Batch b) @safe { shipper.enqueue(b); }, metrics);
	auto checkpoints = new CheckpointStore(cfg.tail.checkpointFile);

	FileTailer[] tailers;
	foreach (src; cfg.sources)
	{
		auto t = new FileTailer(src, cfg.tail, checkpoints, batcher, metrics);
		tailers ~= t;
		runTask(&t.run);
	}

	shipper.start();
	batcher.start();
	auto listener = startStatusServer(cfg.status, cfg.spool, metrics, shipper);

	auto saver = setTimer(checkpointSaveSeconds.seconds, () nothrow {
		try
			checkpoints.save();
		catch (Exception e)
			logWarn("checkpoint: save failed: %s", e.msg);
	}, true);

	immutable rc = runApplication();

	// SIGINT/SIGTERM: stop reading, flush what is pending, then persist offsets.
	logInfo("harrow shutting down");
	saver.stop();
	foreach (t; tailers)
		t.stop();
	batcher.stop();
	shipper.stop();
	checkpoints.save();
	listener.stopListening();
	return rc;
}

LogLevel toLogLevel(string name)
{
	switch (name)
	{
	case "trace": return LogLevel.trace;
	case "debug": return LogLevel.debug_;
	case "warn": return LogLevel.warn;
	case "error": return LogLevel.error;
	default: return LogLevel.info;
	}
}
