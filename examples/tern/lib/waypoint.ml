(* A named position on a route. Routes are plain CSV files:

     # comment
     name,lat,lon
     Hamble Point,50.8445,-1.3125

   The header line is optional. *)

type t = { name : string; pos : Geo.coord }

let parse_coord ~what ~lo ~hi s =
  let s = String.trim s in
  match float_of_string_opt s with
  | Some v when v >= lo && v <= hi -> Ok v
  | Some _ -> Error (Printf.sprintf "%s %s is out of range" what s)
  | None -> Error (Printf.sprintf "%s %S is not a number" what s)

let of_csv_line line =
  match String.split_on_char ',' line with
  | [ name; lat; lon ] ->
      let ( let* ) = Result.bind in
      let* lat = parse_coord ~what:"latitude" ~lo:(-90.) ~hi:90. lat in
      let* lon = parse_coord ~what:"longitude" ~lo:(-180.) ~hi:180. lon in
      let name = String.trim name in
      if name = "" then Error "waypoint has no name" else Ok { name; pos = { Geo.lat; lon } }
  | fields ->
      Error (Printf.sprintf "expected name,lat,lon but got %d fields" (List.length fields))

let is_header line =
  String.lowercase_ascii line |> String.split_on_char ',' |> List.map String.trim
  = [ "name"; "lat"; "lon" ]

let skippable line =
  let l = String.trim line in
  l = "" || l.[0] = '#' || is_header l

let load path =
  match In_channel.with_open_text path In_channel.input_all with
  | exception Sys_error msg -> Error msg
  | contents ->
      let rec go lineno acc = function
        | [] -> Ok (List.rev acc)
        | line :: rest when skippable line -> go (lineno + 1) acc rest
        | line :: rest -> (
            match of_csv_line line with
            | Ok wp -> go (lineno + 1) (wp :: acc) rest
            | Error e -> Error (Printf.sprintf "%s:%d: %s" path lineno e))
      in
      go 1 [] (String.split_on_char '\n' contents)
