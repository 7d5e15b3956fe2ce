/**
 * Checks the shipped config files and the test fixture against the loader,
 * so a typo in config/*.json fails CI instead of a deploy.
 */
module config_file_test;

import std.algorithm : all, startsWith;
import std.file : readText;

import harrow.config;

@("fixture overrides only what it lists")
unittest
{
	auto cfg = parseConfig(import("harrow.test.json"), "harrow.test.json");
	validate(cfg);
	assert(cfg.status.port == 19001);
	assert(cfg.batch.maxLines == 16);
	assert(cfg.batch.flushIntervalMs == 120);
	assert(cfg.spool.maxMB == 2);
	// Not in the fixture: built-in defaults.
	assert(cfg.batch.maxKiB == defaultMaxKiB);
	assert(cfg.retry.maxElapsedSeconds == defaultMaxElapsedSeconds);
	assert(cfg.tail.pollIntervalMs == defaultTailPollIntervalMs);
}

@("production config is valid and ships over https")
unittest
{
	auto cfg = parseConfig(readText("config/harrow.prod.json"), "harrow.prod.json");
	validate(cfg);
	assert(cfg.collector.url.startsWith("https://"));
	assert(cfg.tail.startAt == "end");
	assert(cfg.sources.all!(s => s.tag.length > 0));
	assert(cfg.log.level == "warn");
}

@("development config is valid and smaller than production")
unittest
{
	auto dev = parseConfig(readText("config/harrow.dev.json"), "harrow.dev.json");
	auto prod = parseConfig(readText("config/harrow.prod.json"), "harrow.prod.json");
	validate(dev);
	assert(dev.batch.maxLines < prod.batch.maxLines);
	assert(dev.spool.maxMB < prod.spool.maxMB);
	assert(dev.retry.maxElapsedSeconds < prod.retry.maxElapsedSeconds);
	assert(dev.status.port != prod.status.port);
}

@("environment wins over the file")
unittest
{
	auto cfg = parseConfig(readText("config/harrow.prod.json"), "harrow.prod.json");
	string[string] env = [
		"HARROW_COLLECTOR_URL": "http://localhost:19002/ingest",
		"HARROW_LOG_LEVEL": "debug",
	];
	applyEnv(cfg, (string k) => env.get(k, null));
	assert(cfg.collector.url == "http://localhost:19002/ingest");
	assert(cfg.log.level == "debug");
	assert(cfg.collector.token is null);
}
