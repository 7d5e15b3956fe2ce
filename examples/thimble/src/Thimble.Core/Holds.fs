/// Placing, confirming, releasing and expiring stock holds. Pure functions:
/// the store loads the item and counts the customer's active holds inside a
/// transaction, then asks this module what to do.
module Thimble.Core.Holds

open System

type PlaceHold =
    { Sku: string
      CustomerId: string
      Quantity: int }

let private validate (settings: HoldSettings) (request: PlaceHold) (item: Item option) (activeForCustomer: int) =
    match item with
    | None -> Error(UnknownSku request.Sku)
    | Some _ when String.IsNullOrWhiteSpace request.CustomerId -> Error MissingCustomer
    | Some _ when request.Quantity < 1 -> Error(InvalidQuantity request.Quantity)
    | Some _ when activeForCustomer >= settings.MaxHoldsPerCustomer ->
        Error(TooManyHolds settings.MaxHoldsPerCustomer)
    | Some item when request.Quantity > item.Available ->
        Error(InsufficientStock(request.Quantity, item.Available))
    | Some item -> Ok item

/// Creates a new active hold that expires HoldTtlSeconds after `now`.
let create
    (settings: HoldSettings)
    (now: DateTimeOffset)
    (newId: unit -> Guid)
    (request: PlaceHold)
    (item: Item option)
    (activeForCustomer: int)
    : Result<Hold, HoldError> =
    validate settings request item activeForCustomer
    |> Result.map (fun item ->
        { Id = HoldId(newId ())
          Sku = item.Sku
          CustomerId = request.CustomerId.Trim()
          Quantity = request.Quantity
          CreatedAt = now
          ExpiresAt = now.AddSeconds(float settings.HoldTtlSeconds)
          Status = Active })

let isExpired (now: DateTimeOffset) (hold: Hold) =
    hold.Status = Active && hold.ExpiresAt <= now

/// Turns a hold into a sale. A hold whose time is up cannot be confirmed even
/// if the sweeper has not got to it yet.
let confirm (now: DateTimeOffset) (hold: Hold) =
    match hold.Status with
    | Active when isExpired now hold -> Error(HoldNotActive Expired)
    | Active -> Ok { hold with Status = Confirmed }
    | other -> Error(HoldNotActive other)

/// Gives the stock back. Releasing an already released hold is a no-op so a
/// retried DELETE does not fail.
let release (hold: Hold) =
    match hold.Status with
    | Active -> Ok { hold with Status = Released }
    | Released -> Ok hold
    | other -> Error(HoldNotActive other)

/// Holds the sweeper should expire now, oldest first, at most batchSize.
let dueForExpiry (now: DateTimeOffset) (batchSize: int) (holds: Hold seq) =
    holds
    |> Seq.filter (isExpired now)
    |> Seq.sortBy (fun h -> h.ExpiresAt)
    |> Seq.truncate batchSize
    |> List.ofSeq

/// Seconds left before a hold expires (0 once it has).
let secondsLeft (now: DateTimeOffset) (hold: Hold) =
    max 0 (int (ceil (hold.ExpiresAt - now).TotalSeconds))
