(** Great-circle geometry on a spherical earth. Good to a few tenths of a
    percent, which is far better than any boat holds a course. *)

type coord = { lat : float; lon : float }
(** Decimal degrees, north and east positive. *)

val earth_radius_nm : float
(** Mean earth radius in nautical miles. *)

val distance_nm : coord -> coord -> float
(** Haversine distance between two points. *)

val bearing_deg : coord -> coord -> float
(** Initial true bearing from the first point to the second, in [\[0, 360)]. *)

val midpoint : coord -> coord -> coord
(** Plain midpoint in latitude and longitude. Fine for legs of a few dozen
    miles; handles legs that cross the antimeridian. *)

val normalise_deg : float -> float
