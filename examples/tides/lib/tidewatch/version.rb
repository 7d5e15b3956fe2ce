# frozen_string_literal: true

module Tidewatch
  VERSION = "0.4.1"
end
