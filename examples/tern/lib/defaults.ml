(* Built-in defaults. Most of these can be overridden from the config file
   (see [Config]); a few can also be set on the command line. *)

(* Looked up in the current directory when neither [--config] nor
   [$TERN_CONFIG] names a file. *)
let config_file = "tern.json"
let config_env_var = "TERN_CONFIG"

(* Speed through the water, in knots, when neither [--speed] nor
   [boat_speed_kn] in the config gives one. *)
let boat_speed_kn = 5.5

(* Legs whose forecast wind is above this many knots are flagged. *)
let max_wind_kn = 22.0

(* Longer routes are almost always a mistyped file (a whole GPX track
   instead of a route); refuse them rather than fetch a huge forecast. *)
let max_waypoints = 250

(* windbird forecast API. *)
let forecast_url = "https://api.windbird.example/v1/wind"
let forecast_timeout_ms = 6000

(* Hours between forecast samples we ask for. *)
let forecast_step_h = 3

(* Margin, in degrees, around the route's bounding box when asking for a
   forecast, so legs near the edge still get nearby samples. *)
let bbox_margin_deg = 0.25
let user_agent = "tern/" ^ Version.current
