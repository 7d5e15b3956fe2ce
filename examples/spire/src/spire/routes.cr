require "json"
require "uri"
require "kemal"

module Spire
  class Routes
    struct CreateLink
      include JSON::Serializable

      getter url : String
      getter slug : String?
      getter expires_in : Int32?
    end

    def initialize(@config : Config, @store : Store, @cache : Cache, @limiter : RateLimiter, @generator : CodeGenerator)
    end

    def draw : Nil
      before_all do |env|
        next if env.request.path == "/healthz"

        result = @limiter.check(client_ip(env))
        next if result.limit.zero?

        env.response.headers["X-RateLimit-Limit"] = result.limit.to_s
        env.response.headers["X-RateLimit-Remaining"] = result.remaining.to_s
        env.response.headers["X-RateLimit-Reset"] = result.reset_in.to_s
        unless result.allowed
          env.response.headers["Retry-After"] = result.reset_in.to_s
          env.response.content_type = "application/json"
          halt env, status_code: 429, response: error_json("rate limit exceeded, retry in #{result.reset_in}s")
        end
      end

      get "/healthz" do |env|
        env.response.content_type = "text/plain"
        "ok"
      end

      post "/api/links" do |env|
        env.response.content_type = "application/json"
        create_link(env)
      end

      get "/api/links/:slug" do |env|
        env.response.content_type = "application/json"
        slug = env.params.url["slug"]
        if link = @store.find(slug)
          {link: link, daily_clicks: @store.daily_clicks(link.id).to_h}.to_json
        else
          env.response.status_code = 404
          error_json("no link with slug #{slug.inspect}")
        end
      end

      get "/:slug" do |env|
        slug = env.params.url["slug"]
        entry = @cache.fetch(slug) { @store.find(slug) }

        if entry.nil?
          env.response.status_code = 404
          env.response.content_type = "text/plain"
          next "Not found"
        end

        if entry.expired?
          @cache.invalidate(slug)
          env.response.status_code = 410
          env.response.content_type = "text/plain"
          next "This link has expired"
        end

        referrer = env.request.headers["Referer"]?
        spawn record_click(entry.link_id, referrer)
        env.redirect(entry.target_url, @config.redirect_status)
      end

      error 404 do |env|
        env.response.content_type = "application/json"
        error_json("not found")
      end

      error 500 do |env, ex|
        Log.error(exception: ex) { "unhandled error on #{env.request.method} #{env.request.path}" }
        env.response.content_type = "application/json"
        error_json("internal error")
      end
    end

    private def create_link(env : HTTP::Server::Context) : String
      body = env.request.body.try(&.gets_to_end) || ""
      request = begin
        CreateLink.from_json(body)
      rescue JSON::ParseException
        return fail(env, 400, %(expected a JSON object with a "url" field))
      end

      unless valid_target?(request.url)
        return fail(env, 422, "url must be an absolute http(s) URL of at most #{MAX_URL_LENGTH} characters")
      end

      expires_at = nil
      if seconds = request.expires_in
        unless (MIN_EXPIRES_IN..MAX_EXPIRES_IN).includes?(seconds)
          return fail(env, 422, "expires_in must be between #{MIN_EXPIRES_IN} and #{MAX_EXPIRES_IN} seconds")
        end
        expires_at = Time.utc + seconds.seconds
      end

      if custom = request.slug
        if problem = SlugValidator.problem(custom)
          return fail(env, 422, problem)
        end
        link = @store.create(custom, request.url, expires_at)
        return fail(env, 409, "slug #{custom.inspect} is already taken") unless link
      else
        link = @generator.claim { |code| @store.create(code, request.url, expires_at) }
      end

      env.response.status_code = 201
      env.response.headers["Location"] = "/api/links/#{link.slug}"
      {
        slug:       link.slug,
        short_url:  "#{@config.base_url}/#{link.slug}",
        url:        link.target_url,
        expires_at: link.expires_at,
      }.to_json
    end

    private def record_click(link_id : Int64, referrer : String?) : Nil
      @store.record_click(link_id, referrer)
    rescue ex
      Log.error(exception: ex) { "failed to record click for link #{link_id}" }
    end

    private def valid_target?(url : String) : Bool
      return false if url.size > MAX_URL_LENGTH
      uri = URI.parse(url)
      uri.scheme.in?("http", "https") && !uri.host.to_s.empty?
    rescue URI::Error
      false
    end

    private def client_ip(env : HTTP::Server::Context) : String
      if @config.trust_proxy? && (forwarded = env.request.headers["X-Forwarded-For"]?)
        return forwarded.split(',').first.strip
      end

      case address = env.request.remote_address
      when Socket::IPAddress then address.address
      else                        "unknown"
      end
    end

    private def fail(env : HTTP::Server::Context, status : Int32, message : String) : String
      env.response.status_code = status
      error_json(message)
    end

    private def error_json(message : String) : String
      {error: message}.to_json
    end
  end
end
