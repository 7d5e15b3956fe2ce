import Config

config :chirp, Chirp.Repo,
  username: "postgres",
  password: "postgres",
  hostname: "localhost",
  database: "chirp_dev",
  show_sensitive_data_on_connection_error: true,
  pool_size: 10

config :chirp, ChirpWeb.Endpoint,
  http: [ip: {127, 0, 0, 1}, port: 4000],
  check_origin: false,
  code_reloader: true,
  debug_errors: true,
  secret_key_base: "dev-only-secret-key-base-not-for-production-use-at-all-0123456789"

config :logger, :console, format: "[$level] $message\n"
