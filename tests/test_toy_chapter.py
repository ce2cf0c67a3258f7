"""Adding a chapter is one folder, one notebook and one line of ``_toc.yml`` (CONTRIBUTING.md, "Add a chapter").

In a copy of the tree (``src/``, ``notebooks/``, ``_toc.yml``, ``data/``), a toy seventh chapter gets a folder
``src/dpcompendium/chapters/toy_count/`` (its code, its audit specs, its manifest), a notebook and a toc entry —
nothing else is touched — and is then listed by ``dpcompendium list``, validated by the chapter contract, drawn by
the fuzz at its declared size, audited in the catalogue (unit stage, ~4 s: one interpreter), and run end to end by
``dpcompendium run`` with a fuzzed parameter set (integration stage, ~10 s: papermill starts a kernel).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from _notebooks import chapter_notebook, parameters_cell

ROOT = Path(__file__).resolve().parents[1]
TOY_ID = "toy-count"

CODE = '''"""A toy chapter: a count released with the Laplace mechanism."""

import numpy as np

from dpcompendium.core.mechanisms import laplace_mechanism
from dpcompendium.core.privacy import PrivacyClaim


def privacy_claim(epsilon: float) -> PrivacyClaim:
    return PrivacyClaim("noisy count", "add-remove", "L1 sensitivity 1", epsilon)


def noisy_count(data: np.ndarray, epsilon: float, rng: np.random.Generator, size=None):
    """The number of records plus Laplace(1/epsilon) noise."""
    return laplace_mechanism(float(len(data)), 1.0, epsilon, rng, size=size)
'''

AUDITS = '''"""How the audit chapter audits the toy chapter's count."""

import numpy as np

from dpcompendium.chapters.registry import chapter_id
from dpcompendium.core.audit.spec import AuditSpec

from . import noisy_count, privacy_claim

CHAPTER = chapter_id(__name__)


def audit_specs():
    return [
        AuditSpec(
            "toy noisy count, eps=1",
            CHAPTER,
            "private",
            privacy_claim(1.0),
            (np.zeros(0), np.ones(1)),
            sample=lambda d, n, g: noisy_count(d, 1.0, g, size=n),
            true_epsilon=1.0,
        )
    ]
'''

MANIFEST = f'''id = "{TOY_ID}"
title = "A toy count"
notebook = "notebooks/{TOY_ID}.ipynb"
datasets = []
time_hint_s = 5.0
headline_cells = ["headline"]

[fuzz]
reps = [1, 3]
n_jobs = [1, 1]
max_len = 2

