type t = {
  boat_speed_kn : float;
  max_wind_kn : float;
  forecast_url : string;
  forecast_timeout_ms : int;
}

let default =
  {
    boat_speed_kn = Defaults.boat_speed_kn;
    max_wind_kn = Defaults.max_wind_kn;
    forecast_url = Defaults.forecast_url;
    forecast_timeout_ms = Defaults.forecast_timeout_ms;
  }

let known_keys = [ "boat_speed_kn"; "max_wind_kn"; "forecast_url"; "forecast_timeout_ms" ]

exception Bad_field of string * string

let number key = function
  | `Int i -> float_of_int i
  | `Float f -> f
  | _ -> raise (Bad_field (key, "a number"))

let positive_number key v =
  let f = number key v in
  if f > 0. then f else raise (Bad_field (key, "greater than zero"))

let string key = function `String s -> s | _ -> raise (Bad_field (key, "a string"))

let millis key = function
  | `Int i when i > 0 -> i
  | _ -> raise (Bad_field (key, "a positive whole number of milliseconds"))

let of_json (json : Yojson.Safe.t) =
  match json with
  | `Assoc fields -> (
      let field key conv default =
        match List.assoc_opt key fields with
        | None | Some `Null -> default
        | Some v -> conv key v
      in
      match List.find_opt (fun (k, _) -> not (List.mem k known_keys)) fields with
      | Some (k, _) -> Error (Printf.sprintf "unknown key %S" k)
      | None -> (
          try
            Ok
              {
                boat_speed_kn =
                  field "boat_speed_kn" positive_number default.boat_speed_kn;
                max_wind_kn = field "max_wind_kn" positive_number default.max_wind_kn;
                forecast_url = field "forecast_url" string default.forecast_url;
                forecast_timeout_ms =
                  field "forecast_timeout_ms" millis default.forecast_timeout_ms;
              }
          with Bad_field (k, what) -> Error (Printf.sprintf "%S must be %s" k what)))
  | _ -> Error "expected a JSON object at the top level"

let load path =
  match Yojson.Safe.from_file path with
  | exception Sys_error msg -> Error msg
  | exception Yojson.Json_error msg -> Error (Printf.sprintf "%s: %s" path msg)
  | json -> Result.map_error (fun e -> Printf.sprintf "%s: %s" path e) (of_json json)

let find ?explicit () =
  match explicit with
  | Some path -> Some path
  | None -> if Sys.file_exists Defaults.config_file then Some Defaults.config_file else None
