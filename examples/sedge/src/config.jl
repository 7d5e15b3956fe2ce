# Configuration: QC parameters, profiles from config/stations.toml and
# environment-variable overrides.

"""
    QCConfig(; kwargs...)

Parameters for [`run_qc`](@ref). Every field has a default, so
`QCConfig(window = 96)` changes one thing and keeps the rest.

| field          | default                  |
|:---------------|:-------------------------|
| `step`         | `Minute(15)`             |
| `min_count`    | `2`                      |
| `window`       | `DEFAULT_WINDOW`         |
| `z_threshold`  | `DEFAULT_Z_THRESHOLD`    |
| `flatline_run` | `DEFAULT_FLATLINE_RUN`   |
| `max_rate`     | `DEFAULT_MAX_RATE`       |
| `max_gap`      | `DEFAULT_MAX_GAP`        |
| `valid_range`  | `(-6.0, 15.0)`           |
| `fill_method`  | `:linear`                |
"""
Base.@kwdef struct QCConfig
    step::Minute = Minute(15)
    min_count::Int = 2
    window::Int = DEFAULT_WINDOW
    z_threshold::Float64 = DEFAULT_Z_THRESHOLD
    flatline_run::Int = DEFAULT_FLATLINE_RUN
    max_rate::Float64 = DEFAULT_MAX_RATE
    max_gap::Minute = DEFAULT_MAX_GAP
    valid_range::Tuple{Float64,Float64} = (-6.0, 15.0)
    fill_method::Symbol = :linear
end

"""
    data_dir() -> String

Directory that [`read_logs`](@ref) reads from when called without arguments:
`ENV["SEDGE_DATA_DIR"]`, or `/var/lib/sedge` when that is unset.
"""
data_dir() = get(ENV, "SEDGE_DATA_DIR", "/var/lib/sedge")

"""
    active_profile() -> String

Name of the profile selected through `SEDGE_PROFILE` (default `"default"`).
"""
active_profile() = get(ENV, "SEDGE_PROFILE", "default")

"""
    config_path() -> String

Location of the stations/profile file: `ENV["SEDGE_CONFIG"]` if set, otherwise
`config/stations.toml` inside the package directory.
"""
config_path() = get(ENV, "SEDGE_CONFIG", joinpath(pkgdir(@__MODULE__), "config", "stations.toml"))

# Keys accepted in a profile table, mapped to QCConfig fields and converters.
const PROFILE_KEYS = Dict{String,Tuple{Symbol,Any}}(
    "step_minutes" => (:step, x -> Minute(Int(x))),
    "min_count" => (:min_count, Int),
    "window" => (:window, Int),
    "z_threshold" => (:z_threshold, Float64),
    "flatline_run" => (:flatline_run, Int),
    "max_rate_m" => (:max_rate, Float64),
    "max_gap_minutes" => (:max_gap, x -> Minute(Int(x))),
    "valid_range_m" => (:valid_range, x -> (Float64(x[1]), Float64(x[2]))),
    "fill_method" => (:fill_method, Symbol),
)

function _apply!(kw::Dict{Symbol,Any}, table::AbstractDict, where_)
    for (k, v) in table
        v isa AbstractDict && continue   # nested tables (e.g. stations) are not QC keys
        if haskey(PROFILE_KEYS, k)
            field, conv = PROFILE_KEYS[k]
            kw[field] = conv(v)
        else
            @warn "ignoring unknown key \"$k\" in [$where_]"
        end
    end
    return kw
end

"""
    load_profile(name = active_profile(); path = config_path()) -> QCConfig

Build a [`QCConfig`](@ref) from the `[default]` table of `path`, overlaid with
the table called `name` (e.g. `[production]`). Keys absent from both fall back
to the compiled-in defaults.
"""
function load_profile(name::AbstractString = active_profile(); path::AbstractString = config_path())
    isfile(path) || throw(ArgumentError("config file not found: $path"))
    cfg = TOML.parsefile(path)
    kw = Dict{Symbol,Any}()
    haskey(cfg, "default") && _apply!(kw, cfg["default"], "default")
    if name != "default"
        haskey(cfg, name) || throw(ArgumentError("profile \"$name\" not found in $path"))
        _apply!(kw, cfg[name], name)
    end
    return QCConfig(; kw...)
end

"""
    load_stations(path = config_path()) -> Dict{String,Station}

Read the `[stations.<id>]` tables from the config file.
"""
function load_stations(path::AbstractString = config_path())
    cfg = TOML.parsefile(path)
    out = Dict{String,Station}()
    for (id, t) in get(cfg, "stations", Dict{String,Any}())
        out[id] = Station(id, t["name"], t["lat"], t["lon"];
                          datum_offset = get(t, "datum_offset_m", 0.0),
                          kind = Symbol(get(t, "kind", "tide")))
    end
    return out
end
