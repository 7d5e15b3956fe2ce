# Redis connection for Sidekiq (server and client) plus the cron schedule.
#
# REDIS_URL is set by docker compose and by the production deployment; the
# fallback below is a laptop running Redis on the default port, db 4 so it
# does not trample other projects' queues.
redis_url = ENV.fetch("REDIS_URL", "redis://localhost:6379/4")

Sidekiq.configure_server do |config|
  config.redis = { url: redis_url, network_timeout: 3, pool_timeout: 2 }

  config.on(:startup) do
    Sidekiq::Cron::Job.load_from_hash!(
      {
        "expire_stale_uploads" => {
          "cron" => "*/10 * * * *",
          "class" => "ExpireStaleUploadsJob",
          "queue" => "maintenance",
          "description" => "Expire surveys whose photo never arrived"
        }
      },
      source: "schedule"
    )
  end

  # Surface job failures in the logs with the job's class and arguments.
  config.error_handlers << lambda do |error, context, _config = nil|
    Rails.logger.error("[sidekiq] #{error.class}: #{error.message} #{context[:job]&.slice('class', 'args')}")
  end
end

Sidekiq.configure_client do |config|
  config.redis = { url: redis_url, network_timeout: 3, pool_timeout: 2 }
end

Sidekiq.strict_args!
