"""``dpcompendium check mwem``: a student's MWEM beside the course's reference and the book's variants."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpcompendium.book.check import available_checks, get_check
from dpcompendium.book.check.mwem import COURSE_ROUNDS, TOO_FEW, check_mwem, course_workload
from dpcompendium.book.cli import main
from dpcompendium.book.usercode import UserCodeError, load_module
from dpcompendium.chapters.mwem import (
    RangeQueries,
    compare_with_reference,
    reference_errors,
    report_histogram,
    workload_errors,
)
from dpcompendium.chapters.mwem import mwem as book_mwem

EX = Path(__file__).resolve().parents[1] / "examples" / "coursework"


@pytest.fixture(scope="module")
def student():
    return load_module(str(EX / "mwem_student.py"))


def test_registry():
    assert "mwem" in available_checks()
    check = get_check("mwem")
    assert check.function == "mwem" and "workload" in check.signature
    with pytest.raises(ValueError, match="check must be one of"):
        get_check("nope")


def test_workload_is_inclusive_bin_ranges():
    w = course_workload()
    assert w.shape == (60, 2) and w.dtype == np.int64
    assert np.all(w[:, 0] <= w[:, 1]) and w.min() >= 0 and w.max() < 14


def test_book_coursework_variant_as_user_code_reproduces_the_chapter(student):
    seed, reps = 11, 4
    rep = check_mwem(
        student.mwem, student, reps=reps, seed=seed, epsilons=(0.1,), audit_samples=40_000
    )
    cmp, runs = rep.tables["comparison"], rep.tables["runs"]
    # 4 runs cannot show the equivalence (nor a difference from the course's variant): the verdict says so, with
    # the runs that would
    assert rep.verdict.startswith(TOO_FEW) and rep.settings["runs_needed"] > reps
    assert f"--reps {rep.settings['runs_needed']}" in rep.verdict
    assert not (cmp.cell_coursework == "differs").any()
    # the chapter's comparison (compare_with_reference, bootstrap stream = child 2 of the seed), on the student's runs
    boot = np.random.default_rng(np.random.SeedSequence(seed).spawn(3)[2])
    ref = reference_errors(1).iloc[[0]]
    expected = compare_with_reference(runs, ref, boot, variant="student")
    np.testing.assert_allclose(cmp.z_student_vs_reference, expected.z_two_sample)
    np.testing.assert_allclose(cmp.reference, expected.reference)
    # run (ε index 0, repetition 1) is the student's function on child 1 of child 0 of child 0 of the seed
    ss = np.random.SeedSequence(seed).spawn(3)[0].spawn(1)[0].spawn(reps)[1]
    hist = report_histogram(1)
    out = student.mwem(
        hist.copy(), course_workload(), 0.1, COURSE_ROUNDS, np.random.default_rng(ss)
    )
    from dpcompendium.chapters.mwem import report_queries_1d

    err = workload_errors(out, hist, report_queries_1d())
    row = runs[(runs.variant == "student") & (runs.rep == 1)].iloc[0]
    assert row.mean_error == pytest.approx(float(err["mean_error"]))
    # the measurement step is exposed and private at its per-round claim
    audit = rep.audits["mwem_measure"]
    assert audit.verdict == "holds" and audit.claimed_epsilon == pytest.approx(0.1)
    assert "within 10 %" in " ".join(rep.lines) and "not a test" in " ".join(rep.lines)


def _identity(histogram, workload, epsilon, rounds, rng):
    """Not MWEM: Laplace noise on every bin (the Identity baseline)."""
    return histogram + rng.laplace(0.0, 2.0 / epsilon, size=histogram.shape)


@pytest.mark.parametrize("reps", [5, 20])
def test_a_non_mwem_submission_is_never_matches(reps):
    """Laplace noise on every bin is not MWEM: at 5 and 20 runs (and any seed tried) the verdict is never
    "matches", and no line of the report says it matches either variant."""
    for seed in range(3):
        rep = check_mwem(_identity, reps=reps, seed=seed)
        assert not rep.verdict.startswith("matches"), (reps, seed, rep.verdict)
        assert not any(line.startswith("matches") for line in rep.lines), rep.lines
        assert rep.verdict.startswith(("differs from both", TOO_FEW)), rep.verdict
    # its errors are far from both variants' (13 of 16 cells and more): the runs show it
    assert rep.verdict == "differs from both the paper's MWEM and the course's variant"


def test_the_course_variant_matches_at_the_size_the_coursework_page_suggests(student):
    """book/coursework.md suggests the default --reps (100, the course's table): there the book's coursework
    variant, handed in as a student's function, matches the course's variant — every cell within the margin —
    and differs from the paper's MWEM (about 4 s)."""
    reps = get_check("mwem").default_reps
    assert (
        f"`--reps` times (default {reps}," in (EX.parents[1] / "book" / "coursework.md").read_text()
    )
    rep = check_mwem(student.mwem, reps=reps, seed=0)
    cmp = rep.tables["comparison"]
    assert rep.verdict == "matches the course's variant", rep.lines
    assert (cmp.cell_coursework == "same").all() and (cmp.cell_standard == "differs").all()
    assert rep.lines[1].startswith("differs from the paper's MWEM") and rep.lines[2].startswith(
        "matches the course's variant"
    )


def _book_standard(histogram, workload, epsilon, rounds, rng):
    """The paper's MWEM (the book's standard variant) through the student's signature (vectorized: fast)."""
    queries = RangeQueries.from_ranges(np.shape(histogram), np.asarray(workload))
    return book_mwem(histogram, queries, epsilon, rounds, variant="standard", rng=rng).synthetic[0]


def test_too_few_runs_is_reachable_and_the_runs_it_names_suffice():
    """5 runs of a correct paper MWEM cannot tell: the verdict says so and names the runs that would; with that
    many, it matches the paper's MWEM (and differs from the course's variant)."""
    few = check_mwem(_book_standard, reps=5, seed=1, epsilons=(10.0,))
    assert few.verdict.startswith(TOO_FEW), few.verdict
    n = few.settings["runs_needed"]
    assert 5 < n <= 400 and f"about {n} runs per epsilon" in few.verdict
    enough = check_mwem(_book_standard, reps=n, seed=1, epsilons=(10.0,))
    assert enough.verdict == "matches the paper's MWEM", enough.lines
    assert (enough.tables["comparison"].cell_coursework == "differs").any()


def test_unscaled_scores_show_the_gap(student):
    rep = check_mwem(student.mwem_unscaled_scores, student, reps=5, seed=3, epsilons=(0.1,))
    cmp = rep.tables["comparison"].set_index("metric")
    assert not rep.verdict.startswith("matches"), rep.verdict
    assert (cmp.cell_standard == "differs").any()
    # the greedy selection spends 2 per round: far lower error than the course at ε = 0.1
    assert cmp.loc["mean_error", "rel_diff_reference"] < -0.3
    assert not rep.audits  # no measurement step exposed


def test_wrong_noise_scale_shows_the_gap_and_fails_the_audit(student):
    rep = check_mwem(
        student.mwem_wrong_noise, student, reps=5, seed=3, epsilons=(0.1,), audit_samples=40_000
    )
    cmp = rep.tables["comparison"].set_index("metric")
    assert cmp.loc["mean_error", "rel_diff_reference"] < -0.3
    audit = rep.audits["mwem_wrong_noise_measure"]
    assert (
        audit.verdict == "violated" and audit.epsilon_lower > 1.0
    )  # claims 0.1 per measurement, delivers 10
    # the privacy failure is the verdict, and the first line, naming the step and the bound
    expected = f"measurement step VIOLATED: ε ≥ {audit.epsilon_lower:.3f} for a claimed 0.1"
    assert rep.verdict == expected and rep.lines[0].startswith(expected)
    assert "mwem_wrong_noise_measure" in rep.lines[0] and "the errors:" in rep.lines[0]


def test_paper_faithful_mwem_is_not_called_the_course_variant(student):
    """A plain-numpy MWEM as the paper gives it (20 MW passes, the average of the iterates): with 5 runs it is
    never said to match the course's variant (its differences from it show), and its measurement step holds."""
    paper = check_mwem(student.mwem_paper, student, reps=5, seed=0, audit_samples=20_000)
    cmp = paper.tables["comparison"]
    assert not (cmp.cell_standard == "differs").any(), paper.lines
    assert (cmp.cell_coursework == "differs").any()
    assert paper.verdict.startswith(("matches the paper's MWEM", TOO_FEW)), paper.verdict
    assert "measurement step HOLDS" in paper.lines[-1]


def test_misbehaving_student_code(student):
    with pytest.raises(UserCodeError, match="shape"):
        check_mwem(lambda h, w, e, t, rng: h[:3], reps=2, epsilons=(1.0,))
    with pytest.raises(UserCodeError, match="not reproducible"):
        check_mwem(lambda h, w, e, t, rng: h + np.random.default_rng().normal(size=h.shape), reps=2)
    with pytest.raises(UserCodeError, match="raised ZeroDivisionError"):
        check_mwem(lambda h, w, e, t, rng: 1 / 0, reps=2)
    with pytest.raises(ValueError, match="reps"):
        check_mwem(student.mwem, reps=1)


STUDENT = '''
import numpy as np


def mwem(histogram, workload, epsilon, rounds, rng):
    """Not MWEM: the Identity baseline (every bin + Lap(2/ε)), fast."""
    return histogram + rng.laplace(0.0, 2.0 / epsilon, size=histogram.shape)


def broken(histogram, workload, epsilon, rounds, rng):
    return histogram[:-1]
'''


def test_cli_check(tmp_path, capsys, monkeypatch):
    import dpcompendium.book.check.mwem as cm

    monkeypatch.setattr(
        cm, "COURSE_EPSILONS", (1.0, 10.0)
    )  # two of the course's four, to keep the test fast
    path = tmp_path / "student.py"
    path.write_text(STUDENT)
    out = tmp_path / "out"
    assert (
        main(["check", "mwem", str(path), "--reps", "2", "--out", str(out)]) == 0
    )  # default function: mwem
    printed = capsys.readouterr().out
    assert "mwem: mwem — too few runs to tell" in printed and "not a test" in printed
    assert (
        "the paper's MWEM" in printed
        and "the course's variant" in printed
        and "the course's table" in printed
    )
    names = {p.name for p in out.iterdir()}
    assert {"errors.csv", "comparison.csv", "runs.csv", "report.md", "report.png"} <= names
    errors = pd.read_csv(out / "errors.csv")
    assert set(errors.variant) == {"student", "coursework", "standard", "course reference"}
    assert main(["check", "mwem", f"{path}:broken", "--out", str(tmp_path / "never")]) == 2
    assert "shape" in capsys.readouterr().err and not (tmp_path / "never").exists()
    assert main(["check", "mwem", f"{path}:mwem", "--reps", "1"]) == 2


def test_cli_check_refuses_to_replace_an_earlier_report_without_overwrite(
    tmp_path, capsys, monkeypatch
):
    """Issue 45: a second ``check`` into a folder holding a check's report is refused before it runs (one line
    naming --out and its value, exit 2, nothing written, the first report kept) unless ``--overwrite``, which
    replaces it; a folder holding other files only is used as it is."""
    import dpcompendium.book.check.mwem as cm

    monkeypatch.setattr(cm, "COURSE_EPSILONS", (1.0,))  # one of the course's four: fast
    path = tmp_path / "student.py"
    path.write_text(STUDENT)
    out = tmp_path / "out"
    args = ["check", "mwem", str(path), "--reps", "2", "--out", str(out)]
    assert main(args) == 0
    capsys.readouterr()
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert {"report.md", "errors.csv"} <= set(before)
    assert main([*args, "--seed", "1"]) == 2
    captured = capsys.readouterr()
    err = captured.err
    assert err.startswith("dpcompendium: error: --out ") and err.count("\n") == 1
    assert str(out) in err and "holds an earlier check's report" in err and "--overwrite" in err
    assert "mwem: mwem" not in captured.out  # refused before the check ran
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # nothing written
    # a table alone is an earlier report too
    only_csv = tmp_path / "only_csv"
    only_csv.mkdir()
    (only_csv / "errors.csv").write_text("x\n1\n", encoding="utf-8")
    assert main([*args[:-1], str(only_csv)]) == 2
    assert "errors.csv" in capsys.readouterr().err
    assert main([*args, "--seed", "1", "--overwrite"]) == 0
    assert (out / "errors.csv").read_bytes() != before["errors.csv"]
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("mine", encoding="utf-8")
    assert main([*args[:-1], str(other)]) == 0 and (other / "notes.txt").exists()
