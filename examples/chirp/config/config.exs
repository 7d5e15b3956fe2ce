import Config

config :chirp,
  ecto_repos: [Chirp.Repo],
  generators: [timestamp_type: :utc_datetime]

config :chirp, ChirpWeb.Endpoint,
  url: [host: "localhost"],
  adapter: Bandit.PhoenixAdapter,
  render_errors: [formats: [json: ChirpWeb.ErrorJSON], layout: false]

config :chirp, Oban,
  repo: Chirp.Repo,
  queues: [default: 10, mailers: 5]

config :chirp, :sightings,
  max_per_day: 50,
  photo_max_mb: 8

config :logger, :console, format: "$time $metadata[$level] $message\n"

config :phoenix, :json_library, Jason

import_config "#{config_env()}.exs"
