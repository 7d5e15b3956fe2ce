//! The zest library: everything except process setup, so that tests/ and
//! bench/ can use it through the "zest" module (see build.zig).

const std = @import("std");

pub const config = @import("config.zig");
pub const cli = @import("cli.zig");
pub const statsd = @import("statsd.zig");
pub const registry = @import("registry.zig");
pub const exposition = @import("exposition.zig");
pub const udp = @import("udp.zig");
pub const http = @import("http.zig");

pub const Config = config.Config;
pub const Registry = registry.Registry;

test {
    std.testing.refAllDecls(@This());
}
