require "active_support/core_ext/integer/time"

Rails.application.configure do
  config.enable_reloading = true
  config.eager_load = false
  config.consider_all_requests_local = true
  config.server_timing = true

  config.cache_store = :null_store

  # Inside docker compose the app is reached as "web"; on a laptop as localhost.
  config.hosts << "web"
  config.hosts << ".localhost"

  config.log_level = :debug
  config.active_record.migration_error = :page_load
  config.active_record.verbose_query_logs = true
  config.active_record.query_log_tags_enabled = true
  config.active_support.deprecation = :log
  config.action_controller.raise_on_missing_callback_actions = true

  # Jobs run through Sidekiq locally too, so the compose worker sees them.
  config.active_job.queue_adapter = :sidekiq

  # --- Rookery settings (defaults live in lib/rookery/settings.rb) ---
  # Small pages and short expiries so the interesting paths are easy to hit
  # by hand; a generous photo limit because test photos come off phones.
  config.x.rookery.survey_page_size = 12
  config.x.rookery.max_photo_mb = 64
  config.x.rookery.upload_expiry_minutes = 20
  config.x.rookery.photo_bucket = ENV.fetch("ROOKERY_PHOTO_BUCKET", "rookery-photos-dev")
  config.x.rookery.webhook_timeout_seconds = 30
  config.x.rookery.webhook_max_attempts = 2
  config.x.rookery.tally_debounce_seconds = 5
end
