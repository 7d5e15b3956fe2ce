package Quarry::Window;

use 5.024;
use strict;
use warnings;

use Carp qw(croak);
use POSIX qw(ceil);

# Hard cap on samples kept per endpoint, independent of the time window, so
# a single hot endpoint cannot eat all the memory. Oldest samples go first.
use constant MAX_SAMPLES_PER_ENDPOINT => 50_000;

sub new {
    my ( $class, %args ) = @_;
    croak 'seconds is required' unless $args{seconds};

    return bless {
        seconds       => $args{seconds},
        max_endpoints => $args{max_endpoints} // 2048,
        samples       => {},    # endpoint => [ [ts, ms], ... ] oldest first
        dropped       => 0,
    }, $class;
}

sub seconds { return $_[0]{seconds} }
sub dropped { return $_[0]{dropped} }

sub add {
    my ( $self, $endpoint, $ts, $ms ) = @_;
    my $s = $self->{samples};

    unless ( $s->{$endpoint} ) {
        if ( keys %$s >= $self->{max_endpoints} ) {
            $self->{dropped}++;
            return;
        }
        $s->{$endpoint} = [];
    }

    my $list = $s->{$endpoint};
    push @$list, [ $ts, $ms ];
    shift @$list while @$list > MAX_SAMPLES_PER_ENDPOINT;
    return 1;
}

# Forget everything older than now - seconds. Endpoints that end up empty
# are removed so max_endpoints frees up again.
sub expire {
    my ( $self, $now ) = @_;
    my $cutoff = $now - $self->{seconds};
    my $s      = $self->{samples};

    for my $ep ( keys %$s ) {
        my $list = $s->{$ep};
        shift @$list while @$list && $list->[0][0] < $cutoff;
        delete $s->{$ep} unless @$list;
    }
    return;
}

sub endpoints { return sort keys %{ $_[0]{samples} } }

sub count {
    my ( $self, $endpoint ) = @_;
    my $list = $self->{samples}{$endpoint} or return 0;
    return scalar @$list;
}

# Nearest-rank percentiles: the smallest sample such that at least p% of
# samples are <= it. Returns { 50 => ms, 95 => ms, ... }.
sub percentiles {
    my ( $self, $endpoint, @p ) = @_;
    my $list = $self->{samples}{$endpoint} or return {};
    my @sorted = sort { $a <=> $b } map { $_->[1] } @$list;
    my $n = @sorted;

    my %out;
    for my $p (@p) {
        my $rank = ceil( $p / 100 * $n );
        $rank = 1 if $rank < 1;
        $out{$p} = $sorted[ $rank - 1 ];
    }
    return \%out;
}

sub snapshot {
    my ( $self, @p ) = @_;
    return {
        map { $_ => { count => $self->count($_), pct => $self->percentiles( $_, @p ) } }
            $self->endpoints
    };
}

1;

__END__

=head1 NAME

Quarry::Window - sliding time window of per-endpoint latency samples

=head1 SYNOPSIS

    my $w = Quarry::Window->new( seconds => 300 );
    $w->add( '/api/orders', time, 182 );
    $w->expire(time);
    my $pct = $w->percentiles( '/api/orders', 50, 95, 99 );

=head1 DESCRIPTION

Keeps raw samples for the last C<seconds> seconds and computes
nearest-rank percentiles on demand. Sorting on demand is fine for the
sample counts we see (a few thousand per endpoint per window); if that
changes, swap in a t-digest.

=head1 METHODS

=head2 new(seconds => $n, max_endpoints => $n)

=head2 seconds

=head2 dropped

Samples discarded because C<max_endpoints> was reached.

=head2 add($endpoint, $ts, $ms)

=head2 expire($now)

=head2 endpoints

=head2 count($endpoint)

=head2 percentiles($endpoint, @p)

=head2 snapshot(@p)

=cut
