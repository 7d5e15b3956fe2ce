/// Stock levels: what counts as low, and how much to reorder.
module Thimble.Core.Stock

type StockLevel =
    | InStock
    | Low
    | OutOfStock

/// The threshold that applies to one item: its own reorder point if it has
/// one, the shop-wide setting otherwise.
let thresholdFor (settings: StockSettings) (item: Item) =
    item.ReorderPoint |> Option.defaultValue settings.LowStockThreshold

let level (settings: StockSettings) (item: Item) =
    let available = item.Available

    if available <= 0 then OutOfStock
    elif available <= thresholdFor settings item then Low
    else InStock

/// Items that are low or out of stock, emptiest first, for the morning
/// reorder list.
let lowStock (settings: StockSettings) (items: Item seq) =
    items
    |> Seq.filter (fun i -> level settings i <> InStock)
    |> Seq.sortBy (fun i -> i.Available, i.Sku.Value)
    |> List.ofSeq

/// Suggested reorder quantity: enough to get back to twice the threshold.
/// Thread and needles come from the wholesaler in packs of 5, fabric in whole
/// metres, so packs are rounded up.
let reorderQuantity (settings: StockSettings) (item: Item) =
    let target = 2 * thresholdFor settings item
    let missing = max 0 (target - item.Available)

    match item.Unit with
    | Pack
    | Spool when missing > 0 -> ((missing + 4) / 5) * 5
    | _ -> missing

/// Applies a stock count from the shelf (e.g. after a delivery or stocktake).
/// Holds are kept; if the count is lower than what is held, the item simply
/// shows nothing available until holds expire or are released.
let recount (onHand: int) (at: System.DateTimeOffset) (item: Item) =
    if onHand < 0 then
        Error(sprintf "on-hand count for %s cannot be negative" item.Sku.Value)
    else
        Ok { item with OnHand = onHand; UpdatedAt = at }
