# Regularising irregular logger output onto a fixed grid.

"""
    binstart(t, step, origin) -> DateTime

Start of the bin of width `step` (anchored at `origin`) that contains `t`.
"""
function binstart(t::DateTime, step::Period, origin::DateTime)
    ms = Dates.value(Millisecond(step))
    Δ = Dates.value(t - origin)
    return origin + Millisecond(fld(Δ, ms) * ms)
end

"""
    resample(s::LevelSeries; step = Minute(15), agg = mean, min_count = 2,
             origin = nothing, closed = :left) -> LevelSeries

Aggregate `s` onto a regular grid with spacing `step`.

Each output sample summarises the usable input samples (see
[`isusable`](@ref Sedge.isusable)) that fall into its bin. Bins with fewer than
`min_count` usable samples become `NaN` and are flagged `MISSING`; bins whose
inputs were partly interpolated keep the `INTERPOLATED` flag so that later
steps do not treat them as measured.

`origin` anchors the grid; by default it is the first timestamp floored to
midnight, which keeps grids from different months aligned. Timestamps of the
output are bin *starts* when `closed = :left` and bin ends for `:right`
(the Environment Agency feed uses right-labelled bins).

```julia
julia> resample(s; step = Minute(10), agg = median)
```
"""
function resample(s::LevelSeries;
                  step::Period = Minute(15),
                  agg = mean,
                  min_count::Integer = 2,
                  origin::Union{Nothing,DateTime} = nothing,
                  closed::Symbol = :left)
    closed in (:left, :right) || throw(ArgumentError("closed must be :left or :right"))
    min_count >= 1 || throw(ArgumentError("min_count must be at least 1"))
    isempty(s) && return copy(s)

    org = origin === nothing ? floor(first(s.time), Day) : origin
    lo = binstart(first(s.time), step, org)
    hi = binstart(last(s.time), step, org)
    grid = collect(lo:step:hi)

    n = length(grid)
    level = fill(NaN, n)
    flags = fill(MISSING, n)

    buf = Float64[]
    i = 1
    m = length(s)
    for (k, b) in enumerate(grid)
        bend = b + step
        empty!(buf)
        interp = false
        while i <= m && s.time[i] < bend
            if s.time[i] >= b && isusable(s.flags[i]) && !isnan(s.level[i])
                push!(buf, s.level[i])
                interp |= s.flags[i] == INTERPOLATED
            end
            i += 1
        end
        if length(buf) >= min_count
            level[k] = agg(buf)
            flags[k] = interp ? INTERPOLATED : NOT_CHECKED
        end
    end

    times = closed === :left ? grid : grid .+ step
    return LevelSeries(s.station, times, level, flags)
end

"""
    align(a::LevelSeries, b::LevelSeries; tolerance = Minute(2)) -> (a′, b′)

Restrict two series to the timestamps they share (within `tolerance`), e.g.
to compare a primary sensor with its backup radar. Both results use the
timestamps of `a`.
"""
function align(a::LevelSeries, b::LevelSeries; tolerance::Period = Minute(2))
    ia = Int[]
    ib = Int[]
    j = 1
    tol = Millisecond(tolerance)
    for i in eachindex(a.time)
        while j <= length(b) && b.time[j] < a.time[i] - tol
            j += 1
        end
        j > length(b) && break
        if abs(b.time[j] - a.time[i]) <= tol
            push!(ia, i)
            push!(ib, j)
        end
    end
    a2 = a[ia]
    b2 = LevelSeries(b.station, a2.time, b.level[ib], b.flags[ib])
    return a2, b2
end
