const std = @import("std");

// Builds `zestd`, the StatsD -> Prometheus bridge.
//
//   zig build                      debug build into zig-out/bin
//   zig build -Doptimize=ReleaseSafe -Dversion=0.6.1
//   zig build test                 unit tests (src/) and integration tests (tests/)
//   zig build bench                parser benchmarks, needs the lazy zbench dependency
//   zig build run -- --config config/zest.json
pub fn build(b: *std.Build) void {
    const target = b.standardTargetOptions(.{});
    const optimize = b.standardOptimizeOption(.{});

    // Release builds pass the tag in (see .github/workflows/ci.yml and the
    // Dockerfile); local builds just report "dev".
    const version = b.option([]const u8, "version", "Version string printed by --version") orelse "dev";

    const options = b.addOptions();
    options.addOption([]const u8, "version", version);

    // Library module shared by the executable, the tests and the benchmarks.
    const zest_mod = b.addModule("zest", .{
        .root_source_file = .{ .path = "src/root.zig" },
        .target = target,
        .optimize = optimize,
    });

    const exe = b.addExecutable(.{
        .name = "zestd",
        .root_source_file = .{ .path = "src/main.zig" },
        .target = target,
        .optimize = optimize,
    });
    exe.root_module.addOptions("build_options", options);
    b.installArtifact(exe);

    const run_cmd = b.addRunArtifact(exe);
    run_cmd.step.dependOn(b.getInstallStep());
    if (b.args) |args| run_cmd.addArgs(args);
    const run_step = b.step("run", "Build and run zestd");
    run_step.dependOn(&run_cmd.step);

    // Tests
    const test_step = b.step("test", "Run unit and integration tests");

    const unit_tests = b.addTest(.{
        .root_source_file = .{ .path = "src/root.zig" },
        .target = target,
        .optimize = optimize,
    });
    test_step.dependOn(&b.addRunArtifact(unit_tests).step);

    const integration_tests = [_][]const u8{
        "tests/statsd_test.zig",
        "tests/registry_test.zig",
        "tests/config_test.zig",
    };
    for (integration_tests) |path| {
        const t = b.addTest(.{
            .root_source_file = .{ .path = path },
            .target = target,
            .optimize = optimize,
        });
        t.root_module.addImport("zest", zest_mod);
        test_step.dependOn(&b.addRunArtifact(t).step);
    }

    // Benchmarks
    const bench_step = b.step("bench", "Run the StatsD parser benchmarks");
    if (b.lazyDependency("zbench", .{ .target = target, .optimize = .ReleaseFast })) |zbench_dep| {
        const bench = b.addExecutable(.{
            .name = "zest-bench",
            .root_source_file = .{ .path = "bench/parse_bench.zig" },
            .target = target,
            .optimize = .ReleaseFast,
        });
        bench.root_module.addImport("zbench", zbench_dep.module("zbench"));
        bench.root_module.addImport("zest", zest_mod);
        bench_step.dependOn(&b.addRunArtifact(bench).step);
    }
}
