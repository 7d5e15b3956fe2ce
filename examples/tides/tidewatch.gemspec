# frozen_string_literal: true

require_relative "lib/tidewatch/version"

Gem::Specification.new do |spec|
  spec.name = "tidewatch"
  spec.version = Tidewatch::VERSION
  spec.authors = ["Morwenna Pascoe"]
  spec.email = ["morwenna@example.org"]

  spec.summary = "Tide tables for small harbours, offline."
  spec.homepage = "https://example.org/tidewatch"
  spec.license = "MIT"
  spec.required_ruby_version = ">= 3.1"

  spec.files = Dir["lib/**/*.rb", "data/*.yml", "bin/*", "README.md", "LICENSE"]
  spec.bindir = "bin"
  spec.executables = ["tidewatch"]

  spec.add_dependency "tzinfo", "~> 2.0"
  spec.add_development_dependency "rspec", "~> 3.13"
end
