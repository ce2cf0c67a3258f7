"""The book's local Sphinx extensions (book/_ext): what each changes, tested without a build."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))

import dpcompendium_pybtex  # noqa: E402

pybtex_plugin = pytest.importorskip("pybtex.plugin")


def test_the_book_loads_its_local_extensions():
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    local = config["sphinx"]["local_extensions"]
    assert local == {"dpcompendium_docstrings": "book/_ext", "dpcompendium_pybtex": "book/_ext"}
    for name, folder in local.items():
        assert (ROOT / folder / f"{name}.py").is_file()


def test_pybtex_lookup_is_cached_and_gives_the_same_plugins(monkeypatch):
    """After install(), find_plugin returns the classes the uncached lookup returns, scans the installed
    distributions once per (group, name), and a plugin registered at run time still comes first."""
    original = pybtex_plugin.entry_points
    monkeypatch.setattr(pybtex_plugin, "entry_points", original)
    monkeypatch.setattr(pybtex_plugin, "_RUNTIME_PLUGINS", {})
    wanted = [
        ("pybtex.backends", "plaintext"),
        ("pybtex.backends", "html"),
        ("pybtex.style.formatting", "plain"),
        ("pybtex.style.labels", "alpha"),
    ]
    before = [pybtex_plugin.find_plugin(g, n) for g, n in wanted]

    scans: list[tuple] = []

    def counting(**selection):
        scans.append(tuple(sorted(selection.items())))
        return original(**selection)

    monkeypatch.setattr(pybtex_plugin, "entry_points", counting)
    assert dpcompendium_pybtex.install()
    assert dpcompendium_pybtex.install()  # a second install does not wrap twice
    after = [pybtex_plugin.find_plugin(g, n) for g, n in wanted for _ in range(3)]
    assert after == [cls for cls in before for _ in range(3)]
    assert len(scans) == len(set(scans)) == len(wanted)  # one scan per (group, name)

    class Mine(before[0]):
        pass

    pybtex_plugin.register_plugin("pybtex.backends", "plaintext", Mine, force=True)
    assert pybtex_plugin.find_plugin("pybtex.backends", "plaintext") is Mine
    assert len(scans) == len(wanted)
