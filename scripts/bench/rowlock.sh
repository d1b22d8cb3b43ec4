#!/usr/bin/env bash
# Row locks under contention, hearthd against PostgreSQL 15 with the same
# settings (fsync on, synchronous_commit off so lock traffic, not fsync,
# dominates). Three pgbench scripts, CLIENTS clients (default 4), DURATION
# seconds each (default 10), RUNS runs (default 3); prints the median tps.
#   lock_update  read-then-update: SELECT ... FOR UPDATE of a random row of
#                ROWS (default 100), then UPDATE it
#   share        SELECT ... FOR SHARE of a random row (multixacts when
#                two clients meet on a row)
#   queue        a job queue of 20000 jobs: take the first undone one with
#                FOR UPDATE ORDER BY id LIMIT 1 SKIP LOCKED, mark it done
#   scripts/bench/rowlock.sh [RUNS]
set -u
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"
runs="${1:-3}"
clients="${CLIENTS:-4}"
duration="${DURATION:-10}"
rows="${ROWS:-100}"
work="$(mktemp -d /tmp/hearth-rowlock-XXXXXX)"
chmod 755 "$work"
trap 'bench_stop_all; rm -rf "$work"' EXIT

{
  echo "drop table if exists acct; drop table if exists jobs;"
  echo "create table acct (k int primary key, v int);"
  echo "create table jobs (id int primary key, done bool);"
  seq 1 "$rows" | awk '{ printf "insert into acct values (%d, 0);\n", $1 }'
  seq 1 20000 | awk '{ printf "insert into jobs values (%d, false);\n", $1 }'
} >"$work/setup.sql"
cat >"$work/lock_update.sql" <<SQL
\set k random(1, $rows)
begin;
select v from acct where k = :k for update;
update acct set v = v + 1 where k = :k;
commit;
SQL
cat >"$work/share.sql" <<SQL
\set k random(1, $rows)
begin;
select v from acct where k = :k for share;
commit;
SQL
cat >"$work/queue.sql" <<'SQL'
begin;
select id as job from jobs where not done order by id limit 1 for update skip locked \gset
update jobs set done = true where id = :job;
commit;
SQL
chmod 644 "$work"/*.sql
tests=(lock_update share queue)

run_suite() {  # PORT OUTPREFIX
  local port="$1" out="$2" t tps
  for t in "${tests[@]}"; do
    psql -X -q -h 127.0.0.1 -p "$port" -U hearth -d hearth -f "$work/setup.sql" >/dev/null 2>&1
    tps=$(pgbench -n -h 127.0.0.1 -p "$port" -U hearth -c "$clients" -j "$clients" -T "$duration" -f "$work/$t.sql" hearth 2>"$work/err" |
          awk '/^tps = / { print $3; exit }')
    [ -n "$tps" ] || { tps=NaN; echo "  $t failed: $(head -c 300 "$work/err")" >&2; }
    echo "$tps" >>"$out.$t"
  done
}

hport=$(bench_free_port); pport=$(bench_free_port)
bench_start_hearthd "$work/hearth" "$hport" -c fsync=on -c synchronous_commit=off
bench_start_postgres "$work/pg" "$pport" -c fsync=on -c synchronous_commit=off
for r in $(seq 1 "$runs"); do
  echo "run $r/$runs" >&2
  run_suite "$hport" "$work/h"
  run_suite "$pport" "$work/p"
done

bench_table hearthd_tps postgres_tps "$work/h" "$work/p" "${tests[@]}"
echo "clients=$clients duration=${duration}s rows=$rows runs=$runs machine=$(nproc) cores $(date -u +%F)"
