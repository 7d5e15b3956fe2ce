require "./spec_helper"

describe Spire::CodeGenerator do
  it "generates codes of the default length" do
    Spire::CodeGenerator.new.generate.size.should eq(Spire::DEFAULT_SLUG_LENGTH)
  end

  it "honours a configured length" do
    Spire::CodeGenerator.new(11).generate.size.should eq(11)
  end

  it "rejects lengths outside the supported range" do
    expect_raises(ArgumentError) { Spire::CodeGenerator.new(4) }
    expect_raises(ArgumentError) { Spire::CodeGenerator.new(17) }
  end

  it "never uses look-alike characters" do
    generator = Spire::CodeGenerator.new(16, Random.new(7301))
    500.times do
      generator.generate.each_char { |char| "0O1lI".includes?(char).should be_false }
    end
  end

  it "is reproducible with a seeded random source" do
    a = Spire::CodeGenerator.new(8, Random.new(1234)).generate
    b = Spire::CodeGenerator.new(8, Random.new(1234)).generate
    a.should eq(b)
  end

  describe "#claim" do
    it "returns the first code the block accepts" do
      generator = Spire::CodeGenerator.new(6, Random.new(99))
      calls = 0
      result = generator.claim { |code| (calls += 1) == 3 ? code : nil }
      calls.should eq(3)
      result.size.should eq(6)
    end

    it "gives up after MAX_ATTEMPTS collisions" do
      generator = Spire::CodeGenerator.new
      expect_raises(Spire::CodeGenerator::Exhausted) do
        generator.claim { |_code| nil.as(String?) }
      end
    end
  end
end