[claims]
source_cell = "source"
renderers = ["privacy_claim("]
'''

PARAMS = """seed = 0  # random seed [min 0]
output_dir = ""  # results folder (set by --out)
reps = 50  # repetitions [min 1]
epsilons = [0.5, 1.0]  # privacy budgets [>0]
n_jobs = 1  # workers [min 1]"""

BODY = f"""import numpy as np
import pandas as pd

from dpcompendium.book import chapter
from dpcompendium.chapters import toy_count

out = chapter.output_dir(output_dir, "{TOY_ID}")
rng = np.random.default_rng(seed)
rows = [
    {{"epsilon": e, "rep": r, "release": float(toy_count.noisy_count(np.ones(10), e, rng))}}
    for e in epsilons
    for r in range(reps)
]
chapter.save_table(pd.DataFrame(rows), "releases", out)
print(toy_count.privacy_claim(max(epsilons)).statement())"""


def toy_tree(tmp_path: Path) -> Path:
    """A copy of the tree with the toy chapter added: its folder, its notebook, one toc line."""
    root = tmp_path / "repo"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for part in ("src", "notebooks", "data"):
        shutil.copytree(ROOT / part, root / part, ignore=ignore)
    shutil.copy(ROOT / "_toc.yml", root / "_toc.yml")
    folder = root / "src" / "dpcompendium" / "chapters" / "toy_count"
    folder.mkdir()
    (folder / "__init__.py").write_text(CODE)
    (folder / "audits.py").write_text(AUDITS)
    (folder / "manifest.toml").write_text(MANIFEST)
    params = parameters_cell(PARAMS)
    source = nbformat.v4.new_markdown_cell(
        "## The source and what it claims\n\nA count is 1-sensitive."
    )
    source.id = "source"
    headline = nbformat.v4.new_code_cell(BODY)
    headline.id = "headline"
    headline.metadata["tags"] = ["nbval-check-output", "keep_output"]
    nb = chapter_notebook(
        [
            nbformat.v4.new_markdown_cell("# A toy count\n\nA seventh chapter."),
            source,
            params,
            headline,
        ]
    )
    nbformat.write(nb, root / "notebooks" / f"{TOY_ID}.ipynb")
    toc = (root / "_toc.yml").read_text()
    last = [line for line in toc.splitlines() if line.strip().startswith("- file: notebooks/")][-1]
    (root / "_toc.yml").write_text(
        toc.replace(last, f"{last}\n{last.split('- file:')[0]}- file: notebooks/{TOY_ID}")
    )
    return root


def run(root: Path, code: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(root / "src"), os.environ.get("PYTHONPATH", "")]),
        "DPCOMPENDIUM_REPO": str(root),
    }
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=root,
        env=env,
        timeout=timeout,
    )


CHECK = f"""
import json, sys
import dpcompendium
from dpcompendium.book import cli
from dpcompendium.book.contract import get_chapter, validate_parameters
from dpcompendium.book.fuzz import fuzz_size, parameter_strategy, small_overrides
from dpcompendium.chapters.privacy_audit import audit_modules, catalog, run_catalog
from dpcompendium.chapters.registry import chapter_ids
from hypothesis import find

assert dpcompendium.__file__.startswith({{root!r}}), dpcompendium.__file__  # the copy, not the checkout
out = {{{{}}}}
out["ids"] = list(chapter_ids())
code = cli.main(["list"])
ch = get_chapter("{TOY_ID}")
out["params"] = list(ch.parameters)
try:
    validate_parameters(ch, {{{{"reps": 0}}}})
except ValueError as exc:
    out["invalid"] = str(exc)
drawn = find(parameter_strategy(ch), lambda v: True)
out["drawn"] = drawn
out["small"] = small_overrides(ch)
out["fuzz"] = {{{{k: list(v) if isinstance(v, tuple) else v for k, v in fuzz_size(ch).items()}}}}
out["groups"] = list(audit_modules())
table = run_catalog(catalog(["{TOY_ID}"]), n_samples=20_000, seed=1)
out["audit"] = table[["mechanism", "chapter", "verdict", "expected"]].to_dict("records")
print("JSON" + json.dumps(out))
"""


@pytest.fixture(scope="module")
def toy_root(tmp_path_factory) -> Path:
    return toy_tree(tmp_path_factory.mktemp("toy"))


def test_a_toy_chapter_is_listed_validated_fuzzed_and_audited(toy_root):
    proc = run(toy_root, CHECK.format(root=str(toy_root)))
    assert proc.returncode == 0, proc.stderr[-3000:]
    listing, _, payload = proc.stdout.partition("JSON")
    out = json.loads(payload)
    assert (
        out["ids"][-1] == TOY_ID and len(out["ids"]) >= 2
    )  # after the book's chapters, as in _toc.yml
    assert f"{TOY_ID}: A toy count" in listing and "reps = 50 [min 1]" in listing
    assert out["params"] == ["seed", "output_dir", "reps", "epsilons", "n_jobs"]
    assert out["invalid"] == "parameter reps must be >= 1, got 0"
    assert (
        1 <= out["drawn"]["reps"] <= 3 and len(out["drawn"]["epsilons"]) <= 2
    )  # the manifest's fuzz size
    assert out["small"]["reps"] == 3 and out["fuzz"]["reps"] == [1, 3]
    assert out["groups"][-1] == TOY_ID
    assert out["audit"] == [
        {
            "mechanism": "toy noisy count, eps=1",
            "chapter": TOY_ID,
            "verdict": "holds",
            "expected": "holds",
        }
    ]
    # the book's manifest checks hold for the toy chapter, in the copy
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(ROOT / "tests" / "test_book_contract.py"),
         "-k", "manifest and toy"],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
        env={**os.environ, "DPCOMPENDIUM_REPO": str(toy_root),
             "PYTHONPATH": os.pathsep.join([str(toy_root / "src"), os.environ.get("PYTHONPATH", "")])},
    )  # fmt: skip
    assert proc.returncode == 0 and "1 passed" in proc.stdout, proc.stdout[-3000:]


def test_only_the_chapters_folder_notebook_and_toc_changed(toy_root):
    """The toy chapter touched nothing but its own folder, its notebook and one line of the toc."""
    changed = []
    for part in ("src", "notebooks", "data"):
        for path in (toy_root / part).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                original = ROOT / path.relative_to(toy_root)
                if not original.is_file() or original.read_bytes() != path.read_bytes():
                    changed.append(str(path.relative_to(toy_root)))
    assert sorted(changed) == [
        f"notebooks/{TOY_ID}.ipynb",
        "src/dpcompendium/chapters/toy_count/__init__.py",
        "src/dpcompendium/chapters/toy_count/audits.py",
        "src/dpcompendium/chapters/toy_count/manifest.toml",
    ]
    toc, original = (toy_root / "_toc.yml").read_text(), (ROOT / "_toc.yml").read_text()
    assert len(toc.splitlines()) == len(original.splitlines()) + 1


@pytest.mark.integration
def test_the_toy_chapter_runs_with_a_fuzzed_parameter_set(toy_root, tmp_path):
    code = f"""
from hypothesis import find
from dpcompendium.book import cli
from dpcompendium.book.contract import get_chapter
from dpcompendium.book.fuzz import parameter_strategy
import yaml
values = find(parameter_strategy(get_chapter("{TOY_ID}")), lambda v: v["reps"] >= 2)
args = ["run", "{TOY_ID}", "--out", {str(tmp_path)!r}]
for k, v in values.items():
    args += ["-p", k, yaml.safe_dump(v, default_flow_style=True).strip().removesuffix("...").strip()]
raise SystemExit(cli.main(args))
"""
    proc = run(toy_root, code)
    assert proc.returncode == 0, proc.stderr[-3000:]
    table = (tmp_path / TOY_ID / "releases.csv").read_text().splitlines()
    assert table[0] == "epsilon,rep,release" and len(table) > 2
