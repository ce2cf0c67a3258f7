"""The instructors' example assignment (examples/otter): ``otter assign`` and local grading, as book/coursework.md
shows them.

The page's ``bash`` block that runs ``otter assign`` is executed verbatim (``bash -e``, from a copy of the repository's
``examples/otter`` in a temporary folder, the ``otter`` of this environment first on the PATH): it builds the student
notebook and the autograder, then grades the three submissions without Docker (``otter run``: the notebook runs in
this environment's kernel, so the hidden tests import ``dpcompendium``). The scores must be the page's: the correct
mean 4/4, the unclamped one 2/4 (the hidden privacy audit fails), the over-noised one 3/4 (the hidden accuracy test
fails). Cost: about 30 s on one core (otter assign, three kernels each auditing 20 000 samples per input), hence
the integration stage.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
EXPECTED = {"correct": 4.0, "unclamped": 2.0, "too_noisy": 3.0}


def instructor_commands() -> str:
    page = (ROOT / "book" / "coursework.md").read_text(encoding="utf8")
    blocks = [
        b
        for b in re.findall(r"^```bash\n(.*?)^```", page, flags=re.S | re.M)
        if "otter assign" in b
    ]
    assert len(blocks) == 1, (
        "book/coursework.md: one bash block with the instructors' otter commands"
    )
    return blocks[0]


def test_master_notebook_hides_an_audit():
    """Cheap, static: the master notebook's hidden tests call the privacy audit; every submission defines dp_mean."""
    nb = nbformat.read(ROOT / "examples" / "otter" / "dp_mean.ipynb", as_version=4)
    sources = [c.source for c in nb.cells]
    hidden = [s for s in sources if re.search(r"^hidden: true$", s, flags=re.M)]
    assert any("dpcompendium.book.usercode import audit_callable" in s for s in hidden)
    assert any(s.startswith("# ASSIGNMENT CONFIG") for s in sources)
    for name in EXPECTED:
        sub = nbformat.read(
            ROOT / "examples" / "otter" / "submissions" / f"{name}.ipynb", as_version=4
        )
        assert sum("def dp_mean(" in c.source for c in sub.cells) == 1


@pytest.mark.integration
def test_instructor_workflow_grades_the_submissions(tmp_path):
    shutil.copytree(ROOT / "examples" / "otter", tmp_path / "examples" / "otter",
                    ignore=shutil.ignore_patterns("dist"))  # fmt: skip
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    proc = subprocess.run(["bash", "-e", "-c", instructor_commands()], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=900, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    # otter's kernels (over TCP) do not print ipykernel's warning (the environment's kernel config: make venv)
    assert "without encryption" not in proc.stdout + proc.stderr
    dist = tmp_path / "examples" / "otter" / "dist"
    # the student's notebook has no solution and no hidden test; the autograder has both
    student = nbformat.read(dist / "student" / "dp_mean.ipynb", as_version=4)
    assert not any("np.clip" in c.source or "audit_callable" in c.source for c in student.cells)
    (zip_path,) = (dist / "autograder").glob("dp_mean-autograder_*.zip")
    with zipfile.ZipFile(zip_path) as zf:
        tests = zf.read("tests/dp_mean.py").decode()
    assert "audit_callable" in tests and "hidden=True" in tests
    for name, score in EXPECTED.items():
        results = json.loads((dist / "results" / name / "results.json").read_text())
        (graded,) = [t for t in results["tests"] if t["name"] == "dp_mean"]
        assert (graded["score"], graded["max_score"]) == (score, 4), (name, graded["output"])
        if (
            name == "unclamped"
        ):  # the student sees the audit's verdict, with the witness beyond [0, 1]
            assert "VIOLATED: claimed ε = 1 (replace-one neighbours)" in graded["output"]
            assert ", 11]" in graded["output"] or ", -10]" in graded["output"]
