(* Wind forecasts from the windbird API.

   We shell out to curl rather than pull in an HTTP stack: tern makes one
   request per run and curl is everywhere. The response looks like

     { "points": [ { "lat": 50.75, "lon": -1.5, "time": "2024-06-01T09:00:00Z",
                     "speed_kn": 14.0, "dir_deg": 230 }, ... ] } *)

type sample = { pos : Geo.coord; time : Ptime.t; speed_kn : float; dir_deg : float }
type t = sample list

let sample_of_json json =
  let open Yojson.Safe.Util in
  let num k =
    match member k json with
    | `Int i -> float_of_int i
    | `Float f -> f
    | _ -> raise (Type_error (k ^ " must be a number", json))
  in
  let time =
    match Ptime.of_rfc3339 (member "time" json |> to_string) with
    | Ok (t, _, _) -> t
    | Error _ -> raise (Type_error ("time must be an RFC 3339 timestamp", json))
  in
  {
    pos = { Geo.lat = num "lat"; lon = num "lon" };
    time;
    speed_kn = num "speed_kn";
    dir_deg = num "dir_deg";
  }

let of_json json =
  let open Yojson.Safe.Util in
  try Ok (member "points" json |> to_list |> List.map sample_of_json)
  with Type_error (msg, _) -> Error ("forecast: " ^ msg)

let query_url ~url (lat0, lon0, lat1, lon1) ~from ~hours =
  Printf.sprintf "%s?bbox=%.3f,%.3f,%.3f,%.3f&from=%s&hours=%d&step=%d" url lat0 lon0 lat1
    lon1
    (Ptime.to_rfc3339 ~tz_offset_s:0 from)
    hours Defaults.forecast_step_h

let curl_args ~timeout_ms url =
  [|
    "curl";
    "--silent";
    "--show-error";
    "--fail";
    "--max-time";
    Printf.sprintf "%.1f" (float_of_int timeout_ms /. 1000.);
    "--user-agent";
    Defaults.user_agent;
    url;
  |]

(* curl's exit code for "operation timed out". *)
let curl_timeout = 28

let fetch ~url ~timeout_ms ~bbox ~from ~hours =
  let target = query_url ~url bbox ~from ~hours in
  match Unix.open_process_args_in "curl" (curl_args ~timeout_ms target) with
  | exception Unix.Unix_error (e, _, _) -> Error ("cannot run curl: " ^ Unix.error_message e)
  | ic -> (
      let body = In_channel.input_all ic in
      match Unix.close_process_in ic with
      | Unix.WEXITED 0 -> (
          match Yojson.Safe.from_string body with
          | json -> of_json json
          | exception Yojson.Json_error e -> Error ("forecast: " ^ e))
      | Unix.WEXITED n when n = curl_timeout ->
          Error (Printf.sprintf "forecast request timed out after %d ms" timeout_ms)
      | Unix.WEXITED n -> Error (Printf.sprintf "curl exited with status %d" n)
      | Unix.WSIGNALED _ | Unix.WSTOPPED _ -> Error "curl was killed")

(* One hour away from the forecast time counts as much as ten miles away
   from the forecast point. *)
let miles_per_hour_off = 10.

let nearest t ~pos ~time =
  let score s =
    let hours = Float.abs (Ptime.Span.to_float_s (Ptime.diff s.time time)) /. 3600. in
    Geo.distance_nm pos s.pos +. (hours *. miles_per_hour_off)
  in
  List.fold_left
    (fun best s ->
      match best with
      | Some (b, sb) -> if score s < sb then Some (s, score s) else Some (b, sb)
      | None -> Some (s, score s))
    None t
  |> Option.map fst
