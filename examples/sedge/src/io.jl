# Reading and writing logger exports.
#
# Most of our loggers (Seba Dipper-PT, OTT PLS-C and the old Druck units on the
# estuary piers) export a CSV with a timestamp column and one level column.
# Column names differ by firmware, hence the list of aliases below.

const TIME_COLUMNS = ("timestamp", "time", "datetime", "date_time", "Zeit")
const LEVEL_COLUMNS = ("level", "level_m", "stage", "water_level", "Wasserstand")

"""
    LOG_DATEFORMAT

Timestamp format used when a log does not parse with the ISO default. The
Druck exports write `dd.mm.yyyy HH:MM:SS`.
"""
const LOG_DATEFORMAT = dateformat"dd.mm.yyyy HH:MM:SS"

"""
    missing_sentinel() -> Float64

Value that loggers write for "no reading". Read from the environment variable
`SEDGE_MISSING_SENTINEL` on every call so it can be changed without
re-precompiling; falls back to `-9999.0`.
"""
missing_sentinel() = parse(Float64, get(ENV, "SEDGE_MISSING_SENTINEL", "-9999.0"))

function _findcolumn(names, candidates, what, path)
    lower = Dict(lowercase(String(n)) => n for n in names)
    for c in candidates
        haskey(lower, lowercase(c)) && return lower[lowercase(c)]
    end
    throw(ArgumentError("no $what column in $path (looked for $(join(candidates, ", ")))"))
end

function _parsetime(x, df)
    x isa DateTime && return x
    x isa Date && return DateTime(x)
    str = strip(String(x))
    t = tryparse(DateTime, str)
    t === nothing || return t
    t = tryparse(DateTime, str, df)
    t === nothing && throw(ArgumentError("cannot parse timestamp \"$str\""))
    return t
end

"""
    read_log(path; station = basename-without-extension, delim = ',',
             dateformat = LOG_DATEFORMAT, scale = 1.0, datum_offset = 0.0)

Read one logger export into a [`LevelSeries`](@ref).

* values equal to [`missing_sentinel()`](@ref missing_sentinel), empty cells and
  non-numeric cells become `NaN` / `MISSING`;
* `scale` converts the raw unit to metres (use `0.01` for centimetre loggers);
* `datum_offset` is added after scaling;
* rows are sorted by time and exact duplicates are dropped (the Seba firmware
  repeats the last row after a power cycle).
"""
function read_log(path::AbstractString;
                  station::AbstractString = first(splitext(basename(path))),
                  delim = ',',
                  dateformat = LOG_DATEFORMAT,
                  scale::Real = 1.0,
                  datum_offset::Real = 0.0)
    isfile(path) || throw(ArgumentError("log file not found: $path"))
    f = CSV.File(path; delim = delim, stringtype = String, silencewarnings = true)
    cols = propertynames(f)
    tcol = _findcolumn(cols, TIME_COLUMNS, "time", path)
    lcol = _findcolumn(cols, LEVEL_COLUMNS, "level", path)

    sentinel = missing_sentinel()
    time = DateTime[]
    level = Float64[]
    sizehint!(time, length(f))
    sizehint!(level, length(f))
    for row in f
        raw_t = getproperty(row, tcol)
        raw_t === missing && continue
        push!(time, _parsetime(raw_t, dateformat))
        v = getproperty(row, lcol)
        val = if v === missing
            NaN
        elseif v isa Real
            Float64(v)
        else
            something(tryparse(Float64, strip(String(v))), NaN)
        end
        push!(level, val == sentinel ? NaN : val * scale + datum_offset)
    end

    p = sortperm(time)
    time, level = time[p], level[p]
    keep = trues(length(time))
    for i in 2:length(time)
        if time[i] == time[i - 1]
            keep[i] = false
            isnan(level[i - 1]) && (level[i - 1] = level[i])
        end
    end
    ndup = count(!, keep)
    ndup > 0 && @debug "dropped $ndup duplicate timestamps" path
    return LevelSeries(station, time[keep], level[keep])
end

"""
    read_logs(dir = data_dir(); pattern = r"\\.csv\$", kwargs...) -> Dict{String,LevelSeries}

Read every matching file in `dir`. Keys are station ids derived from file
names (`KRV-03_2024-05.csv` → `"KRV-03"`); files for the same station are
concatenated in chronological order.
"""
function read_logs(dir::AbstractString = data_dir(); pattern::Regex = r"\.csv$", kwargs...)
    isdir(dir) || throw(ArgumentError("data directory does not exist: $dir"))
    out = Dict{String,LevelSeries}()
    for file in sort(readdir(dir))
        occursin(pattern, file) || continue
        id = first(split(first(splitext(file)), '_'))
        s = read_log(joinpath(dir, file); station = id, kwargs...)
        out[id] = haskey(out, id) ? _concat(out[id], s) : s
    end
    isempty(out) && @warn "no log files matched $(pattern) in $dir"
    return out
end

function _concat(a::LevelSeries, b::LevelSeries)
    t = vcat(a.time, b.time)
    p = sortperm(t)
    t = t[p]
    l = vcat(a.level, b.level)[p]
    fl = vcat(a.flags, b.flags)[p]
    keep = [i == 1 || t[i] != t[i - 1] for i in eachindex(t)]
    return LevelSeries(a.station, t[keep], l[keep], fl[keep])
end

"""
    write_flags(path, s::LevelSeries; delim = ',')

Write `s` as CSV with columns `timestamp,level_m,flag`. Missing levels are
written as empty cells, not as the sentinel.
"""
function write_flags(path::AbstractString, s::LevelSeries; delim = ',')
    mkpath(dirname(abspath(path)))
    open(path, "w") do io
        println(io, join(("timestamp", "level_m", "flag"), delim))
        for i in eachindex(s.time)
            v = s.level[i]
            lv = isnan(v) ? "" : string(round(v; digits = 4))
            println(io, Dates.format(s.time[i], "yyyy-mm-ddTHH:MM:SS"), delim, lv, delim,
                    Int(s.flags[i]))
        end
    end
    return path
end
