require "redis"

module Spire
  # Fixed-window request limiter, keyed by client address.
  #
  # Each client gets `limit` requests per clock minute. Counters live in
  # Redis so every instance behind the load balancer shares them; specs use
  # the in-memory backend. A limit of 0 turns throttling off.
  class RateLimiter
    WINDOW = 60 # seconds

    record Result, allowed : Bool, limit : Int32, remaining : Int32, reset_in : Int32

    abstract class Backend
      # Increments and returns the counter for *client* in window number
      # *window*.
      abstract def increment(client : String, window : Int64) : Int64
    end

    class RedisBackend < Backend
      KEY_PREFIX = "spire:rl:"

      def initialize(@redis : Redis::PooledClient)
      end

      def increment(client : String, window : Int64) : Int64
        key = "#{KEY_PREFIX}#{window}:#{client}"
        count = @redis.incr(key)
        # A little slack past the window so a slow clock on one instance
        # can't resurrect a counter that another instance already reset.
        @redis.expire(key, WINDOW + 5) if count == 1
        count
      rescue ex : Redis::Error | IO::Error
        # Fail open: an unavailable Redis should not take redirects down.
        Log.warn(exception: ex) { "rate limiter unavailable, letting request through" }
        0_i64
      end
    end

    class MemoryBackend < Backend
      def initialize
        @window = -1_i64
        @counts = {} of String => Int64
        @mutex = Mutex.new
      end

      def increment(client : String, window : Int64) : Int64
        @mutex.synchronize do
          if window != @window
            @counts.clear
            @window = window
          end
          @counts[client] = @counts.fetch(client, 0_i64) + 1
        end
      end
    end

    getter limit : Int32

    def initialize(@backend : Backend, @limit : Int32 = DEFAULT_RATE_LIMIT_PER_MINUTE, @clock : -> Time = -> { Time.utc })
    end

    def check(client : String) : Result
      return Result.new(true, 0, 0, 0) if @limit.zero?

      now = @clock.call.to_unix
      count = @backend.increment(client, now // WINDOW)
      reset_in = (WINDOW - now % WINDOW).to_i32
      remaining = Math.max(@limit.to_i64 - count, 0_i64).to_i32

      Result.new(count <= @limit, @limit, remaining, reset_in)
    end
  end
end
