use strict;
use warnings;

use Test::More;

BEGIN {
    plan skip_all => 'Author tests; set AUTHOR_TESTING=1 to run'
        unless $ENV{AUTHOR_TESTING} || $ENV{RELEASE_TESTING};
}

use Test::Perl::Critic ( -profile => '.perlcriticrc' );

all_critic_ok(qw( lib bin ));
