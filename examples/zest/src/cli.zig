//! Command-line parsing for zestd. Flags override the config file, which in
//! turn overrides the defaults in config.zig.

const std = @import("std");
const config = @import("config.zig");

/// Read when --config is not given. A missing file at this path is not an
/// error: zestd then runs on the built-in defaults.
pub const default_config_path = "/etc/zest/zest.json";

pub const Options = struct {
    config_path: []const u8 = default_config_path,
    /// True when --config was passed; a missing file is then fatal.
    config_explicit: bool = false,
    statsd_port: ?u16 = null,
    http_port: ?u16 = null,
    flush_interval_ms: ?u32 = null,
    check_config: bool = false,
    show_version: bool = false,
    show_help: bool = false,
};

pub const ParseError = error{
    UnknownOption,
    MissingValue,
    InvalidNumber,
};

pub const usage = std.fmt.comptimePrint(
    \\Usage: zestd [options]
    \\
    \\Receives StatsD metrics over UDP and serves them to Prometheus.
    \\
    \\Options:
    \\  -c, --config PATH        JSON config file (default: {s})
    \\      --statsd-port PORT   UDP port for StatsD traffic (default: {d})
    \\      --http-port PORT     TCP port for /metrics and /healthz (default: {d})
    \\      --flush-interval MS  Flush period in milliseconds (default: {d})
    \\      --check-config       Validate the configuration and exit
    \\  -V, --version            Print the version and exit
    \\  -h, --help               Show this help
    \\
, .{
    default_config_path,
    config.default_statsd_port,
    config.default_http_port,
    config.default_flush_interval_ms,
});

pub fn parse(args: []const []const u8) ParseError!Options {
    var opts = Options{};
    var i: usize = 0;
    while (i < args.len) : (i += 1) {
        const arg = args[i];
        if (eql(arg, "-h") or eql(arg, "--help")) {
            opts.show_help = true;
        } else if (eql(arg, "-V") or eql(arg, "--version")) {
            opts.show_version = true;
        } else if (eql(arg, "--check-config")) {
            opts.check_config = true;
        } else if (eql(arg, "-c") or eql(arg, "--config")) {
            opts.config_path = try takeValue(args, &i);
            opts.config_explicit = true;
        } else if (eql(arg, "--statsd-port")) {
            opts.statsd_port = try parseNumber(u16, try takeValue(args, &i));
        } else if (eql(arg, "--http-port")) {
            opts.http_port = try parseNumber(u16, try takeValue(args, &i));
        } else if (eql(arg, "--flush-interval")) {
            opts.flush_interval_ms = try parseNumber(u32, try takeValue(args, &i));
        } else {
            return error.UnknownOption;
        }
    }
    return opts;
}

/// Copies every flag that was given on top of the loaded configuration.
pub fn apply(opts: Options, cfg: *config.Config) void {
    if (opts.statsd_port) |p| cfg.statsd_port = p;
    if (opts.http_port) |p| cfg.http_port = p;
    if (opts.flush_interval_ms) |ms| cfg.flush_interval_ms = ms;
}

pub fn describeError(err: ParseError) []const u8 {
    return switch (err) {
        error.UnknownOption => "unknown option",
        error.MissingValue => "option is missing its value",
        error.InvalidNumber => "expected a number",
    };
}

fn takeValue(args: []const []const u8, i: *usize) ParseError![]const u8 {
    if (i.* + 1 >= args.len) return error.MissingValue;
    i.* += 1;
    return args[i.*];
}

fn parseNumber(comptime T: type, text: []const u8) ParseError!T {
    return std.fmt.parseInt(T, text, 10) catch error.InvalidNumber;
}

fn eql(a: []const u8, b: []const u8) bool {
    return std.mem.eql(u8, a, b);
}

test "no arguments gives the defaults" {
    const opts = try parse(&.{});
    try std.testing.expectEqualStrings(default_config_path, opts.config_path);
    try std.testing.expect(!opts.config_explicit);
    try std.testing.expectEqual(@as(?u16, null), opts.http_port);
}

test "flags override the config file" {
    const opts = try parse(&.{ "--config", "dev.json", "--http-port", "18090", "--flush-interval", "500" });
    var cfg = config.Config{};
    apply(opts, &cfg);
    try std.testing.expectEqualStrings("dev.json", opts.config_path);
    try std.testing.expectEqual(@as(u16, 18090), cfg.http_port);
    try std.testing.expectEqual(@as(u32, 500), cfg.flush_interval_ms);
    try std.testing.expectEqual(config.default_statsd_port, cfg.statsd_port);
}

test "bad input" {
    try std.testing.expectError(error.UnknownOption, parse(&.{"--port"}));
    try std.testing.expectError(error.MissingValue, parse(&.{"--statsd-port"}));
    try std.testing.expectError(error.InvalidNumber, parse(&.{ "--http-port", "70000" }));
}
