//! Renders the registry in the Prometheus text exposition format 0.0.4.

const std = @import("std");
const statsd = @import("statsd.zig");
const registry = @import("registry.zig");

pub const content_type = "text/plain; version=0.0.4; charset=utf-8";

/// Writes `name` with every character Prometheus does not allow in a metric
/// name replaced by '_' ("api.requests-total" -> "api_requests_total").
pub fn writeName(writer: anytype, name: []const u8) !void {
    for (name, 0..) |c, i| {
        const ok = std.ascii.isAlphabetic(c) or c == '_' or c == ':' or
            (i > 0 and std.ascii.isDigit(c));
        try writer.writeByte(if (ok) c else '_');
    }
}

pub fn writeLabels(writer: anytype, tags: []const statsd.Tag) !void {
    if (tags.len == 0) return;
    try writer.writeByte('{');
    for (tags, 0..) |tag, i| {
        if (i > 0) try writer.writeByte(',');
        try writeName(writer, tag.key);
        try writer.writeAll("=\"");
        for (tag.value) |c| switch (c) {
            '\\' => try writer.writeAll("\\\\"),
            '"' => try writer.writeAll("\\\""),
            '\n' => try writer.writeAll("\\n"),
            else => try writer.writeByte(c),
        };
        try writer.writeByte('"');
    }
    try writer.writeByte('}');
}

/// Writes every series, sorted by key so that the series of one metric
/// family are adjacent and share a single `# TYPE` line.
pub fn writeAll(
    allocator: std.mem.Allocator,
    reg: *const registry.Registry,
    prefix: []const u8,
    writer: anytype,
) !void {
    const keys = try allocator.alloc([]const u8, reg.series.count());
    defer allocator.free(keys);
    var it = reg.series.keyIterator();
    var n: usize = 0;
    while (it.next()) |key| : (n += 1) keys[n] = key.*;
    std.mem.sort([]const u8, keys, {}, lessThan);

    var family: []const u8 = "";
    for (keys) |key| {
        const s = reg.series.get(key).?;
        if (!std.mem.eql(u8, s.name, family)) {
            family = s.name;
            try writer.print("# TYPE {s}{s}{s} {s}\n", .{ prefix, s.name, familySuffix(s.kind), typeName(s.kind) });
        }
        switch (s.kind) {
            .counter => try writer.print("{s}{s}_total{s} {d}\n", .{ prefix, s.name, s.labels, s.value }),
            .gauge, .set => try writer.print("{s}{s}{s} {d}\n", .{ prefix, s.name, s.labels, s.value }),
            .summary => {
                try writer.print("{s}{s}_sum{s} {d}\n", .{ prefix, s.name, s.labels, s.value });
                try writer.print("{s}{s}_count{s} {d}\n", .{ prefix, s.name, s.labels, s.count });
            },
        }
    }

    try writer.print(
        \\# TYPE zest_series gauge
        \\zest_series {d}
        \\# TYPE zest_dropped_series_total counter
        \\zest_dropped_series_total {d}
        \\
    , .{ reg.series.count(), reg.dropped });
}

fn familySuffix(kind: registry.Kind) []const u8 {
    return if (kind == .counter) "_total" else "";
}

fn typeName(kind: registry.Kind) []const u8 {
    return switch (kind) {
        .counter => "counter",
        .gauge, .set => "gauge",
        .summary => "summary",
    };
}

fn lessThan(_: void, a: []const u8, b: []const u8) bool {
    return std.mem.lessThan(u8, a, b);
}

test "names are sanitized" {
    var buf: [64]u8 = undefined;
    var fbs = std.io.fixedBufferStream(&buf);
    try writeName(fbs.writer(), "9api.requests-ok");
    try std.testing.expectEqualStrings("_api_requests_ok", fbs.getWritten());
}

test "output groups a family under one TYPE line" {
    var reg = registry.Registry.init(std.testing.allocator, 100);
    defer reg.deinit();
    try reg.record(try statsd.parseLine("jobs:2|c|#queue:mail", true), 0);
    try reg.record(try statsd.parseLine("jobs:1|c|#queue:sms", true), 0);

    var out = std.ArrayList(u8).init(std.testing.allocator);
    defer out.deinit();
    try writeAll(std.testing.allocator, &reg, "app_", out.writer());
    try std.testing.expectEqualStrings(
        \\# TYPE app_jobs_total counter
        \\app_jobs_total{queue="mail"} 2
        \\app_jobs_total{queue="sms"} 1
        \\# TYPE zest_series gauge
        \\zest_series 2
        \\# TYPE zest_dropped_series_total counter
        \\zest_dropped_series_total 0
        \\
    , out.items);
}
