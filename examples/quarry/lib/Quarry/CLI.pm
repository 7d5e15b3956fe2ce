package Quarry::CLI;

use 5.024;
use strict;
use warnings;

use Getopt::Long 2.49 qw(GetOptionsFromArray :config no_ignore_case bundling);
use JSON::PP ();
use Pod::Usage qw(pod2usage);

use Quarry;
use Quarry::Config;

sub run {
    my ( $class, @argv ) = @_;

    my %opt = (
        config   => $ENV{QUARRY_CONFIG},
        format   => 'table',
        top      => 25,
        interval => 60,
        once     => 0,
        dry_run  => 0,
        verbose  => 0,
    );
    GetOptionsFromArray(
        \@argv, \%opt,
        'config|c=s',
        'format|f=s',
        'top|n=i',
        'interval|i=i',
        'window|w=i',
        'webhook=s',
        'port|p=i',
        'once|1',
        'dry_run|dry-run',
        'verbose|v+',
        'help|h',
        'version|V',
    ) or pod2usage( -exitval => 2, -verbose => 0 );

    pod2usage( -exitval => 0, -verbose => 1 ) if $opt{help};
    if ( $opt{version} ) {
        say "quarry $Quarry::VERSION (perl $^V)";
        return 0;
    }
    pod2usage( -exitval => 2, -message => "--format must be 'table' or 'json'" )
        unless $opt{format} =~ /\A(?:table|json)\z/;

    my %overrides;
    $overrides{window_seconds} = $opt{window}  if defined $opt{window};
    $overrides{webhook_url}    = $opt{webhook} if defined $opt{webhook};
    $overrides{metrics_port}   = $opt{port}    if defined $opt{port};

    my $cfg = Quarry::Config->new(
        ( defined $opt{config} ? ( file => $opt{config} ) : () ),
        overrides => \%overrides,
    );

    my $path = shift(@argv) // $cfg->get('log_path')
        // pod2usage( -exitval => 2, -message => 'No access log given' );

    my $q = Quarry->new(
        config  => $cfg,
        dry_run => $opt{dry_run},
        log     => ( $opt{verbose} || $opt{dry_run} ) ? sub { print STDERR "[quarry] @_\n" } : sub { },
    );

    my $report = sub { print $class->render_report( $_[0]->snapshot, \%opt ) };

    if ( $opt{once} ) {
        open my $fh, '<', $path or die "quarry: cannot open $path: $!\n";
        while ( my $line = <$fh> ) { $q->ingest_line($line) }
        close $fh;

        # Reading an old file: judge the window relative to its last entry,
        # not to the wall clock.
        $q->check_alerts( $class->_last_ts($q) );
        print $class->render_report( $q->snapshot( $class->_last_ts($q) ), \%opt );
        return 0;
    }

    $q->follow( $path, interval => $opt{interval}, on_tick => $report );
    return 0;
}

sub _last_ts {
    my ( $class, $q ) = @_;
    my $max = 0;
    for my $list ( values %{ $q->window->{samples} } ) {
        $max = $list->[-1][0] if @$list && $list->[-1][0] > $max;
    }
    return $max || time;
}

sub render_report {
    my ( $class, $snap, $opt ) = @_;
    my @rows = sort { ( $snap->{$b}{pct}{99} // 0 ) <=> ( $snap->{$a}{pct}{99} // 0 ) } keys %$snap;
    splice @rows, $opt->{top} if @rows > $opt->{top};

    if ( $opt->{format} eq 'json' ) {
        return JSON::PP->new->canonical->encode( { map { $_ => $snap->{$_} } @rows } ) . "\n";
    }

    my @p   = @{ ( map { [ sort { $a <=> $b } keys %{ $_->{pct} } ] } values %$snap )[0] // [] };
    my $out = sprintf "%-48s %7s" . ( " %8s" x @p ) . "\n", 'ENDPOINT', 'COUNT', map {"p$_"} @p;
    for my $ep (@rows) {
        $out .= sprintf "%-48s %7d" . ( " %8d" x @p ) . "\n",
            substr( $ep, 0, 48 ), $snap->{$ep}{count}, map { $snap->{$ep}{pct}{$_} } @p;
    }
    return $out;
}

1;

__END__

=head1 NAME

Quarry::CLI - implementation of the quarry command

=head1 DESCRIPTION

See L<quarry> for the options. C<run> returns the process exit code.

=head1 METHODS

=head2 run(@argv)

=head2 render_report($snapshot, \%opt)

=cut
