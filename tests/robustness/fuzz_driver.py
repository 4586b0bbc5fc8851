"""Feed mutated puzzle files to ``cpkit`` in this process and report, as one JSON line, how
many were refused and accepted and the process's peak memory; exit 1 with the smallest input
that broke the contract (``tests/robustness/test_fuzz.py`` explains why in-process).

    python -m tests.robustness.fuzz_driver {polycube,edge_matching,dlx1} N DIRECTORY

The contract, for every input: ``cpkit.cli.main`` returns (it raises nothing: the command
would print a traceback); the exit status is 0 (the mutant is still a puzzle: it is solved)
or 2, and then standard error holds one line, ``cpkit: error: FILE...``; no traceback.
Inputs are random bytes, or a valid file of the kind with one to five edits: a byte changed,
a token inserted (numbers out of range, separators, NUL, Latin-1 and UTF-8 bytes, a
byte-order mark, line separators), a span deleted or repeated, the file cut short, two lines
swapped, a number replaced.  Hypothesis draws them (the same on every run) and, should one
break the contract, shrinks it to a smallest such input.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
import time
import traceback
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from tests.robustness.memory import peak_mb

SEEDS = {
    "polycube": [b"""# a 4 x 2 box, one cell held by a stationary piece
D:xDim=4:yDim=2:zDim=1
C:name=A:type=M:layout=0 0 0, 1 0 0, 2 0 0
C:name=B:layout=0 0 0, 0 1 0
C:name=C:layout=0 0 0, 1 0 0  # a domino
L:stationary=S
S . . .
. . . .
~L
~D
D:xDim=2:yDim=2:zDim=2
C:name=P:layout=0 0 0, 1 0 0, 0 1 0, 0 0 1
C:name=Q:layout=0 0 0, 1 0 0, 0 1 0, 0 0 1
~D
""", b"""D:xDim=5:yDim=1:zDim=1:oneSide
L
a a b b b
~L
~D
"""],
    "edge_matching": [
        b"4\n5\n0\n" + b"".join(line + b"\n" for line in (
            b"1 5 2 0", b"1 0 2 3", b"0 0 2 2", b"2 0 2 4", b"0 1 1 0", b"1 1 0 0", b"0 1 5 1",
            b"5 3 4 5", b"5 5 3 4", b"2 0 1 5", b"0 2 3 2", b"0 0 2 2", b"5 5 5 4", b"3 5 5 5",
            b"2 5 1 0", b"3 1 0 1")),
        b"c the W H layout (.puz)\n3 3\n0 1 2 0\n0 1 2 1\n0 0 2 1\n2 1 2 0\n2 2 2 1\n"
        b"2 0 2 2\n2 1 0 0\n2 1 0 1\n2 0 0 1\n",
        b"# Heule's layout: hints, then the tiles\n1\n1 1 1 0\n0 1 2 0\n0 1 2 1\n0 0 2 1\n"
        b"2 1 2 0\n2 2 2 1\n2 0 2 2\n2 1 0 0\n2 1 0 1\n2 0 0 1\n"],
    "dlx1": [b"""| Knuth's example, with two secondary items
