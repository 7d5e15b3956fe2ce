use strict;
use warnings;

use Test::More;

BEGIN {
    plan skip_all => 'Author tests; set AUTHOR_TESTING=1 to run'
        unless $ENV{AUTHOR_TESTING} || $ENV{RELEASE_TESTING};
}

use Test::Pod 1.52;
use Test::Pod::Coverage 1.10;

my @files = all_pod_files(qw( lib bin ));
pod_file_ok($_) for @files;

# Private subs start with an underscore; everything else needs a =head2.
pod_coverage_ok( $_, { also_private => [qr/^_/] } ) for all_modules('lib');

done_testing;
