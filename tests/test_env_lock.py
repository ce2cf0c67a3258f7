"""The Binder ``environment.yml`` agrees with ``requirements-lock.txt``, and the lock covers ``pyproject.toml``.

The lock is the single source of truth (``make`` installs from it with ``--require-hashes``); environment.yml is
generated from it by ``tools/sync_environment.py``. These tests parse both files independently of that tool.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)")


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def lock() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements-lock.txt").read_text(encoding="utf8").splitlines():
        m = PIN.match(line)
        if m:
            assert norm(m.group(1)) not in pins, f"the lock pins {m.group(1)} twice"
            pins[norm(m.group(1))] = m.group(2)
    return pins


def environment() -> tuple[list, dict[str, str], list[str]]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf8"))
    deps = env["dependencies"]
    conda = [d for d in deps if isinstance(d, str)]
    pip_lists = [d["pip"] for d in deps if isinstance(d, dict) and "pip" in d]
    assert len(pip_lists) == 1, "environment.yml must have one pip: section"
    pins, other = {}, []
    for spec in pip_lists[0]:
        m = PIN.match(spec)
        if m:
            pins[norm(m.group(1))] = m.group(2)
        else:
            other.append(spec)
    return conda, pins, other


def test_lock_pins_everything_with_hashes():
    text = (ROOT / "requirements-lock.txt").read_text(encoding="utf8")
    blocks = re.split(r"\n(?=[A-Za-z0-9])", text)
    for block in blocks:
        if PIN.match(block):
            assert "--hash=sha256:" in block, f"no hash for {block.splitlines()[0]}"
    assert len(lock()) > 50


def test_environment_python_is_311():
    conda, _, _ = environment()
    pythons = [d for d in conda if d.replace(" ", "").startswith("python")]
    assert pythons == ["python=3.11"], f"environment.yml must pin python=3.11, has {pythons}"
    assert "pip" in conda


def test_environment_pins_equal_lock():
    _, pins, other = environment()
    locked = lock()
    missing = sorted(set(locked) - set(pins))
    extra = sorted(set(pins) - set(locked))
    differ = sorted(
        f"{n}: lock {locked[n]} vs env {pins[n]}"
        for n in set(locked) & set(pins)
        if locked[n] != pins[n]
    )
    assert not (missing or extra or differ), (
        f"environment.yml disagrees with the lock (run python tools/sync_environment.py): "
        f"missing {missing}, extra {extra}, different {differ}"
    )
    assert other == ["--editable=."], f"unexpected pip lines in environment.yml: {other}"


def test_lock_covers_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf8"))["project"]
    reqs = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        reqs += extra
    locked = lock()
    for raw in reqs:
        req = Requirement(raw)
        if req.marker is not None and not req.marker.evaluate():
            continue
        name = norm(req.name)
        assert name in locked, f"pyproject requires {raw} but the lock does not pin {req.name}"
        assert req.specifier.contains(Version(locked[name]), prereleases=True), (
            f"the lock pins {req.name}=={locked[name]}, outside pyproject's {raw}"
        )


def test_running_python_matches():
    if not sys.prefix.endswith(".venv"):
        pytest.skip("not running from the project's .venv")
    assert sys.version_info[:2] == (3, 11), "the lock is for Python 3.11"


def test_installed_versions_match_lock():
    from importlib.metadata import PackageNotFoundError, version

    wrong = []
    for name, pinned in lock().items():
        try:
            have = version(name)
        except PackageNotFoundError:
            wrong.append(f"{name} (not installed)")
            continue
        if Version(have) != Version(pinned):
            wrong.append(f"{name} {have} != {pinned}")
    if not sys.prefix.endswith(".venv"):
        pytest.skip("not running from the project's .venv")
    assert not wrong, f"the environment differs from the lock (run make venv): {wrong[:10]}"
