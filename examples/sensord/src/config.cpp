#include "config.hpp"

#include <stdexcept>
#include <toml++/toml.hpp>

namespace sensord {

Config load_config(const std::string& path) {
    auto table = toml::parse_file(path);
    Config config;
    config.mqtt_host = table["mqtt"]["host"].value_or(config.mqtt_host);
    config.mqtt_port = table["mqtt"]["port"].value_or(config.mqtt_port);
    config.topic_prefix = table["mqtt"]["topic_prefix"].value_or(config.topic_prefix);
    config.interval =
        std::chrono::milliseconds(table["sampling"]["interval_ms"].value_or(int64_t{1000}));
    config.bus = table["sampling"]["bus"].value_or(config.bus);
    if (auto* sensors = table["sensor"].as_array()) {
        for (auto& entry : *sensors) {
            auto& sensor = *entry.as_table();
            config.sensors.push_back(
                {sensor["name"].value_or(std::string{}), sensor["address"].value_or(0u)});
        }
    }
    if (config.sensors.empty()) {
        throw std::runtime_error("no [[sensor]] entries in " + path);
    }
    return config;
}

}  // namespace sensord
