@testset "resample" begin
    s = synthetic(; n = 120, step = Minute(5))

    @testset "grid" begin
        r = resample(s; step = Minute(30))
        @test length(r) == 20
        @test all(diff(r.time) .== Minute(30))
        @test first(r.time) == DateTime(2024, 3, 1)
        # mean of six 5-minute samples
        @test r.level[1] ≈ sum(s.level[1:6]) / 6
        @test all(==(NOT_CHECKED), r.flags)
    end

    @testset "right-closed labels" begin
        r = resample(s; step = Minute(30), closed = :right)
        @test first(r.time) == DateTime(2024, 3, 1, 0, 30)
        @test_throws ArgumentError resample(s; closed = :centre)
    end

    @testset "min_count" begin
        s2 = copy(s)
        s2.level[2:6] .= NaN
        s2.flags[2:6] .= MISSING
        r = resample(s2; step = Minute(30), min_count = 3)
        @test isnan(r.level[1])
        @test r.flags[1] == MISSING
        @test r.flags[2] == NOT_CHECKED
        r1 = resample(s2; step = Minute(30), min_count = 1)
        @test r1.level[1] == s2.level[1]
    end

    @testset "suspect samples are excluded" begin
        s3 = copy(s)
        s3.level[3] = 40.0
        s3.flags[3] = SUSPECT
        r = resample(s3; step = Minute(30))
        @test r.level[1] < 5.0
    end

    @testset "custom aggregate and origin" begin
        r = resample(s; step = Minute(20), agg = maximum,
                     origin = DateTime(2024, 2, 29, 23, 50))
        @test first(r.time) == DateTime(2024, 2, 29, 23, 50)
        @test r.level[1] == maximum(s.level[1:2])
    end

    @testset "align" begin
        a = synthetic(; n = 12, step = Minute(10), station = "A")
        tb = [t + Second(40) for t in a.time[3:end]]
        b = LevelSeries("B", tb, a.level[3:end] .+ 0.01)
        a2, b2 = align(a, b; tolerance = Minute(1))
        @test length(a2) == 10
        @test a2.time == b2.time
        @test b2.station == "B"
    end
end

@testset "gaps" begin
    s = synthetic(; n = 48, step = Minute(15))
    s.level[10:12] .= NaN          # 45 min hole → 60 min between neighbours
    s.flags[10:12] .= MISSING
    s.level[30:37] .= NaN          # 2 h hole
    s.flags[30:37] .= MISSING

    gaps = find_gaps(s)
    @test length(gaps) == 2
    @test length(gaps[1]) == 3
    @test gaps[2].first == 30 && gaps[2].last == 37
    @test length(find_gaps(s; min_length = 4)) == 1

    f = fill_gaps(s; max_gap = Minute(75))
    @test all(==(INTERPOLATED), f.flags[10:12])
    @test all(!isnan, f.level[10:12])
    @test all(==(MISSING), f.flags[30:37])      # too long, left alone
    # linear fill lies between the neighbours
    lo, hi = extrema((s.level[9], s.level[13]))
    @test all(lo .<= f.level[10:12] .<= hi)

    f2 = fill_gaps(s; max_gap = Minute(45))
    @test all(==(MISSING), f2.flags[10:12])

    f3 = fill_gaps(s; max_gap = Minute(180), method = :previous)
    @test all(==(s.level[29]), f3.level[30:37])

    @test_throws ArgumentError fill_gaps(s; method = :spline)

    # gaps touching the edges are never filled
    e = synthetic(; n = 8, step = Minute(15))
    e.level[1:2] .= NaN
    e.flags[1:2] .= MISSING
    @test fill_gaps(e).flags[1:2] == [MISSING, MISSING]
end
