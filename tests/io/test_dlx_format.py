from __future__ import annotations

import io

import pytest

from cpkit.errors import InputError
from cpkit.io.dlx_format import parse_dlx, write_dlx
from cpkit.engines.exact_cover.dlx import dlx_search as dlx

KNUTH_EXAMPLE = """| Knuth's example from TAOCP 7.2.2.1 (an exact cover with 1 solution)
a b c d e f g
c e
a d g
b c f
a d f
b g
d e g
"""


def test_knuth_example_has_one_solution():
    cover = parse_dlx(KNUTH_EXAMPLE.splitlines(), "x.dlx")
    result = dlx.solve_cover(cover)
    assert result.count == 1
    assert sorted(cover.option_labels[r] for r in result.solutions[0]) == ["a d f", "b g", "c e"]


def test_secondary_items_are_covered_at_most_once():
    cover = parse_dlx(["a b | s", "a s", "b s", "a", "b"], "s.dlx")
    assert dlx.solve_cover(cover).count == 3     # {a s, b}, {b s, a}, {a, b}


@pytest.mark.parametrize("lines, line, fragment", [
    (["a b", "a z"], 2, "unknown item 'z'"),
    (["a b", "a a"], 2, "appears twice"),
    (["a | s", "s"], 2, "at least one primary"),
    (["a a"], 1, "declared twice"),
    (["a | b | c"], 1, "'|' only once"),
    (["a b:1"], 1, "dlx2/dlx3"),
    (["a", "a:red"], 2, "colours are dlx2"),
])
def test_errors(lines, line, fragment):
    with pytest.raises(InputError) as info:
        parse_dlx(lines, "e.dlx")
    assert str(info.value).startswith(f"e.dlx:{line}:") and fragment in str(info.value)


def test_write_then_read():
    cover = parse_dlx(KNUTH_EXAMPLE.splitlines())
    buf = io.StringIO()
    write_dlx(cover, buf)
    again = parse_dlx(buf.getvalue().splitlines())
    assert again.primary == cover.primary
    assert again.option_labels == cover.option_labels


@pytest.mark.parametrize("name", ["a b", "", "a|b", "a:b", 7])
def test_a_name_dlx1_cannot_hold_is_refused_on_writing(name):
    """'a b' was written and read back as two items a and b: another problem."""
    from cpkit.models.exact_cover import ExactCover

    with pytest.raises(InputError, match="dlx1 cannot write the item name"):
        write_dlx(ExactCover.from_rows([name, "z"], [], [[0, 1]]), io.StringIO())
