require "json"
require "redis"

module Spire
  # Redis cache in front of `Store#find` for the redirect path.
  #
  # Entries never outlive the link they point to: a link that expires in
  # ten minutes is cached for at most ten minutes, whatever the TTL is.
  # Redis being down is not fatal; lookups just fall through to Postgres.
  class Cache
    KEY_PREFIX = "spire:link:"

    record Entry, link_id : Int64, target_url : String, expires_at : Time? do
      include JSON::Serializable

      def expired?(now : Time = Time.utc) : Bool
        if at = expires_at
          at <= now
        else
          false
        end
      end
    end

    getter ttl : Int32

    def initialize(@redis : Redis::PooledClient, @ttl : Int32 = DEFAULT_CACHE_TTL)
    end

    def fetch(slug : String, & : -> Link?) : Entry?
      if entry = read(slug)
        return entry
      end

      link = yield
      return nil if link.nil? || link.expired?

      entry = Entry.new(link.id, link.target_url, link.expires_at)
      write(slug, entry)
      entry
    end

    def invalidate(slug : String) : Nil
      @redis.del(key(slug))
    rescue ex : Redis::Error | IO::Error
      Log.warn(exception: ex) { "cache invalidate failed for #{slug}" }
    end

    private def read(slug : String) : Entry?
      raw = @redis.get(key(slug))
      raw ? Entry.from_json(raw) : nil
    rescue ex : JSON::ParseException
      invalidate(slug)
      nil
    rescue ex : Redis::Error | IO::Error
      Log.warn(exception: ex) { "cache read failed for #{slug}" }
      nil
    end

    private def write(slug : String, entry : Entry) : Nil
      seconds = ttl_for(entry)
      return if seconds <= 0
      @redis.set(key(slug), entry.to_json, ex: seconds)
    rescue ex : Redis::Error | IO::Error
      Log.warn(exception: ex) { "cache write failed for #{slug}" }
    end

    private def ttl_for(entry : Entry, now : Time = Time.utc) : Int32
      if at = entry.expires_at
        Math.min(@ttl, (at - now).total_seconds.to_i)
      else
        @ttl
      end
    end

    private def key(slug : String) : String
      KEY_PREFIX + slug
    end
  end
end
