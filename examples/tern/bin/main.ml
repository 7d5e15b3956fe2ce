open Cmdliner

let ( let* ) = Result.bind

(* Arguments *)

let rfc3339 =
  let parse s =
    match Ptime.of_rfc3339 s with
    | Ok (t, _, _) -> Ok t
    | Error _ ->
        Error (`Msg (Printf.sprintf "%S is not a time like 2024-06-01T06:30:00Z" s))
  in
  Arg.conv ~docv:"TIME" (parse, Ptime.pp_rfc3339 ())

let route_file =
  let doc = "CSV file of waypoints, one $(i,name,lat,lon) per line." in
  Arg.(required & pos 0 (some file) None & info [] ~docv:"ROUTE" ~doc)

let config_file =
  let doc = "Read settings from $(docv). Defaults to ./tern.json when it exists." in
  let env = Cmd.Env.info Tern.Defaults.config_env_var in
  Arg.(value & opt (some file) None & info [ "c"; "config" ] ~env ~docv:"FILE" ~doc)

let speed =
  let doc = "Boat speed through the water. Overrides $(b,boat_speed_kn) in the config." in
  Arg.(value & opt (some float) None & info [ "s"; "speed" ] ~docv:"KNOTS" ~doc)

let reserve =
  let doc = "Extra time, as a percentage of the time underway, kept in reserve." in
  Arg.(value & opt int 20 & info [ "r"; "reserve" ] ~docv:"PERCENT" ~doc)

let width =
  let doc = "Maximum width of the text table." in
  Arg.(value & opt int 88 & info [ "w"; "width" ] ~docv:"COLUMNS" ~doc)

let depart =
  let doc = "Departure time (UTC unless an offset is given). Defaults to now." in
  Arg.(value & opt (some rfc3339) None & info [ "d"; "depart" ] ~doc)

let format =
  let doc = "Output format, $(b,text) or $(b,json)." in
  Arg.(value & opt (enum [ ("text", `Text); ("json", `Json) ]) `Text
       & info [ "format" ] ~docv:"FMT" ~doc)

let offline =
  let doc = "Plan without fetching a wind forecast." in
  Arg.(value & flag & info [ "offline" ] ~doc)

(* Commands *)

let load_config explicit =
  match Tern.Config.find ?explicit () with
  | None -> Ok Tern.Config.default
  | Some path -> Tern.Config.load path

let fetch_forecast (cfg : Tern.Config.t) route ~speed_kn ~depart =
  let hours =
    int_of_float (Float.ceil (Tern.Route.total_distance_nm route /. speed_kn)) + 1
  in
  match
    Tern.Forecast.fetch ~url:cfg.forecast_url ~timeout_ms:cfg.forecast_timeout_ms
      ~bbox:(Tern.Route.bbox route) ~from:depart ~hours
  with
  | Ok forecast -> forecast
  | Error e ->
      Printf.eprintf "tern: warning: %s; planning without wind\n%!" e;
      []

let plan config_file route_file speed reserve width depart format offline =
  let* cfg = load_config config_file in
  let* route = Tern.Route.load route_file in
  let speed_kn = Option.value speed ~default:cfg.Tern.Config.boat_speed_kn in
  let depart = match depart with Some t -> t | None -> Ptime_clock.now () in
  let forecast = if offline then [] else fetch_forecast cfg route ~speed_kn ~depart in
  let p =
    Tern.Plan.make ~forecast ~speed_kn ~reserve_pct:reserve ~max_wind_kn:cfg.max_wind_kn
      ~depart route
  in
  (match format with
  | `Text -> print_string (Tern.Report.text ~width p)
  | `Json -> print_endline (Yojson.Safe.pretty_to_string (Tern.Report.json p)));
  Ok ()

let check config_file route_file =
  let* cfg = load_config config_file in
  let* route = Tern.Route.load route_file in
  let nm = Tern.Route.total_distance_nm route in
  Printf.printf "%s: %d waypoints, %d legs, %.1f nm (about %.1f h at %.1f kn)\n"
    route_file
    (List.length route.Tern.Route.waypoints)
    (List.length route.legs) nm
    (nm /. cfg.Tern.Config.boat_speed_kn)
    cfg.boat_speed_kn;
  Ok ()

let plan_cmd =
  let doc = "time a route leg by leg and check it against the wind forecast" in
  Cmd.v (Cmd.info "plan" ~doc)
    Term.(
      term_result'
        (const plan $ config_file $ route_file $ speed $ reserve $ width $ depart
       $ format $ offline))

let check_cmd =
  let doc = "validate a route file and print its length" in
  Cmd.v (Cmd.info "check" ~doc) Term.(term_result' (const check $ config_file $ route_file))

let () =
  let doc = "passage planner for small sailing boats" in
  let info = Cmd.info "tern" ~version:Tern.Version.current ~doc in
  exit (Cmd.eval (Cmd.group info [ plan_cmd; check_cmd ]))
