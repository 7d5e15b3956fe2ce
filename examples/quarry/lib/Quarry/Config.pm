package Quarry::Config;

use 5.024;
use strict;
use warnings;

use Carp qw(croak);
use Config::Tiny;

# Library defaults. Deployments override these from an INI file; see
# etc/quarry.conf.example for the full list of keys. Keep these
# conservative: they are what a laptop run with no config file gets.
use constant DEFAULT_WINDOW_SECONDS => 300;    # was 60 before 0.20
use constant DEFAULT_MIN_SAMPLES => 40;
use constant DEFAULT_MAX_ENDPOINTS => 2048;
use constant DEFAULT_P95_THRESHOLD_MS => 850;
use constant DEFAULT_P99_THRESHOLD_MS => 2000;
use constant DEFAULT_COOLDOWN_SECONDS => 1800;
use constant DEFAULT_METRICS_LISTEN => '127.0.0.1';
use constant DEFAULT_METRICS_PORT => 9183;    # 9100 clashed with node_exporter
use constant DEFAULT_LOG_FORMAT => 'combined_rt';

our @DEFAULT_PERCENTILES = ( 50, 95, 99 );

# INI "section.key" => flat option name used everywhere else.
my %INI_MAP = (
    'log.path'                    => 'log_path',
    'log.format'                  => 'log_format',
    'window.seconds'              => 'window_seconds',
    'window.percentiles'          => 'percentiles',
    'window.min_samples'          => 'min_samples',
    'window.max_endpoints'        => 'max_endpoints',
    'thresholds.p95_ms'           => 'p95_threshold_ms',
    'thresholds.p99_ms'           => 'p99_threshold_ms',
    'thresholds.cooldown_seconds' => 'cooldown_seconds',
    'webhook.url'                 => 'webhook_url',
    'webhook.channel'             => 'webhook_channel',
    'webhook.timeout_ms'          => 'webhook_timeout_ms',
    'webhook.max_retries'         => 'webhook_max_retries',
    'metrics.listen'              => 'metrics_listen',
    'metrics.port'                => 'metrics_port',
);

my %INTEGER = map { $_ => 1 } qw(
    window_seconds min_samples max_endpoints p95_threshold_ms p99_threshold_ms
    cooldown_seconds webhook_timeout_ms webhook_max_retries metrics_port
);

sub defaults {
    return {
        log_path         => undef,
        log_format       => DEFAULT_LOG_FORMAT,
        window_seconds   => DEFAULT_WINDOW_SECONDS,
        percentiles      => [@DEFAULT_PERCENTILES],
        min_samples      => DEFAULT_MIN_SAMPLES,
        max_endpoints    => DEFAULT_MAX_ENDPOINTS,
        p95_threshold_ms => DEFAULT_P95_THRESHOLD_MS,
        p99_threshold_ms => DEFAULT_P99_THRESHOLD_MS,
        cooldown_seconds => DEFAULT_COOLDOWN_SECONDS,
        webhook_url      => undef,
        webhook_channel  => undef,

        # webhook_timeout_ms / webhook_max_retries fall through to the
        # defaults in Quarry::Webhook when left undef.
        webhook_timeout_ms  => undef,
        webhook_max_retries => undef,
        metrics_listen      => DEFAULT_METRICS_LISTEN,
        metrics_port        => DEFAULT_METRICS_PORT,
    };
}

sub new {
    my ( $class, %args ) = @_;
    my $self = bless { %{ defaults() } }, $class;
    $self->load_file( $args{file} ) if defined $args{file};
    $self->set( $_ => $args{overrides}{$_} ) for sort keys %{ $args{overrides} // {} };
    $self->validate;
    return $self;
}

sub load_file {
    my ( $self, $file ) = @_;
    my $ini = Config::Tiny->read( $file, 'utf8' )
        or croak "Cannot read config $file: " . Config::Tiny->errstr;

    for my $section ( sort keys %$ini ) {
        for my $key ( sort keys %{ $ini->{$section} } ) {
            my $name = $INI_MAP{"$section.$key"}
                or croak "Unknown setting [$section] $key in $file";
            $self->set( $name => $ini->{$section}{$key} );
        }
    }
    return $self;
}

sub set {
    my ( $self, $name, $value ) = @_;
    croak "Unknown option '$name'" unless exists $self->{$name};
    return unless defined $value;

    if ( $name eq 'percentiles' && !ref $value ) {
        $value = [ sort { $a <=> $b } map { s/^\s+|\s+$//gr } split /,/, $value ];
    }
    elsif ( $INTEGER{$name} ) {
        croak "Option '$name' must be a non-negative integer, got '$value'"
            unless $value =~ /\A\d+\z/;
        $value += 0;
    }
    $self->{$name} = $value;
    return $self;
}

sub get {
    my ( $self, $name ) = @_;
    croak "Unknown option '$name'" unless exists $self->{$name};
    return $self->{$name};
}

sub validate {
    my ($self) = @_;
    croak 'window_seconds must be > 0' unless $self->{window_seconds} > 0;
    croak 'p99 threshold must not be below the p95 threshold'
        if $self->{p99_threshold_ms} < $self->{p95_threshold_ms};
    for my $p ( @{ $self->{percentiles} } ) {
        croak "Percentile '$p' out of range" unless $p =~ /\A\d+(?:\.\d+)?\z/ && $p > 0 && $p <= 100;
    }
    return 1;
}

sub as_hash { my ($self) = @_; return { %$self } }

1;

__END__

=head1 NAME

Quarry::Config - defaults and INI loading for quarry

=head1 SYNOPSIS

    my $cfg = Quarry::Config->new( file => '/etc/quarry/quarry.conf' );
    my $window = $cfg->get('window_seconds');

=head1 DESCRIPTION

Holds the built-in defaults and merges an optional INI file (read with
L<Config::Tiny>) and command-line overrides on top, in that order.

=head1 METHODS

=head2 defaults

Returns a fresh hashref of built-in defaults.

=head2 new(file => $path, overrides => \%opts)

=head2 load_file($path)

=head2 set($name, $value)

=head2 get($name)

=head2 validate

=head2 as_hash

=cut
