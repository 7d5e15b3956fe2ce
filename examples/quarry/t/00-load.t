use strict;
use warnings;

use Test::More;

my @modules = qw(
    Quarry
    Quarry::Alert
    Quarry::CLI
    Quarry::Config
    Quarry::Parser
    Quarry::Webhook
    Quarry::Window
);

plan tests => scalar @modules + 1;

use_ok($_) for @modules;

like( $Quarry::VERSION, qr/\A\d+\.\d+(?:_\d+)?\z/, 'VERSION looks like a CPAN version' );

diag("Testing Quarry $Quarry::VERSION, Perl $], $^X");
