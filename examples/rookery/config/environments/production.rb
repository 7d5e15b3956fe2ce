require "active_support/core_ext/integer/time"

Rails.application.configure do
  config.enable_reloading = false
  config.eager_load = true
  config.consider_all_requests_local = false

  # TLS terminates at the load balancer. docker compose turns this off
  # (RAILS_FORCE_SSL=false) to run the production image over plain HTTP.
  config.assume_ssl = true
  config.force_ssl = ENV.fetch("RAILS_FORCE_SSL", "true") == "true"
  config.ssl_options = { redirect: { exclude: ->(request) { request.path == "/up" } } }

  config.logger = ActiveSupport::Logger.new($stdout)
    .tap  { |logger| logger.formatter = ::Logger::Formatter.new }
    .then { |logger| ActiveSupport::TaggedLogging.new(logger) }
  config.log_tags = [:request_id]
  config.log_level = ENV.fetch("RAILS_LOG_LEVEL", "info")

  config.cache_store = :redis_cache_store, { url: ENV.fetch("REDIS_CACHE_URL", nil), expires_in: 2.hours }
  config.active_job.queue_adapter = :sidekiq

  config.i18n.fallbacks = true
  config.active_support.report_deprecations = false
  config.active_record.dump_schema_after_migration = false
  config.active_record.attributes_for_inspect = [:id]

  config.hosts = [
    "api.rookery.skerry.org",
    /.*\.svc\.skerry\.internal/
  ]
  config.host_authorization = { exclude: ->(request) { request.path == "/up" } }

  # --- Rookery settings (defaults live in lib/rookery/settings.rb) ---
  config.x.rookery.survey_page_size = 60
  config.x.rookery.max_page_size = 250
  config.x.rookery.max_photo_mb = 27
  config.x.rookery.upload_expiry_minutes = 240
  config.x.rookery.photo_bucket = ENV.fetch("ROOKERY_PHOTO_BUCKET", "rookery-photos-prod")
  config.x.rookery.webhook_timeout_seconds = 7
  config.x.rookery.webhook_max_attempts = 13
end
