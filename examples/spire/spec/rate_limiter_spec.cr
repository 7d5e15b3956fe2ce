require "./spec_helper"

private def limiter_at(time : Time, limit : Int32)
  now = time
  limiter = Spire::RateLimiter.new(Spire::RateLimiter::MemoryBackend.new, limit, -> { now })
  {limiter, ->(t : Time) { now = t }}
end

describe Spire::RateLimiter do
  it "allows requests up to the limit within a minute" do
    limiter, _ = limiter_at(Time.utc(2024, 5, 14, 9, 30, 5), 3)

    3.times { limiter.check("203.0.113.7").allowed.should be_true }

    result = limiter.check("203.0.113.7")
    result.allowed.should be_false
    result.remaining.should eq(0)
    result.reset_in.should eq(55)
  end

  it "reports the remaining allowance" do
    limiter, _ = limiter_at(Time.utc(2024, 5, 14, 9, 30, 0), 10)
    limiter.check("203.0.113.7").remaining.should eq(9)
    limiter.check("203.0.113.7").remaining.should eq(8)
  end

  it "counts each client separately" do
    limiter, _ = limiter_at(Time.utc(2024, 5, 14, 9, 30, 0), 1)
    limiter.check("203.0.113.7").allowed.should be_true
    limiter.check("198.51.100.23").allowed.should be_true
    limiter.check("203.0.113.7").allowed.should be_false
  end

  it "starts over in the next window" do
    limiter, set_time = limiter_at(Time.utc(2024, 5, 14, 9, 30, 59), 1)
    limiter.check("203.0.113.7").allowed.should be_true
    limiter.check("203.0.113.7").allowed.should be_false

    set_time.call(Time.utc(2024, 5, 14, 9, 31, 0))
    limiter.check("203.0.113.7").allowed.should be_true
  end

  it "does not throttle when the limit is zero" do
    limiter, _ = limiter_at(Time.utc(2024, 5, 14, 9, 30, 0), 0)
    1000.times { limiter.check("203.0.113.7").allowed.should be_true }
  end

  it "defaults to the built-in limit" do
    Spire::RateLimiter.new(Spire::RateLimiter::MemoryBackend.new).limit.should eq(Spire::DEFAULT_RATE_LIMIT_PER_MINUTE)
  end
end
