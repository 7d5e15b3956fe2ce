"""
    Sedge

Read, regularise and quality-control water-level logs from tide gauges and
river stage sensors.

The typical pipeline is

```julia
using Sedge, Dates

s   = read_log("data/KRV-03_2024-05.csv"; station = "KRV-03")
cfg = load_profile("production")
out = run_qc(s, cfg)
summarize(out)
```

Everything operates on [`LevelSeries`](@ref), a thin wrapper around three
equally long vectors (timestamps, levels in metres, QC flags). Missing samples
are stored as `NaN` with flag [`MISSING`](@ref QCFlag) rather than `missing`,
which keeps the inner loops type-stable and fast on multi-year logs.
"""
module Sedge

using Dates
using Statistics
using Logging
using DataFrames
import CSV
import TOML

export QCFlag, NOT_CHECKED, GOOD, SUSPECT, BAD, INTERPOLATED, MISSING
export Station, LevelSeries, flagcount
export read_log, read_logs, write_flags, missing_sentinel
export resample, align
export find_gaps, fill_gaps, Gap
export flag_range, flag_spikes, flag_flatline, flag_rate
export QCConfig, load_profile, load_stations, data_dir, active_profile
export run_qc, summarize

include("types.jl")
include("io.jl")
include("resample.jl")
include("gaps.jl")
include("anomaly.jl")
include("config.jl")
include("qc.jl")

end # module
