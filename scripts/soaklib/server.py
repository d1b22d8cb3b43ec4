"""Starts, watches and kills one hearthd for the soak.

Children are found through /proc: every process whose parent is the
postmaster, named by its process title ("hearth backend", "hearth walwriter",
... the kernel keeps 15 bytes of it).
"""

import os
import signal
import subprocess
import time

from . import pgwire

CHILD_TITLES = {
    "backend": "hearth backend",
    "walwriter": "hearth walwrite",
    "bgwriter": "hearth bgwriter",
    "checkpointer": "hearth checkpoi",
    "autovacuum launcher": "hearth autovacu",
    "autovacuum worker": "hearth autovac",
}


def _proc_stat(pid):
    """(comm, ppid, state) of a live process, or None once it is gone or a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            data = f.read()
    except OSError:
        return None
    comm = data[data.index("(") + 1:data.rindex(")")]
    rest = data[data.rindex(")") + 2:].split()
    if rest[0] in ("Z", "X"):
        return None
    return comm, int(rest[1]), rest[0]


class Server:
    def __init__(self, hearthd, datadir, port, log_path, settings):
        self.hearthd = hearthd
        self.datadir = datadir
        self.port = port
        self.log_path = log_path
        self.settings = settings
        self.proc = None
        self._old_pids = set()

    def init(self):
        subprocess.run([self.hearthd, "init", "-D", self.datadir], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def spawn(self):
        """Starts a postmaster without waiting for it."""
        args = [self.hearthd, "-D", self.datadir, "-c", f"port={self.port}",
                "-c", "listen_addresses=127.0.0.1"]
        for k, v in self.settings.items():
            args += ["-c", f"{k}={v}"]
        with open(self.log_path, "ab") as log:
            log.write(f"\n==== soak: starting hearthd at {time.strftime('%H:%M:%S')}\n".encode())
            log.flush()
            self.proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def start(self, timeout=60.0):
        """Starts the postmaster and waits until it accepts queries. A refusal
        because old processes still hold the data directory is retried."""
        deadline = time.monotonic() + timeout
        while True:
            self.spawn()
            if self.wait_ready(deadline):
                return
            if self.proc.poll() is None:
                raise RuntimeError("hearthd is running but does not accept connections")
            if time.monotonic() > deadline:
                raise RuntimeError(f"hearthd did not start (exit code {self.proc.returncode}); see {self.log_path}")
            time.sleep(0.2)

    def wait_ready(self, deadline):
        """True once a query succeeds; False if the postmaster exited first."""
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return False
            try:
                c = pgwire.Connection(self.port, timeout=10)
                c.query("select 1")
                c.close()
                return True
            except (pgwire.ConnectionLost, pgwire.QueryError):
                time.sleep(0.05)
        return False

    def children(self):
        """{pid: title} of the postmaster's live children."""
        out = {}
        pm = self.proc.pid
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            st = _proc_stat(int(name))
            if st and st[1] == pm:
                out[int(name)] = st[0]
        return out

    def victims(self):
        """{kind: [pids]} of what can be killed now, the postmaster included."""
        kinds = {"postmaster": [self.proc.pid]}
        for pid, title in self.children().items():
            for kind, t in CHILD_TITLES.items():
                if title == t:
                    kinds.setdefault(kind, []).append(pid)
        return kinds

    def kill(self, pid):
        self._old_pids = set(self.children())
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def wait_old_children_gone(self, timeout=60.0):
        """After a kill: waits until none of the children from before it is
        left. After the postmaster's death they hold the data-directory lock
        and shared memory; after a child's death the postmaster ends them all
        for its crash reset."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not any(_proc_stat(p) for p in self._old_pids):
                return
            time.sleep(0.02)
        raise RuntimeError(f"old hearthd children still alive: {sorted(p for p in self._old_pids if _proc_stat(p))}")

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self):
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
