"""What the clients were told: every transaction the soak started, by unit.

A unit is one all-or-nothing piece of work (a writer transaction, a COPY
batch, one DDL step). Its state is
  "ack"        the server acknowledged COMMIT: it must be there after a crash;
  "rolledback" the client rolled it back or the server reported an error: it
               must not be there;
  "inflight"   the connection broke before an answer: either all or nothing.
After each check the checker resolves in-flight units to what it found, so
the next check is exact again. The ledger is also written to a file, one line
per state change, for diagnosis.
"""

import threading

ACK, ROLLEDBACK, INFLIGHT = "ack", "rolledback", "inflight"


class Ledger:
    def __init__(self, path):
        self._lock = threading.Lock()
        self._units = {}  # (kind, key) -> [state, detail]
        self._next = {}
        self._file = open(path, "a", buffering=1)

    def next_id(self, kind):
        with self._lock:
            self._next[kind] = self._next.get(kind, 0) + 1
            return self._next[kind]

    def set(self, kind, key, state, detail=None):
        with self._lock:
            unit = self._units.setdefault((kind, key), [state, detail])
            unit[0] = state
            if detail is not None:
                unit[1] = detail
            self._file.write(f"{kind} {key} {state} {unit[1]}\n")

    def units(self, kind):
        """{key: (state, detail)} snapshot of one kind."""
        with self._lock:
            return {k: (v[0], v[1]) for (kd, k), v in self._units.items() if kd == kind}

    def counts(self, kind):
        out = {ACK: 0, ROLLEDBACK: 0, INFLIGHT: 0}
        for state, _ in self.units(kind).values():
            out[state] += 1
        return out
