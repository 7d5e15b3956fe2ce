module Thimble.Api.Program

open System
open System.Text.Json
open System.Text.Json.Serialization
open Giraffe
open Microsoft.AspNetCore.Builder
open Microsoft.AspNetCore.Hosting
open Microsoft.Extensions.Configuration
open Microsoft.Extensions.DependencyInjection
open Microsoft.Extensions.Hosting
open Microsoft.Extensions.Logging
open Serilog
open Thimble.Core

let private jsonOptions =
    let o = JsonSerializerOptions(JsonSerializerDefaults.Web)
    JsonFSharpOptions.Default().WithUnionUnwrapFieldlessTags().AddToJsonSerializerOptions(o)
    o

let private errorHandler (ex: exn) (logger: Microsoft.Extensions.Logging.ILogger) =
    logger.LogError(ex, "Unhandled exception")
    clearResponse >=> ServerErrors.INTERNAL_ERROR {| status = 500; detail = "internal error" |}

let private loadSettings (config: IConfiguration) =
    let tryGet (key: string) =
        match config[key] with
        | null
        | "" -> None
        | v -> Some v

    match Settings.bind tryGet with
    | Ok s -> s
    | Error problems -> failwithf "Invalid Thimble configuration:\n  %s" (String.concat "\n  " problems)

[<EntryPoint>]
let main args =
    let builder = WebApplication.CreateBuilder(args)
    let settings = loadSettings builder.Configuration

    // The port comes from Thimble:Http:Port (built-in default in Settings.fs);
    // ASPNETCORE_URLS / ASPNETCORE_HTTP_PORTS are deliberately ignored.
    builder.WebHost.ConfigureKestrel(fun kestrel -> kestrel.ListenAnyIP settings.Http.Port)
    |> ignore

    builder.Host.UseSerilog(fun ctx _ logger ->
        logger.ReadFrom.Configuration(ctx.Configuration).Enrich.FromLogContext().WriteTo.Console()
        |> ignore)
    |> ignore

    let connectionString =
        match builder.Configuration.GetConnectionString "Thimble" with
        | null
        | "" -> failwith "ConnectionStrings:Thimble is not set (use ConnectionStrings__Thimble in production)"
        | cs -> cs

    builder.Services
        .AddSingleton(settings)
        .AddSingleton(TimeProvider.System)
        .AddNpgsqlDataSource(connectionString)
        .AddHostedService<HoldSweeper>()
        .AddSingleton<Json.ISerializer>(SystemTextJson.Serializer(jsonOptions))
        .AddGiraffe()
    |> ignore

    let app = builder.Build()

    if app.Environment.IsDevelopment() then
        Store.ensureSchema (app.Services.GetRequiredService<Npgsql.NpgsqlDataSource>())
        |> fun t -> t.GetAwaiter().GetResult()

    app.UseSerilogRequestLogging() |> ignore
    app.UseGiraffeErrorHandler(errorHandler).UseGiraffe Handlers.webApp

    Log.Information(
        "thimble listening on port {Port} ({Environment})",
        settings.Http.Port,
        app.Environment.EnvironmentName
    )

    app.Run()
    0
