const std = @import("std");
const zbench = @import("zbench");
const zest = @import("zest");

fn benchCounter(_: std.mem.Allocator) void {
    const s = zest.statsd.parseLine("api.requests:1|c|@0.1", true) catch unreachable;
    std.mem.doNotOptimizeAway(s);
}

fn benchTagged(_: std.mem.Allocator) void {
    const s = zest.statsd.parseLine("db.query:12.5|ms|#table:users,op:select,shard:7", true) catch unreachable;
    std.mem.doNotOptimizeAway(s);
}

fn benchRecord(allocator: std.mem.Allocator) void {
    var reg = zest.Registry.init(allocator, zest.registry.default_max_series);
    defer reg.deinit();
    var i: usize = 0;
    while (i < 1000) : (i += 1) {
        reg.record(zest.statsd.parseLine("jobs:1|c|#queue:mail", true) catch unreachable, 0) catch unreachable;
    }
}

pub fn main() !void {
    const stdout = std.io.getStdOut().writer();
    var bench = zbench.Benchmark.init(std.heap.page_allocator, .{});
    defer bench.deinit();

    try bench.add("parse counter", benchCounter, .{});
    try bench.add("parse tagged timer", benchTagged, .{});
    try bench.add("record 1000 samples", benchRecord, .{});

    try stdout.writeAll("\n");
    try bench.run(stdout);
}
