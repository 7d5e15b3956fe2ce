namespace Thimble.Core

open System
open System.Text.RegularExpressions

/// Stock-keeping unit as printed on the shelf label, e.g. "THR-GUT100-0412"
/// (Gütermann sew-all thread, 100 m spool, colour 412) or "FAB-QCOT-NAVY".
[<Struct; CustomEquality; CustomComparison>]
type Sku =
    private
    | Sku of string

    member this.Value =
        let (Sku s) = this
        s

    override this.ToString() = this.Value
    override this.GetHashCode() = StringComparer.Ordinal.GetHashCode this.Value

    override this.Equals other =
        match other with
        | :? Sku as o -> String.Equals(this.Value, o.Value, StringComparison.Ordinal)
        | _ -> false

    interface IComparable with
        member this.CompareTo other =
            match other with
            | :? Sku as o -> String.CompareOrdinal(this.Value, o.Value)
            | _ -> invalidArg (nameof other) "not a Sku"

module Sku =
    let private pattern =
        Regex(@"^[A-Z]{3}(-[A-Z0-9]{2,8}){1,3}$", RegexOptions.Compiled ||| RegexOptions.CultureInvariant)

    /// Normalises (trim, upper-case) and validates a raw SKU.
    let tryParse (raw: string) =
        if String.IsNullOrWhiteSpace raw then
            None
        else
            let s = raw.Trim().ToUpperInvariant()
            if pattern.IsMatch s then Some(Sku s) else None

    let value (sku: Sku) = sku.Value

/// How an item is counted on the shelf and in a hold.
type UnitOfSale =
    | Each
    /// Fabric, ribbon and elastic cut off the bolt; quantities are whole metres.
    | Metre
    | Spool
    | Pack

module UnitOfSale =
    let toCode =
        function
        | Each -> "each"
        | Metre -> "metre"
        | Spool -> "spool"
        | Pack -> "pack"

    let ofCode (code: string) =
        match code.ToLowerInvariant() with
        | "each" -> Some Each
        | "metre"
        | "meter"
        | "m" -> Some Metre
        | "spool" -> Some Spool
        | "pack" -> Some Pack
        | _ -> None

type Item =
    { Sku: Sku
      Name: string
      Category: string
      Unit: UnitOfSale
      /// Physically on the shelf or in the back room.
      OnHand: int
      /// Sum of all active holds on this SKU.
      Held: int
      /// Per-item override of the shop-wide low-stock threshold
      /// (e.g. best-selling black and white thread is reordered earlier).
      ReorderPoint: int option
      UpdatedAt: DateTimeOffset }

    /// What a new hold can still take.
    member this.Available = max 0 (this.OnHand - this.Held)

[<Struct>]
type HoldId =
    | HoldId of Guid

    member this.Value =
        let (HoldId g) = this
        g

type HoldStatus =
    | Active
    | Confirmed
    | Released
    | Expired

module HoldStatus =
    let toCode =
        function
        | Active -> "active"
        | Confirmed -> "confirmed"
        | Released -> "released"
        | Expired -> "expired"

    let ofCode =
        function
        | "active" -> Some Active
        | "confirmed" -> Some Confirmed
        | "released" -> Some Released
        | "expired" -> Some Expired
        | _ -> None

/// A temporary reservation of stock for one customer, e.g. while they finish
/// checking out online or while the counter staff cut fabric for them.
type Hold =
    { Id: HoldId
      Sku: Sku
      CustomerId: string
      Quantity: int
      CreatedAt: DateTimeOffset
      ExpiresAt: DateTimeOffset
      Status: HoldStatus }

type HoldError =
    | UnknownSku of string
    | InvalidQuantity of int
    | MissingCustomer
    | InsufficientStock of requested: int * available: int
    | TooManyHolds of limit: int
    | HoldNotFound of HoldId
    | HoldNotActive of HoldStatus

module HoldError =
    let describe =
        function
        | UnknownSku raw -> sprintf "unknown SKU '%s'" raw
        | InvalidQuantity q -> sprintf "quantity must be at least 1 (got %d)" q
        | MissingCustomer -> "customerId is required"
        | InsufficientStock(requested, available) ->
            sprintf "only %d available, %d requested" available requested
        | TooManyHolds limit -> sprintf "customer already has %d active holds" limit
        | HoldNotFound(HoldId id) -> sprintf "hold %O not found" id
        | HoldNotActive status -> sprintf "hold is %s" (HoldStatus.toCode status)
