(* Rendering a plan as a text table or as JSON. *)

let time t =
  let (y, mo, d), ((h, mi, _), _) = Ptime.to_date_time ~tz_offset_s:0 t in
  Printf.sprintf "%04d-%02d-%02d %02d:%02dZ" y mo d h mi

let duration span =
  let mins = int_of_float (Float.round (Ptime.Span.to_float_s span /. 60.)) in
  Printf.sprintf "%dh%02dm" (mins / 60) (mins mod 60)

let truncate n s = if String.length s <= n then s else String.sub s 0 (max 0 (n - 1)) ^ "~"

(* "#", distance, bearing, arrival and wind columns plus the gaps between
   all seven columns; the two name columns share what is left. *)
let fixed_width = 3 + 7 + 5 + 17 + 8 + 6
let min_name_width = 8

let wind_cell (lp : Plan.leg_plan) =
  match lp.wind with
  | None -> "-"
  | Some w -> Printf.sprintf "%.0f%s" w.speed_kn (if lp.too_windy then "kn!" else "kn")

let text ~width (plan : Plan.t) =
  let name_w = max min_name_width ((width - fixed_width) / 2) in
  let buf = Buffer.create 1024 in
  let row a b c d e f g =
    Printf.bprintf buf "%3s %-*s %-*s %7s %5s %-17s %8s\n" a name_w (truncate name_w b)
      name_w (truncate name_w c) d e f g
  in
  row "#" "From" "To" "Dist" "Brg" "Arrive" "Wind";
  List.iteri
    (fun i (lp : Plan.leg_plan) ->
      row (string_of_int (i + 1)) lp.leg.from_.name lp.leg.to_.name
        (Printf.sprintf "%.1fnm" lp.leg.distance_nm)
        (Printf.sprintf "%03.0f" lp.leg.bearing_deg)
        (time lp.arrive) (wind_cell lp))
    plan.legs;
  Printf.bprintf buf "\n%.1f nm at %.1f kn: %s underway, ETA %s\n" plan.total_nm
    plan.speed_kn (duration plan.underway) (time plan.eta);
  Printf.bprintf buf "With a %d%% reserve: %s\n" plan.reserve_pct (time plan.eta_with_reserve);
  (match Plan.windy_legs plan with
  | [] -> ()
  | windy -> Printf.bprintf buf "Warning: %d leg(s) above the wind limit\n" (List.length windy));
  Buffer.contents buf

let json (plan : Plan.t) : Yojson.Safe.t =
  let ts t = `String (Ptime.to_rfc3339 ~tz_offset_s:0 t) in
  let leg (lp : Plan.leg_plan) =
    `Assoc
      [
        ("from", `String lp.leg.from_.name);
        ("to", `String lp.leg.to_.name);
        ("distance_nm", `Float lp.leg.distance_nm);
        ("bearing_deg", `Float lp.leg.bearing_deg);
        ("depart", ts lp.depart);
        ("arrive", ts lp.arrive);
        ( "wind_kn",
          match lp.wind with Some w -> `Float w.speed_kn | None -> `Null );
        ( "wind_dir_deg",
          match lp.wind with Some w -> `Float w.dir_deg | None -> `Null );
        ("too_windy", `Bool lp.too_windy);
      ]
  in
  `Assoc
    [
      ("version", `String Version.current);
      ("speed_kn", `Float plan.speed_kn);
      ("reserve_pct", `Int plan.reserve_pct);
      ("total_nm", `Float plan.total_nm);
      ("eta", ts plan.eta);
      ("eta_with_reserve", ts plan.eta_with_reserve);
      ("legs", `List (List.map leg plan.legs));
    ]
