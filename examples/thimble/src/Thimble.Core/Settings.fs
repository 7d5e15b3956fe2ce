namespace Thimble.Core

open System

type HttpSettings = { Port: int }

type HoldSettings =
    {
        /// How long a hold keeps stock reserved before the sweeper releases it.
        HoldTtlSeconds: int
        /// Active holds a single customer may have at once.
        MaxHoldsPerCustomer: int
    }

type StockSettings =
    {
        /// An item whose available quantity is at or below this is reported as
        /// low stock, unless the item has its own ReorderPoint.
        LowStockThreshold: int
    }

type PagingSettings =
    { DefaultPageSize: int
      MaxPageSize: int }

type SweeperSettings =
    { Enabled: bool
      /// Seconds between two sweeps for expired holds.
      IntervalSeconds: int
      /// Holds expired per sweep; the rest wait for the next tick.
      BatchSize: int }

type ThimbleSettings =
    { Http: HttpSettings
      Holds: HoldSettings
      Stock: StockSettings
      Paging: PagingSettings
      Sweeper: SweeperSettings }

/// Reads the "Thimble" configuration section. Every key is optional: a key
/// that no configuration source (appsettings*.json, environment variables
/// such as Thimble__Paging__MaxPageSize, command line) provides falls back to
/// the built-in value in Defaults.
[<RequireQualifiedAccess>]
module Settings =

    module Defaults =
        [<Literal>]
        let HttpPort = 5311

        /// 35 minutes.
        [<Literal>]
        let HoldTtlSeconds = 2100

        [<Literal>]
        let MaxHoldsPerCustomer = 5

        [<Literal>]
        let LowStockThreshold = 6

        [<Literal>]
        let DefaultPageSize = 36

        [<Literal>]
        let MaxPageSize = 150

        [<Literal>]
        let SweepIntervalSeconds = 95

        [<Literal>]
        let SweepBatchSize = 250

    let defaults =
        { Http = { Port = Defaults.HttpPort }
          Holds =
            { HoldTtlSeconds = Defaults.HoldTtlSeconds
              MaxHoldsPerCustomer = Defaults.MaxHoldsPerCustomer }
          Stock = { LowStockThreshold = Defaults.LowStockThreshold }
          Paging =
            { DefaultPageSize = Defaults.DefaultPageSize
              MaxPageSize = Defaults.MaxPageSize }
          Sweeper =
            { Enabled = true
              IntervalSeconds = Defaults.SweepIntervalSeconds
              BatchSize = Defaults.SweepBatchSize } }

    /// Binds settings from a key lookup such as IConfiguration's indexer
    /// ("Thimble:Holds:HoldTtlSeconds"). Returns every problem at once so a
    /// bad deployment fails with one complete message.
    let bind (tryGet: string -> string option) : Result<ThimbleSettings, string list> =
        let errors = ResizeArray<string>()

        let int key fallback minimum =
            match tryGet ("Thimble:" + key) with
            | None -> fallback
            | Some raw ->
                match Int32.TryParse raw with
                | true, v when v >= minimum -> v
                | _ ->
                    errors.Add(sprintf "Thimble:%s must be an integer >= %d (got '%s')" key minimum raw)
                    fallback

        let bool key fallback =
            match tryGet ("Thimble:" + key) with
            | None -> fallback
            | Some raw ->
                match Boolean.TryParse raw with
                | true, v -> v
                | _ ->
                    errors.Add(sprintf "Thimble:%s must be true or false (got '%s')" key raw)
                    fallback

        let d = defaults

        let settings =
            { Http = { Port = int "Http:Port" d.Http.Port 1 }
              Holds =
                { HoldTtlSeconds = int "Holds:HoldTtlSeconds" d.Holds.HoldTtlSeconds 30
                  MaxHoldsPerCustomer = int "Holds:MaxHoldsPerCustomer" d.Holds.MaxHoldsPerCustomer 1 }
              Stock = { LowStockThreshold = int "Stock:LowStockThreshold" d.Stock.LowStockThreshold 0 }
              Paging =
                { DefaultPageSize = int "Paging:DefaultPageSize" d.Paging.DefaultPageSize 1
                  MaxPageSize = int "Paging:MaxPageSize" d.Paging.MaxPageSize 1 }
              Sweeper =
                { Enabled = bool "Sweeper:Enabled" d.Sweeper.Enabled
                  IntervalSeconds = int "Sweeper:IntervalSeconds" d.Sweeper.IntervalSeconds 5
                  BatchSize = int "Sweeper:BatchSize" d.Sweeper.BatchSize 1 } }

        if settings.Paging.DefaultPageSize > settings.Paging.MaxPageSize then
            errors.Add(
                sprintf
                    "Thimble:Paging:DefaultPageSize (%d) cannot exceed Thimble:Paging:MaxPageSize (%d)"
                    settings.Paging.DefaultPageSize
                    settings.Paging.MaxPageSize
            )

        if settings.Sweeper.IntervalSeconds >= settings.Holds.HoldTtlSeconds then
            errors.Add "Thimble:Sweeper:IntervalSeconds must be shorter than Thimble:Holds:HoldTtlSeconds"

        if errors.Count = 0 then Ok settings else Error(List.ofSeq errors)
