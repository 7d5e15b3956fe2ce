module Spire
  # Rules for custom slugs chosen by the person shortening a link.
  module SlugValidator
    PATTERN = /\A[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9])?\z/

    # Paths the service answers itself, plus a few that would be confusing
    # or abusable as short links.
    RESERVED = Set{
      "api", "admin", "assets", "static", "healthz", "metrics",
      "login", "logout", "signup", "stats", "status", "favicon",
    }

    # Returns why *slug* can't be used, or nil when it is acceptable.
    def self.problem(slug : String) : String?
      if slug.size < CUSTOM_SLUG_MIN_LENGTH
        "slug must be at least #{CUSTOM_SLUG_MIN_LENGTH} characters long"
      elsif slug.size > CUSTOM_SLUG_MAX_LENGTH
        "slug must be at most #{CUSTOM_SLUG_MAX_LENGTH} characters long"
      elsif !slug.matches?(PATTERN)
        "slug may only contain letters, digits, '-' and '_', and must start and end with a letter or digit"
      elsif reserved?(slug)
        "#{slug.inspect} is reserved"
      end
    end

    def self.valid?(slug : String) : Bool
      problem(slug).nil?
    end

    def self.reserved?(slug : String) : Bool
      RESERVED.includes?(slug.downcase)
    end
  end
end
