#!/usr/bin/env bash
# Wide values (TOAST), hearthd against PostgreSQL 15 started side by side by
# lib.sh with the same settings. Per run, into a fresh table
# (id int, note text, body text):
#   copy_in   COPY FROM a file of ROWS rows whose body is SIZE bytes of
#             incompressible text (out of line)
#   read_md5  SELECT sum of length(md5(body)) over the table (every value
#             read whole)
#   update    UPDATE of the note column of every row (the values are kept)
# Prints medians over RUNS runs of seconds per case for both servers and
# their ratio, and pg_total_relation_size after the load.
#   scripts/bench/toast.sh [RUNS] [ROWS] [SIZE]     (defaults 3, 20, 10485760)
set -u
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"
runs="${1:-3}"
rows="${2:-20}"
size="${3:-10485760}"
work="$(mktemp -d /tmp/hearth-toast-XXXXXX)"
chmod 755 "$work"
trap 'bench_stop_all; rm -rf "$work"' EXIT

python3 - "$work/wide.txt" "$rows" "$size" <<'PY'
import random, sys, string
path, n, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
alphabet = string.ascii_letters + string.digits + "+-*/=_.,;:!?"
rnd = random.Random(1)
with open(path, "w") as f:
    for i in range(1, n + 1):
        f.write(f"{i}\tnote\t{''.join(rnd.choices(alphabet, k=size))}\n")
PY
chmod 644 "$work/wide.txt"

hport="$(bench_free_port)"
pport="$(bench_free_port)"
settings=(-c shared_buffers=1GB -c max_wal_size=4GB)
bench_start_hearthd "$work/h" "$hport" "${settings[@]}" || exit 1
bench_start_postgres "$work/p" "$pport" "${settings[@]}" || exit 1

seconds() {  # PORT SQL: wall seconds of one psql -c
  local t0 t1
  t0="$(date +%s.%N)"
  psql -X -q -h 127.0.0.1 -p "$1" -U hearth -d hearth -c "$2" >/dev/null || echo "failed: $2" >&2
  t1="$(date +%s.%N)"
  echo "$t1 - $t0" | bc
}

declare -A res
for run in $(seq 1 "$runs"); do
  for side in h p; do
    port="$hport"; [ "$side" = p ] && port="$pport"
    psql -X -q -h 127.0.0.1 -p "$port" -U hearth -d hearth -c "drop table if exists wide" \
      -c "create table wide (id int, note text, body text)" >/dev/null 2>&1
    res[$side.copy_in]+="$(seconds "$port" "\\copy wide from '$work/wide.txt'") "
    res[$side.read_md5]+="$(seconds "$port" "select sum(length(md5(body))) from wide") "
    res[$side.update]+="$(seconds "$port" "update wide set note = 'changed'") "
    res[$side.size]="$(psql -X -Atq -h 127.0.0.1 -p "$port" -U hearth -d hearth -c "select pg_total_relation_size('wide')")"
  done
done
printf '%-10s %12s %12s %8s\n' case hearthd_s postgres_s ratio
for c in copy_in read_md5 update; do
  # shellcheck disable=SC2086
  h="$(bench_median ${res[h.$c]})"; p="$(bench_median ${res[p.$c]})"
  printf '%-10s %12s %12s %8s\n' "$c" "$h" "$p" "$(bench_ratio "$h" "$p")"
done
printf '%-10s %12s %12s\n' bytes "${res[h.size]}" "${res[p.size]}"
