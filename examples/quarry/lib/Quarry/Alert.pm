package Quarry::Alert;

use 5.024;
use strict;
use warnings;

use Carp qw(croak);

sub new {
    my ( $class, %args ) = @_;
    for my $k (qw(p95_threshold_ms p99_threshold_ms min_samples cooldown_seconds)) {
        croak "$k is required" unless defined $args{$k};
    }
    return bless {
        %args{qw(p95_threshold_ms p99_threshold_ms min_samples cooldown_seconds)},
        notifier   => $args{notifier},    # anything with ->post($text)
        last_fired => {},                 # "endpoint|p99" => epoch
        log        => $args{log} // sub { },
    }, $class;
}

# $snapshot is what Quarry::Window->snapshot returns. Returns the list of
# alerts that were (or, without a notifier, would have been) sent.
sub check {
    my ( $self, $snapshot, $now ) = @_;
    my @fired;

    for my $ep ( sort keys %$snapshot ) {
        my $stats = $snapshot->{$ep};
        next if $stats->{count} < $self->{min_samples};

        for my $p ( 99, 95 ) {
            my $limit = $self->{"p${p}_threshold_ms"};
            my $value = $stats->{pct}{$p} // next;
            next unless $value > $limit;

            my $key = "$ep|p$p";
            my $last = $self->{last_fired}{$key};
            # Still cooling down: stay quiet rather than fall back to p95.
            last if defined $last && $now - $last < $self->{cooldown_seconds};

            my $alert = {
                endpoint => $ep,
                pct      => $p,
                value    => $value,
                limit    => $limit,
                count    => $stats->{count},
            };
            $self->{last_fired}{$key} = $now;
            $self->_send($alert);
            push @fired, $alert;
            last;    # one alert per endpoint per check; p99 wins
        }
    }
    return @fired;
}

sub format_alert {
    my ( $self, $alert ) = @_;
    return sprintf ':rotating_light: `%s` p%d is %dms (limit %dms, %d samples)',
        @{$alert}{qw(endpoint pct value limit count)};
}

sub _send {
    my ( $self, $alert ) = @_;
    my $text = $self->format_alert($alert);
    $self->{log}->($text);
    return $self->{notifier}->post($text) if $self->{notifier};
    return;
}

1;

__END__

=head1 NAME

Quarry::Alert - compare window percentiles against thresholds

=head1 DESCRIPTION

Fires at most one alert per endpoint per check (p99 takes precedence over
p95) and suppresses repeats for the same endpoint and percentile until
C<cooldown_seconds> have passed. Endpoints with fewer than C<min_samples>
samples in the window are never alerted on.

=head1 METHODS

=head2 new(%args)

=head2 check($snapshot, $now)

=head2 format_alert($alert)

=cut
