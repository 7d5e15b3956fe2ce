# frozen_string_literal: true

require_relative "tidewatch/version"
require_relative "tidewatch/stations"
require_relative "tidewatch/table"

# Tide tables for small harbours, computed offline from harmonic constants.
module Tidewatch
  class Error < StandardError; end

  # Raised when a station name is not in data/stations.yml.
  class UnknownStation < Error; end
end
