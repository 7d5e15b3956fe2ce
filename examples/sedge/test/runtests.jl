using Sedge
using Test
using Dates
using DataFrames

const DATA = joinpath(@__DIR__, "data")

# M2 tidal period in milliseconds (12.42 h).
const M2_MS = 12.42 * 3_600_000

"""
Clean semidiurnal signal on a regular grid. Shared by the test files below.
"""
function synthetic(; n = 600, step = Minute(5), amp = 1.8, mean_level = 2.4,
                   t0 = DateTime(2024, 3, 1), station = "TEST")
    t = [t0 + i * step for i in 0:(n - 1)]
    h = [mean_level + amp * sin(2π * Dates.value(ti - t0) / M2_MS) for ti in t]
    return LevelSeries(station, t, h)
end

@testset "Sedge.jl" begin
    @testset "types" begin
        s = synthetic(; n = 10)
        @test length(s) == 10
        @test all(==(NOT_CHECKED), s.flags)
        @test flagcount(s, NOT_CHECKED) == 10

        t = [DateTime(2024, 1, 1) + Minute(10i) for i in 0:3]
        s2 = LevelSeries("X", t, [1.0, NaN, 1.2, 1.3])
        @test s2.flags[2] == MISSING
        @test s2[[1, 3]].level == [1.0, 1.2]

        @test_throws ArgumentError LevelSeries("X", reverse(t), [1.0, 2.0, 3.0, 4.0])
        @test_throws ArgumentError LevelSeries("X", [t[1], t[1]], [1.0, 2.0])
        @test_throws DimensionMismatch LevelSeries("X", t, [1.0, 2.0], fill(GOOD, 4))

        st = Station("KRV-03", "Kærvik harbour", 58.142, 7.995; datum_offset = -1.732)
        @test st.kind === :tide
        @test_throws ArgumentError Station("A", "a", 0, 0; kind = :lake)

        df = DataFrame(s2)
        @test names(df) == ["time", "level", "flag"]
        @test df.flag[2] == 9
    end

    include("test_resample.jl")
    include("test_anomaly.jl")
    include("test_config.jl")
end
