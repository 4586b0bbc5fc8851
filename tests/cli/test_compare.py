"""``cpkit compare``: engines run side by side in processes of their own, on a tiling and an
edge-matching file in one call; their counts agree with the published ones; bad engine names
and bad files are refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

from cpkit.cli.compare import Run, disagreements, table
from tests.cli.test_match import run

ROOT = Path(__file__).resolve().parents[2]
TILING = ROOT / "instances" / "tiling" / "pentominoes_20x3.txt"        # 2 up to rotation
EM = ROOT / "instances" / "edge_matching" / "gen_5_b4i5_s1.txt"        # 6 solutions


def test_engines_of_both_families_agree_with_cpsat_on_the_published_counts(capsys):
    status, out, _ = run(capsys, "compare", TILING, EM, "--engines",
                         "dlx,hybrid,cpsat,cp,cp:--heuristic scan,backtrack", "--json")
    report = json.loads(out)
    runs = {(Path(r["file"]).name, " ".join([r["engine"], *r["args"]])): r
            for r in report["runs"]}
    # Each file runs the names of its own family; CP-SAT is an engine of both.
    assert status == 0 and report["agree"] and report["complete"]
    assert {k for k in runs} == {(TILING.name, e) for e in ("dlx", "hybrid", "cpsat")} | \
        {(EM.name, e) for e in ("cp", "cp --heuristic scan", "backtrack", "cpsat")}
    for (name, _), r in runs.items():
        assert r["complete"] and r["exit_status"] == 0 and r["error"] is None, r
        assert r["solutions"] == (2 if name == TILING.name else 6), r
        assert r["wall_seconds"] >= r["seconds"] >= 0
        if r["nodes"] and r["seconds"]:          # every family's row gives its rate
            assert r["nodes_per_s"] > 0, r


def test_an_engine_of_another_family_is_refused_by_name(capsys):
    status, _, err = run(capsys, "compare", TILING, "--engines", "dlx,cp")
    assert status == 2 and "no engine 'cp' for tiling puzzles" in err
    assert len(err.strip().splitlines()) == 1


def test_a_bad_file_is_refused_at_its_line(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("D:x=3:y=3\nnot a definition\n")
    status, _, err = run(capsys, "compare", bad)
    assert status == 2 and f"{bad}:" in err and "Traceback" not in err


def test_finished_counts_that_differ_are_reported_and_limited_runs_are_not_counts():
    runs = [Run("a", "tiling", "dlx", solutions=2, complete=True),
            Run("a", "tiling", "fila", solutions=3, complete=True),
            Run("b", "tiling", "dlx", solutions=1, complete=True, stop_reason="limit"),
            Run("b", "tiling", "fila", solutions=5, complete=True),
            Run("c", "tiling", "dlx", error="cpkit: error: boom")]
    assert disagreements(runs) == ["a"]
    text = table(runs)
    assert "boom" in text and text.count("\n") == len(runs) + 1
