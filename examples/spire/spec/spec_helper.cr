require "spec"
require "redis"

require "../src/spire/config"
require "../src/spire/code_generator"
require "../src/spire/slug_validator"
require "../src/spire/rate_limiter"
