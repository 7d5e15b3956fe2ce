const std = @import("std");
const zest = @import("zest");

const testing = std.testing;

fn line(text: []const u8) zest.statsd.Sample {
    return zest.statsd.parseLine(text, true) catch unreachable;
}

test "new series are dropped once max_series is reached" {
    // A deliberately tiny limit; production uses registry.default_max_series.
    var reg = zest.Registry.init(testing.allocator, 3);
    defer reg.deinit();

    try reg.record(line("a:1|c"), 0);
    try reg.record(line("b:1|c"), 0);
    try reg.record(line("c:1|c"), 0);
    try testing.expectError(error.TooManySeries, reg.record(line("d:1|c"), 0));
    // Existing series keep updating.
    try reg.record(line("a:1|c"), 0);

    try testing.expectEqual(@as(usize, 3), reg.count());
    try testing.expectEqual(@as(u64, 1), reg.dropped);
}

test "idle series expire after the ttl" {
    var reg = zest.Registry.init(testing.allocator, 100);
    defer reg.deinit();

    try reg.record(line("old:1|g"), 0);
    try reg.record(line("fresh:1|g"), 55_000);

    // 30 s ttl, evaluated at t = 60 s: "old" is 60 s idle, "fresh" 5 s.
    try testing.expectEqual(@as(usize, 1), reg.expire(60_000, 30));
    try testing.expect(reg.series.get("fresh") != null);
    try testing.expect(reg.series.get("old") == null);
}

test "labels make distinct series" {
    var reg = zest.Registry.init(testing.allocator, 100);
    defer reg.deinit();

    try reg.record(line("jobs:1|c|#queue:mail"), 0);
    try reg.record(line("jobs:1|c|#queue:sms"), 0);
    try reg.record(line("jobs:4|c|#queue:mail"), 0);

    try testing.expectEqual(@as(usize, 2), reg.count());
    try testing.expectEqual(@as(f64, 5), reg.series.get("jobs{queue=\"mail\"}").?.value);
}

test "overlong names are rejected" {
    var reg = zest.Registry.init(testing.allocator, 100);
    defer reg.deinit();

    const name = "n" ** (zest.registry.max_name_len + 1);
    try testing.expectError(error.NameTooLong, reg.record(line(name ++ ":1|c"), 0));
}
