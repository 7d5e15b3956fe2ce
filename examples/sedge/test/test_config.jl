@testset "io" begin
    path = joinpath(DATA, "KRV-03_2024-05.csv")
    s = read_log(path; station = "KRV-03")
    @test s.station == "KRV-03"
    @test length(s) == 36                  # one duplicate row dropped
    @test issorted(s.time)
    @test s.flags[10] == MISSING           # -9999 sentinel
    @test s.flags[18] == MISSING && s.flags[19] == MISSING
    @test s.level[1] ≈ 2.41

    cm = read_log(path; scale = 100.0, datum_offset = -1.5)
    @test cm.level[1] ≈ 2.41 * 100 - 1.5

    withenv("SEDGE_MISSING_SENTINEL" => "-999") do
        @test missing_sentinel() == -999.0
        # -9999 is now a (silly) real value
        @test read_log(path).flags[10] == NOT_CHECKED
    end

    all_logs = read_logs(DATA)
    @test haskey(all_logs, "KRV-03")

    mktempdir() do dir
        out = write_flags(joinpath(dir, "out", "krv.csv"), s)
        lines = readlines(out)
        @test lines[1] == "timestamp,level_m,flag"
        @test length(lines) == 37
        @test endswith(lines[11], ",,9")
    end

    @test_throws ArgumentError read_log(joinpath(DATA, "nope.csv"))
end

@testset "config" begin
    @testset "QCConfig defaults" begin
        c = QCConfig()
        @test c.window == Sedge.DEFAULT_WINDOW
        @test c.max_gap == Sedge.DEFAULT_MAX_GAP
        @test c.step == Minute(15)
        c2 = QCConfig(; window = 30, max_rate = 0.2)
        @test c2.window == 30
        @test c2.z_threshold == Sedge.DEFAULT_Z_THRESHOLD
    end

    @testset "environment" begin
        withenv("SEDGE_DATA_DIR" => nothing, "SEDGE_PROFILE" => nothing) do
            @test data_dir() == "/var/lib/sedge"
            @test active_profile() == "default"
        end
        withenv("SEDGE_DATA_DIR" => "/tmp/sedge-test", "SEDGE_PROFILE" => "staging") do
            @test data_dir() == "/tmp/sedge-test"
            @test active_profile() == "staging"
        end
    end

    @testset "profiles" begin
        mktempdir() do dir
            path = joinpath(dir, "stations.toml")
            write(path, """
                [default]
                window = 40
                z_threshold = 3.2

                [field]
                window = 64
                step_minutes = 5
                max_gap_minutes = 30
                fill_method = "previous"

                [stations.TST-01]
                name = "Test pier"
                lat = 60.1
                lon = 5.3
                datum_offset_m = -0.85
                """)
            d = load_profile("default"; path = path)
            @test d.window == 40
            @test d.z_threshold == 3.2
            f = load_profile("field"; path = path)
            @test f.window == 64
            @test f.z_threshold == 3.2            # inherited from [default]
            @test f.step == Minute(5)
            @test f.max_gap == Minute(30)
            @test f.fill_method === :previous
            @test_throws ArgumentError load_profile("nope"; path = path)

            st = load_stations(path)
            @test st["TST-01"].datum_offset == -0.85
        end

        # the shipped file must stay loadable
        shipped = joinpath(pkgdir(Sedge), "config", "stations.toml")
        for name in ("default", "staging", "production", "river")
            @test load_profile(name; path = shipped) isa QCConfig
        end
        @test length(load_stations(shipped)) >= 4
    end
end
