#pragma once

#include <cstddef>
#include <deque>
#include <optional>

namespace sensord {

struct Reading {
    double celsius = 0.0;
    double humidity = 0.0;
};

/// Keeps the last readings of one sensor and smooths them.
class Sampler {
public:
    explicit Sampler(std::size_t capacity);

    void push(Reading reading);
    std::optional<Reading> average() const;
    std::size_t size() const { return readings_.size(); }

private:
    std::size_t capacity_;
    std::deque<Reading> readings_;
};

/// Converts a raw SHT3x temperature word to degrees Celsius.
double raw_to_celsius(unsigned raw);

}  // namespace sensord
