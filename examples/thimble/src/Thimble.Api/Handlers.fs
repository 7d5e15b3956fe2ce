module Thimble.Api.Handlers

open System
open Giraffe
open Microsoft.AspNetCore.Http
open Npgsql
open Thimble.Core

type ItemDto =
    { sku: string
      name: string
      category: string
      unit: string
      onHand: int
      held: int
      available: int
      level: string }

type HoldDto =
    { id: Guid
      sku: string
      customerId: string
      quantity: int
      status: string
      expiresAt: DateTimeOffset
      secondsLeft: int }

type PlaceHoldBody =
    { sku: string
      customerId: string
      quantity: int }

let private levelCode =
    function
    | Stock.InStock -> "in-stock"
    | Stock.Low -> "low"
    | Stock.OutOfStock -> "out-of-stock"

let private toItemDto (settings: ThimbleSettings) (item: Item) =
    { sku = item.Sku.Value
      name = item.Name
      category = item.Category
      unit = UnitOfSale.toCode item.Unit
      onHand = item.OnHand
      held = item.Held
      available = item.Available
      level = Stock.level settings.Stock item |> levelCode }

let private toHoldDto (now: DateTimeOffset) (hold: Hold) =
    { id = hold.Id.Value
      sku = hold.Sku.Value
      customerId = hold.CustomerId
      quantity = hold.Quantity
      status = HoldStatus.toCode hold.Status
      expiresAt = hold.ExpiresAt
      secondsLeft = Holds.secondsLeft now hold }

let private problem (status: int) (detail: string) : HttpHandler =
    setStatusCode status >=> json {| status = status; detail = detail |}

let private holdError (e: HoldError) : HttpHandler =
    let status =
        match e with
        | UnknownSku _
        | HoldNotFound _ -> StatusCodes.Status404NotFound
        | InvalidQuantity _
        | MissingCustomer -> StatusCodes.Status400BadRequest
        | InsufficientStock _
        | TooManyHolds _
        | HoldNotActive _ -> StatusCodes.Status409Conflict

    problem status (HoldError.describe e)

let private deps (ctx: HttpContext) =
    ctx.GetService<NpgsqlDataSource>(), ctx.GetService<ThimbleSettings>(), ctx.GetService<TimeProvider>()

/// GET /api/items?pageSize=&after=
let listItems: HttpHandler =
    fun next ctx ->
        task {
            let ds, settings, _ = deps ctx

            let requested =
                ctx.TryGetQueryStringValue "pageSize"
                |> Option.bind (fun s ->
                    match Int32.TryParse s with
                    | true, n -> Some n
                    | _ -> None)

            let size = Paging.clampSize settings.Paging requested
            let after = ctx.TryGetQueryStringValue "after" |> Option.bind Paging.decodeCursor
            let! fetched = Store.listItems ds after size
            let page = Paging.ofFetched size (fun (i: Item) -> i.Sku) fetched

            return!
                json
                    {| items = page.Items |> List.map (toItemDto settings)
                       next = page.Next |> Option.toObj
                       pageSize = size |}
                    next
                    ctx
        }

/// GET /api/items/{sku}
let getItem (rawSku: string) : HttpHandler =
    fun next ctx ->
        task {
            let ds, settings, _ = deps ctx

            match Sku.tryParse rawSku with
            | None -> return! holdError (UnknownSku rawSku) next ctx
            | Some sku ->
                match! Store.tryGetItem ds sku with
                | Some item -> return! json (toItemDto settings item) next ctx
                | None -> return! holdError (UnknownSku rawSku) next ctx
        }

/// GET /api/items/low-stock
let lowStock: HttpHandler =
    fun next ctx ->
        task {
            let ds, settings, _ = deps ctx
            let! items = Store.allItems ds

            let rows =
                Stock.lowStock settings.Stock items
                |> List.map (fun i ->
                    {| item = toItemDto settings i
                       threshold = Stock.thresholdFor settings.Stock i
                       reorder = Stock.reorderQuantity settings.Stock i |})

            return! json rows next ctx
        }

/// POST /api/holds
let placeHold: HttpHandler =
    fun next ctx ->
        task {
            let ds, settings, clock = deps ctx
            let! body = ctx.BindJsonAsync<PlaceHoldBody>()
            let now = clock.GetUtcNow()

            let request: Holds.PlaceHold =
                { Sku = body.sku
                  CustomerId = body.customerId
                  Quantity = body.quantity }

            match! Store.placeHold ds settings.Holds now request with
            | Ok hold ->
                ctx.SetHttpHeader("Location", sprintf "/api/holds/%O" hold.Id.Value)
                return! (setStatusCode StatusCodes.Status201Created >=> json (toHoldDto now hold)) next ctx
            | Error e -> return! holdError e next ctx
        }

let private withHold (id: Guid) (f: DateTimeOffset -> Hold -> Result<Hold, HoldError>) : HttpHandler =
    fun next ctx ->
        task {
            let ds, _, clock = deps ctx
            let now = clock.GetUtcNow()

            match! Store.tryGetHold ds (HoldId id) with
            | None -> return! holdError (HoldNotFound(HoldId id)) next ctx
            | Some hold ->
                match f now hold with
                | Error e -> return! holdError e next ctx
                | Ok updated ->
                    if updated.Status <> hold.Status then
                        do! Store.saveStatus ds updated

                    return! json (toHoldDto now updated) next ctx
        }

/// POST /api/holds/{id}/confirm
let confirmHold (id: Guid) = withHold id Holds.confirm

/// DELETE /api/holds/{id}
let releaseHold (id: Guid) = withHold id (fun _ h -> Holds.release h)

let webApp: HttpHandler =
    choose
        [ GET >=> route "/healthz" >=> text "ok"
          subRoute
              "/api"
              (choose
                  [ GET >=> route "/items" >=> listItems
                    GET >=> route "/items/low-stock" >=> lowStock
                    GET >=> routef "/items/%s" getItem
                    POST >=> route "/holds" >=> placeHold
                    POST >=> routef "/holds/%O/confirm" confirmHold
                    DELETE >=> routef "/holds/%O" releaseHold ])
          RequestErrors.NOT_FOUND "not found" ]
