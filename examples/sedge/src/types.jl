"""
    QCFlag

Quality flag attached to every sample of a [`LevelSeries`](@ref).

The numeric codes loosely follow the IOC sea-level QC manual so that flags can
be exported to partners without a lookup table:

| flag           | code | meaning                                         |
|:---------------|-----:|:------------------------------------------------|
| `NOT_CHECKED`  |    0 | raw value, no test has run yet                  |
| `GOOD`         |    1 | passed every test that was run                  |
| `SUSPECT`      |    3 | failed a soft test (spike, rate of change)      |
| `BAD`          |    4 | failed a hard test (range, flatline)            |
| `INTERPOLATED` |    8 | value filled by [`fill_gaps`](@ref)             |
| `MISSING`      |    9 | no value (logger gap or sentinel in the file)   |
"""
@enum QCFlag::UInt8 begin
    NOT_CHECKED = 0
    GOOD = 1
    SUSPECT = 3
    BAD = 4
    INTERPOLATED = 8
    MISSING = 9
end

"""
    isusable(flag) -> Bool

Whether a sample with this flag may feed into statistics (rolling medians,
resampling aggregates). Suspect samples are deliberately excluded.
"""
isusable(f::QCFlag) = f == GOOD || f == NOT_CHECKED || f == INTERPOLATED

"""
    Station(id, name, latitude, longitude; datum_offset = 0.0, kind = :tide)

Metadata for one gauge. `datum_offset` (metres) is added to raw readings to
bring them onto the local chart datum; river stations usually leave it at zero.
"""
struct Station
    id::String
    name::String
    latitude::Float64
    longitude::Float64
    datum_offset::Float64
    kind::Symbol
end

function Station(id, name, latitude, longitude; datum_offset = 0.0, kind = :tide)
    kind in (:tide, :river) ||
        throw(ArgumentError("station kind must be :tide or :river, got :$kind"))
    return Station(String(id), String(name), Float64(latitude), Float64(longitude),
                   Float64(datum_offset), kind)
end

Base.show(io::IO, st::Station) = print(io, "Station(", st.id, ", \"", st.name, "\", :", st.kind, ")")

"""
    LevelSeries(station, time, level[, flags])

A water-level time series for one station. `time` must be sorted and free of
duplicates; `level` is in metres, `NaN` marks a missing value. When `flags`
is omitted every finite sample starts as `NOT_CHECKED` and every `NaN` as
`MISSING`.
"""
mutable struct LevelSeries
    station::String
    time::Vector{DateTime}
    level::Vector{Float64}
    flags::Vector{QCFlag}

    function LevelSeries(station::AbstractString, time::Vector{DateTime},
                         level::Vector{Float64}, flags::Vector{QCFlag})
        n = length(time)
        length(level) == n && length(flags) == n ||
            throw(DimensionMismatch("time, level and flags must have equal length"))
        issorted(time) || throw(ArgumentError("timestamps must be sorted"))
        for i in 2:n
            time[i] == time[i - 1] &&
                throw(ArgumentError("duplicate timestamp $(time[i]) in series $station"))
        end
        return new(String(station), time, level, flags)
    end
end

function LevelSeries(station::AbstractString, time::AbstractVector{DateTime},
                     level::AbstractVector{<:Real})
    lv = Float64.(level)
    flags = [isnan(v) ? MISSING : NOT_CHECKED for v in lv]
    return LevelSeries(station, collect(time), lv, flags)
end

Base.length(s::LevelSeries) = length(s.time)
Base.isempty(s::LevelSeries) = isempty(s.time)
Base.copy(s::LevelSeries) = LevelSeries(s.station, copy(s.time), copy(s.level), copy(s.flags))
Base.firstindex(s::LevelSeries) = 1
Base.lastindex(s::LevelSeries) = length(s)

function Base.getindex(s::LevelSeries, r::AbstractVector{<:Integer})
    return LevelSeries(s.station, s.time[r], s.level[r], s.flags[r])
end

function Base.getindex(s::LevelSeries, r::StepRange{DateTime})
    idx = findall(t -> first(r) <= t <= last(r), s.time)
    return s[idx]
end

"""
    flagcount(s::LevelSeries, flag) -> Int

Number of samples in `s` carrying `flag`.
"""
flagcount(s::LevelSeries, flag::QCFlag) = count(==(flag), s.flags)

function Base.show(io::IO, s::LevelSeries)
    if isempty(s)
        print(io, "LevelSeries(", s.station, ", empty)")
    else
        print(io, "LevelSeries(", s.station, ", ", length(s), " samples, ",
              first(s.time), " … ", last(s.time), ")")
    end
end

"""
    DataFrames.DataFrame(s::LevelSeries)

Tabular view with columns `:time`, `:level` and `:flag` (as `UInt8` codes).
"""
function DataFrames.DataFrame(s::LevelSeries)
    return DataFrame(; time = s.time, level = s.level, flag = UInt8.(s.flags))
end
