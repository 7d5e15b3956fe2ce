require "rails_helper"

RSpec.describe Rookery::Settings do
  describe ".[]" do
    it "falls back to the built-in defaults when nothing is configured", settings: {} do
      expect(described_class[:survey_page_size]).to eq(35)
      expect(described_class[:max_photo_mb]).to eq(18)
      expect(described_class[:upload_expiry_minutes]).to eq(90)
      expect(described_class[:webhook_max_attempts]).to eq(6)
    end

    it "prefers a configured value", settings: { max_photo_mb: 5, survey_page_size: 3 } do
      expect(described_class[:max_photo_mb]).to eq(5)
      expect(described_class[:survey_page_size]).to eq(3)
      expect(described_class[:webhook_timeout_seconds]).to eq(12)
    end

    it "accepts string keys", settings: { tally_debounce_seconds: 1 } do
      expect(described_class["tally_debounce_seconds"]).to eq(1)
    end

    it "rejects keys it does not know" do
      expect { described_class[:max_photo_gb] }.to raise_error(Rookery::Settings::UnknownSetting, /max_photo_gb/)
    end
  end

  describe ".max_photo_bytes" do
    it "converts the MB limit to bytes", settings: { max_photo_mb: 2 } do
      expect(described_class.max_photo_bytes).to eq(2_097_152)
    end
  end

  describe ".to_h" do
    it "lists every known key with its effective value", settings: { photo_bucket: "spec-bucket" } do
      expect(described_class.to_h.keys).to match_array(described_class::DEFAULTS.keys)
      expect(described_class.to_h[:photo_bucket]).to eq("spec-bucket")
    end
  end
end
