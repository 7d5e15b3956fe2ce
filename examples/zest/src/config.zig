//! Runtime configuration. Values come from, in increasing priority:
//!   1. the compiled-in defaults below,
//!   2. the JSON config file (`--config`, see cli.zig),
//!   3. command-line flags.

const std = @import("std");
const registry = @import("registry.zig");

/// UDP port the StatsD listener binds to.
pub const default_statsd_port: u16 = 8125;
/// TCP port serving /metrics and /healthz.
pub const default_http_port: u16 = 9477;
pub const default_bind_address = "0.0.0.0";

/// How often the flusher expires idle series and logs ingest statistics.
pub const default_flush_interval_ms: u32 = 10000;
/// Series that have not been updated for this many seconds are dropped.
pub const default_series_ttl_s: u32 = 300;

/// Largest StatsD datagram read in one recvfrom() (see udp.zig). 8932 bytes
/// fits a jumbo-frame MTU minus the IP and UDP headers; anything longer is
/// truncated by the kernel and the tail of the packet is lost.
pub const max_datagram_size: usize = 8932;

/// Config files bigger than this are rejected instead of parsed.
pub const max_config_bytes: usize = 64 * 1024;

pub const LogLevel = enum { debug, info, warn, err };

pub const Config = struct {
    bind_address: []const u8 = default_bind_address,
    statsd_port: u16 = default_statsd_port,
    http_port: u16 = default_http_port,
    flush_interval_ms: u32 = default_flush_interval_ms,
    series_ttl_s: u32 = default_series_ttl_s,
    max_series: usize = registry.default_max_series,
    /// Prepended to every exported metric name, e.g. "myapp_".
    prefix: []const u8 = "",
    /// Turn DogStatsD "|#key:value" suffixes into Prometheus labels.
    parse_tags: bool = true,
    log_level: LogLevel = .info,

    pub const ValidationError = error{
        PortClash,
        FlushIntervalTooShort,
        ZeroMaxSeries,
        InvalidBindAddress,
    };

    pub fn validate(self: Config) ValidationError!void {
        if (self.statsd_port != 0 and self.statsd_port == self.http_port) return error.PortClash;
        if (self.flush_interval_ms < 100) return error.FlushIntervalTooShort;
        if (self.max_series == 0) return error.ZeroMaxSeries;
        _ = std.net.Address.parseIp(self.bind_address, 0) catch return error.InvalidBindAddress;
    }

    pub fn statsdAddress(self: Config) !std.net.Address {
        return std.net.Address.parseIp(self.bind_address, self.statsd_port);
    }

    pub fn httpAddress(self: Config) !std.net.Address {
        return std.net.Address.parseIp(self.bind_address, self.http_port);
    }
};

/// Parses a config document. Keys that are missing keep their defaults;
/// unknown keys are an error so that typos do not go unnoticed.
pub fn parseSlice(allocator: std.mem.Allocator, bytes: []const u8) !std.json.Parsed(Config) {
    return std.json.parseFromSlice(Config, allocator, bytes, .{
        .ignore_unknown_fields = false,
        .allocate = .alloc_always,
    });
}

pub fn loadFile(allocator: std.mem.Allocator, path: []const u8) !std.json.Parsed(Config) {
    const bytes = try std.fs.cwd().readFileAlloc(allocator, path, max_config_bytes);
    defer allocator.free(bytes);
    return parseSlice(allocator, bytes);
}

test "defaults are valid" {
    const cfg = Config{};
    try cfg.validate();
    try std.testing.expectEqual(default_http_port, cfg.http_port);
    try std.testing.expectEqual(registry.default_max_series, cfg.max_series);
}

test "missing keys keep their defaults" {
    const parsed = try parseSlice(std.testing.allocator, "{\"http_port\": 9300, \"log_level\": \"debug\"}");
    defer parsed.deinit();
    try std.testing.expectEqual(@as(u16, 9300), parsed.value.http_port);
    try std.testing.expectEqual(default_statsd_port, parsed.value.statsd_port);
    try std.testing.expectEqual(LogLevel.debug, parsed.value.log_level);
}

test "unknown keys are rejected" {
    try std.testing.expectError(
        error.UnknownField,
        parseSlice(std.testing.allocator, "{\"htpp_port\": 9300}"),
    );
}

test "statsd and http on the same port is rejected" {
    const cfg = Config{ .statsd_port = 7070, .http_port = 7070 };
    try std.testing.expectError(error.PortClash, cfg.validate());
}
