const std = @import("std");
const zest = @import("zest");

const testing = std.testing;

// Values chosen to differ from every default so a silently ignored key shows up.
const sample_config =
    \\{
    \\  "bind_address": "127.0.0.1",
    \\  "statsd_port": 18125,
    \\  "http_port": 18090,
    \\  "flush_interval_ms": 250,
    \\  "series_ttl_s": 5,
    \\  "max_series": 64,
    \\  "prefix": "test_",
    \\  "parse_tags": false,
    \\  "log_level": "warn"
    \\}
;

test "every key in the config file is honoured" {
    const parsed = try zest.config.parseSlice(testing.allocator, sample_config);
    defer parsed.deinit();
    const cfg = parsed.value;

    try cfg.validate();
    try testing.expectEqualStrings("127.0.0.1", cfg.bind_address);
    try testing.expectEqual(@as(u16, 18125), cfg.statsd_port);
    try testing.expectEqual(@as(u16, 18090), cfg.http_port);
    try testing.expectEqual(@as(u32, 250), cfg.flush_interval_ms);
    try testing.expectEqual(@as(u32, 5), cfg.series_ttl_s);
    try testing.expectEqual(@as(usize, 64), cfg.max_series);
    try testing.expectEqualStrings("test_", cfg.prefix);
    try testing.expect(!cfg.parse_tags);
    try testing.expectEqual(zest.config.LogLevel.warn, cfg.log_level);
}

test "command-line flags win over the file" {
    const parsed = try zest.config.parseSlice(testing.allocator, sample_config);
    defer parsed.deinit();
    var cfg = parsed.value;

    const opts = try zest.cli.parse(&.{ "--statsd-port", "28125", "--flush-interval", "1000" });
    zest.cli.apply(opts, &cfg);

    try testing.expectEqual(@as(u16, 28125), cfg.statsd_port);
    try testing.expectEqual(@as(u32, 1000), cfg.flush_interval_ms);
    try testing.expectEqual(@as(u16, 18090), cfg.http_port);
}

test "shipped config files parse" {
    inline for (.{ "config/zest.json", "config/production.json" }) |path| {
        const parsed = try zest.config.loadFile(testing.allocator, path);
        defer parsed.deinit();
        try parsed.value.validate();
    }
}

test "an empty object means all defaults" {
    const parsed = try zest.config.parseSlice(testing.allocator, "{}");
    defer parsed.deinit();
    try testing.expectEqual(zest.config.default_http_port, parsed.value.http_port);
    try testing.expectEqual(zest.config.default_flush_interval_ms, parsed.value.flush_interval_ms);
}
