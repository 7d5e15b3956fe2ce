# Automatic QC tests. Each test takes a LevelSeries and returns a *new* series
# with flags updated; none of them modify levels.

"Number of samples in the centred rolling window used by [`flag_spikes`](@ref)."
const DEFAULT_WINDOW = 48

"Robust z-score above which a sample is flagged as a spike."
const DEFAULT_Z_THRESHOLD = 3.5

"Minimum number of identical consecutive readings flagged by [`flag_flatline`](@ref)."
const DEFAULT_FLATLINE_RUN = 12

"Largest plausible change in level between consecutive samples, metres."
const DEFAULT_MAX_RATE = 0.35

# Consistency constant that makes the MAD an unbiased estimator of σ for
# normally distributed data.
const MAD_SCALE = 1.4826

# Do not let a zero MAD (e.g. slack water in a harbour) turn every tiny wiggle
# into a spike.
const MAD_FLOOR = 0.005

# A soft test never overrides a hard failure or a missing value.
_downgrade(old::QCFlag, new::QCFlag) = (old == BAD || old == MISSING) ? old : new

"""
    flag_range(s; lo = -6.0, hi = 15.0) -> LevelSeries

Flag samples outside the physically possible range `[lo, hi]` (metres above
datum) as `BAD`. Samples inside the range that have not been checked yet become
`GOOD`.
"""
function flag_range(s::LevelSeries; lo::Real = -6.0, hi::Real = 15.0)
    lo < hi || throw(ArgumentError("lo must be below hi"))
    out = copy(s)
    for i in eachindex(out.level)
        v = out.level[i]
        isnan(v) && continue
        if v < lo || v > hi
            out.flags[i] = BAD
        elseif out.flags[i] == NOT_CHECKED
            out.flags[i] = GOOD
        end
    end
    return out
end

"""
    flag_spikes(s; window = DEFAULT_WINDOW, threshold = DEFAULT_Z_THRESHOLD,
                min_periods = 8) -> LevelSeries

Flag isolated spikes as `SUSPECT` using a centred rolling median and median
absolute deviation (Hampel filter).

For each sample the median `m` and MAD of the usable samples in the `window`
around it are computed; the sample is a spike when
`|x - m| / (MAD_SCALE * max(MAD, MAD_FLOOR)) > threshold`. Windows with fewer
than `min_periods` usable samples are skipped.

With 15-minute data the default window of $(DEFAULT_WINDOW) samples covers
twelve hours, i.e. roughly one semidiurnal tide.
"""
function flag_spikes(s::LevelSeries;
                     window::Integer = DEFAULT_WINDOW,
                     threshold::Real = DEFAULT_Z_THRESHOLD,
                     min_periods::Integer = 8)
    window >= 3 || throw(ArgumentError("window must be at least 3 samples"))
    out = copy(s)
    n = length(s)
    half = window ÷ 2
    buf = Float64[]
    for i in 1:n
        isnan(s.level[i]) && continue
        empty!(buf)
        for j in max(1, i - half):min(n, i + half)
            j == i && continue
            if isusable(s.flags[j]) && !isnan(s.level[j])
                push!(buf, s.level[j])
            end
        end
        length(buf) < min_periods && continue
        m = median(buf)
        mad = median!(abs.(buf .- m))
        z = abs(s.level[i] - m) / (MAD_SCALE * max(mad, MAD_FLOOR))
        if z > threshold
            out.flags[i] = _downgrade(out.flags[i], SUSPECT)
        end
    end
    return out
end

"""
    flag_flatline(s; min_run = DEFAULT_FLATLINE_RUN, tolerance = 0.001) -> LevelSeries

Flag runs of at least `min_run` consecutive readings that differ by no more
than `tolerance` metres as `BAD`. A stuck pressure transducer is the usual
cause; a genuinely flat river stage is rare at millimetre resolution.
"""
function flag_flatline(s::LevelSeries;
                       min_run::Integer = DEFAULT_FLATLINE_RUN,
                       tolerance::Real = 0.001)
    out = copy(s)
    n = length(s)
    i = 1
    while i <= n
        if isnan(s.level[i])
            i += 1
            continue
        end
        j = i
        while j < n && !isnan(s.level[j + 1]) && abs(s.level[j + 1] - s.level[i]) <= tolerance
            j += 1
        end
        if j - i + 1 >= min_run
            for k in i:j
                out.flags[k] = BAD
            end
        end
        i = j + 1
    end
    return out
end

"""
    flag_rate(s; max_rate = DEFAULT_MAX_RATE) -> LevelSeries

Flag samples whose change from the previous valid sample exceeds `max_rate`
metres as `SUSPECT`. The threshold is per *sample*, so it must be scaled when
the series has not been resampled to the usual 15-minute grid.
"""
function flag_rate(s::LevelSeries; max_rate::Real = DEFAULT_MAX_RATE)
    max_rate > 0 || throw(ArgumentError("max_rate must be positive"))
    out = copy(s)
    prev = NaN
    for i in eachindex(s.level)
        v = s.level[i]
        isnan(v) && continue
        if !isnan(prev) && abs(v - prev) > max_rate
            out.flags[i] = _downgrade(out.flags[i], SUSPECT)
        end
        if isusable(out.flags[i])
            prev = v
        end
    end
    return out
end
