module example.com/tally

go 1.21

require github.com/spf13/pflag v1.0.5
