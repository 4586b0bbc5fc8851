"""Reading is bounded and every refusal says where: devices and endless inputs end at once,
a file over 64 MB is refused by name, a byte that is not UTF-8 is reported at its line (and
accepted in a comment), a NUL in a piece name is refused, and pieces are blamed at the line
that defines them."""

from __future__ import annotations

import resource
import signal
import subprocess
import time

from tests.conftest import TILING
from tests.robustness import refused, run, start, summary

SOMA = TILING / "somacube.txt"
#: Set on the runs that read endless inputs: a reader without a bound dies of it (a
#: MemoryError) instead of taking the machine's memory.
BOUNDED = {resource.RLIMIT_AS: 3 * 2**30}


def test_dev_zero_ends_at_once_with_a_message():
    began = time.monotonic()
    proc = run("tile", "/dev/zero", timeout=60, limits=BOUNDED)
    refused(proc, "/dev/zero", "a device")
    assert time.monotonic() - began < 30


def test_an_endless_pipe_is_cut_at_the_limit(tmp_path):
    endless = subprocess.Popen(["yes", "C:name=x:layout=0 0 0"], stdout=subprocess.PIPE)
    try:
        proc = run("tile", "/dev/stdin", stdin=endless.stdout, timeout=120, limits=BOUNDED)
    finally:
        endless.kill()
        endless.wait()
    refused(proc, "/dev/stdin", "more than 64 MB")


def test_a_run_waiting_for_input_honours_sigterm():
    proc = start("tile", "/dev/stdin", stdin=subprocess.PIPE)
    time.sleep(3)                             # reading standard input, which never comes
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    # 130: stopped by cpkit's handler; -SIGTERM: the signal came while Python was still
    # importing (a loaded machine), before the handler was installed.  Either way the run ended.
    assert proc.returncode in (130, -signal.SIGTERM), err
    assert "Traceback" not in err


def test_a_file_over_64_mb_is_refused_by_name_before_it_is_read(tmp_path):
    huge = tmp_path / "huge.txt"
    with huge.open("wb") as fh:
        fh.truncate(65 * 2**20)                   # sparse: no disk is used
    refused(run("tile", huge, limits=BOUNDED), str(huge), "at most 64 MB")
    refused(run("match", huge, limits=BOUNDED), "at most 64 MB")
    refused(run("cover", huge, limits=BOUNDED), "at most 64 MB")


def polycube(tmp_path, body: bytes, name: str = "p.txt"):
    path = tmp_path / name
    path.write_bytes(body)
    return path


def test_latin1_in_a_comment_is_accepted_and_elsewhere_reported_at_its_line(tmp_path):
    ok = polycube(tmp_path, b"# pentomino de Fran\xe7ois, caf\xe9\n"
                            b"D:xDim=2:yDim=1:zDim=1  # deux cases \xe9\n"
                            b"C:name=b:layout=0 0 0, 1 0 0\n~D\n")
    done = run("tile", ok, "--json")
    assert done.returncode == 0 and summary(done.stdout)["solutions"] == 1, done.stderr
    bad = polycube(tmp_path, b"D:xDim=2:yDim=1:zDim=1\n\nC:name=\xe9t\xe9:layout=0 0 0, 1 0 0\n"
                             b"~D\n", "bad.txt")
    refused(run("tile", bad), f"{bad}:3:", "not UTF-8", "0xe9", "column 8")
    dlx = tmp_path / "c.dlx"
    dlx.write_bytes(b"| un commentaire \xe9\na b\na\nb\n")
    assert run("cover", dlx, "--count-only").returncode == 0


def test_a_nul_byte_in_a_piece_name_is_refused(tmp_path):
    for body in (b"D:xDim=2:yDim=1:zDim=1\nC:name=b\x00x:layout=0 0 0, 1 0 0\n~D\n",
                 b"D:xDim=2:yDim=1:zDim=1\nL\nb\x00 b\x00\n~L\n~D\n"):
        path = polycube(tmp_path, body)
        refused(run("tile", path), f"{path}:", "NUL")


def test_pieces_are_blamed_at_the_line_that_defines_them(tmp_path):
    disconnected = polycube(tmp_path, b"D:xDim=2:yDim=2:zDim=1\n"
                                      b"C:name=b:layout=0 0 0, 1 0 0\n"
                                      b"C:name=a:layout=0 0 0, 1 1 0\n~D\n", "d.txt")
    refused(run("tile", disconnected), f"{disconnected}:3:", "piece a is not connected")
    overlapping = polycube(tmp_path, b"D:xDim=3:yDim=1:zDim=1\n"
                                     b"C:name=s:type=S:layout=0 0 0\n"
                                     b"C:name=b:layout=0 0 0, 1 0 0\n"
                                     b"C:name=t:type=S:layout=0 0 0\n~D\n", "o.txt")
    refused(run("tile", overlapping), f"{overlapping}:4:", "s and t overlap")


def test_an_empty_picture_name_is_refused_not_ignored():
    refused(run("tile", SOMA, "--limit", "1", "--render", ""), "empty file name")
    refused(run("match", TILING.parent / "edge_matching" / "gen_4_b2i3_s2.txt", "--first",
                "--render", ""), "empty file name")
