use strict;
use warnings;

use Test::More;

use Quarry::Alert;
use Quarry::Webhook;

{
    package My::Notifier;
    sub new  { bless { sent => [] }, shift }
    sub post { push @{ $_[0]{sent} }, $_[1]; 1 }
}

my $n = My::Notifier->new;
my $alerter = Quarry::Alert->new(
    p95_threshold_ms => 200,
    p99_threshold_ms => 500,
    min_samples      => 5,
    cooldown_seconds => 60,
    notifier         => $n,
);

my $snap = {
    'GET /slow'  => { count => 10, pct => { 95 => 450, 99 => 900 } },
    'GET /meh'   => { count => 10, pct => { 95 => 250, 99 => 300 } },
    'GET /fast'  => { count => 10, pct => { 95 => 20,  99 => 40 } },
    'GET /quiet' => { count => 2,  pct => { 95 => 999, 99 => 999 } },
};

my @fired = $alerter->check( $snap, 1000 );
is( scalar @fired, 2, 'two endpoints over threshold' );
is_deeply(
    [ map {"$_->{endpoint} p$_->{pct}"} @fired ],
    [ 'GET /meh p95', 'GET /slow p99' ],
    'p99 wins over p95'
);
like( $n->{sent}[1], qr{`GET /slow` p99 is 900ms \(limit 500ms, 10 samples\)}, 'message format' );

is( scalar $alerter->check( $snap, 1030 ), 0, 'suppressed during cooldown' );
is( scalar $alerter->check( $snap, 1061 ), 2, 'fires again after cooldown' );

# --- webhook retries -----------------------------------------------------

{
    package My::HTTP;
    sub new     { my ( $c, @r ) = @_; bless { responses => [@r], calls => 0 }, $c }
    sub request { my $s = shift; $s->{calls}++; shift @{ $s->{responses} } }
}

my @slept;
my $http = My::HTTP->new(
    { success => 0, status => 599, reason => 'Internal Exception', headers => {} },
    { success => 0, status => 429, reason => 'Too Many', headers => { 'retry-after' => 120 } },
    { success => 1, status => 200, reason => 'OK', headers => {} },
);
my $hook = Quarry::Webhook->new(
    url         => 'http://127.0.0.1:8099/hook',
    timeout_ms  => 250,
    max_retries => 2,
    backoff_ms  => 100,
    http        => $http,
    sleep       => sub { push @slept, @_ },
);
ok( $hook->post('hi'), 'delivered on third attempt' );
is( $http->{calls}, 3, 'three requests' );
is_deeply( \@slept, [ 0.1, 30 ], 'backoff, then Retry-After capped' );

my $gone = Quarry::Webhook->new(
    url   => 'http://127.0.0.1:8099/hook',
    http  => My::HTTP->new( { success => 0, status => 404, reason => 'Not Found', headers => {} } ),
    sleep => sub { fail('must not sleep on 404') },
);
{
    my @warn;
    local $SIG{__WARN__} = sub { push @warn, @_ };
    ok( !$gone->post('hi'), '404 is not retried' );
    like( $warn[0], qr/rejected alert: 404/, 'and warns' );
}

is( Quarry::Webhook->new( url => 'http://x' )->timeout_ms,
    Quarry::Webhook::DEFAULT_TIMEOUT_MS, 'timeout default applies' );

done_testing;
