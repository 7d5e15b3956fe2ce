(** Settings read from a JSON config file. Every key is optional; missing
    keys fall back to the values in {!Defaults}. Unknown keys are an error,
    so that typos don't go unnoticed. *)

type t = {
  boat_speed_kn : float;
  max_wind_kn : float;
  forecast_url : string;
  forecast_timeout_ms : int;
}

val default : t

val of_json : Yojson.Safe.t -> (t, string) result

val load : string -> (t, string) result

val find : ?explicit:string -> unit -> string option
(** The config file to use: [explicit] if given (from [--config] or
    [$TERN_CONFIG]), otherwise [./tern.json] if it exists. *)
