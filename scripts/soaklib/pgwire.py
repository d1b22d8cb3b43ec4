"""A minimal PostgreSQL v3 protocol client (simple query and COPY FROM STDIN).

Only what the soak needs, with the standard library alone: trust
authentication, text results, errors as exceptions. A lost connection raises
ConnectionLost so callers can tell "the server told me no" (QueryError) from
"I do not know what happened" (the transaction was in flight).
"""

import socket
import struct


class QueryError(Exception):
    """The server answered with an ErrorResponse."""

    def __init__(self, fields):
        self.sqlstate = fields.get("C", "")
        self.message = fields.get("M", "")
        super().__init__(f"{self.sqlstate}: {self.message}")


class ConnectionLost(Exception):
    """The connection broke: the outcome of the current statement is unknown."""


class Connection:
    def __init__(self, port, user="hearth", database="hearth", host="127.0.0.1", timeout=60.0):
        try:
            self._sock = socket.create_connection((host, port), timeout=timeout)
        except OSError as e:
            raise ConnectionLost(f"connect: {e}") from e
        self._buf = b""
        params = b"user\0" + user.encode() + b"\0database\0" + database.encode() + b"\0\0"
        body = struct.pack("!i", 196608) + params
        self._send(struct.pack("!i", len(body) + 4) + body)
        while True:
            kind, payload = self._read_message()
            if kind == b"R":
                code = struct.unpack("!i", payload[:4])[0]
                if code != 0:
                    raise QueryError({"C": "28000", "M": f"unsupported authentication request {code}"})
            elif kind == b"E":
                raise QueryError(_error_fields(payload))
            elif kind == b"Z":
                return

    def close(self):
        try:
            self._send(b"X\0\0\0\4")
        except ConnectionLost:
            pass
        self._sock.close()

    def query(self, sql):
        """Runs one simple Query; returns the rows of its last result (lists of str/None)."""
        self._send(_message(b"Q", sql.encode() + b"\0"))
        return self._collect_results()

    def copy_in(self, sql, data):
        """Runs COPY ... FROM STDIN sending `data` (bytes) in one CopyData message."""
        self._send(_message(b"Q", sql.encode() + b"\0"))
        while True:
            kind, payload = self._read_message()
            if kind == b"G":
                self._send(_message(b"d", data) + _message(b"c", b""))
                return self._collect_results()
            if kind == b"E":
                error = QueryError(_error_fields(payload))
                self._wait_ready()
                raise error

    def _collect_results(self):
        rows, error = [], None
        while True:
            kind, payload = self._read_message()
            if kind == b"T":
                rows = []
            elif kind == b"D":
                rows.append(_data_row(payload))
            elif kind == b"E":
                error = QueryError(_error_fields(payload))
            elif kind == b"Z":
                if error:
                    raise error
                return rows

    def _wait_ready(self):
        while self._read_message()[0] != b"Z":
            pass

    def _send(self, data):
        try:
            self._sock.sendall(data)
        except OSError as e:
            raise ConnectionLost(f"send: {e}") from e

    def _read_exact(self, n):
        while len(self._buf) < n:
            try:
                chunk = self._sock.recv(65536)
            except OSError as e:
                raise ConnectionLost(f"recv: {e}") from e
            if not chunk:
                raise ConnectionLost("server closed the connection")
            self._buf += chunk
        out, self._buf = self._buf[:n], self._buf[n:]
        return out

    def _read_message(self):
        header = self._read_exact(5)
        length = struct.unpack("!i", header[1:])[0]
        payload = self._read_exact(length - 4)
        kind = header[:1]
        if kind == b"E" and _error_fields(payload).get("V") in ("FATAL", "PANIC"):
            # The session ends with this error: the outcome of a COMMIT in
            # progress is as unknown as after a dropped connection.
            raise ConnectionLost("FATAL: " + _error_fields(payload).get("M", ""))
        return kind, payload


def _message(kind, body):
    return kind + struct.pack("!i", len(body) + 4) + body


def _error_fields(payload):
    fields = {}
    for part in payload.split(b"\0"):
        if part:
            fields[chr(part[0])] = part[1:].decode(errors="replace")
    return fields


def _data_row(payload):
    count = struct.unpack("!h", payload[:2])[0]
    pos, row = 2, []
    for _ in range(count):
        n = struct.unpack("!i", payload[pos:pos + 4])[0]
        pos += 4
        if n < 0:
            row.append(None)
        else:
            row.append(payload[pos:pos + n].decode())
            pos += n
    return row
