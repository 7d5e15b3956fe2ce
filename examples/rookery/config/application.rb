require_relative "boot"

require "rails"
# Only the frameworks rookery actually uses; no Action Cable, Action Text,
# Active Storage (photos go straight to S3) or mailers.
require "active_model/railtie"
require "active_job/railtie"
require "active_record/railtie"
require "action_controller/railtie"

Bundler.require(*Rails.groups)

module Rookery
  class Application < Rails::Application
    config.load_defaults 7.1

    # lib/rookery/settings.rb and friends are autoloaded like app/ code.
    config.autoload_lib(ignore: %w[assets tasks])

    config.api_only = true
    config.time_zone = "UTC"
    config.active_record.default_timezone = :utc

    # Field tablets send surveys from anywhere; the API is token-protected,
    # so CORS is wide open for GET/POST only.
    config.middleware.insert_before 0, Rack::Cors do
      allow do
        origins "*"
        resource "/api/*", headers: :any, methods: %i[get post options]
      end
    end

    config.generators do |g|
      g.test_framework :rspec
      g.fixture_replacement :factory_bot, dir: "spec/factories"
    end
  end
end
