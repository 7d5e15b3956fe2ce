require "./spec_helper"

describe Spire::SlugValidator do
  it "accepts ordinary slugs" do
    %w(spring-sale q3_report Launch2024 abcd).each do |slug|
      Spire::SlugValidator.valid?(slug).should be_true
    end
  end

  it "rejects slugs that are too short or too long" do
    Spire::SlugValidator.problem("abc").should eq("slug must be at least 4 characters long")
    Spire::SlugValidator.valid?("a" * (Spire::CUSTOM_SLUG_MAX_LENGTH + 1)).should be_false
  end

  it "rejects characters outside the allowed set" do
    ["has space", "dot.ted", "slash/ed", "émoji", "under_"].each do |slug|
      Spire::SlugValidator.valid?(slug).should be_false
    end
  end

  it "rejects slugs that must start and end with a letter or digit" do
    Spire::SlugValidator.valid?("-lead").should be_false
    Spire::SlugValidator.valid?("trail-").should be_false
  end

  it "treats reserved words case-insensitively" do
    Spire::SlugValidator.reserved?("Admin").should be_true
    Spire::SlugValidator.problem("HEALTHZ").should eq(%("HEALTHZ" is reserved))
    Spire::SlugValidator.reserved?("administrator").should be_false
  end
end
