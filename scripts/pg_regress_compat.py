#!/usr/bin/env python3
"""Runs PostgreSQL 15 regression SQL files through psql against two servers
(hearthd and a reference PostgreSQL 15) and reports, per file, how many
statements produced identical output.

Usage: pg_regress_compat.py REGRESS_DIR HEARTH_PORT PG_PORT OUT_DIR FILE...

Each file is fed to `psql -X -a -q` on stdin (as pg_regress does), with
stdout and stderr in one stream. psql echoes every input line, so the
echoed first line of each statement marks where that statement's output
begins; the outputs of the two servers are cut at those marks and compared
statement by statement. A file that loses its connection (a crashed backend)
or runs past the time limit is reported as such.
"""
import os
import subprocess
import sys

TIMEOUT_S = 300


def statement_starts(sql_lines):
    """Indices of the lines that begin a statement or a psql meta-command.

    A rough SQL splitter: tracks quotes, dollar quotes, comments and
    parentheses well enough for the regression files; COPY ... FROM stdin
    data runs to the `\\.` line.
    """
    starts, in_stmt, in_copy_data = [], False, False
    state = None  # None, "'", '"', "/*", or a dollar tag
    for i, line in enumerate(sql_lines):
        stripped = line.strip()
        if in_copy_data:
            if stripped == "\\.":
                in_copy_data = False
            continue
        if not in_stmt and state is None:
            if not stripped or stripped.startswith("--"):
                continue
            starts.append(i)
            if stripped.startswith("\\"):
                continue  # a meta-command is one line
            in_stmt = True
        state, ended = scan_line(line, state)
        if ended and state is None:
            in_stmt = False
            lowered = stripped.lower()
            if "from stdin" in lowered and lowered.startswith("copy"):
                in_copy_data = True
    return starts


def scan_line(line, state):
    """Advances the quote/comment state over one line; reports whether a
    statement-ending semicolon was seen outside quotes and comments."""
    i, ended, n = 0, False, len(line)
    while i < n:
        c = line[i]
        if state is None:
            if line.startswith("--", i):
                break
            if line.startswith("/*", i):
                state, i = "/*", i + 2
                continue
            if c in ("'", '"'):
                state = c
            elif c == "$":
                end = line.find("$", i + 1)
                tag = line[i:end + 1] if end > 0 else ""
                if tag and all(ch.isalnum() or ch == "_" for ch in tag[1:-1]):
                    state, i = tag, end + 1
                    continue
            elif c == ";":
                ended = True
            i += 1
        elif state == "/*":
            end = line.find("*/", i)
            if end < 0:
                break
            state, i = None, end + 2
        elif state in ("'", '"'):
            end = line.find(state, i)
            if end < 0:
                break
            state, i = None, end + 1
        else:
            end = line.find(state, i)
            if end < 0:
                break
            state, i = None, end + len(state)
    return state, ended


def run_psql(port, sql_path, env):
    with open(sql_path, "rb") as f:
        try:
            out = subprocess.run(
                ["psql", "-X", "-a", "-q", "-h", "127.0.0.1", "-p", str(port),
                 "-U", "hearth", "-d", "hearth"],
                stdin=f, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                env=env, timeout=TIMEOUT_S)
            return out.stdout.decode("utf-8", "replace"), False
        except subprocess.TimeoutExpired as e:
            return (e.stdout or b"").decode("utf-8", "replace"), True


def chunks(output, marks):
    """Cuts psql output at the echoed statement lines, in order."""
    lines = output.split("\n")
    result, current, k = {}, None, 0
    for line in lines:
        if k < len(marks) and line == marks[k]:
            current = k
            result[k] = []
            k += 1
        if current is not None:
            result[current].append(line)
    return result


def compare_file(name, sql_dir, ports, out_dir, env):
    sql_path = os.path.join(sql_dir, name + ".sql")
    with open(sql_path, encoding="utf-8", errors="replace") as f:
        sql_lines = f.read().split("\n")
    marks = [sql_lines[i] for i in statement_starts(sql_lines)]
    outputs = {}
    notes = []
    for server, port in ports.items():
        text, timed_out = run_psql(port, sql_path, env)
        with open(os.path.join(out_dir, f"{name}.{server}.out"), "w") as f:
            f.write(text)
        outputs[server] = chunks(text, marks)
        if timed_out:
            notes.append(f"{server} timed out")
        if "server closed the connection unexpectedly" in text:
            notes.append(f"{server} lost its connection")
    same = sum(1 for k in range(len(marks))
               if k in outputs["hearth"] and
               outputs["hearth"].get(k) == outputs["postgres"].get(k))
    return len(marks), same, notes


def main():
    regress_dir, hearth_port, pg_port, out_dir = sys.argv[1:5]
    files = sys.argv[5:]
    sql_dir = os.path.join(regress_dir, "sql")
    env = dict(os.environ)
    env.update(PG_ABS_SRCDIR=regress_dir, PG_ABS_BUILDDIR=out_dir,
               PG_LIBDIR="/usr/lib/postgresql/15/lib", PG_DLSUFFIX=".so",
               PGOPTIONS="")
    for inherited in ("PGDATABASE", "PGUSER"):
        env.pop(inherited, None)
    # The session defaults pg_regress gives every test (libpq sends them as
    # startup parameters); the expected outputs assume them.
    env.update(PGTZ="PST8PDT", PGDATESTYLE="Postgres, MDY")
    os.makedirs(out_dir, exist_ok=True)
    ports = {"hearth": hearth_port, "postgres": pg_port}
    total = matched = 0
    print(f"| file | statements | identical | share | notes |")
    print(f"| --- | ---: | ---: | ---: | --- |")
    for name in files:
        n, same, notes = compare_file(name, sql_dir, ports, out_dir, env)
        total, matched = total + n, matched + same
        share = 100.0 * same / n if n else 0.0
        print(f"| {name} | {n} | {same} | {share:.0f}% | {'; '.join(notes)} |",
              flush=True)
    share = 100.0 * matched / total if total else 0.0
    print(f"| total | {total} | {matched} | {share:.0f}% | |")


if __name__ == "__main__":
    main()
