use strict;
use warnings;

use Test::More;

use Quarry::Window;

my $w = Quarry::Window->new( seconds => 10, max_endpoints => 3 );

$w->add( 'GET /a', 1000 + $_ % 5, $_ ) for 1 .. 100;
is( $w->count('GET /a'), 100, '100 samples stored' );

is_deeply(
    $w->percentiles( 'GET /a', 50, 95, 99 ),
    { 50 => 50, 95 => 95, 99 => 99 },
    'nearest-rank percentiles over 1..100',
);

is_deeply( $w->percentiles( 'GET /a', 99.9 ), { 99.9 => 100 }, 'fractional percentile rounds up' );

# Small sample counts: p99 of 7 samples must be the max, not past the end.
$w->add( 'GET /small', 1000, $_ ) for 10, 20, 30, 40, 50, 60, 70;
is( $w->percentiles( 'GET /small', 99 )->{99}, 70, 'p99 with n < 100' );

$w->add( 'GET /c', 1000, 1 );
ok( !$w->add( 'GET /d', 1000, 1 ), 'max_endpoints enforced' );
is( $w->dropped, 1, 'drop counted' );

$w->add( 'GET /c', 1015, 5 );
$w->expire(1016);
is_deeply( [ $w->endpoints ], ['GET /c'], 'old samples and empty endpoints expire' );
is( $w->count('GET /c'), 1, 'only the recent sample survives' );

done_testing;
