/**
 * Small HTTP server for orchestration and monitoring:
 *
 *   GET /healthz  - 200 as long as the event loop runs
 *   GET /readyz   - 503 while the collector keeps failing or the spool is
 *                   more than 90% full
 *   GET /metrics  - Prometheus text format
 */
module harrow.status;

import std.format : format;

import vibe.core.log;
import vibe.http.router : URLRouter;
import vibe.http.server;

import harrow.config : SpoolConfig, StatusConfig;
import harrow.metrics : Metrics;
import harrow.shipper : Shipper;

/// /readyz fails once the spool is fuller than this fraction of spool.maxMB.
enum double spoolReadyFraction = 0.9;

HTTPListener startStatusServer(StatusConfig cfg, SpoolConfig spoolCfg, Metrics metrics, Shipper shipper)
{
	auto router = new URLRouter;

	router.get("/healthz", (HTTPServerRequest req, HTTPServerResponse res) {
		res.writeBody("ok\n", "text/plain");
	});

	router.get("/readyz", (HTTPServerRequest req, HTTPServerResponse res) {
		immutable limit = cast(ulong)(spoolCfg.maxBytes * spoolReadyFraction);
		if (!shipper.isHealthy)
			res.writeBody("collector unreachable\n", HTTPStatus.serviceUnavailable, "text/plain");
		else if (metrics.spoolBytesUsed > limit)
			res.writeBody(format("spool above %s bytes\n", limit), HTTPStatus.serviceUnavailable, "text/plain");
		else
			res.writeBody("ready\n", "text/plain");
	});

	router.get("/metrics", (HTTPServerRequest req, HTTPServerResponse res) {
		res.writeBody(metrics.render(), "text/plain; version=0.0.4");
	});

	auto settings = new HTTPServerSettings;
	settings.bindAddresses = [cfg.bind];
	settings.port = cfg.port;
	settings.serverString = null;
	settings.options = HTTPServerOption.defaults & ~HTTPServerOption.parseFormBody;

	logInfo("status: listening on %s:%s", cfg.bind, cfg.port);
	return listenHTTP(settings, router);
}
