//! In-memory store of every series zestd has seen, keyed by the sanitized
//! metric name plus its rendered label set. The registry does no locking of
//! its own: callers hold `mutex` while using it (see udp.zig and http.zig).

const std = @import("std");
const statsd = @import("statsd.zig");
const exposition = @import("exposition.zig");

/// Distinct series kept before new ones are dropped and counted in
/// zest_dropped_series_total. "max_series" in the config file overrides it.
pub const default_max_series: usize = 20000;
/// Metric names longer than this are rejected.
pub const max_name_len: usize = 200;
/// Upper bound on a rendered series key (name plus `{k="v",...}`).
const max_key_len: usize = 1024;

pub const Kind = enum { counter, gauge, summary, set };

pub const Series = struct {
    /// Sanitized metric name; points into the map key.
    name: []const u8,
    /// Rendered label set including braces, or "" without labels.
    labels: []const u8,
    kind: Kind,
    /// Counter total, gauge value, summary sum or set cardinality.
    value: f64 = 0,
    /// Number of observations, for summaries.
    count: f64 = 0,
    /// Hashes of the members seen, for sets.
    members: std.AutoHashMapUnmanaged(u64, void) = .{},
    last_update_ms: i64,
};

pub const RecordError = error{
    NameTooLong,
    TooManySeries,
    KindMismatch,
} || std.mem.Allocator.Error;

pub const Registry = struct {
    allocator: std.mem.Allocator,
    series: std.StringHashMapUnmanaged(Series) = .{},
    max_series: usize,
    /// Samples thrown away because max_series was reached.
    dropped: u64 = 0,
    mutex: std.Thread.Mutex = .{},

    pub fn init(allocator: std.mem.Allocator, max_series: usize) Registry {
        return .{ .allocator = allocator, .max_series = max_series };
    }

    pub fn deinit(self: *Registry) void {
        var it = self.series.iterator();
        while (it.next()) |entry| {
            entry.value_ptr.members.deinit(self.allocator);
            self.allocator.free(entry.key_ptr.*);
        }
        self.series.deinit(self.allocator);
        self.* = undefined;
    }

    pub fn count(self: *const Registry) usize {
        return self.series.count();
    }

    pub fn record(self: *Registry, sample: statsd.Sample, now_ms: i64) RecordError!void {
        if (sample.name.len > max_name_len) return error.NameTooLong;

        var key_buf: [max_key_len]u8 = undefined;
        var fbs = std.io.fixedBufferStream(&key_buf);
        exposition.writeName(fbs.writer(), sample.name) catch return error.NameTooLong;
        const name_len = fbs.pos;
        exposition.writeLabels(fbs.writer(), sample.tagSlice()) catch return error.NameTooLong;
        const key = fbs.getWritten();

        const kind = kindOf(sample.kind);
        if (!self.series.contains(key) and self.series.count() >= self.max_series) {
            self.dropped += 1;
            return error.TooManySeries;
        }

        const gop = try self.series.getOrPut(self.allocator, key);
        if (!gop.found_existing) {
            const owned = self.allocator.dupe(u8, key) catch |err| {
                self.series.removeByPtr(gop.key_ptr);
                return err;
            };
            gop.key_ptr.* = owned;
            gop.value_ptr.* = .{
                .name = owned[0..name_len],
                .labels = owned[name_len..],
                .kind = kind,
                .last_update_ms = now_ms,
            };
        } else if (gop.value_ptr.kind != kind) {
            return error.KindMismatch;
        }

        const s = gop.value_ptr;
        s.last_update_ms = now_ms;
        switch (sample.kind) {
            .counter => s.value += sample.value / sample.sample_rate,
            .gauge => s.value = if (sample.relative) s.value + sample.value else sample.value,
            .timer, .histogram => {
                const weight = 1.0 / sample.sample_rate;
                s.count += weight;
                s.value += sample.value * weight;
            },
            .set => {
                try s.members.put(self.allocator, std.hash.Wyhash.hash(0, sample.set_member), {});
                s.value = @floatFromInt(s.members.count());
            },
        }
    }

    /// Drops every series not updated within `ttl_s` seconds of `now_ms`.
    /// Returns how many were removed.
    pub fn expire(self: *Registry, now_ms: i64, ttl_s: u32) usize {
        const cutoff = now_ms - @as(i64, ttl_s) * std.time.ms_per_s;

        var stale = std.ArrayList([]const u8).init(self.allocator);
        defer stale.deinit();
        var it = self.series.iterator();
        while (it.next()) |entry| {
            if (entry.value_ptr.last_update_ms < cutoff) {
                stale.append(entry.key_ptr.*) catch break;
            }
        }

        for (stale.items) |key| {
            if (self.series.fetchRemove(key)) |kv| {
                var series = kv.value;
                series.members.deinit(self.allocator);
                self.allocator.free(kv.key);
            }
        }
        return stale.items.len;
    }
};

fn kindOf(t: statsd.MetricType) Kind {
    return switch (t) {
        .counter => .counter,
        .gauge => .gauge,
        .timer, .histogram => .summary,
        .set => .set,
    };
}

test "counters are scaled by the sample rate" {
    var reg = Registry.init(std.testing.allocator, 10);
    defer reg.deinit();
    try reg.record(try statsd.parseLine("hits:1|c|@0.25", true), 0);
    try reg.record(try statsd.parseLine("hits:1|c", true), 0);
    try std.testing.expectEqual(@as(f64, 5), reg.series.get("hits").?.value);
}

test "a name cannot change kind" {
    var reg = Registry.init(std.testing.allocator, 10);
    defer reg.deinit();
    try reg.record(try statsd.parseLine("temp:20|g", true), 0);
    try std.testing.expectError(error.KindMismatch, reg.record(try statsd.parseLine("temp:1|c", true), 0));
}
