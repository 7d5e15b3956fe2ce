package Quarry::Webhook;

use 5.024;
use strict;
use warnings;

use Carp qw(croak carp);
use HTTP::Tiny;
use JSON::PP ();
use Time::HiRes ();

use constant DEFAULT_TIMEOUT_MS => 3500;
use constant DEFAULT_MAX_RETRIES => 4;
use constant DEFAULT_BACKOFF_MS => 750;    # doubled after every failed attempt
use constant MAX_RETRY_AFTER_SECONDS => 30;

sub new {
    my ( $class, %args ) = @_;
    croak 'url is required' unless $args{url};

    my $timeout_ms = $args{timeout_ms} // DEFAULT_TIMEOUT_MS;
    my $self = bless {
        url         => $args{url},
        channel     => $args{channel},
        timeout_ms  => $timeout_ms,
        max_retries => $args{max_retries} // DEFAULT_MAX_RETRIES,
        backoff_ms  => $args{backoff_ms}  // DEFAULT_BACKOFF_MS,
        sleep       => $args{sleep}       // \&Time::HiRes::sleep,
        http        => $args{http}        // HTTP::Tiny->new(
            agent   => 'quarry/' . ( $Quarry::VERSION // 'dev' ) . ' ',
            timeout => $timeout_ms / 1000,
        ),
        json => JSON::PP->new->canonical->utf8,
    }, $class;
    return $self;
}

sub timeout_ms  { return $_[0]{timeout_ms} }
sub max_retries { return $_[0]{max_retries} }

# Posts a Slack-compatible payload. Retries on connection errors, 429 and
# 5xx; gives up immediately on other 4xx since retrying will not help.
# Returns true on success.
sub post {
    my ( $self, $text, %extra ) = @_;
    my $payload = { text => $text, %extra };
    $payload->{channel} = $self->{channel} if defined $self->{channel};
    my $body = $self->{json}->encode($payload);

    my $backoff = $self->{backoff_ms};
    for my $attempt ( 0 .. $self->{max_retries} ) {
        my $res = $self->{http}->request(
            'POST',
            $self->{url},
            { headers => { 'Content-Type' => 'application/json' }, content => $body },
        );
        return 1 if $res->{success};

        my $status = $res->{status};
        if ( $status != 599 && $status != 429 && $status < 500 ) {
            carp "webhook rejected alert: $status $res->{reason}";
            return 0;
        }
        last if $attempt == $self->{max_retries};

        my $wait = $backoff / 1000;
        if ( $status == 429 && ( my $ra = $res->{headers}{'retry-after'} ) ) {
            $wait = $ra =~ /\A\d+\z/ ? $ra : $wait;
            $wait = MAX_RETRY_AFTER_SECONDS if $wait > MAX_RETRY_AFTER_SECONDS;
        }
        $self->{sleep}->($wait);
        $backoff *= 2;
    }

    carp "webhook failed after " . ( $self->{max_retries} + 1 ) . " attempts";
    return 0;
}

1;

__END__

=head1 NAME

Quarry::Webhook - deliver alerts to a Slack-style incoming webhook

=head1 SYNOPSIS

    my $hook = Quarry::Webhook->new(
        url     => 'https://hooks.slack.com/services/...',
        channel => '#latency',
    );
    $hook->post(':rotating_light: /api/orders p99 2310ms');

=head1 DESCRIPTION

Thin wrapper around L<HTTP::Tiny> with a per-request timeout and
exponential backoff. C<Retry-After> on a 429 is honoured, capped so a
misbehaving endpoint cannot park the tail loop.

=head1 METHODS

=head2 new(%args)

Accepts C<url> (required), C<channel>, C<timeout_ms>, C<max_retries>,
C<backoff_ms>, and for tests C<http> and C<sleep>.

=head2 timeout_ms

=head2 max_retries

=head2 post($text, %extra)

=cut
