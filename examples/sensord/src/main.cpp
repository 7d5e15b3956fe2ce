#include <fmt/core.h>

#include <mqtt/async_client.h>
#include <thread>

#include "config.hpp"
#include "sampler.hpp"

int main(int argc, char** argv) {
    const std::string path = argc > 1 ? argv[1] : "/etc/sensord/sensord.toml";
    const auto config = sensord::load_config(path);

    const auto uri = fmt::format("tcp://{}:{}", config.mqtt_host, config.mqtt_port);
    mqtt::async_client client(uri, "sensord");
    client.connect()->wait();

    sensord::Sampler sampler(sensord::kBufferCapacity);
    for (;;) {
        for (const auto& sensor : config.sensors) {
            const auto topic = fmt::format("{}/{}", config.topic_prefix, sensor.name);
            if (auto avg = sampler.average()) {
                client.publish(topic, fmt::format("{:.1f}", avg->celsius), 1, false);
            }
        }
        std::this_thread::sleep_for(config.interval);
    }
}
