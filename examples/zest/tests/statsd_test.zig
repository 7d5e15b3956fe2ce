const std = @import("std");
const zest = @import("zest");
const statsd = zest.statsd;

const testing = std.testing;

test "a multi-line datagram feeds the registry" {
    var reg = zest.Registry.init(testing.allocator, 50);
    defer reg.deinit();
    var listener = zest.udp.Listener{ .sock = undefined, .registry = &reg, .parse_tags = true };

    listener.handlePacket(
        "checkout.total:1|c\n" ++
            "checkout.total:1|c\n" ++
            "checkout.latency:120|ms|@0.5\n" ++
            "garbage line\n" ++
            "visitors:alice|s\nvisitors:bob|s\nvisitors:alice|s\n",
        1_000,
    );

    try testing.expectEqual(@as(usize, 3), reg.count());
    try testing.expectEqual(@as(u64, 1), listener.bad_lines.load(.monotonic));
    try testing.expectEqual(@as(f64, 2), reg.series.get("checkout_total").?.value);
    try testing.expectEqual(@as(f64, 2), reg.series.get("checkout_latency").?.count);
    try testing.expectEqual(@as(f64, 2), reg.series.get("visitors").?.value);
}

test "tags can be turned off" {
    const line = "http.requests:1|c|#route:/login,method:POST";
    try testing.expectEqual(@as(usize, 2), (try statsd.parseLine(line, true)).tag_count);
    try testing.expectEqual(@as(usize, 0), (try statsd.parseLine(line, false)).tag_count);
}

test "too many tags" {
    var line = std.ArrayList(u8).init(testing.allocator);
    defer line.deinit();
    try line.appendSlice("x:1|c|#");
    for (0..statsd.max_tags + 1) |i| try line.writer().print("t{d}:v,", .{i});
    try testing.expectError(error.TooManyTags, statsd.parseLine(line.items, true));
}

test "a packet as large as the read buffer still parses" {
    var reg = zest.Registry.init(testing.allocator, 10);
    defer reg.deinit();
    var listener = zest.udp.Listener{ .sock = undefined, .registry = &reg, .parse_tags = true };

    var packet: [zest.config.max_datagram_size]u8 = undefined;
    var fbs = std.io.fixedBufferStream(&packet);
    while (fbs.pos + 16 < packet.len) try fbs.writer().writeAll("bulk.count:1|c\n");
    listener.handlePacket(fbs.getWritten(), 0);

    try testing.expectEqual(@as(usize, 1), reg.count());
}
