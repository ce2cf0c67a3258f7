"""The number-aware comparison of checked notebook outputs (dpcompendium.book.nbcompare) is not vacuous: a stored
number changed by more than its tolerance fails, one changed within it passes, a changed word fails — as functions,
and end to end through nbval on small notebooks."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

import nbformat
import pytest

from dpcompendium.book.nbcompare import Tolerance, compare_text, last_digit_unit, split_numbers


@pytest.mark.parametrize(
    ("token", "unit"),
    [
        ("1.72", 0.01),
        ("285", 1.0),
        ("5.07e+09", 1e7),
        ("-0.0268", 1e-4),
        ("2.", 1.0),
        ("1e-05", 1e-5),
    ],
)
def test_last_digit_unit(token, unit):
    assert last_digit_unit(token) == pytest.approx(unit)


def test_split_keeps_identifiers_and_ranges():
    texts, nums = split_numbers("HierA T_2d x1: 1.72..2.85, eps = -0.5e-3")
    assert nums == ["1.72", "2.85", "-0.5e-3"]
    assert texts[0] == "HierA T_2d x1: "


def test_the_issue_case_passes():
    stored = "HierA calibrated / HierA graded schedule: 1.72..2.85"
    assert compare_text(stored, stored.replace("1.72", "1.73")).ok


@pytest.mark.parametrize(
    ("stored", "now", "ok"),
    [
        ("MSE 1.14e+03 [963, 1.32e+03]", "MSE 1.15e+03 [963, 1.32e+03]", True),  # one unit: 10
        ("MSE 1.14e+03 [963, 1.32e+03]", "MSE 1.16e+03 [963, 1.32e+03]", False),  # two units
        ("ratio 0.957, z = -0.43", "ratio 0.956, z = -0.44", True),
        ("ratio 0.957, z = -0.43", "ratio 0.955, z = -0.43", False),
        ("ratio 0.0999", "ratio 0.1", True),  # a decade crossed: the coarser unit
        ("13 of 16 reproduced", "14 of 16 reproduced", False),  # counts are exact
        ("bound holds", "bound fails", False),  # words are exact
        ("private: True", "private: False", False),
        (
            "a      1.5  2\nb     17    3",
            "a    1.51  2\nb     17.1  3",
            True,
        ),  # %g's 17 is 17.0: a float
        (
            "a      1.5  2\nb     17    3",
            "a     1.5  2\nb     18    3",
            False,
        ),  # two integers: exact
        (
            "col\n  x  3.64\n  y  3.6",
            "col\n  x  3.64\n  y  3.61",
            True,
        ),  # realigned widths are fine
        ("exact 0.500005", "exact 0.500006", True),
        ("exact 0.500005", "exact 0.500007", False),
        ("inf", "nan", False),
        ("5 numbers", "5 numbers and 1 more", False),
    ],
)
def test_compare_text(stored, now, ok):
    assert compare_text(stored, now).ok is ok


def test_declared_tolerances():
    assert compare_text("error 579", "error 580", Tolerance(integers="rounded")).ok
    assert not compare_text("error 579", "error 581", Tolerance(integers="rounded")).ok
    assert compare_text("x = 1.00000", "x = 1.00050", Tolerance(rtol=1e-3)).ok
    assert not compare_text("x = 1.00000", "x = 1.00050", Tolerance()).ok
    with pytest.raises(ValueError, match="integers"):
        Tolerance(integers="loose")
    with pytest.raises(ValueError, match="rtol"):
        Tolerance(rtol=-1)


def _notebook(path, *stored: str, meta: dict | None = None) -> None:
    """A notebook of one checked cell per ``stored`` output, each cell printing the same line."""
    nb = nbformat.v4.new_notebook()
    for i, text in enumerate(stored):
        cell = nbformat.v4.new_code_cell(
            "print('captured energy: 0.998, 13 of 16 reproduced, T = 5')",
            metadata={"tags": ["nbval-check-output"], **(meta or {})},
            execution_count=i + 1,
        )
        cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=text + "\n")]
        nb.cells.append(cell)
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nbformat.write(nb, path)


def test_nbval_compares_as_numbers_end_to_end(tmp_path):
    """One nbval run over a notebook of four checked cells whose stored output differs from what the cell prints:
    within the last digit (passes), by two units (fails), a word (fails), a count (fails). One notebook, so one
    kernel: nbval checks each cell as its own test, and a cell that fails its comparison does not stop the next."""
    cases = {
        "within": ("captured energy: 0.997, 13 of 16 reproduced, T = 5", True),
        "beyond": ("captured energy: 0.996, 13 of 16 reproduced, T = 5", False),
        "word": ("captured energy: 0.998, 13 of 16 matched, T = 5", False),
        "count": ("captured energy: 0.998, 12 of 16 reproduced, T = 5", False),
    }
    _notebook(tmp_path / "cases.ipynb", *(stored for stored, _ in cases.values()))
    report = tmp_path / "report.xml"
    subprocess.run(
        [sys.executable, "-m", "pytest", "--nbval-lax", "-p", "no:cacheprovider", "-q", "-n", "0",
         f"--junitxml={report}", "--rootdir", str(tmp_path), str(tmp_path / "cases.ipynb")],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    outcome = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        index = int(case.get("name", "").rpartition(" ")[2])  # nbval's item of cell i: "Cell i"
        outcome[list(cases)[index]] = case.find("failure") is None and case.find("error") is None
    assert outcome == {name: ok for name, (_, ok) in cases.items()}
