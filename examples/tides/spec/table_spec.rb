# frozen_string_literal: true

require "tidewatch"

RSpec.describe Tidewatch::Table do
  it "uses Brixham when no station is given" do
    expect(described_class.new.station["name"]).to eq("Brixham")
  end

  it "finds the next high water after a given time" do
    table = described_class.new("Dartmouth")
    t = Time.utc(2026, 3, 14, 12, 0)
    expect(table.next_high(t)).to be > t
  end

  it "rejects a station that is not in the list" do
    expect { described_class.new("Atlantis") }.to raise_error(Tidewatch::UnknownStation)
  end
end
