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
    # the book's own list of extensions replaces Jupyter Book's (local_extensions only puts the folder on the path):
    # each local extension must be in it to be loaded
    listed = config["sphinx"]["config"]["extensions"]
    for name, folder in local.items():
        assert (ROOT / folder / f"{name}.py").is_file()
        assert name in listed, f"{name} is not in sphinx.config.extensions: it is never loaded"


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


def test_docstring_citations_become_cite_roles():
    """A bracket of bibliography keys in a docstring is a :cite:p: role (other text of the bracket follows in
    parentheses); brackets without a key (intervals, indexing) stay as written."""
    import dpcompendium_docstrings as ds

    keys = frozenset({"src_hiera", "becker1996adult"})
    assert ds.cite_keys("HierA [src_hiera].", keys) == "HierA :cite:p:`src_hiera`."
    assert (
        ds.cite_keys("[src_hiera, becker1996adult]", keys) == ":cite:p:`src_hiera,becker1996adult`"
    )
    assert (
        ds.cite_keys("[src_hiera, ``user.per_value``]", keys)
        == ":cite:p:`src_hiera` (``user.per_value``)"
    )
    for plain in ("on [-1, 1]", "x[i] and [a, b]", "[unknown_key]"):
        assert ds.cite_keys(plain, keys) == plain
    # the role survives the escaping of plain-text bars
    assert ds.escape_bars(ds.cite_keys("|x| [src_hiera]", keys)) == r"\|x\| :cite:p:`src_hiera`"
    # every key the library's docstrings cite this way is in the bibliography
    bib = (ROOT / "book" / "references.bib").read_text(encoding="utf8")
    all_keys = frozenset(ds._KEY.findall(bib))
    for key in ("src_hiera", "src_dpmean", "src_fedpca", "src_histograms", "book_rocklin2015dask"):
        assert key in all_keys


def test_glossary_rows_and_terms():
    """Every body row of the glossary's tables has a unique anchor; the linked terms are words of 8 letters or
    more, each pointing at an existing row."""
    from dpcompendium.book.sphinxext import glossary_rows, glossary_terms

    text = (ROOT / "book" / "glossary.md").read_text(encoding="utf8")
    rows = glossary_rows(text)
    body = [
        line
        for line in text.splitlines()
        if line.startswith("|") and not set(line) <= set("|-: ") and "| English |" not in line
    ]
    assert len(rows) == len(body) > 50
    anchors = [a for a, _ in rows]
    assert len(set(anchors)) == len(anchors)
    terms = glossary_terms(text)
    assert {"sensitivity", "exponential mechanism", "laplace mechanism"} <= set(terms)
    assert all(len(t) >= 8 and a in anchors for t, a in terms.items())
    assert terms["laplace noise"] == terms["laplace mechanism"]  # one row, two names
