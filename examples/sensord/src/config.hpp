#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace sensord {

inline constexpr std::size_t kBufferCapacity = 512;
inline constexpr int kMaxPublishRetries = 4;
inline constexpr std::chrono::seconds kReconnectDelay{5};

struct SensorConfig {
    std::string name;
    unsigned address = 0;
};

struct Config {
    std::string mqtt_host = "localhost";
    int mqtt_port = 1883;
    std::string topic_prefix = "sensors";
    std::chrono::milliseconds interval{1000};
    std::string bus = "/dev/i2c-1";
    std::vector<SensorConfig> sensors;
};

Config load_config(const std::string& path);

}  // namespace sensord
