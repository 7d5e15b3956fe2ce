require "uri"
require "yaml"

module Spire
  # Built-in defaults.
  #
  # In development and test, config/spire.yml is layered on top of these;
  # for any other SPIRE_ENV, config/spire.<env>.yml is used instead. The
  # PORT, DATABASE_URL, REDIS_URL and SPIRE_BASE_URL environment variables
  # win over both.
  DEFAULT_HOST = "0.0.0.0"
  DEFAULT_PORT = 3087
  DEFAULT_BASE_URL = "http://localhost:3087"
  DEFAULT_DATABASE_URL = "postgres://spire:spire@localhost:5432/spire_development"
  DEFAULT_DB_POOL_SIZE = 8
  DEFAULT_REDIS_URL = "redis://localhost:6379/3"
  DEFAULT_CACHE_TTL = 5400 # seconds
  DEFAULT_RATE_LIMIT_PER_MINUTE = 135
  DEFAULT_SLUG_LENGTH = 7
  DEFAULT_REDIRECT_STATUS = 302

  CUSTOM_SLUG_MIN_LENGTH = 4
  CUSTOM_SLUG_MAX_LENGTH = 48
  MAX_URL_LENGTH = 2083
  MIN_EXPIRES_IN = 60         # seconds
  MAX_EXPIRES_IN = 31_536_000 # one year, in seconds

  SLUG_LENGTH_RANGE = 5..16
  REDIRECT_STATUSES = {301, 302, 307, 308}

  class Config
    class Error < Exception
    end

    property host : String = DEFAULT_HOST
    property port : Int32 = DEFAULT_PORT
    property base_url : String = DEFAULT_BASE_URL
    property? trust_proxy : Bool = false
    property database_url : String = DEFAULT_DATABASE_URL
    property db_pool_size : Int32 = DEFAULT_DB_POOL_SIZE
    property redis_url : String = DEFAULT_REDIS_URL
    property cache_ttl : Int32 = DEFAULT_CACHE_TTL
    property rate_limit_per_minute : Int32 = DEFAULT_RATE_LIMIT_PER_MINUTE
    property slug_length : Int32 = DEFAULT_SLUG_LENGTH
    property redirect_status : Int32 = DEFAULT_REDIRECT_STATUS

    def self.load(env : String, dir : String = ENV.fetch("SPIRE_CONFIG_DIR", "config"), vars = ENV) : Config
      config = new
      file = env.in?("development", "test") ? "spire.yml" : "spire.#{env}.yml"
      path = File.join(dir, file)

      if File.exists?(path)
        config.merge_yaml(File.read(path))
      elsif env == "production"
        raise Error.new("#{path} not found; refusing to start production with built-in defaults")
      end

      config.merge_env(vars)
      config.validate!
      config
    end

    def merge_yaml(source : String) : self
      doc = YAML.parse(source)
      return self unless doc.as_h?

      if server = doc["server"]?
        server["host"]?.try { |v| @host = v.as_s }
        server["port"]?.try { |v| @port = v.as_i }
        server["base_url"]?.try { |v| @base_url = v.as_s.chomp('/') }
        server["trust_proxy"]?.try { |v| @trust_proxy = v.as_bool }
      end

      if database = doc["database"]?
        database["url"]?.try { |v| @database_url = v.as_s }
        database["pool_size"]?.try { |v| @db_pool_size = v.as_i }
      end

      if redis = doc["redis"]?
        redis["url"]?.try { |v| @redis_url = v.as_s }
      end

      if cache = doc["cache"]?
        cache["ttl_seconds"]?.try { |v| @cache_ttl = v.as_i }
      end

      if rate_limit = doc["rate_limit"]?
        rate_limit["requests_per_minute"]?.try { |v| @rate_limit_per_minute = v.as_i }
      end

      if slugs = doc["slugs"]?
        slugs["length"]?.try { |v| @slug_length = v.as_i }
      end

      if redirect = doc["redirect"]?
        redirect["status"]?.try { |v| @redirect_status = v.as_i }
      end

      self
    rescue ex : TypeCastError
      raise Error.new("invalid config value: #{ex.message}")
    end

    def merge_env(vars) : self
      vars["PORT"]?.try { |v| @port = v.to_i }
      vars["DATABASE_URL"]?.try { |v| @database_url = v }
      vars["REDIS_URL"]?.try { |v| @redis_url = v }
      vars["SPIRE_BASE_URL"]?.try { |v| @base_url = v.chomp('/') }
      self
    rescue ArgumentError
      raise Error.new("PORT must be a number, got #{vars["PORT"]?.inspect}")
    end

    def validate! : Nil
      unless SLUG_LENGTH_RANGE.includes?(slug_length)
        raise Error.new("slugs.length must be between #{SLUG_LENGTH_RANGE.begin} and #{SLUG_LENGTH_RANGE.end}, got #{slug_length}")
      end
      unless REDIRECT_STATUSES.includes?(redirect_status)
        raise Error.new("redirect.status must be one of #{REDIRECT_STATUSES.join(", ")}, got #{redirect_status}")
      end
      raise Error.new("cache.ttl_seconds must be positive, got #{cache_ttl}") unless cache_ttl > 0
      raise Error.new("rate_limit.requests_per_minute cannot be negative") if rate_limit_per_minute < 0
      raise Error.new("database.pool_size must be at least 1") if db_pool_size < 1
    end

    # DATABASE_URL with the connection pool settings crystal-db expects in
    # the query string. Values already present in the URL are kept.
    def database_pool_url : String
      uri = URI.parse(database_url)
      params = uri.query_params
      params["max_pool_size"] = db_pool_size.to_s unless params.has_key?("max_pool_size")
      params["max_idle_pool_size"] = db_pool_size.to_s unless params.has_key?("max_idle_pool_size")
      params["checkout_timeout"] = "3.0" unless params.has_key?("checkout_timeout")
      uri.query = params.to_s
      uri.to_s
    end
  end
end
