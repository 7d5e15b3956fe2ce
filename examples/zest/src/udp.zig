//! StatsD ingest: one blocking UDP socket, read on its own thread.

const std = @import("std");
const posix = std.posix;
const config = @import("config.zig");
const statsd = @import("statsd.zig");
const Registry = @import("registry.zig").Registry;

const log = std.log.scoped(.udp);

pub const Listener = struct {
    sock: posix.socket_t,
    registry: *Registry,
    parse_tags: bool,
    packets: std.atomic.Value(u64) = std.atomic.Value(u64).init(0),
    bad_lines: std.atomic.Value(u64) = std.atomic.Value(u64).init(0),

    pub fn bind(address: std.net.Address, registry: *Registry, parse_tags: bool) !Listener {
        const sock = try posix.socket(
            address.any.family,
            posix.SOCK.DGRAM | posix.SOCK.CLOEXEC,
            posix.IPPROTO.UDP,
        );
        errdefer posix.close(sock);
        try posix.setsockopt(sock, posix.SOL.SOCKET, posix.SO.REUSEADDR, &std.mem.toBytes(@as(c_int, 1)));
        try posix.bind(sock, &address.any, address.getOsSockLen());
        log.info("listening for StatsD on udp://{}", .{address});
        return .{ .sock = sock, .registry = registry, .parse_tags = parse_tags };
    }

    pub fn deinit(self: *Listener) void {
        posix.close(self.sock);
    }

    /// Receives datagrams until the socket is closed.
    pub fn run(self: *Listener) void {
        var buf: [config.max_datagram_size]u8 = undefined;
        while (true) {
            const n = posix.recvfrom(self.sock, &buf, 0, null, null) catch |err| switch (err) {
                error.SocketNotBound, error.ConnectionRefused => return,
                else => {
                    log.warn("recvfrom failed: {s}", .{@errorName(err)});
                    continue;
                },
            };
            _ = self.packets.fetchAdd(1, .monotonic);
            self.handlePacket(buf[0..n], std.time.milliTimestamp());
        }
    }

    pub fn handlePacket(self: *Listener, packet: []const u8, now_ms: i64) void {
        self.registry.mutex.lock();
        defer self.registry.mutex.unlock();

        var lines = std.mem.splitScalar(u8, packet, '\n');
        while (lines.next()) |line| {
            if (line.len == 0) continue;
            const sample = statsd.parseLine(line, self.parse_tags) catch |err| {
                _ = self.bad_lines.fetchAdd(1, .monotonic);
                log.debug("dropping line \"{s}\": {s}", .{ line, @errorName(err) });
                continue;
            };
            self.registry.record(sample, now_ms) catch |err| switch (err) {
                // Counted in zest_dropped_series_total; logging every one
                // would flood the journal during a cardinality explosion.
                error.TooManySeries => {},
                else => log.warn("cannot record {s}: {s}", .{ sample.name, @errorName(err) }),
            };
        }
    }
};
