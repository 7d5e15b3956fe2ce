#include "sampler.hpp"

namespace sensord {

Sampler::Sampler(std::size_t capacity) : capacity_(capacity) {}

void Sampler::push(Reading reading) {
    if (readings_.size() == capacity_) {
        readings_.pop_front();
    }
    readings_.push_back(reading);
}

std::optional<Reading> Sampler::average() const {
    if (readings_.empty()) {
        return std::nullopt;
    }
    Reading sum;
    for (const auto& r : readings_) {
        sum.celsius += r.celsius;
        sum.humidity += r.humidity;
    }
    const auto n = static_cast<double>(readings_.size());
    return Reading{sum.celsius / n, sum.humidity / n};
}

double raw_to_celsius(unsigned raw) { return -45.0 + 175.0 * raw / 65535.0; }

}  // namespace sensord
