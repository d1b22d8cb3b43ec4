-- String functions: split_part, translate, initcap, lpad/rpad, reverse,
-- chr/ascii, to_hex, md5, quoting, format(), and regular expressions
-- (~ operators, substring FROM pattern, regexp_*). Expected output is
-- PostgreSQL 15's.
\set VERBOSITY verbose
select split_part('a,b,c', ',', 2), split_part('a,b,c', ',', -1), split_part('a,b,c', ',', 4), split_part('abc', '', 1), split_part('', ',', 1);
select translate('12345', '143', 'ax'), translate('hello', 'l', ''), translate('héllo', 'é', 'e');
select initcap('hello WORLD foo_bar 3x'), initcap(''), reverse('abc'), reverse('héllo');
select lpad('hi', 5), lpad('hi', 5, 'xy'), lpad('hello', 3), rpad('hi', 5, '-'), rpad('hello', 2), lpad('hi', -1), lpad('hi', 4, '');
select chr(65), chr(233), chr(8364), ascii('A'), ascii('é'), ascii('');
select to_hex(255), to_hex(-1), to_hex(9223372036854775807), to_hex(-1::bigint);
select md5(''), md5('abc');
select left('abcde', 2), right('abcde', 2), left('abcde', -2), repeat('ab', 3), starts_with('hello', 'he');
select concat('a', 1, null, true), concat_ws(',', 'a', null, 2);
select quote_ident('abc'), quote_ident('Abc'), quote_ident('select'), quote_ident('a"b'), quote_ident('x1_');
select quote_literal('it''s'), quote_literal('a\b'), quote_literal(42), quote_nullable(null), quote_nullable('x');
-- format()
select format('Hello %s', 'World'), format('%s, %s', 1, null), format('100%%');
select format('%I.%I', 'public', 'My Table'), format('%L and %L', 'it''s', null);
select format('%2$s %1$s %2$s', 'a', 'b'), format('%1$s %s', 'x', 'y');
select format('|%5s|%-5s|%*s|%-*s|', 'ab', 'cd', 4, 'e', 3, 'f');
select format('no args'), format(null) is null;
select format('%s');
select format('%z', 1);
select format('%', 1);
select format('%s %s', 1);
select format('%0$s', 1);
select format('%I', null);
-- regular expressions
select 'abc' ~ 'b', 'abc' ~ '^b', 'ABC' ~* 'b', 'abc' !~ 'z', 'abc' !~* 'B';
select 'foo bar' ~ '\mbar', 'foobar' ~ '\mbar', 'a.b' ~ 'a\.b', 'line1
line2' ~ 'line1.line2';
select substring('foobar' from 'o+'), substring('foobar' from 'o(b)a'), substring('foobar' from 'z');
select regexp_replace('foobarbaz', 'b..', 'X'), regexp_replace('foobarbaz', 'b..', 'X', 'g'), regexp_replace('ABC', 'b', 'x', 'i');
select regexp_replace('hello world', '(\w+) (\w+)', '\2 \1'), regexp_replace('abc', 'b', '[\&]'), regexp_replace('a1b2c3', '[0-9]', '', 'g');
select regexp_replace('aaa', 'a', 'b', 2), regexp_replace('aaaa', 'a', 'b', 1, 3), regexp_replace('AaAa', 'a', 'x', 1, 0, 'i');
select regexp_like('Hello', 'ell'), regexp_like('Hello', 'ELL'), regexp_like('Hello', 'ELL', 'i');
select regexp_count('abcabc', 'b'), regexp_count('abcabc', 'b', 3), regexp_count('ABab', 'a', 1, 'i'), regexp_count('abc', 'z');
select regexp_instr('abcabc', 'b'), regexp_instr('abcabc', 'b', 1, 2), regexp_instr('abcabc', 'bc', 1, 1, 1), regexp_instr('abc', 'z');
select regexp_substr('abcabc', 'b.'), regexp_substr('abcabc', 'b.', 1, 2), regexp_substr('abc', 'z'), regexp_substr('ABC', 'b', 1, 1, 'i');
select 'abc' similar to 'a%', 'abc' similar to 'b%', 'a.c' similar to 'a.c', 'abc' similar to 'a.c', 'ab' similar to '(a|b)+', 'a%' similar to 'a#%' escape '#', 'ax' not similar to 'a#%' escape '#';
select similar_to_escape('a%b_c(d|e)[x.y]\.$^'), similar_to_escape('a#%b', '#'), similar_to_escape('a%', '');
select 'a' similar to 'a' escape 'xx';
select regexp_instr('abcabc', 'a(b)(c)', 1, 2, 0, '', 2), regexp_instr('abcabc', 'a(b)(c)', 1, 1, 1, '', 1), regexp_instr('abc', 'b', 1, 1, 0, '', 5), regexp_instr('abc', '(x)?b', 1, 1, 0, '', 1);
select regexp_substr('abcabc', 'a(b)(c)', 1, 2, '', 1), regexp_substr('abc', 'b', 1, 1, '', 5) is null;
select regexp_instr('abc', 'b', 1, 1, 0, '', -1);
select count(*) from (values ('apple'), ('banana'), ('cherry')) v(f) where f ~ 'an';
select regexp_replace('abc', 'b', 'x', 'z');
select regexp_like('abc', 'b', 'g');
select regexp_count('abc', 'b', 0);
