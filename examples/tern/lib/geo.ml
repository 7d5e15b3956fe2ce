type coord = { lat : float; lon : float }

let earth_radius_nm = 3440.065
let rad d = d *. Float.pi /. 180.
let deg r = r *. 180. /. Float.pi

let normalise_deg d =
  let d = Float.rem d 360. in
  if d < 0. then d +. 360. else d

let wrap_lon lon =
  if lon > 180. then lon -. 360. else if lon < -180. then lon +. 360. else lon

let distance_nm a b =
  let dlat = rad (b.lat -. a.lat) and dlon = rad (b.lon -. a.lon) in
  let h =
    (sin (dlat /. 2.) ** 2.)
    +. (cos (rad a.lat) *. cos (rad b.lat) *. (sin (dlon /. 2.) ** 2.))
  in
  2. *. earth_radius_nm *. asin (Float.min 1. (sqrt h))

let bearing_deg a b =
  let phi1 = rad a.lat and phi2 = rad b.lat in
  let dlon = rad (wrap_lon (b.lon -. a.lon)) in
  let y = sin dlon *. cos phi2 in
  let x = (cos phi1 *. sin phi2) -. (sin phi1 *. cos phi2 *. cos dlon) in
  normalise_deg (deg (Float.atan2 y x))

let midpoint a b =
  let dlon = wrap_lon (b.lon -. a.lon) in
  { lat = (a.lat +. b.lat) /. 2.; lon = wrap_lon (a.lon +. (dlon /. 2.)) }
