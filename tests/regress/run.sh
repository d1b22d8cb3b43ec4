#!/usr/bin/env bash
# tests/regress/run.sh — SQL regression tests through the real psql.
#
# Usage: run.sh HEARTHD OUTDIR [TEST ...]
#   Initialises a temporary data directory, starts HEARTHD on a free loopback
#   port, feeds each sql/TEST.sql to `psql -X -a` on stdin (so errors carry
#   no "psql:file:line:" prefix), writes OUTDIR/TEST.out and diffs it against
#   expected/TEST.out. Stops the server, removes the directory, and exits 1 if
#   any output differed (the unified diff is printed). Without TEST names,
#   every sql/*.sql runs.
# Environment:
#   REGRESS_PORT=N   use a server already listening on 127.0.0.1:N instead of
#                    starting one (HEARTHD is then ignored): how the expected
#                    files were checked against PostgreSQL 15.
# LOCATION lines (PostgreSQL's source file/line, shown under VERBOSITY
# verbose) are dropped from the output: they describe the server's source
# code, not its behaviour.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
hearthd="${1:?usage: run.sh HEARTHD OUTDIR [TEST...]}"
outdir="${2:?usage: run.sh HEARTHD OUTDIR [TEST...]}"
shift 2
mkdir -p "$outdir"

tests=("$@")
if [ ${#tests[@]} -eq 0 ]; then
  for f in "$here"/sql/*.sql; do tests+=("$(basename "$f" .sql)"); done
fi

tmp=""
pm_pid=""
cleanup() {
  if [ -n "$pm_pid" ] && kill -0 "$pm_pid" 2>/dev/null; then
    kill -TERM "$pm_pid" 2>/dev/null
    for _ in $(seq 1 100); do kill -0 "$pm_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pm_pid" 2>/dev/null
  fi
  if [ -n "$tmp" ]; then
    # Children a dead postmaster left behind carry the data directory path
    # in their command line; kill exactly those pids.
    for d in /proc/[0-9]*; do
      if tr '\0' ' ' < "$d/cmdline" 2>/dev/null | grep -qF -- "$tmp/data"; then
        kill -KILL "${d#/proc/}" 2>/dev/null
      fi
    done
    rm -rf "$tmp"
  fi
}
trap cleanup EXIT

if [ -n "${REGRESS_PORT:-}" ]; then
  port="$REGRESS_PORT"
else
  tmp="$(mktemp -d /tmp/hearth-regress-XXXXXX)"
  if ! "$hearthd" init -D "$tmp/data" > "$tmp/init.log" 2>&1; then
    echo "hearthd init failed:"; cat "$tmp/init.log"; exit 1
  fi
  # A free port: probe random ones until a connect fails. Another process
  # may bind it before the server does: then start again on another one.
  ready=0
  for _attempt in 1 2 3 4 5; do
    for _ in $(seq 1 50); do
      port=$((20000 + RANDOM % 40000))
      (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || break
    done
    "$hearthd" -D "$tmp/data" -c "port=$port" -c listen_addresses=127.0.0.1 -c log_file=server.log \
      < /dev/null > "$tmp/stdout.log" 2>&1 &
    pm_pid=$!
    for _ in $(seq 1 300); do
      if psql -X -h 127.0.0.1 -p "$port" -U hearth -d hearth -Atqc 'select 1' > /dev/null 2>&1; then ready=1; break; fi
      kill -0 "$pm_pid" 2>/dev/null || break
      sleep 0.1
    done
    [ "$ready" = 1 ] && break
    kill -0 "$pm_pid" 2>/dev/null && break  # running but not answering: give up
    grep -q "Address already in use" "$tmp/stdout.log" "$tmp/data/server.log" 2>/dev/null || break
  done
  if [ "$ready" != 1 ]; then
    echo "hearthd did not start:"; cat "$tmp/stdout.log" "$tmp/data/server.log" 2>/dev/null; exit 1
  fi
fi

# True when OUTDIR/T.out equals expected/T.out or one of its alternatives
# expected/T_N.out (as pg_regress does: output that legitimately differs
# between client versions, e.g. psql 15.20 skipping the in-line data of a
# COPY FROM STDIN that failed, where 15.18 reports `invalid command \.`).
# Leaves the diff against expected/T.out in OUTDIR/T.diff.
matches_an_expected() {
  local t="$1" alt
  diff -u "$here/expected/$t.out" "$outdir/$t.out" > "$outdir/$t.diff" 2>&1 && return 0
  for alt in "$here/expected/${t}"_[0-9].out; do
    [ -f "$alt" ] && cmp -s "$alt" "$outdir/$t.out" && return 0
  done
  return 1
}

failed=()
for t in "${tests[@]}"; do
  if [ ! -f "$here/sql/$t.sql" ]; then echo "no such test: $t"; failed+=("$t"); continue; fi
  env -u PGTZ -u PGDATESTYLE -u PGCLIENTENCODING -u PGOPTIONS -u PGAPPNAME \
    psql -X -a -h 127.0.0.1 -p "$port" -U hearth -d hearth < "$here/sql/$t.sql" 2>&1 \
    | grep -v '^LOCATION:  ' > "$outdir/$t.out"
  if matches_an_expected "$t"; then
    echo "ok      $t"
    rm -f "$outdir/$t.diff"
  else
    echo "FAILED  $t  (expected/$t.out vs $outdir/$t.out)"
    cat "$outdir/$t.diff"
    failed+=("$t")
  fi
done

if [ -n "$pm_pid" ] && ! kill -0 "$pm_pid" 2>/dev/null; then
  echo "hearthd exited during the tests:"; tail -50 "$tmp/data/server.log" 2>/dev/null; failed+=("server")
fi
if [ ${#failed[@]} -ne 0 ]; then
  echo "${#failed[@]} of ${#tests[@]} regression tests failed: ${failed[*]}"
  exit 1
fi
echo "all ${#tests[@]} regression tests passed"
