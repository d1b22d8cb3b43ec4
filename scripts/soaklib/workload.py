"""The mixed load the soak runs until the kill: writer transactions, COPY
batches, CREATE/DROP TABLE and CREATE INDEX steps, CHECKPOINTs, and pgbench.

Every client thread records in the ledger what it was told (see ledger.py);
a broken connection leaves its unit in flight and the thread reconnects
until it is told to stop.
"""

import random
import subprocess
import threading
import time

from . import pgwire
from .ledger import ACK, INFLIGHT, ROLLEDBACK

SCHEMA = [
    "create table if not exists soak_rows (txid bigint, n int, pad text, primary key (txid, n))",
    "create table if not exists soak_counters (writer int primary key, value bigint not null)",
    "create table if not exists soak_copy (batch bigint, n int, v text)",
    "create index if not exists soak_copy_batch on soak_copy (batch, n)",
]

# DDL table stages: what exists of ddl_<i>.
ABSENT, CREATED, FILLED, INDEXED, DROPPED = 0, 1, 2, 3, 4


def setup_schema(port, writers):
    c = pgwire.Connection(port)
    for sql in SCHEMA:
        c.query(sql)
    for w in range(writers):
        if not c.query(f"select 1 from soak_counters where writer = {w}"):
            c.query(f"insert into soak_counters values ({w}, 0)")
    c.close()


class ClientThread(threading.Thread):
    """Runs step() until stopped, reconnecting after a broken connection."""

    def __init__(self, port, ledger, stop):
        super().__init__(daemon=True)
        self.port, self.ledger, self.stop = port, ledger, stop
        self.rng = random.Random()
        self.conn = None
        self.error = None

    def run(self):
        try:
            while not self.stop.is_set():
                if self.conn is None:
                    try:
                        self.conn = pgwire.Connection(self.port, timeout=30)
                    except (pgwire.ConnectionLost, pgwire.QueryError):
                        time.sleep(0.05)
                        continue
                try:
                    self.step()
                except pgwire.ConnectionLost:
                    self.conn = None
        except Exception as e:  # a bug in the soak itself: reported by the cycle
            self.error = e
        if self.conn is not None:
            self.conn.close()

    def rollback_quietly(self):
        try:
            self.conn.query("rollback")
        except pgwire.QueryError:
            pass


class Writer(ClientThread):
    """BEGIN; insert k rows tagged with a fresh txid; bump this writer's
    counter; COMMIT (or ROLLBACK one time in five)."""

    def __init__(self, port, ledger, stop, writer):
        super().__init__(port, ledger, stop)
        self.writer = writer

    def step(self):
        txid = self.ledger.next_id("writer")
        k = self.rng.randint(1, 10)
        rollback = self.rng.random() < 0.2
        pad = "x" * self.rng.randint(0, 100)
        values = ",".join(f"({txid},{n},'{pad}')" for n in range(1, k + 1))
        self.ledger.set("writer", txid, INFLIGHT, (self.writer, k))
        try:
            self.conn.query("begin")
            self.conn.query(f"insert into soak_rows values {values}")
            self.conn.query(f"update soak_counters set value = value + 1 where writer = {self.writer}")
            if rollback:
                self.conn.query("rollback")
                self.ledger.set("writer", txid, ROLLEDBACK)
            else:
                self.conn.query("commit")
                self.ledger.set("writer", txid, ACK)
        except pgwire.QueryError:
            self.rollback_quietly()
            self.ledger.set("writer", txid, ROLLEDBACK)


class CopyLoader(ClientThread):
    """COPY soak_copy FROM STDIN batches in text or CSV; one in ten has a bad
    last row, so the whole batch must be rolled back."""

    def step(self):
        batch = self.ledger.next_id("copy")
        k = self.rng.randint(10, 300)
        csv = self.rng.random() < 0.5
        bad = self.rng.random() < 0.1
        sep = "," if csv else "\t"
        lines = [f"{batch}{sep}{n}{sep}value {n}" for n in range(1, k + 1)]
        if bad:
            lines.append(f"{batch}{sep}not a number{sep}x")
        data = ("\n".join(lines) + "\n").encode()
        sql = "copy soak_copy from stdin" + (" with (format csv)" if csv else "")
        self.ledger.set("copy", batch, INFLIGHT, k)
        try:
            self.conn.copy_in(sql, data)
            self.ledger.set("copy", batch, ROLLEDBACK if bad else ACK)
        except pgwire.QueryError:
            self.ledger.set("copy", batch, ROLLEDBACK)


