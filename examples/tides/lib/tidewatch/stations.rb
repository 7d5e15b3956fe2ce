# frozen_string_literal: true

require "yaml"

module Tidewatch
  # Reads the station list shipped in data/stations.yml.
  module Stations
    PATH = File.expand_path("../../data/stations.yml", __dir__)

    def self.all
      @all ||= YAML.safe_load_file(PATH).fetch("stations")
    end

    def self.find(name)
      all.find { |s| s["name"].casecmp?(name) } or
        raise UnknownStation, "no station named #{name.inspect}"
    end
  end
end
