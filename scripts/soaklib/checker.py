"""After a restart: proves the database holds exactly what clients were told.

Raises Violation with a description at the first inconsistency; on success
resolves in-flight units in the ledger to what was found and returns a
summary line.
"""

from . import pgwire, workload
from .ledger import ACK, INFLIGHT, ROLLEDBACK


class Violation(Exception):
    pass


def _int(v):
    return int(v) if v is not None else 0


class Checker:
    def __init__(self, conn, ledger, writers, settled, rng):
        """settled: ids of ddl tables found gone for good at earlier checks
        (updated here); they are rechecked only now and then."""
        self.c, self.ledger, self.writers = conn, ledger, writers
        self.settled, self.rng = settled, rng

    def run(self):
        parts = [self.check_writers(), self.check_copy(), self.check_ddl(), self.check_pgbench()]
        return "; ".join(parts)

    def _index_scan(self, sql):
        """Rows of `sql`, after proving the planner answers it with an index scan."""
        plan = "\n".join(r[0] for r in self.c.query("explain " + sql))
        if "Index Scan" not in plan and "Index Only Scan" not in plan:
            raise Violation(f"expected an index scan for {sql!r}, plan:\n{plan}")
        return self.c.query(sql)

    def _heap_vs_index(self, table, key_col, group_sql_cols):
        """{key: count} from a seq scan, after checking an index scan agrees."""
        heap = self.c.query(f"select {group_sql_cols}, count(*) from {table} group by {group_sql_cols}")
        index = self._index_scan(f"select {group_sql_cols}, count(*) from {table} where {key_col} >= 0 "
                                 f"group by {group_sql_cols}")
        if sorted(map(tuple, heap)) != sorted(map(tuple, index)):
            raise Violation(f"{table}: seq scan and index scan disagree: {len(heap)} vs {len(index)} groups; "
                            f"only in heap {sorted(set(map(tuple, heap)) - set(map(tuple, index)))[:10]}, "
                            f"only in index {sorted(set(map(tuple, index)) - set(map(tuple, heap)))[:10]}")
        return {int(r[0]): int(r[1]) for r in heap}

    def _all_or_nothing(self, kind, found):
        """Checks each unit's row count against its state; returns {key: committed?}."""
        units = self.ledger.units(kind)
        for key in found:
            if key not in units:
                raise Violation(f"{kind} {key}: {found[key]} rows of a transaction never started")
        outcome = {}
        for key, (state, detail) in units.items():
            want = detail[1] if isinstance(detail, tuple) else detail
            got = found.get(key, 0)
            if state == ACK and got != want:
                raise Violation(f"{kind} {key}: acknowledged commit with {want} rows, found {got}")
            if state == ROLLEDBACK and got != 0:
                raise Violation(f"{kind} {key}: rolled back, yet {got} of its rows are visible")
            if state == INFLIGHT and got not in (0, want):
                raise Violation(f"{kind} {key}: in flight at the crash, {got} of {want} rows visible")
            outcome[key] = got == want and state != ROLLEDBACK
        return outcome

    def _resolve(self, kind, outcome):
        for key, (state, _) in self.ledger.units(kind).items():
            if state == INFLIGHT:
                self.ledger.set(kind, key, ACK if outcome[key] else ROLLEDBACK)

    def check_writers(self):
        found = self._heap_vs_index("soak_rows", "txid", "txid")
        outcome = self._all_or_nothing("writer", found)
        counters = {int(r[0]): int(r[1]) for r in self.c.query("select writer, value from soak_counters")}
        for w in range(self.writers):
            committed = sum(1 for key, (state, d) in self.ledger.units("writer").items()
                            if d[0] == w and outcome[key])
            if counters.get(w) != committed:
                raise Violation(f"soak_counters writer {w} = {counters.get(w)}, but {committed} of its "
                                f"transactions are committed")
        inflight = self.ledger.counts("writer")[INFLIGHT]
        self._resolve("writer", outcome)
        c = self.ledger.counts("writer")
        return f"writer ack {c[ACK]} rb {c[ROLLEDBACK]} (in flight {inflight})"

    def check_copy(self):
        found = self._heap_vs_index("soak_copy", "batch", "batch")
        outcome = self._all_or_nothing("copy", found)
        inflight = self.ledger.counts("copy")[INFLIGHT]
        self._resolve("copy", outcome)
        c = self.ledger.counts("copy")
        return f"copy ack {c[ACK]} rb {c[ROLLEDBACK]} (in flight {inflight})"

    def _ddl_stage(self, i, k):
        """The stage ddl_<i> is observably in (None when absent)."""
        try:
            rows = int(self.c.query(f"select count(*) from ddl_{i}")[0][0])
        except pgwire.QueryError as e:
            if e.sqlstate == "42P01":
                return None  # ABSENT or DROPPED
            raise
        if rows not in (0, k):
            raise Violation(f"ddl_{i}: {rows} rows visible, its insert had {k}")
        by_id = f"select count(*) from ddl_{i} where id >= 0"
        plan = "\n".join(r[0] for r in self.c.query("explain " + by_id))
        if f"ddl_{i}_id" not in plan:
            return workload.FILLED if rows else workload.CREATED
        if rows != k:
            raise Violation(f"ddl_{i}: indexed but holds {rows} rows instead of {k}")
        by_index = int(self._index_scan(by_id)[0][0])
        if by_index != rows:
            raise Violation(f"ddl_{i}: index scan counts {by_index} rows, seq scan {rows}")
        return workload.INDEXED

    def check_ddl(self):
        units = self.ledger.units("ddl")
        live = 0
        for i, (state, (acked, attempted, k)) in units.items():
            if i in self.settled and self.rng.random() > 0.02:
                continue  # dropped or never created at an earlier check; a sample is rechecked
            stage = self._ddl_stage(i, k)
            lo, hi = min(acked, attempted), max(acked, attempted)
            if stage is None:
                ok = lo == workload.ABSENT or hi == workload.DROPPED
                stage = workload.DROPPED if hi == workload.DROPPED else workload.ABSENT
            else:
                ok = lo <= stage <= hi
            if not ok:
                raise Violation(f"ddl_{i}: found at stage {stage}, acknowledged {acked}, attempted {attempted} "
                                f"(0 absent, 1 created, 2 filled, 3 indexed, 4 dropped)")
            self.ledger.set("ddl", i, ACK, (stage, stage, k))
            live += stage in (workload.CREATED, workload.FILLED, workload.INDEXED)
            if stage in (workload.ABSENT, workload.DROPPED):
                self.settled.add(i)
        return f"ddl tables {len(units)} ({live} live)"

    def check_pgbench(self):
        a = _int(self.c.query("select sum(abalance) from pgbench_accounts")[0][0])
        b = _int(self.c.query("select sum(bbalance) from pgbench_branches")[0][0])
        t = _int(self.c.query("select sum(tbalance) from pgbench_tellers")[0][0])
        h, hn = self.c.query("select sum(delta), count(*) from pgbench_history")[0]
        h = _int(h)
        if not a == b == t == h:
            raise Violation(f"pgbench balances disagree: accounts {a}, branches {b}, tellers {t}, "
                            f"history {h} ({hn} rows)")
        n = int(self.c.query("select count(*) from pgbench_accounts")[0][0])
        by_index = self._index_scan("select count(*), sum(abalance) from pgbench_accounts where aid >= 0")[0]
        if int(by_index[0]) != n or _int(by_index[1]) != a:
            raise Violation(f"pgbench_accounts: index scan sees {by_index[0]} rows summing {by_index[1]}, "
                            f"seq scan {n} rows summing {a}")
        return f"pgbench ok ({hn} history rows)"
