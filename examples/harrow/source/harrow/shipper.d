/**
 * Sends closed batches to the collector over HTTP.
 *
 * Batches are queued and POSTed one at a time, in order. A failed request
 * (connection error, timeout, 429 or 5xx) is retried with capped exponential
 * backoff until `retry.maxElapsedSeconds` have passed; then the batch is
 * written to the spool. Other 4xx answers are not retried: the batch is
 * spooled straight away, since sending it again would not help.
 */
module harrow.shipper;

import core.time : Duration, MonoTime, seconds;
import std.conv : to;
import std.file : read;
import std.format : format;

import vibe.core.channel;
import vibe.core.core : runTask, sleep, Task;
import vibe.core.log;
import vibe.http.client;
import vibe.http.common : HTTPMethod;
import vibe.stream.operations : readAllUTF8;

import harrow.backoff : Backoff;
import harrow.batcher : Batch;
import harrow.config : CollectorConfig, RetryConfig;
import harrow.encoder : EncodedBody, encode;
import harrow.metrics : Metrics;
import harrow.spool : Spool, SpoolEntry;

/// Batches waiting to be sent; when full, `enqueue` blocks the tailers,
/// which is the back-pressure that keeps memory bounded.
enum size_t queueCapacity = 64;

/// User-Agent sent with every request.
enum string userAgent = "harrow/0.7.2 (+https://github.com/fernbank/harrow)";

enum Outcome
{
	delivered,
	retryable,
	rejected,
}

final class Shipper
{
	private
	{
		CollectorConfig collector;
		RetryConfig retryCfg;
		Spool spool;
		Metrics metrics;
		Channel!Batch queue;
		HTTPClientSettings http;
		Task worker;
		bool healthy = true;
	}

	this(CollectorConfig collector, RetryConfig retryCfg, Spool spool, Metrics metrics)
	{
		this.collector = collector;
		this.retryCfg = retryCfg;
		this.spool = spool;
		this.metrics = metrics;
		queue = createChannel!Batch(ChannelConfig(ChannelPriority.latency, queueCapacity));
		http = new HTTPClientSettings;
		http.connectTimeout = collector.requestTimeoutSeconds.seconds;
		http.readTimeout = collector.requestTimeoutSeconds.seconds;
		http.defaultKeepAliveTimeout = 30.seconds;
	}

	void start()
	{
		worker = runTask(&loop);
	}

	/// Closes the queue and waits for the batches already in it.
	void stop()
	{
		queue.close();
		worker.join();
	}

	void enqueue(Batch b) @safe
	{
		queue.put(b);
	}

	/// False while the collector keeps failing; drives `/readyz`.
	bool isHealthy() const @safe nothrow @nogc
	{
		return healthy;
	}

	private void loop() nothrow
	{
		Batch b;
		while (queue.tryConsumeOne(b))
		{
			try
			{
				ship(b);
				if (healthy)
					replaySpool();
			}
			catch (Exception e)
			{
				try
					logError("shipper: batch %s lost: %s", b.id, e.msg);
				catch (Exception) {}
			}
		}
	}

	private void ship(Batch b)
	{
		auto body_ = encode(b, collector.gzipLevel);
		auto backoff = Backoff(retryCfg);
		immutable started = MonoTime.currTime;
		uint attempt;
		while (true)
		{
			final switch (post(body_, b.id))
			{
			case Outcome.delivered:
				healthy = true;
				return;
			case Outcome.rejected:
				metrics.shipFailed();
				spool.put(b.id, body_);
				return;
			case Outcome.retryable:
				healthy = false;
				attempt++;
				auto wait = backoff.delay(attempt);
				if (backoff.exhausted(MonoTime.currTime - started + wait))
				{
					logWarn("shipper: giving up on batch %s after %s attempt(s), spooling it", b.id, attempt);
					metrics.shipFailed();
					spool.put(b.id, body_);
					return;
				}
				metrics.retried();
				logDebug("shipper: batch %s attempt %s failed, retrying in %s", b.id, attempt, wait);
				sleep(wait);
			}
		}
	}

	/// Re-sends spooled batches once the collector is reachable again.
	private void replaySpool()
	{
		foreach (e; spool.entries())
		{
			EncodedBody body_;
			body_.data = cast(immutable(ubyte)[]) read(e.path);
			body_.contentEncoding = e.gzip ? "gzip" : null;
			if (post(body_, 0) != Outcome.delivered)
				return;
			spool.remove(e);
			logInfo("shipper: replayed %s from the spool", e.path);
		}
	}

	private Outcome post(in EncodedBody body_, ulong batchId)
	{
		Outcome outcome;
		immutable t0 = MonoTime.currTime;
		try
		{
			requestHTTP(collector.url,
				(scope HTTPClientRequest req) {
					req.method = HTTPMethod.POST;
					req.headers["User-Agent"] = userAgent;
					req.headers["Content-Type"] = body_.contentType;
					if (body_.contentEncoding.length)
						req.headers["Content-Encoding"] = body_.contentEncoding;
					if (collector.token.length)
						req.headers["Authorization"] = "Bearer " ~ collector.token;
					if (batchId)
						req.headers["X-Harrow-Batch"] = batchId.to!string;
					req.writeBody(body_.data);
				},
				(scope HTTPClientResponse res) {
					outcome = classify(res.statusCode);
					if (outcome != Outcome.delivered)
						logWarn("shipper: collector answered %s: %s", res.statusCode, res.bodyReader.readAllUTF8());
					else
						res.dropBody();
				},
				http);
		}
		catch (Exception e)
		{
			logWarn("shipper: POST %s failed: %s", collector.url, e.msg);
			return Outcome.retryable;
		}
		if (outcome == Outcome.delivered)
			metrics.shipped(body_.data.length, (MonoTime.currTime - t0).total!"msecs" / 1000.0);
		return outcome;
	}
}

/// Maps a collector status code to what the shipper does next.
Outcome classify(int status) @safe pure nothrow @nogc
{
	if (status >= 200 && status < 300)
		return Outcome.delivered;
	if (status == 408 || status == 429 || status >= 500)
		return Outcome.retryable;
	return Outcome.rejected;
}

unittest
{
	assert(classify(200) == Outcome.delivered);
	assert(classify(204) == Outcome.delivered);
	assert(classify(429) == Outcome.retryable);
	assert(classify(503) == Outcome.retryable);
	assert(classify(400) == Outcome.rejected);
	assert(classify(413) == Outcome.rejected);
}
