require "log"
require "kemal"
require "db"
require "pg"
require "redis"

require "./spire/config"
require "./spire/code_generator"
require "./spire/slug_validator"
require "./spire/store"
require "./spire/cache"
require "./spire/rate_limiter"
require "./spire/routes"

module Spire
  VERSION = {{ `shards version #{__DIR__}`.chomp.stringify }}

  Log = ::Log.for("spire")

  def self.run(env : String = ENV.fetch("SPIRE_ENV", "development")) : Nil
    ::Log.setup_from_env(default_level: :info)

    config = Config.load(env)
    Log.info { "spire #{VERSION} starting (env=#{env}, port=#{config.port})" }

    db = DB.open(config.database_pool_url)
    redis = Redis::PooledClient.new(url: config.redis_url)

    routes = Routes.new(
      config: config,
      store: Store.new(db),
      cache: Cache.new(redis, config.cache_ttl),
      limiter: RateLimiter.new(RateLimiter::RedisBackend.new(redis), config.rate_limit_per_minute),
      generator: CodeGenerator.new(config.slug_length),
    )
    routes.draw

    Kemal.config.env = env
    Kemal.config.host_binding = config.host
    Kemal.config.port = config.port
    Kemal.config.powered_by_header = false
    Kemal.config.logging = env != "production"

    at_exit { db.close }
    Kemal.run
  rescue ex : Config::Error
    STDERR.puts "spire: #{ex.message}"
    exit 1
  end
end

Spire.run
