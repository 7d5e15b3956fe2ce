/**
 * Capped exponential backoff with jitter for failed collector requests.
 */
module harrow.backoff;

import core.time : Duration, msecs, seconds;
import std.algorithm : min;
import std.random : Random, uniform, unpredictableSeed;

import harrow.config : RetryConfig;

struct Backoff
{
	private
	{
		Duration initial;
		Duration cap;
		Duration budget;
		double jitter;
		Random rng;
	}

	this(in RetryConfig cfg, uint seed = unpredictableSeed)
	{
		initial = cfg.initialBackoffMs.msecs;
		cap = cfg.maxBackoffSeconds.seconds;
		budget = cfg.maxElapsedSeconds.seconds;
		jitter = cfg.jitter;
		rng = Random(seed);
	}

	/// Delay before retry number `attempt` (1 = first retry), without jitter:
	/// initial * 2^(attempt-1), capped.
	Duration base(uint attempt) const
	{
		if (attempt == 0)
			return Duration.zero;
		auto d = initial;
		foreach (_; 1 .. attempt)
		{
			d *= 2;
			if (d >= cap)
				return cap;
		}
		return min(d, cap);
	}

	/// `base(attempt)` spread by +/- jitter.
	Duration delay(uint attempt)
	{
		auto b = base(attempt);
		if (jitter == 0 || b == Duration.zero)
			return b;
		immutable factor = uniform(1.0 - jitter, 1.0 + jitter, rng);
		return (cast(long)(b.total!"msecs" * factor)).msecs;
	}

	/// True once `elapsed` has used up `retry.maxElapsedSeconds`; the batch
	/// should then be handed to the spool instead of being retried again.
	bool exhausted(Duration elapsed) const
	{
		return elapsed >= budget;
	}
}

unittest
{
	RetryConfig cfg;
	cfg.initialBackoffMs = 500;
	cfg.maxBackoffSeconds = 6;
	cfg.maxElapsedSeconds = 60;
	cfg.jitter = 0;
	auto b = Backoff(cfg, 1);
	assert(b.base(1) == 500.msecs);
	assert(b.base(2) == 1000.msecs);
	assert(b.base(4) == 4000.msecs);
	assert(b.base(5) == 6.seconds); // capped
	assert(b.base(40) == 6.seconds);
	assert(!b.exhausted(59.seconds));
	assert(b.exhausted(60.seconds));
}

unittest
{
	RetryConfig cfg;
	cfg.initialBackoffMs = 1000;
	cfg.jitter = 0.5;
	auto b = Backoff(cfg, 7);
	foreach (_; 0 .. 100)
	{
		auto d = b.delay(1);
		assert(d >= 500.msecs && d <= 1500.msecs);
	}
}
