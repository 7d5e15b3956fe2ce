//! Serves GET /metrics (Prometheus text format) and GET /healthz.

const std = @import("std");
const posix = std.posix;
const exposition = @import("exposition.zig");
const Registry = @import("registry.zig").Registry;

const log = std.log.scoped(.http);

/// A client that has not sent its complete request head within this many
/// milliseconds is disconnected, so a stuck scraper cannot block the
/// (single-threaded) server.
pub const request_timeout_ms: u32 = 2500;

/// Request heads larger than this are answered with 431.
const read_buffer_size: usize = 4096;

pub const MetricsServer = struct {
    allocator: std.mem.Allocator,
    listener: std.net.Server,
    registry: *Registry,
    prefix: []const u8,

    pub fn listen(
        allocator: std.mem.Allocator,
        address: std.net.Address,
        registry: *Registry,
        prefix: []const u8,
    ) !MetricsServer {
        const listener = try address.listen(.{ .reuse_address = true });
        log.info("serving metrics on http://{}/metrics", .{address});
        return .{
            .allocator = allocator,
            .listener = listener,
            .registry = registry,
            .prefix = prefix,
        };
    }

    pub fn deinit(self: *MetricsServer) void {
        self.listener.deinit();
    }

    pub fn run(self: *MetricsServer) void {
        while (true) {
            const conn = self.listener.accept() catch |err| {
                log.warn("accept failed: {s}", .{@errorName(err)});
                continue;
            };
            self.handle(conn) catch |err| {
                log.debug("request from {} failed: {s}", .{ conn.address, @errorName(err) });
            };
        }
    }

    fn handle(self: *MetricsServer, conn: std.net.Server.Connection) !void {
        defer conn.stream.close();
        try setReadTimeout(conn.stream.handle, request_timeout_ms);

        var read_buf: [read_buffer_size]u8 = undefined;
        var server = std.http.Server.init(conn, &read_buf);
        var request = server.receiveHead() catch |err| switch (err) {
            error.HttpHeadersOversize => return,
            else => return err,
        };

        if (request.head.method != .GET) {
            return request.respond("method not allowed\n", .{ .status = .method_not_allowed });
        }

        if (std.mem.eql(u8, request.head.target, "/metrics")) {
            var body = std.ArrayList(u8).init(self.allocator);
            defer body.deinit();
            {
                self.registry.mutex.lock();
                defer self.registry.mutex.unlock();
                try exposition.writeAll(self.allocator, self.registry, self.prefix, body.writer());
            }
            try request.respond(body.items, .{
                .extra_headers = &.{.{ .name = "content-type", .value = exposition.content_type }},
            });
        } else if (std.mem.eql(u8, request.head.target, "/healthz")) {
            try request.respond("ok\n", .{});
        } else {
            try request.respond("not found\n", .{ .status = .not_found });
        }
    }
};

fn setReadTimeout(fd: posix.socket_t, ms: u32) !void {
    const tv = posix.timeval{
        .tv_sec = @intCast(ms / 1000),
        .tv_usec = @intCast((ms % 1000) * 1000),
    };
    try posix.setsockopt(fd, posix.SOL.SOCKET, posix.SO.RCVTIMEO, std.mem.asBytes(&tv));
}
