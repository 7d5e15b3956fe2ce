module Thimble.Tests.HoldsTests

open System
open Expecto
open Microsoft.Extensions.Time.Testing
open Thimble.Core

// Fixture values are deliberately small and unlike any real configuration.
let holdSettings =
    { HoldTtlSeconds = 600
      MaxHoldsPerCustomer = 2 }

let stockSettings = { LowStockThreshold = 5 }

let pagingSettings =
    { DefaultPageSize = 20
      MaxPageSize = 50 }

let opened = DateTimeOffset(2024, 11, 2, 9, 30, 0, TimeSpan.Zero)

let sku raw =
    Sku.tryParse raw |> Option.defaultWith (fun () -> failwithf "bad test SKU %s" raw)

let item raw onHand held =
    { Sku = sku raw
      Name = "Test item " + raw
      Category = "Thread"
      Unit = Spool
      OnHand = onHand
      Held = held
      ReorderPoint = None
      UpdatedAt = opened }

let request raw qty =
    ({ Sku = raw
       CustomerId = "cust-0042"
       Quantity = qty }
    : Holds.PlaceHold)

let fixedId () =
    Guid.Parse "6f1c2b9e-4d3a-4c55-9e0b-2a7d8c1f3e64"

[<Tests>]
let holds =
    testList
        "holds"
        [ test "a hold expires HoldTtlSeconds after it is placed" {
              let hold =
                  Holds.create holdSettings opened fixedId (request "THR-GUT100-0412" 3) (Some(item "THR-GUT100-0412" 10 0)) 0
                  |> Result.defaultWith (fun e -> failtest (HoldError.describe e))

              Expect.equal hold.ExpiresAt (opened.AddMinutes 10.0) "ten minutes in the fixture"
              Expect.equal hold.Status Active "new holds are active"
          }

          test "cannot hold more than is available" {
              let result =
                  Holds.create holdSettings opened fixedId (request "FAB-QCOT-NAVY" 4) (Some(item "FAB-QCOT-NAVY" 6 3)) 0

              Expect.equal result (Error(InsufficientStock(4, 3))) "only three metres left"
          }

          test "customers are limited to MaxHoldsPerCustomer active holds" {
              let result =
                  Holds.create holdSettings opened fixedId (request "NDL-SCHM-80" 1) (Some(item "NDL-SCHM-80" 40 0)) 2

              Expect.equal result (Error(TooManyHolds 2)) "third hold rejected"
          }

          test "unknown SKU is reported with the raw input" {
              let result = Holds.create holdSettings opened fixedId (request "nope" 1) None 0
              Expect.equal result (Error(UnknownSku "nope")) "unknown"
          }

          test "an overdue hold cannot be confirmed even before the sweeper runs" {
              let clock = FakeTimeProvider(opened)

              let hold =
                  Holds.create holdSettings (clock.GetUtcNow()) fixedId (request "BTN-WOOD-15" 2) (Some(item "BTN-WOOD-15" 30 0)) 0
                  |> Result.defaultWith (fun e -> failtest (HoldError.describe e))

              clock.Advance(TimeSpan.FromSeconds 601.0)
              Expect.equal (Holds.confirm (clock.GetUtcNow()) hold) (Error(HoldNotActive Expired)) "too late"
          }

          test "releasing twice is harmless" {
              let hold =
                  Holds.create holdSettings opened fixedId (request "ZIP-YKK-20-BLK" 1) (Some(item "ZIP-YKK-20-BLK" 5 0)) 0
                  |> Result.defaultWith (fun e -> failtest (HoldError.describe e))

              let once = Holds.release hold |> Result.defaultWith (fun _ -> failtest "first release")
              Expect.equal (Holds.release once) (Ok once) "second release is a no-op"
          }

          test "sweeper picks the oldest overdue holds first, up to the batch size" {
              let mk minutes =
                  { Id = HoldId(Guid.NewGuid())
                    Sku = sku "THR-GUT100-0010"
                    CustomerId = "c"
                    Quantity = 1
                    CreatedAt = opened
                    ExpiresAt = opened.AddMinutes(float minutes)
                    Status = Active }

              let holds = [ mk 5; mk 1; mk 30; mk 3 ]
              let due = Holds.dueForExpiry (opened.AddMinutes 10.0) 2 holds
              Expect.equal (due |> List.map (fun h -> h.ExpiresAt)) [ opened.AddMinutes 1.0; opened.AddMinutes 3.0 ] "oldest two"
          } ]

[<Tests>]
let stock =
    testList
        "stock"
        [ test "at the threshold counts as low" {
              Expect.equal (Stock.level stockSettings (item "THR-GUT100-0412" 9 4)) Stock.Low "5 available, threshold 5"
          }

          test "an item's own reorder point wins over the shop-wide threshold" {
              let black = { item "THR-GUT100-0000" 30 0 with ReorderPoint = Some 40 }
              Expect.equal (Stock.level stockSettings black) Stock.Low "black thread is reordered early"
          }

          test "spools are reordered in fives" {
              Expect.equal (Stock.reorderQuantity stockSettings (item "THR-GUT100-0412" 2 0)) 10 "8 missing, rounded up"
          } ]

[<Tests>]
let paging =
    testList
        "paging"
        [ test "no pageSize means the default" {
              Expect.equal (Paging.clampSize pagingSettings None) 20 "fixture default"
          }

          test "too large a pageSize is capped" {
              Expect.equal (Paging.clampSize pagingSettings (Some 5000)) 50 "fixture maximum"
          }

          test "cursor round-trips" {
              let s = sku "FAB-LIN-OAT"
              Expect.equal (Paging.decodeCursor (Paging.encodeCursor s)) (Some s) "same SKU back"
          } ]

[<Tests>]
let settings =
    testList
        "settings"
        [ test "missing keys fall back to the built-in defaults" {
              Expect.equal (Settings.bind (fun _ -> None)) (Ok Settings.defaults) "all defaults"
          }

          test "problems are reported together" {
              let config =
                  dict
                      [ "Thimble:Paging:DefaultPageSize", "500"
                        "Thimble:Sweeper:IntervalSeconds", "soon" ]

              match Settings.bind (fun k -> match config.TryGetValue k with | true, v -> Some v | _ -> None) with
              | Ok _ -> failtest "should fail"
              | Error problems -> Expect.hasLength problems 2 "page size and interval"
          } ]
