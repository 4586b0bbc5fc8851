"""The progress line and its time left."""

from __future__ import annotations

import io

from cpkit.parallel.progress import Progress


def test_time_left_scales_pending_estimates_by_the_finished_ones():
    bar = Progress(3, [10.0, 10.0, 20.0], enabled=False)
    # Subproblem 0 took 20 nodes where 10 were estimated: the 30 pending become 60.
    assert bar.time_left({0}, 20, rate=6.0) == 10.0
    assert bar.time_left(set(), 0, rate=0.0) == float("inf")


def test_line_shows_subproblems_solutions_rate_and_time_left():
    out = io.StringIO()
    bar = Progress(10, [1.0] * 10, enabled=True, stream=out)
    bar.update({0, 1, 2}, 1234, 3000, force=True)
    bar.close()
    text = out.getvalue()
    assert text.startswith("\r[") and text.endswith("\n")
    assert "3/10 subproblems" in text and "1,234 solutions" in text and "M nodes/s" in text
    assert "left ~" in text


def test_silent_when_disabled():
    out = io.StringIO()
    bar = Progress(10, [1.0] * 10, enabled=False, stream=out)
    bar.update({0}, 1, 1, force=True)
    bar.close()
    assert out.getvalue() == ""


def test_clear_blanks_the_line_for_other_output_and_the_next_update_redraws_it():
    out = io.StringIO()
    bar = Progress(10, [1.0] * 10, enabled=True, stream=out)
    bar.update({0}, 1, 10, force=True)
    bar.clear()
    blanked = out.getvalue()
    assert blanked.endswith("\r") and blanked.rsplit("\r", 2)[-2].strip() == ""
    bar.update({0, 1}, 2, 20)                     # not forced, and at once: drawn again
    assert out.getvalue()[len(blanked):].startswith("\r[") and "2/10 subproblems" in out.getvalue()
    bar.close()
    bar.clear()                                   # nothing shown after close: nothing written
    assert out.getvalue().endswith("\n")
