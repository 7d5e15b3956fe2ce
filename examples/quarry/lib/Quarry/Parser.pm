package Quarry::Parser;

use 5.024;
use strict;
use warnings;

use Carp qw(croak);

# nginx:  log_format combined_rt '$remote_addr - $remote_user [$time_local] '
#                                '"$request" $status $body_bytes_sent '
#                                '"$http_referer" "$http_user_agent" $request_time';
my $COMBINED_RT = qr{
    \A
    (?<addr>\S+) \s+ \S+ \s+ (?<user>\S+) \s+
    \[ (?<time>[^\]]+) \] \s+
    " (?<method>[A-Z]+) \s+ (?<path>\S+) (?:\s+ HTTP/[\d.]+)? " \s+
    (?<status>\d{3}) \s+ (?<bytes>\d+|-) \s+
    " (?<referer>[^"]*) " \s+
    " (?<agent>[^"]*) " \s+
    (?<rt>\d+(?:\.\d+)?)
    \s* \z
}x;

my %MONTH = (
    Jan => 0, Feb => 1, Mar => 2, Apr => 3, May => 4,  Jun => 5,
    Jul => 6, Aug => 7, Sep => 8, Oct => 9, Nov => 10, Dec => 11,
);

my %FORMATS = ( combined_rt => \&_parse_combined_rt );

sub new {
    my ( $class, %args ) = @_;
    my $format = $args{format} // 'combined_rt';
    croak "Unsupported log format '$format'" unless $FORMATS{$format};

    return bless {
        format        => $format,
        parse         => $FORMATS{$format},
        skip_statuses => $args{skip_statuses} // [ 101, 304 ],
        bad_lines     => 0,
    }, $class;
}

sub bad_lines { return $_[0]{bad_lines} }

# Returns a hashref { ts, method, endpoint, status, ms } or undef for lines
# that do not parse or that we deliberately ignore (websocket upgrades,
# cache revalidations).
sub parse_line {
    my ( $self, $line ) = @_;
    my $rec = $self->{parse}->($line);
    unless ($rec) {
        $self->{bad_lines}++;
        return;
    }
    return if grep { $rec->{status} == $_ } @{ $self->{skip_statuses} };
    return $rec;
}

sub _parse_combined_rt {
    my ($line) = @_;
    return unless $line =~ $COMBINED_RT;

    my $ts = _parse_time( $+{time} ) // return;
    return {
        ts       => $ts,
        method   => $+{method},
        endpoint => normalize_path( $+{path} ),
        status   => 0 + $+{status},
        ms       => int( $+{rt} * 1000 + 0.5 ),
    };
}

# 10/Oct/2023:13:55:36 +0200
sub _parse_time {
    my ($str) = @_;
    my ( $d, $mon, $y, $h, $m, $s, $sign, $oh, $om ) =
        $str =~ m{\A(\d{2})/(\w{3})/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})\z}
        or return;
    exists $MONTH{$mon} or return;

    require Time::Local;
    my $epoch  = Time::Local::timegm( $s, $m, $h, $d, $MONTH{$mon}, $y );
    my $offset = ( $oh * 3600 + $om * 60 ) * ( $sign eq '-' ? -1 : 1 );
    return $epoch - $offset;
}

# Collapse ids so /users/1234/orders?page=2 and /users/77/orders become one
# endpoint: /users/:id/orders
sub normalize_path {
    my ($path) = @_;
    $path =~ s/[?#].*\z//s;
    $path = '/' if $path eq '';

    my @parts = map {
          /\A\d+\z/                                                     ? ':id'
        : /\A[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\z/i ? ':uuid'
        : /\A[0-9a-f]{24,}\z/i                                          ? ':hash'
        :                                                                 $_
    } split m{/}, $path, -1;

    my $norm = join '/', @parts;
    $norm =~ s{/+\z}{} if length $norm > 1;
    return $norm;
}

1;

__END__

=head1 NAME

Quarry::Parser - turn access-log lines into latency samples

=head1 SYNOPSIS

    my $p   = Quarry::Parser->new( format => 'combined_rt' );
    my $rec = $p->parse_line($line) or next;
    say "$rec->{endpoint} took $rec->{ms}ms";

=head1 DESCRIPTION

Understands the nginx C<combined> format with C<$request_time> appended
(called C<combined_rt> here). Request paths are normalised so that numeric
ids, UUIDs and long hex hashes do not explode the number of endpoints.

=head1 METHODS

=head2 new(%args)

=head2 parse_line($line)

=head2 bad_lines

Number of lines that failed to parse since construction.

=head2 normalize_path($path)

=cut
