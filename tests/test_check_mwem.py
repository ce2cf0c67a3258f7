"""``dpcompendium check mwem``: a student's MWEM beside the course's reference and the book's variants."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpcompendium.book.check import available_checks, get_check
from dpcompendium.book.check.mwem import COURSE_ROUNDS, check_mwem, course_workload
from dpcompendium.book.cli import main
from dpcompendium.book.usercode import UserCodeError, load_module
from dpcompendium.chapters.mwem import (
    compare_with_reference,
    reference_errors,
    report_histogram,
    workload_errors,
)

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
    assert rep.verdict == "matches the course's variant" and not cmp.differs_from_book.any()
    assert (cmp.p_student_vs_book > 0.05 / len(cmp)).all()
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


def test_unscaled_scores_show_the_gap(student):
    rep = check_mwem(student.mwem_unscaled_scores, student, reps=5, seed=3, epsilons=(0.1,))
    cmp = rep.tables["comparison"].set_index("metric")
    assert (
        rep.verdict == "matches neither"
        and cmp.differs_from_book.any()
        and cmp.differs_from_standard.any()
    )
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
    assert (
        "mwem_wrong_noise_measure" in rep.lines[0] and "the implementation matches" in rep.lines[0]
    )


def test_paper_faithful_mwem_matches_the_paper(student):
    """A plain-numpy MWEM as the paper gives it (20 MW passes, the average of the iterates) is recognised as the
    paper's, not called wrong for differing from the course's variant; the book's coursework variant is not."""
    paper = check_mwem(student.mwem_paper, student, reps=5, seed=0, audit_samples=20_000)
    cmp = paper.tables["comparison"]
    assert paper.verdict == "matches the paper's MWEM", paper.lines
    assert not cmp.differs_from_standard.any() and cmp.differs_from_book.any()
    assert paper.lines[1].startswith(
        "matches the paper's MWEM (the book's standard variant): 0 of 16 cells differ"
    )
    assert paper.lines[2].startswith("differs from the course's variant")
    assert "measurement step HOLDS" in paper.lines[-1]
    course = check_mwem(student.mwem, student, reps=5, seed=0, audit_samples=20_000)
    assert (
        course.verdict == "matches the course's variant"
        and course.tables["comparison"].differs_from_standard.any()
    )


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
    assert "mwem: mwem —" in printed and "not a test" in printed
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
