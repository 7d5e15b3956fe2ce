package Quarry;

use 5.024;
use strict;
use warnings;

our $VERSION = '0.23';

use Carp qw(croak);
use IO::Select;
use IO::Socket::INET;
use Time::HiRes ();

use Quarry::Alert;
use Quarry::Config;
use Quarry::Parser;
use Quarry::Webhook;
use Quarry::Window;

# How often the follow loop checks the log for new data when idle.
use constant POLL_INTERVAL => 0.25;

sub new {
    my ( $class, %args ) = @_;
    my $cfg = $args{config} // Quarry::Config->new;

    my $self = bless {
        config => $cfg,
        parser => Quarry::Parser->new( format => $cfg->get('log_format') ),
        window => Quarry::Window->new(
            seconds       => $cfg->get('window_seconds'),
            max_endpoints => $cfg->get('max_endpoints'),
        ),
        log => $args{log} // sub { print STDERR "[quarry] @_\n" },
    }, $class;

    my $notifier;
    if ( my $url = $cfg->get('webhook_url') ) {
        $notifier = $args{dry_run} ? undef : Quarry::Webhook->new(
            url         => $url,
            channel     => $cfg->get('webhook_channel'),
            timeout_ms  => $cfg->get('webhook_timeout_ms'),
            max_retries => $cfg->get('webhook_max_retries'),
        );
    }
    $self->{alert} = Quarry::Alert->new(
        map( { $_ => $cfg->get($_) } qw(p95_threshold_ms p99_threshold_ms min_samples cooldown_seconds) ),
        notifier => $notifier,
        log      => $self->{log},
    );
    return $self;
}

sub config { return $_[0]{config} }
sub window { return $_[0]{window} }

sub ingest_line {
    my ( $self, $line ) = @_;
    my $rec = $self->{parser}->parse_line($line) or return;
    return $self->{window}->add( "$rec->{method} $rec->{endpoint}", $rec->{ts}, $rec->{ms} );
}

sub snapshot {
    my ( $self, $now ) = @_;
    $self->{window}->expire( $now // time );
    return $self->{window}->snapshot( @{ $self->{config}->get('percentiles') } );
}

sub check_alerts {
    my ( $self, $now ) = @_;
    $now //= time;
    return $self->{alert}->check( $self->snapshot($now), $now );
}

# Follow $path like `tail -F`: start at the end, reopen on rotation or
# truncation. Calls $on_tick->($self) every $interval seconds.
sub follow {
    my ( $self, $path, %opt ) = @_;
    my $interval = $opt{interval} // 60;
    my $on_tick  = $opt{on_tick}  // sub { };

    my ( $fh, $ino ) = $self->_open_log( $path, 1 );
    my $metrics   = $self->_metrics_socket;
    my $next_tick = time + $interval;
    my $buf       = '';

    while (1) {
        my $got = sysread $fh, my $chunk, 65536;
        if ($got) {
            $buf .= $chunk;
            while ( $buf =~ s/\A([^\n]*)\n// ) { $self->ingest_line($1) }
        }
        else {
            my @st = stat $path;
            if ( @st && ( $st[1] != $ino || $st[7] < tell $fh ) ) {
                $self->{log}->("log rotated, reopening $path");
                ( $fh, $ino ) = $self->_open_log( $path, 0 );
                $buf = '';
                next;
            }
            $self->_serve_metrics( $metrics, POLL_INTERVAL );
        }

        if ( time >= $next_tick ) {
            $self->check_alerts;
            $on_tick->($self);
            $next_tick += $interval;
        }
    }
    return;
}

sub _open_log {
    my ( $self, $path, $seek_end ) = @_;
    open my $fh, '<', $path or croak "Cannot open $path: $!";
    seek $fh, 0, 2 if $seek_end;
    return ( $fh, ( stat $fh )[1] );
}

sub _metrics_socket {
    my ($self) = @_;
    my $cfg = $self->{config};
    my $port = $cfg->get('metrics_port') or return;
    return IO::Socket::INET->new(
        LocalAddr => $cfg->get('metrics_listen'),
        LocalPort => $port,
        Listen    => 16,
        ReuseAddr => 1,
        Blocking  => 0,
    ) || croak "Cannot listen on port $port: $@";
}

sub _serve_metrics {
    my ( $self, $sock, $timeout ) = @_;
    unless ($sock) { Time::HiRes::sleep($timeout); return }
    return unless IO::Select->new($sock)->can_read($timeout);

    my $client = $sock->accept or return;
    my $body   = $self->render_metrics;
    print {$client} "HTTP/1.0 200 OK\r\n",
        "Content-Type: text/plain; version=0.0.4\r\n",
        'Content-Length: ' . length($body) . "\r\n\r\n", $body;
    close $client;
    return;
}

sub render_metrics {
    my ($self) = @_;
    my $snap = $self->snapshot;
    my @out  = (
        '# TYPE quarry_request_latency_ms gauge',
    );
    for my $ep ( sort keys %$snap ) {
        my ( $method, $path ) = split / /, $ep, 2;
        for my $p ( sort { $a <=> $b } keys %{ $snap->{$ep}{pct} } ) {
            push @out, sprintf 'quarry_request_latency_ms{method="%s",endpoint="%s",quantile="%s"} %d',
                $method, $path, $p / 100, $snap->{$ep}{pct}{$p};
        }
    }
    push @out, '# TYPE quarry_parse_errors_total counter',
        'quarry_parse_errors_total ' . $self->{parser}->bad_lines,
        '# TYPE quarry_dropped_samples_total counter',
        'quarry_dropped_samples_total ' . $self->{window}->dropped;
    return join( "\n", @out ) . "\n";
}

1;

__END__

=encoding utf8

=head1 NAME

Quarry - tail access logs and alert on per-endpoint latency percentiles

=head1 SYNOPSIS

    use Quarry;

    my $q = Quarry->new(
        config => Quarry::Config->new( file => 'etc/quarry.conf' ),
    );
    $q->follow( '/var/log/nginx/access.log', interval => 60 );

=head1 DESCRIPTION

Quarry reads an access log as it grows, keeps a sliding window of request
latencies per C<METHOD /normalised/path>, computes percentiles over it
(L<Quarry::Window>) and posts to a Slack-style webhook
(L<Quarry::Webhook>) when p95 or p99 cross the configured thresholds
(L<Quarry::Alert>). Current percentiles are also served in Prometheus text
format on the metrics port.

Most people want the L<quarry> command rather than this module.

=head1 METHODS

=head2 new(config => $cfg, dry_run => $bool, log => \&cb)

=head2 config

=head2 window

=head2 ingest_line($line)

=head2 snapshot($now)

=head2 check_alerts($now)

=head2 follow($path, interval => $s, on_tick => \&cb)

=head2 render_metrics

=head1 AUTHOR

Mirela Dragan <mdragan@cpan.org>

=head1 LICENSE

MIT. See the F<LICENSE> file in the distribution.

=cut
