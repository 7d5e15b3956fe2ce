# The standard QC pipeline.

"""
    run_qc(s::LevelSeries, cfg::QCConfig = QCConfig()) -> LevelSeries

Run the full pipeline on a raw series:

1. range check ([`flag_range`](@ref)) on the raw samples;
2. [`resample`](@ref) onto a `cfg.step` grid (bad samples are dropped here);
3. [`fill_gaps`](@ref) up to `cfg.max_gap`;
4. [`flag_flatline`](@ref), [`flag_spikes`](@ref) and [`flag_rate`](@ref);
5. everything still `NOT_CHECKED` becomes `GOOD`.

The order matters: flatlines are detected before spikes so that a stuck
sensor does not produce a MAD of zero around its neighbours.
"""
function run_qc(s::LevelSeries, cfg::QCConfig = QCConfig())
    lo, hi = cfg.valid_range
    r = flag_range(s; lo = lo, hi = hi)
    r = resample(r; step = cfg.step, min_count = cfg.min_count)
    r = fill_gaps(r; max_gap = cfg.max_gap, method = cfg.fill_method)
    r = flag_flatline(r; min_run = cfg.flatline_run)
    r = flag_spikes(r; window = cfg.window, threshold = cfg.z_threshold)
    r = flag_rate(r; max_rate = cfg.max_rate)
    for i in eachindex(r.flags)
        r.flags[i] == NOT_CHECKED && (r.flags[i] = GOOD)
    end
    return r
end

"""
    run_qc(series::AbstractDict{String,LevelSeries}, cfg = QCConfig())

Apply [`run_qc`](@ref) to every station, logging (not throwing) on failures
so that one broken logger does not stop the nightly batch.
"""
function run_qc(series::AbstractDict{String,LevelSeries}, cfg::QCConfig = QCConfig())
    out = Dict{String,LevelSeries}()
    for (id, s) in series
        try
            out[id] = run_qc(s, cfg)
        catch err
            @error "QC failed for station $id" exception = (err, catch_backtrace())
        end
    end
    return out
end

"""
    summarize(s::LevelSeries) -> NamedTuple

Counts per flag plus the share of usable samples, e.g. for the daily report.
"""
function summarize(s::LevelSeries)
    n = length(s)
    good = flagcount(s, GOOD)
    interp = flagcount(s, INTERPOLATED)
    return (station = s.station,
            samples = n,
            good = good,
            suspect = flagcount(s, SUSPECT),
            bad = flagcount(s, BAD),
            interpolated = interp,
            missing = flagcount(s, MISSING),
            usable_share = n == 0 ? 0.0 : round((good + interp) / n; digits = 4),
            first = n == 0 ? nothing : first(s.time),
            last = n == 0 ? nothing : last(s.time))
end
