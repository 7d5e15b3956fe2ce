const std = @import("std");
const build_options = @import("build_options");
const cli = @import("cli.zig");
const config = @import("config.zig");
const Registry = @import("registry.zig").Registry;
const udp = @import("udp.zig");
const http = @import("http.zig");

const log = std.log.scoped(.main);

pub const std_options: std.Options = .{
    // Everything is compiled in; `log_level` from the config filters at runtime.
    .log_level = .debug,
    .logFn = logFn,
};

var runtime_log_level: std.log.Level = .info;

pub fn main() !void {
    var gpa = std.heap.GeneralPurposeAllocator(.{}){};
    defer _ = gpa.deinit();
    const allocator = gpa.allocator();

    const args = try std.process.argsAlloc(allocator);
    defer std.process.argsFree(allocator, args);

    const opts = cli.parse(args[1..]) catch |err| {
        std.debug.print("zestd: {s}\n\n{s}", .{ cli.describeError(err), cli.usage });
        std.process.exit(2);
    };
    const stdout = std.io.getStdOut().writer();
    if (opts.show_help) return stdout.writeAll(cli.usage);
    if (opts.show_version) return stdout.print("zestd {s}\n", .{build_options.version});

    const parsed: ?std.json.Parsed(config.Config) = config.loadFile(allocator, opts.config_path) catch |err| switch (err) {
        error.FileNotFound => blk: {
            if (opts.config_explicit) fatal("config file {s} not found", .{opts.config_path});
            log.warn("no config at {s}, using built-in defaults", .{opts.config_path});
            break :blk null;
        },
        else => fatal("cannot load {s}: {s}", .{ opts.config_path, @errorName(err) }),
    };
    defer if (parsed) |p| p.deinit();

    var cfg: config.Config = if (parsed) |p| p.value else .{};
    cli.apply(opts, &cfg);
    cfg.validate() catch |err| fatal("invalid configuration: {s}", .{@errorName(err)});
    runtime_log_level = switch (cfg.log_level) {
        .debug => .debug,
        .info => .info,
        .warn => .warn,
        .err => .err,
    };

    if (opts.check_config) {
        try stdout.print("{s}: ok (statsd :{d}, http :{d}, flush every {d} ms)\n", .{
            opts.config_path, cfg.statsd_port, cfg.http_port, cfg.flush_interval_ms,
        });
        return;
    }

    var registry = Registry.init(allocator, cfg.max_series);
    defer registry.deinit();

    var listener = try udp.Listener.bind(try cfg.statsdAddress(), &registry, cfg.parse_tags);
    defer listener.deinit();
    const udp_thread = try std.Thread.spawn(.{}, udp.Listener.run, .{&listener});
    udp_thread.detach();

    const flush_thread = try std.Thread.spawn(.{}, flushLoop, .{ &registry, &listener, cfg });
    flush_thread.detach();

    var server = try http.MetricsServer.listen(allocator, try cfg.httpAddress(), &registry, cfg.prefix);
    defer server.deinit();
    log.info("zestd {s} started", .{build_options.version});
    server.run();
}

/// Every flush interval: expire idle series and log ingest statistics.
fn flushLoop(registry: *Registry, listener: *udp.Listener, cfg: config.Config) void {
    while (true) {
        std.time.sleep(@as(u64, cfg.flush_interval_ms) * std.time.ns_per_ms);
        registry.mutex.lock();
        const expired = registry.expire(std.time.milliTimestamp(), cfg.series_ttl_s);
        const live = registry.count();
        const dropped = registry.dropped;
        registry.mutex.unlock();
        log.debug("flush: {d} series, {d} expired, {d} dropped, {d} packets, {d} bad lines", .{
            live,
            expired,
            dropped,
            listener.packets.load(.monotonic),
            listener.bad_lines.load(.monotonic),
        });
    }
}

fn fatal(comptime fmt: []const u8, args: anytype) noreturn {
    std.log.err(fmt, args);
    std.process.exit(1);
}

fn logFn(
    comptime level: std.log.Level,
    comptime scope: @TypeOf(.enum_literal),
    comptime format: []const u8,
    args: anytype,
) void {
    if (@intFromEnum(level) > @intFromEnum(runtime_log_level)) return;
    std.log.defaultLog(level, scope, format, args);
}
