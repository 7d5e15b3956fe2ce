open Tern

let time s =
  match Ptime.of_rfc3339 s with Ok (t, _, _) -> t | Error _ -> Alcotest.failf "bad time %s" s

let depart = time "2024-06-01T06:00:00Z"

let wp name lat lon = { Waypoint.name; pos = { Geo.lat; lon } }

let solent () =
  match Route.load "fixtures/solent.csv" with Ok r -> r | Error e -> Alcotest.fail e

(* Geo *)

let one_minute_of_latitude () =
  let a = { Geo.lat = 50.0; lon = -1.0 } and b = { Geo.lat = 50.0 +. (1. /. 60.); lon = -1.0 } in
  Alcotest.(check (float 1e-3)) "one nautical mile" 1.0 (Geo.distance_nm a b)

let due_east () =
  let a = { Geo.lat = 0.; lon = 10. } and b = { Geo.lat = 0.; lon = 11. } in
  Alcotest.(check (float 1e-6)) "090" 90. (Geo.bearing_deg a b)

let across_antimeridian () =
  let a = { Geo.lat = -17.; lon = 179.5 } and b = { Geo.lat = -17.; lon = -179.5 } in
  Alcotest.(check (float 0.5)) "roughly east" 90. (Geo.bearing_deg a b);
  Alcotest.(check (float 1e-6)) "midpoint" 180. (Float.abs (Geo.midpoint a b).lon)

(* Route *)

let loads_fixture () =
  let r = solent () in
  Alcotest.(check int) "waypoints" 5 (List.length r.waypoints);
  Alcotest.(check int) "legs" 4 (List.length r.legs);
  Alcotest.(check (float 0.3)) "total" 12.8 (Route.total_distance_nm r)

let too_short () =
  match Route.of_waypoints [ wp "Alone" 50. (-1.) ] with
  | Ok _ -> Alcotest.fail "accepted a single waypoint"
  | Error _ -> ()

let too_many () =
  let wps = List.init (Defaults.max_waypoints + 1) (fun i -> wp (string_of_int i) 0. (float_of_int i /. 100.)) in
  match Route.of_waypoints wps with
  | Ok _ -> Alcotest.fail "accepted too many waypoints"
  | Error _ -> ()

let bad_line () =
  match Waypoint.of_csv_line "Nab Tower,50.668,not-a-number" with
  | Ok _ -> Alcotest.fail "parsed a bad longitude"
  | Error e -> Alcotest.(check bool) "mentions longitude" true (String.starts_with ~prefix:"longitude" e)

(* Config *)

let config_overrides () =
  let json = Yojson.Safe.from_string {|{ "boat_speed_kn": 7.0, "forecast_timeout_ms": 2500 }|} in
  match Config.of_json json with
  | Error e -> Alcotest.fail e
  | Ok c ->
      Alcotest.(check (float 0.)) "speed" 7.0 c.boat_speed_kn;
      Alcotest.(check int) "timeout" 2500 c.forecast_timeout_ms;
      Alcotest.(check (float 0.)) "wind from defaults" Defaults.max_wind_kn c.max_wind_kn

let config_rejects_unknown () =
  match Config.of_json (Yojson.Safe.from_string {|{ "boat_speed": 7.0 }|}) with
  | Ok _ -> Alcotest.fail "accepted an unknown key"
  | Error _ -> ()

(* Plan and report *)

let gust_forecast =
  [ { Forecast.pos = { Geo.lat = 50.73; lon = -1.42 }; time = depart; speed_kn = 27.; dir_deg = 250. } ]

let plan ?forecast () =
  Plan.make ?forecast ~speed_kn:7.0 ~reserve_pct:10 ~max_wind_kn:18. ~depart (solent ())

let reserve_added () =
  let p = plan () in
  let underway = Ptime.Span.to_float_s p.underway in
  let extra = Ptime.Span.to_float_s (Ptime.diff p.eta_with_reserve p.eta) in
  Alcotest.(check (float 1.)) "10% of underway" (underway *. 0.10) extra

let flags_windy_leg () =
  let p = plan ~forecast:gust_forecast () in
  Alcotest.(check bool) "some leg flagged" true (Plan.windy_legs p <> [])

let text_fits_width () =
  let out = Report.text ~width:64 (plan ()) in
  String.split_on_char '\n' out
  |> List.iter (fun line ->
         Alcotest.(check bool) ("fits: " ^ line) true (String.length line <= 64))

let () =
  Alcotest.run "tern"
    [
      ( "geo",
        [
          Alcotest.test_case "1' of latitude" `Quick one_minute_of_latitude;
          Alcotest.test_case "due east" `Quick due_east;
          Alcotest.test_case "antimeridian" `Quick across_antimeridian;
        ] );
      ( "route",
        [
          Alcotest.test_case "fixture" `Quick loads_fixture;
          Alcotest.test_case "too short" `Quick too_short;
          Alcotest.test_case "too many" `Quick too_many;
          Alcotest.test_case "bad line" `Quick bad_line;
        ] );
      ( "config",
        [
          Alcotest.test_case "overrides" `Quick config_overrides;
          Alcotest.test_case "unknown key" `Quick config_rejects_unknown;
        ] );
      ( "plan",
        [
          Alcotest.test_case "reserve" `Quick reserve_added;
          Alcotest.test_case "windy leg" `Quick flags_windy_leg;
          Alcotest.test_case "width" `Quick text_fits_width;
        ] );
    ]
