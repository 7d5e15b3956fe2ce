#include <gtest/gtest.h>

#include "sampler.hpp"

using sensord::Reading;
using sensord::Sampler;

TEST(SamplerTest, AveragesReadings) {
    Sampler sampler(4);
    sampler.push({20.0, 40.0});
    sampler.push({22.0, 50.0});
    auto avg = sampler.average();
    ASSERT_TRUE(avg.has_value());
    EXPECT_DOUBLE_EQ(avg->celsius, 21.0);
    EXPECT_DOUBLE_EQ(avg->humidity, 45.0);
}

TEST(SamplerTest, DropsOldestWhenFull) {
    Sampler sampler(2);
    sampler.push({10.0, 0.0});
    sampler.push({20.0, 0.0});
    sampler.push({30.0, 0.0});
    EXPECT_EQ(sampler.size(), 2u);
    EXPECT_DOUBLE_EQ(sampler.average()->celsius, 25.0);
}

TEST(SamplerTest, EmptyHasNoAverage) {
    Sampler sampler(2);
    EXPECT_FALSE(sampler.average().has_value());
}

TEST(ConversionTest, RawToCelsius) {
    EXPECT_NEAR(sensord::raw_to_celsius(0), -45.0, 1e-9);
    EXPECT_NEAR(sensord::raw_to_celsius(65535), 130.0, 1e-9);
}
