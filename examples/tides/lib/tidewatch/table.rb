# frozen_string_literal: true

require "tzinfo"

module Tidewatch
  # High and low waters for one station.
  class Table
    DEFAULT_STATION = "Brixham"
    # Half a lunar day, in minutes, between two high waters.
    HIGH_WATER_INTERVAL = 745

    attr_reader :station

    def initialize(station = DEFAULT_STATION)
      @station = Stations.find(station)
      @zone = TZInfo::Timezone.get(@station.fetch("zone", "Europe/London"))
    end

    # The first high water strictly after +time+.
    def next_high(after)
      t = first_high_on(after.to_date)
      t += HIGH_WATER_INTERVAL * 60 while t <= after
      t
    end

    # Height difference in metres between the day's highest and lowest water.
    def range_on(date)
      highs = waters_on(date, :high)
      lows = waters_on(date, :low)
      (highs.max - lows.min).round(2)
    end

    private

    def first_high_on(date)
      offset = @station.fetch("offset_minutes")
      @zone.local_time(date.year, date.month, date.day) + offset * 60
    end

    def waters_on(date, kind)
      base = @station.fetch(kind == :high ? "mean_high" : "mean_low")
      [base, base + (kind == :high ? 0.3 : -0.2)]
    end
  end
end
