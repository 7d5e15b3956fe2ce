//! Parser for the StatsD line protocol with the DogStatsD tag extension:
//!
//!     <name>:<value>|<type>[|@<sample rate>][|#<key>:<value>,...]
//!
//! One datagram may carry several lines separated by '\n' (see udp.zig).

const std = @import("std");

/// Tags beyond this many make the whole line invalid.
pub const max_tags: usize = 16;

pub const MetricType = enum {
    counter,
    gauge,
    timer,
    histogram,
    set,

    pub fn fromCode(code: []const u8) ?MetricType {
        const codes = [_]struct { []const u8, MetricType }{
            .{ "c", .counter },
            .{ "g", .gauge },
            .{ "ms", .timer },
            .{ "h", .histogram },
            // DogStatsD distributions are treated like histograms.
            .{ "d", .histogram },
            .{ "s", .set },
        };
        for (codes) |entry| {
            if (std.mem.eql(u8, code, entry[0])) return entry[1];
        }
        return null;
    }
};

pub const Tag = struct {
    key: []const u8,
    value: []const u8,
};

pub const Sample = struct {
    name: []const u8,
    value: f64,
    kind: MetricType,
    sample_rate: f64 = 1.0,
    /// Gauges written as "+3" or "-3" adjust the current value instead of
    /// replacing it.
    relative: bool = false,
    /// For sets: the member that was observed.
    set_member: []const u8 = "",
    tags: [max_tags]Tag = undefined,
    tag_count: usize = 0,

    pub fn tagSlice(self: *const Sample) []const Tag {
        return self.tags[0..self.tag_count];
    }
};

pub const ParseError = error{
    EmptyName,
    MissingValue,
    MissingType,
    UnknownType,
    InvalidValue,
    InvalidSampleRate,
    TooManyTags,
};

pub fn parseLine(line: []const u8, parse_tags: bool) ParseError!Sample {
    const trimmed = std.mem.trim(u8, line, " \t\r");
    const colon = std.mem.indexOfScalar(u8, trimmed, ':') orelse return error.MissingValue;
    if (colon == 0) return error.EmptyName;

    var fields = std.mem.splitScalar(u8, trimmed[colon + 1 ..], '|');
    const raw_value = fields.next() orelse return error.MissingValue;
    const type_code = fields.next() orelse return error.MissingType;

    var sample = Sample{
        .name = trimmed[0..colon],
        .value = 0,
        .kind = MetricType.fromCode(type_code) orelse return error.UnknownType,
    };

    if (raw_value.len == 0) return error.MissingValue;
    if (sample.kind == .set) {
        sample.set_member = raw_value;
        sample.value = 1;
    } else {
        sample.relative = sample.kind == .gauge and (raw_value[0] == '+' or raw_value[0] == '-');
        sample.value = std.fmt.parseFloat(f64, raw_value) catch return error.InvalidValue;
        if (!std.math.isFinite(sample.value)) return error.InvalidValue;
    }

    while (fields.next()) |field| {
        if (field.len == 0) continue;
        switch (field[0]) {
            '@' => {
                const rate = std.fmt.parseFloat(f64, field[1..]) catch return error.InvalidSampleRate;
                if (!(rate > 0 and rate <= 1)) return error.InvalidSampleRate;
                sample.sample_rate = rate;
            },
            '#' => if (parse_tags) try parseTags(&sample, field[1..]),
            // Other extensions (e.g. DogStatsD "c:" container ids, "T"
            // timestamps) are accepted and ignored.
            else => {},
        }
    }
    return sample;
}

fn parseTags(sample: *Sample, text: []const u8) ParseError!void {
    var it = std.mem.splitScalar(u8, text, ',');
    while (it.next()) |raw| {
        if (raw.len == 0) continue;
        if (sample.tag_count == max_tags) return error.TooManyTags;
        const tag: Tag = if (std.mem.indexOfScalar(u8, raw, ':')) |sep|
            .{ .key = raw[0..sep], .value = raw[sep + 1 ..] }
        else
            .{ .key = raw, .value = "" };
        sample.tags[sample.tag_count] = tag;
        sample.tag_count += 1;
    }
}

const testing = std.testing;

test "counter with sample rate" {
    const s = try parseLine("api.requests:3|c|@0.5", true);
    try testing.expectEqualStrings("api.requests", s.name);
    try testing.expectEqual(MetricType.counter, s.kind);
    try testing.expectEqual(@as(f64, 3), s.value);
    try testing.expectEqual(@as(f64, 0.5), s.sample_rate);
}

test "relative gauge" {
    const s = try parseLine("queue.depth:-4|g", true);
    try testing.expect(s.relative);
    try testing.expectEqual(@as(f64, -4), s.value);
    const abs = try parseLine("queue.depth:12|g", true);
    try testing.expect(!abs.relative);
}

test "tags" {
    const s = try parseLine("db.query:12.5|ms|#table:users,primary", true);
    try testing.expectEqual(@as(usize, 2), s.tag_count);
    try testing.expectEqualStrings("table", s.tags[0].key);
    try testing.expectEqualStrings("users", s.tags[0].value);
    try testing.expectEqualStrings("", s.tags[1].value);

    const untagged = try parseLine("db.query:12.5|ms|#table:users", false);
    try testing.expectEqual(@as(usize, 0), untagged.tag_count);
}

test "malformed lines" {
    try testing.expectError(error.MissingType, parseLine("foo:1", true));
    try testing.expectError(error.UnknownType, parseLine("foo:1|x", true));
    try testing.expectError(error.EmptyName, parseLine(":1|c", true));
    try testing.expectError(error.InvalidValue, parseLine("foo:abc|c", true));
    try testing.expectError(error.InvalidSampleRate, parseLine("foo:1|c|@1.5", true));
}
