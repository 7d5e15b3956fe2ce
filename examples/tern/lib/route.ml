type leg = {
  from_ : Waypoint.t;
  to_ : Waypoint.t;
  distance_nm : float;
  bearing_deg : float;
}

type t = { waypoints : Waypoint.t list; legs : leg list }

let make_leg (from_ : Waypoint.t) (to_ : Waypoint.t) =
  {
    from_;
    to_;
    distance_nm = Geo.distance_nm from_.pos to_.pos;
    bearing_deg = Geo.bearing_deg from_.pos to_.pos;
  }

let rec pairs = function a :: (b :: _ as rest) -> (a, b) :: pairs rest | _ -> []

let of_waypoints waypoints =
  let n = List.length waypoints in
  if n < 2 then Error "a route needs at least two waypoints"
  else if n > Defaults.max_waypoints then
    Error
      (Printf.sprintf "route has %d waypoints; at most %d are allowed" n
         Defaults.max_waypoints)
  else Ok { waypoints; legs = List.map (fun (a, b) -> make_leg a b) (pairs waypoints) }

let load path = Result.bind (Waypoint.load path) of_waypoints
let total_distance_nm t = List.fold_left (fun acc leg -> acc +. leg.distance_nm) 0. t.legs

let bbox t =
  let m = Defaults.bbox_margin_deg in
  let init = (Float.infinity, Float.infinity, Float.neg_infinity, Float.neg_infinity) in
  let lat0, lon0, lat1, lon1 =
    List.fold_left
      (fun (lat0, lon0, lat1, lon1) (wp : Waypoint.t) ->
        ( Float.min lat0 wp.pos.lat,
          Float.min lon0 wp.pos.lon,
          Float.max lat1 wp.pos.lat,
          Float.max lon1 wp.pos.lon ))
      init t.waypoints
  in
  (lat0 -. m, lon0 -. m, lat1 +. m, lon1 +. m)
