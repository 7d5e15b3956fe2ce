@testset "anomaly" begin
    @testset "range" begin
        s = synthetic(; n = 20)
        s.level[4] = -7.5
        s.level[5] = 22.0
        r = flag_range(s; lo = -5.0, hi = 12.0)
        @test r.flags[4] == BAD
        @test r.flags[5] == BAD
        @test flagcount(r, GOOD) == 18
        @test_throws ArgumentError flag_range(s; lo = 3.0, hi = 1.0)
    end

    @testset "spikes" begin
        s = flag_range(synthetic(; n = 200, step = Minute(15)))
        s.level[100] += 0.9
        s.level[150] -= 1.1
        r = flag_spikes(s; window = 20, threshold = 3.0)
        @test r.flags[100] == SUSPECT
        @test r.flags[150] == SUSPECT
        @test flagcount(r, SUSPECT) == 2

        # a threshold high enough lets them through
        @test flagcount(flag_spikes(s; window = 20, threshold = 80.0), SUSPECT) == 0
        @test_throws ArgumentError flag_spikes(s; window = 2)
    end

    @testset "spikes do not override BAD" begin
        s = flag_range(synthetic(; n = 60, step = Minute(15)))
        s.level[30] = 14.5
        s.flags[30] = BAD
        r = flag_spikes(s; window = 16)
        @test r.flags[30] == BAD
    end

    @testset "flatline" begin
        s = synthetic(; n = 80, step = Minute(15))
        s.level[20:29] .= 1.234
        r = flag_flatline(s; min_run = 6)
        @test all(==(BAD), r.flags[20:29])
        @test flagcount(r, BAD) == 10
        # a run shorter than min_run is fine
        @test flagcount(flag_flatline(s; min_run = 11), BAD) == 0
        # sub-millimetre noise still counts as flat
        s.level[20:29] .+= 0.0004 .* (-1) .^ (20:29)
        @test flagcount(flag_flatline(s; min_run = 6, tolerance = 0.001), BAD) == 10
    end

    @testset "rate of change" begin
        s = flag_range(synthetic(; n = 40, step = Minute(15), amp = 0.5))
        s.level[21] += 0.3
        r = flag_rate(s; max_rate = 0.2)
        @test r.flags[21] == SUSPECT
        # the sample after the jump is compared against the last usable one
        @test r.flags[22] == SUSPECT || abs(s.level[22] - s.level[20]) <= 0.2
        @test_throws ArgumentError flag_rate(s; max_rate = 0)
    end

    @testset "pipeline" begin
        s = synthetic(; n = 1_000, step = Minute(5))
        s.level[400] += 1.5
        s.level[700:760] .= NaN
        s.flags[700:760] .= MISSING
        cfg = QCConfig(; step = Minute(30), window = 20, z_threshold = 3.0,
                       max_gap = Minute(45))
        out = run_qc(s, cfg)
        @test all(diff(out.time) .== Minute(30))
        @test flagcount(out, NOT_CHECKED) == 0
        sm = summarize(out)
        @test sm.samples == length(out)
        @test sm.missing > 0
        @test 0.8 < sm.usable_share < 1.0

        batch = run_qc(Dict("A" => s, "B" => synthetic(; n = 50)), cfg)
        @test sort(collect(keys(batch))) == ["A", "B"]
    end
end
