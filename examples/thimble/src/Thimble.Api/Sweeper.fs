namespace Thimble.Api

open System
open System.Threading
open Microsoft.Extensions.Hosting
open Microsoft.Extensions.Logging
open Npgsql
open Thimble.Core

/// Background service that gives stock back from holds nobody confirmed in
/// time. Runs every Sweeper:IntervalSeconds and expires at most
/// Sweeper:BatchSize holds per tick.
type HoldSweeper(dataSource: NpgsqlDataSource, settings: ThimbleSettings, clock: TimeProvider, logger: ILogger<HoldSweeper>) =
    inherit BackgroundService()

    let sweepOnce () =
        task {
            try
                let! expired = Store.expireDue dataSource (clock.GetUtcNow()) settings.Sweeper.BatchSize

                if expired > 0 then
                    logger.LogInformation("Released {Count} expired holds", expired)

                if expired = settings.Sweeper.BatchSize then
                    logger.LogWarning(
                        "Sweep hit the batch limit of {BatchSize}; remaining holds wait for the next tick",
                        settings.Sweeper.BatchSize
                    )
            with ex ->
                logger.LogError(ex, "Hold sweep failed")
        }

    override _.ExecuteAsync(stoppingToken: CancellationToken) =
        task {
            if not settings.Sweeper.Enabled then
                logger.LogInformation "Hold sweeper is disabled (Thimble:Sweeper:Enabled = false)"
            else
                let interval = TimeSpan.FromSeconds(float settings.Sweeper.IntervalSeconds)
                logger.LogInformation("Hold sweeper running every {Interval}", interval)
                use timer = new PeriodicTimer(interval, clock)

                // Sweep once at startup so holds that expired while the service
                // was down are released immediately.
                do! sweepOnce ()

                let mutable running = true

                while running do
                    try
                        let! ticked = timer.WaitForNextTickAsync(stoppingToken)

                        if ticked then do! sweepOnce () else running <- false
                    with :? OperationCanceledException ->
                        running <- false
        }
