use strict;
use warnings;

use Test::More;
use File::Temp qw(tempfile);

use Quarry::Config;

my $d = Quarry::Config->new;
is( $d->get('window_seconds'), Quarry::Config::DEFAULT_WINDOW_SECONDS, 'window default' );
is( $d->get('metrics_port'),   Quarry::Config::DEFAULT_METRICS_PORT,   'metrics port default' );
is_deeply( $d->get('percentiles'), [@Quarry::Config::DEFAULT_PERCENTILES], 'percentile default' );
is( $d->get('webhook_timeout_ms'), undef, 'webhook timeout left to Quarry::Webhook' );

my ( $fh, $file ) = tempfile( SUFFIX => '.conf', UNLINK => 1 );
print {$fh} <<'INI';
[window]
seconds = 120
percentiles = 99, 50,75

[thresholds]
p95_ms = 400
p99_ms = 1800

[webhook]
url = http://127.0.0.1:8099/hook
timeout_ms = 250
INI
close $fh;

my $c = Quarry::Config->new( file => $file, overrides => { window_seconds => 45 } );
is( $c->get('window_seconds'), 45, 'command line beats file' );
is_deeply( $c->get('percentiles'), [ 50, 75, 99 ], 'percentiles parsed and sorted' );
is( $c->get('p99_threshold_ms'),   1800, 'p99 from file' );
is( $c->get('webhook_timeout_ms'), 250,  'webhook timeout from file' );
is( $c->get('min_samples'), Quarry::Config::DEFAULT_MIN_SAMPLES, 'unset keys keep defaults' );

ok( !eval { Quarry::Config->new( overrides => { p95_threshold_ms => 900, p99_threshold_ms => 300 } ) },
    'p99 below p95 rejected' );
like( $@, qr/p99 threshold/, '... with a useful message' );

my ( $fh2, $bad ) = tempfile( SUFFIX => '.conf', UNLINK => 1 );
print {$fh2} "[window]\nsecs = 10\n";
close $fh2;
ok( !eval { Quarry::Config->new( file => $bad ) }, 'unknown key rejected' );
like( $@, qr/Unknown setting \[window\] secs/, '... naming the key' );

done_testing;
