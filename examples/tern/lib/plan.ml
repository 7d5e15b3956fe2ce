(* Timing a route: when each leg starts and ends at a given speed, plus a
   reserve on top of the time underway. Tides and leeway are ignored; the
   reserve is there to cover them. *)

type leg_plan = {
  leg : Route.leg;
  depart : Ptime.t;
  arrive : Ptime.t;
  wind : Forecast.sample option;
  too_windy : bool;
}

type t = {
  legs : leg_plan list;
  speed_kn : float;
  reserve_pct : int;
  total_nm : float;
  underway : Ptime.Span.t;
  eta : Ptime.t;
  eta_with_reserve : Ptime.t;
}

let span_of_hours h =
  match Ptime.Span.of_float_s (h *. 3600.) with
  | Some s -> s
  | None -> invalid_arg "Plan: duration out of range"

let add time span =
  match Ptime.add_span time span with
  | Some t -> t
  | None -> invalid_arg "Plan: time out of range"

let make ?(forecast = []) ~speed_kn ~reserve_pct ~max_wind_kn ~depart (route : Route.t) =
  if speed_kn <= 0. then invalid_arg "Plan.make: speed must be positive";
  if reserve_pct < 0 then invalid_arg "Plan.make: reserve must not be negative";
  let step (clock, acc) (leg : Route.leg) =
    let arrive = add clock (span_of_hours (leg.distance_nm /. speed_kn)) in
    let mid = Geo.midpoint leg.from_.pos leg.to_.pos in
    let wind = Forecast.nearest forecast ~pos:mid ~time:clock in
    let too_windy =
      match wind with Some w -> w.speed_kn > max_wind_kn | None -> false
    in
    (arrive, { leg; depart = clock; arrive; wind; too_windy } :: acc)
  in
  let eta, legs = List.fold_left step (depart, []) route.legs in
  let underway = Ptime.diff eta depart in
  let reserve_h =
    Ptime.Span.to_float_s underway /. 3600. *. float_of_int reserve_pct /. 100.
  in
  {
    legs = List.rev legs;
    speed_kn;
    reserve_pct;
    total_nm = Route.total_distance_nm route;
    underway;
    eta;
    eta_with_reserve = add eta (span_of_hours reserve_h);
  }

let windy_legs t = List.filter (fun l -> l.too_windy) t.legs
