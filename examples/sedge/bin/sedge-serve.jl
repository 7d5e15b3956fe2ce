#!/usr/bin/env julia
#
# Minimal HTTP front-end for Sedge. Reads every log in SEDGE_DATA_DIR at start
# and again on POST /reload, runs QC with the active profile and serves JSON.
#
#   GET  /health                 -> {"status":"ok", ...}
#   GET  /stations               -> station metadata from config/stations.toml
#   GET  /qc/<station>?from=&to= -> QC'd series for one station
#   GET  /summary                -> flag counts for every station
#   POST /reload                 -> re-read logs and re-run QC
#
# Settings (environment):
#   SEDGE_HOST     bind address            (default 127.0.0.1)
#   SEDGE_PORT     port                    (default 8417)
#   SEDGE_PROFILE  QC profile              (default "default")
#   SEDGE_DATA_DIR directory with logs     (default /var/lib/sedge)
#   SEDGE_MAX_ROWS cap on rows per /qc reply (default 20000)

using Sedge
using Dates
using HTTP
using JSON3
using Logging

const HOST = get(ENV, "SEDGE_HOST", "127.0.0.1")
const PORT = parse(Int, get(ENV, "SEDGE_PORT", "8417"))
const MAX_ROWS = parse(Int, get(ENV, "SEDGE_MAX_ROWS", "20000"))

const STATE = Ref{Dict{String,LevelSeries}}(Dict{String,LevelSeries}())
const STATIONS = Ref{Dict{String,Station}}(Dict{String,Station}())
const LOADED_AT = Ref{DateTime}(DateTime(0))
const LOCK = ReentrantLock()

function reload!()
    cfg = load_profile()
    raw = read_logs(data_dir())
    qc = run_qc(raw, cfg)
    lock(LOCK) do
        STATE[] = qc
        STATIONS[] = load_stations()
        LOADED_AT[] = now(UTC)
    end
    @info "loaded $(length(qc)) stations" profile = active_profile() dir = data_dir()
    return length(qc)
end

json(x; status = 200) =
    HTTP.Response(status, ["Content-Type" => "application/json"], JSON3.write(x))

function parse_dt(req, key)
    q = HTTP.queryparams(HTTP.URI(req.target))
    haskey(q, key) || return nothing
    return tryparse(DateTime, q[key])
end

function handle_qc(req::HTTP.Request)
    id = HTTP.getparams(req)["station"]
    s = lock(() -> get(STATE[], id, nothing), LOCK)
    s === nothing && return json((error = "unknown station $id",); status = 404)
    from = something(parse_dt(req, "from"), first(s.time))
    to = something(parse_dt(req, "to"), last(s.time))
    idx = findall(t -> from <= t <= to, s.time)
    length(idx) > MAX_ROWS && return json((error = "range too large (> $MAX_ROWS rows)",);
                                          status = 413)
    return json((station = id,
                 time = Dates.format.(s.time[idx], "yyyy-mm-ddTHH:MM:SS"),
                 level = [isnan(v) ? nothing : v for v in s.level[idx]],
                 flag = Int.(s.flags[idx])))
end

station_list() = [(id = st.id, name = st.name, lat = st.latitude, lon = st.longitude,
                   kind = st.kind, datum_offset_m = st.datum_offset)
                  for st in sort!(collect(values(STATIONS[])); by = st -> st.id)]

function router()
    r = HTTP.Router()
    HTTP.register!(r, "GET", "/health",
                   _ -> json((status = "ok", profile = active_profile(),
                              stations = length(STATE[]), loaded_at = string(LOADED_AT[]))))
    HTTP.register!(r, "GET", "/stations", _ -> json(station_list()))
    HTTP.register!(r, "GET", "/summary", _ -> json([summarize(s) for s in values(STATE[])]))
    HTTP.register!(r, "GET", "/qc/{station}", handle_qc)
    HTTP.register!(r, "POST", "/reload", _ -> json((stations = reload!(),)))
    return r
end

function main()
    global_logger(ConsoleLogger(stderr, Logging.Info))
    reload!()
    @info "sedge-serve listening" host = HOST port = PORT
    HTTP.serve(router(), HOST, PORT)
end

abspath(PROGRAM_FILE) == @__FILE__ && main()
