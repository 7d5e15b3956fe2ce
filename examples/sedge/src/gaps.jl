# Detecting and (carefully) filling gaps in regular series.

"""
    DEFAULT_MAX_GAP

Longest run of missing samples that [`fill_gaps`](@ref) will interpolate
across. Longer gaps are left as `MISSING`: over a tidal half-cycle a straight
line is simply wrong.
"""
const DEFAULT_MAX_GAP = Minute(90)

"""
    Gap

A run of consecutive `MISSING` samples: indices `first:last` into the series
plus the timestamps of the last good sample before and the first good sample
after (`nothing` at the edges).
"""
struct Gap
    first::Int
    last::Int
    before::Union{Nothing,DateTime}
    after::Union{Nothing,DateTime}
end

Base.length(g::Gap) = g.last - g.first + 1

"""
    duration(g::Gap) -> Millisecond

Time between the bracketing samples, or `nothing` when the gap touches an edge
of the series.
"""
function duration(g::Gap)
    (g.before === nothing || g.after === nothing) && return nothing
    return g.after - g.before
end

"""
    find_gaps(s::LevelSeries; min_length = 1) -> Vector{Gap}

All runs of at least `min_length` consecutive `MISSING` samples.
"""
function find_gaps(s::LevelSeries; min_length::Integer = 1)
    gaps = Gap[]
    n = length(s)
    i = 1
    while i <= n
        if s.flags[i] == MISSING
            j = i
            while j < n && s.flags[j + 1] == MISSING
                j += 1
            end
            if j - i + 1 >= min_length
                before = i > 1 ? s.time[i - 1] : nothing
                after = j < n ? s.time[j + 1] : nothing
                push!(gaps, Gap(i, j, before, after))
            end
            i = j + 1
        else
            i += 1
        end
    end
    return gaps
end

"""
    fill_gaps(s::LevelSeries; max_gap = DEFAULT_MAX_GAP, method = :linear) -> LevelSeries

Return a copy of `s` in which interior gaps spanning at most `max_gap`
(measured between the bracketing valid samples) are filled and flagged
`INTERPOLATED`.

`method` is `:linear` or `:previous` (carry the last value forward, which is
what the river forecasting team prefers for stage data on weirs).
"""
function fill_gaps(s::LevelSeries; max_gap::Period = DEFAULT_MAX_GAP, method::Symbol = :linear)
    method in (:linear, :previous) ||
        throw(ArgumentError("unknown gap-filling method :$method"))
    out = copy(s)
    limit = Millisecond(max_gap)
    for g in find_gaps(s)
        d = duration(g)
        (d === nothing || d > limit) && continue
        i0, i1 = g.first - 1, g.last + 1
        v0, v1 = s.level[i0], s.level[i1]
        (isnan(v0) || isnan(v1)) && continue
        t0 = Dates.value(s.time[i0])
        span = Dates.value(s.time[i1]) - t0
        for k in g.first:g.last
            out.level[k] = if method === :linear
                v0 + (v1 - v0) * (Dates.value(s.time[k]) - t0) / span
            else
                v0
            end
            out.flags[k] = INTERPOLATED
        end
    end
    return out
end
