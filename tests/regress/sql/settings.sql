-- SHOW, SET, RESET and their errors.
\set VERBOSITY verbose

show statement_timeout;
set statement_timeout = '5s';
show statement_timeout;
set statement_timeout to 100;
show statement_timeout;
set statement_timeout = 60000;
show statement_timeout;
set statement_timeout = '1h';
show statement_timeout;
reset statement_timeout;
show statement_timeout;

show work_mem;
set work_mem = '64MB';
show work_mem;
set work_mem = 1024;
show work_mem;
set work_mem to default;
show work_mem;

show DateStyle;
show datestyle;
show client_encoding;
show server_encoding;
show standard_conforming_strings;
show integer_datetimes;
show max_connections;
show search_path;
show application_name;
set application_name = 'regress';
show application_name;
set extra_float_digits = 3;
show extra_float_digits;
set client_min_messages = warning;
show client_min_messages;
set synchronous_commit = off;
show synchronous_commit;
set synchronous_commit to on;
show synchronous_commit;
reset all;
show application_name;
show extra_float_digits;
show synchronous_commit;

-- errors
show nosuch;
set nosuch = 1;
reset nosuch;
set statement_timeout = 'abc';
set statement_timeout = '5 parsecs';
set work_mem = 10;
set extra_float_digits = 10;
set synchronous_commit = sometimes;
set max_connections = 5;
set port = 1;
set shared_buffers = '1GB';
set bgwriter_delay = 100;
set fsync = off;
set server_version = '16';
show statement_timeout;