a b c d e f g | x y
c e x
a d g
b c f
a d f y
b g
d e g
"""],
}
COMMANDS = {"polycube": "tile", "edge_matching": "match", "dlx1": "cover"}
SUFFIX = {"polycube": ".txt", "edge_matching": ".txt", "dlx1": ".dlx"}
TOKENS = [b"0", b"-1", b"1", b"7", b"1000", b"1001", b"99999999999999999999",
          b"-99999999999", b"1e3", b"\x00", b"\xff", b"\xe9", b"\xc3\xa9", b"\xef\xbb\xbf", b"#",
          b":", b",", b"|", b"=", b"~D", b"~L", b"D:", b"L", b"C:", b"\n", b"\r\n", b"\r",
          b"\t", b" ", b"name=", b"layout=", b"type=S", b"type=M", b"stationary=", b"xDim=",
          b":oneSide", b"\xe2\x80\xa8", b"\x0c", b"\x1c", b"\x85"]
NUMBERS = [b"0", b"-1", b"2", b"3", b"1000", b"1001", b"65", b"257", b"99999999999999999999"]
OPS = ("flip", "insert", "delete", "duplicate", "truncate", "swap", "number")


def mutate(base: bytes, edits: list[tuple[str, int, int, bytes]]) -> bytes:
    data = base
    for op, i, j, token in edits:
        n = max(len(data), 1)
        i, j = i % n, j % n
        if op == "flip" and data:
            data = data[:i] + bytes([token[0]]) + data[i + 1:]
        elif op == "insert":
            data = data[:i] + token + data[i:]
        elif op == "delete":
            data = data[:min(i, j)] + data[max(i, j) + 1:]
        elif op == "duplicate":
            data = data[:j] + data[min(i, j):max(i, j) + 1] + data[j:]
        elif op == "truncate":
            data = data[:i]
        elif op == "swap":
            lines = data.split(b"\n")
            a, b = i % len(lines), j % len(lines)
            lines[a], lines[b] = lines[b], lines[a]
            data = b"\n".join(lines)
        elif op == "number":
            spans = [m.span() for m in re.finditer(rb"-?[0-9]+", data)]
            if spans:
                lo, hi = spans[i % len(spans)]
                data = data[:lo] + NUMBERS[j % len(NUMBERS)] + data[hi:]
    return data


def inputs(kind: str):
    edit = st.tuples(st.sampled_from(OPS), st.integers(0, 1 << 16), st.integers(0, 1 << 16),
                     st.one_of(st.sampled_from(TOKENS), st.binary(min_size=1, max_size=6)))
    mutated = st.builds(mutate, st.sampled_from(SEEDS[kind]),
                        st.lists(edit, min_size=1, max_size=5))
    return st.one_of(mutated, mutated, mutated, st.binary(max_size=400))


def check(kind: str, path: Path, data: bytes, tally: dict[str, int]) -> None:
    from cpkit.cli import main

    path.write_bytes(data)
    before = peak_mb()
    began = time.perf_counter()
    out, err = io.StringIO(), io.StringIO()
    args = [COMMANDS[kind], str(path), "--count-only", "--workers", "1", "--time-limit", "2"]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(args)
    except BaseException:
        raise AssertionError(f"cpkit raised (a traceback for the user):\n"
                             f"{traceback.format_exc()}") from None
    if peak_mb() > before + 20:             # this input raised the peak: keep it to see why
        with open(path.parent / "peaks.jsonl", "a") as log:
            log.write(json.dumps({"peak_mb": round(peak_mb(), 1), "was_mb": round(before, 1),
                                  "status": status, "seconds": round(time.perf_counter() - began, 2),
                                  "input": data[:600].decode("latin-1"),
                                  "stderr": err.getvalue()[-400:]}) + "\n")
    lines = [line for line in err.getvalue().splitlines() if line.strip() and
             not line.startswith("cpkit: compiling")]
    assert "Traceback" not in err.getvalue(), err.getvalue()
    if status == 0:
        assert out.getvalue().strip(), "accepted, but no summary printed"
        assert not lines, lines
        tally["accepted"] += 1
        return
    assert status == 2, (status, err.getvalue())
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"cpkit: error: {path}"), lines[0]
    tally["refused"] += 1


def main(kind: str, n: int, directory: str) -> int:
    path = Path(directory) / f"mutant{SUFFIX[kind]}"
    tally = {"accepted": 0, "refused": 0}
    began = time.perf_counter()

    @settings(max_examples=n, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), print_blob=False,
              phases=(Phase.generate, Phase.shrink))
    @given(data=inputs(kind))
    def every(data: bytes) -> None:
        check(kind, path, data, tally)

    try:
        every()
    except BaseException as exc:            # hypothesis has printed the smallest input
        print(json.dumps({"kind": kind, "failure": f"{type(exc).__name__}: {exc}"[:4000]}))
        return 1
    peak = peak_mb()
    print(json.dumps({"kind": kind, "inputs": tally["accepted"] + tally["refused"], **tally,
                      "peak_rss_mb": round(peak, 1),
                      "seconds": round(time.perf_counter() - began, 2)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
