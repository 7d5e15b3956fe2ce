import Config

config :chirp, Chirp.Repo,
  username: "postgres",
  password: "postgres",
  hostname: "localhost",
  database: "chirp_test#{System.get_env("MIX_TEST_PARTITION")}",
  pool: Ecto.Adapters.SQL.Sandbox,
  pool_size: System.schedulers_online() * 2

config :chirp, ChirpWeb.Endpoint,
  http: [ip: {127, 0, 0, 1}, port: 4002],
  server: false

config :chirp, Oban, testing: :manual

config :logger, level: :warning
