(** A route: an ordered list of waypoints and the legs between them. *)

type leg = {
  from_ : Waypoint.t;
  to_ : Waypoint.t;
  distance_nm : float;
  bearing_deg : float;  (** Initial true bearing. *)
}

type t = private { waypoints : Waypoint.t list; legs : leg list }

val of_waypoints : Waypoint.t list -> (t, string) result
(** Fails with fewer than two waypoints or more than
    {!Defaults.max_waypoints}. *)

val load : string -> (t, string) result
(** [load path] reads a route CSV file, see {!Waypoint}. *)

val total_distance_nm : t -> float

val bbox : t -> float * float * float * float
(** [(min_lat, min_lon, max_lat, max_lon)] of the route, widened by
    {!Defaults.bbox_margin_deg} on every side. *)