class DdlChurn(ClientThread):
    """Tables ddl_<i> go ABSENT -> CREATED -> FILLED -> INDEXED -> DROPPED,
    step by step or in one transaction; some transactions roll back. The
    ledger holds (acked stage, attempted stage, rows) per table."""

    def step(self):
        # A table whose last step was cut off by the crash is left alone
        # until the checker has found out how far that step got.
        units = {i: u for i, u in self.ledger.units("ddl").items() if u[0] == ACK}
        live = sorted(i for i, (_, d) in units.items() if d[0] in (CREATED, FILLED, INDEXED))
        growing = [i for i in live if units[i][1][0] < INDEXED]
        r = self.rng.random()
        if growing:
            self.advance(growing[0], units[growing[0]][1])
        elif len(live) > 4 and r < 0.6:
            self.drop(live[0], units[live[0]][1], rollback=r < 0.1)
        elif r < 0.3:
            self.create_in_one(rollback=r < 0.05)
        else:
            i = self.ledger.next_id("ddl")
            self.run_unit(i, (ABSENT, ABSENT, self.rng.randint(1, 300)), CREATED,
                          [f"create table ddl_{i} (id int, v text)"])

    def advance(self, i, detail):
        stage, _, k = detail
        if stage == CREATED:
            values = ",".join(f"({n},'row {n}')" for n in range(1, k + 1))
            self.run_unit(i, detail, FILLED, [f"insert into ddl_{i} values {values}"])
        else:
            self.run_unit(i, detail, INDEXED, [f"create index ddl_{i}_id on ddl_{i} (id)"])

    def create_in_one(self, rollback):
        i = self.ledger.next_id("ddl")
        k = self.rng.randint(1, 300)
        values = ",".join(f"({n},'row {n}')" for n in range(1, k + 1))
        self.run_unit(i, (ABSENT, ABSENT, k), INDEXED,
                      [f"create table ddl_{i} (id int, v text)", f"insert into ddl_{i} values {values}",
                       f"create index ddl_{i}_id on ddl_{i} (id)"], txn=True, rollback=rollback)

    def drop(self, i, detail, rollback):
        self.run_unit(i, detail, DROPPED, [f"drop table ddl_{i}"], txn=True, rollback=rollback)

    def run_unit(self, i, detail, target, statements, txn=False, rollback=False):
        acked, _, k = detail
        self.ledger.set("ddl", i, INFLIGHT, (acked, target, k))
        try:
            if txn:
                self.conn.query("begin")
            for sql in statements:
                self.conn.query(sql)
            if txn:
                self.conn.query("rollback" if rollback else "commit")
            done = acked if rollback else target
        except pgwire.QueryError:
            if txn:
                self.rollback_quietly()
            done = acked
        self.ledger.set("ddl", i, ACK, (done, done, k))


class Checkpointer(ClientThread):
    def step(self):
        time.sleep(self.rng.uniform(0.2, 1.0))
        try:
            self.conn.query("checkpoint")
        except pgwire.QueryError:
            pass


class Load:
    """All clients of one cycle, plus pgbench."""

    def __init__(self, port, ledger, writers, pgbench_clients, pgbench_mode, seconds, log_path):
        self.stop = threading.Event()
        self.threads = [Writer(port, ledger, self.stop, w) for w in range(writers)]
        self.threads += [CopyLoader(port, ledger, self.stop), DdlChurn(port, ledger, self.stop),
                         Checkpointer(port, ledger, self.stop)]
        self.log = open(log_path, "ab")
        self.pgbench = subprocess.Popen(
            ["pgbench", "-n", "-M", pgbench_mode, "-c", str(pgbench_clients), "-T", str(int(seconds) + 30),
             "-h", "127.0.0.1", "-p", str(port), "-U", "hearth", "hearth"],
            stdout=self.log, stderr=subprocess.STDOUT)
        for t in self.threads:
            t.start()

    def finish(self):
        """Stops every client; returns the first soak-side exception, if any."""
        self.stop.set()
        if self.pgbench.poll() is None:
            self.pgbench.terminate()
        self.pgbench.wait()
        for t in self.threads:
            t.join(timeout=120)
        self.log.close()
        for t in self.threads:
            if t.is_alive():
                return RuntimeError(f"{type(t).__name__} did not stop")
            if t.error:
                return t.error
        return None
