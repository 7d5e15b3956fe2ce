use strict;
use warnings;

use Test::More;

use Quarry::Parser;

my $p = Quarry::Parser->new;

my $line = '203.0.113.7 - - [10/Oct/2023:13:55:36 +0200] "GET /api/users/1234/orders?page=2 HTTP/1.1" '
    . '200 5120 "-" "curl/8.4.0" 0.137';

my $rec = $p->parse_line($line);
ok( $rec, 'combined_rt line parses' );
is( $rec->{method},   'GET',                   'method' );
is( $rec->{endpoint}, '/api/users/:id/orders', 'numeric id collapsed, query dropped' );
is( $rec->{status},   200,                     'status' );
is( $rec->{ms},       137,                     'request_time converted to ms' );
is( $rec->{ts},       1696938936,              'timestamp converted to UTC epoch' );

is( Quarry::Parser::normalize_path('/v2/blobs/3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d/'),
    '/v2/blobs/:hash', 'hex hash collapsed, trailing slash dropped' );
is( Quarry::Parser::normalize_path('/jobs/0b6e4f1c-9a1d-4c55-8f0e-5a7d2c3b9e11'),
    '/jobs/:uuid', 'uuid collapsed' );
is( Quarry::Parser::normalize_path('/'), '/', 'root stays root' );

my $revalidated = $line =~ s/" 200 5120/" 304 0/r;
is( $p->parse_line($revalidated), undef, '304s are skipped' );

is( $p->parse_line('garbage'), undef, 'garbage does not parse' );
is( $p->bad_lines,              1,     'and is counted' );

done_testing;
