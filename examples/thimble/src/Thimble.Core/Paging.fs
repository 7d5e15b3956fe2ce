/// Keyset pagination over the catalogue, ordered by SKU.
module Thimble.Core.Paging

open System
open System.Text

type Page<'T> =
    { Items: 'T list
      /// Opaque cursor for the next page; None on the last page.
      Next: string option }

/// The page size to use: the default when the client does not ask, never
/// more than MaxPageSize and never less than 1.
let clampSize (settings: PagingSettings) (requested: int option) =
    match requested with
    | None -> settings.DefaultPageSize
    | Some n when n < 1 -> 1
    | Some n -> min n settings.MaxPageSize

let encodeCursor (sku: Sku) =
    sku.Value
    |> Encoding.UTF8.GetBytes
    |> Convert.ToBase64String
    |> fun s -> s.TrimEnd('=').Replace('+', '-').Replace('/', '_')

let decodeCursor (cursor: string) =
    if String.IsNullOrEmpty cursor then
        None
    else
        let padded =
            let s = cursor.Replace('-', '+').Replace('_', '/')
            s + String('=', (4 - s.Length % 4) % 4)

        try
            padded |> Convert.FromBase64String |> Encoding.UTF8.GetString |> Sku.tryParse
        with :? FormatException ->
            None

/// Builds a page from a query that fetched size + 1 rows: the extra row only
/// tells us there is a next page.
let ofFetched (size: int) (skuOf: 'T -> Sku) (fetched: 'T list) =
    if List.length fetched > size then
        let items = List.truncate size fetched
        { Items = items
          Next = items |> List.last |> skuOf |> encodeCursor |> Some }
    else
        { Items = fetched; Next = None }
