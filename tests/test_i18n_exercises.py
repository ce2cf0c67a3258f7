"""Exercise titles are messages of their page (issue 48): the gettext extraction writes an exercise's title to the
page's catalogue, and the translated page shows the translation in the exercise's title and its solution's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

pytest.importorskip("sphinx_exercise")
pytest.importorskip("myst_parser")

ROOT = Path(__file__).resolve().parents[1]

PAGE = """\
# Exercises

Some text.

```{exercise} A constant schedule
:label: ex-constant

What does a constant schedule give?
```

```{solution} ex-constant
It gives the uniform guarantee.
```

```{exercise} Small $n\\varepsilon$
:label: ex-small

Take $n\\varepsilon$ small.
```
"""

CONF = """\
extensions = ["myst_parser", "sphinx_exercise", "dpcompendium.book.i18n"]
myst_enable_extensions = ["dollarmath"]
gettext_compact = False
locale_dirs = ["locales"]
exclude_patterns = ["_build", "locales"]
"""

TRANSLATION = {
    "A constant schedule": "常数预算方案",
    "Small $n\\varepsilon$": "$n\\varepsilon$ 较小",
}


def _build(src: Path, out: Path, builder: str, **overrides) -> None:
    from sphinx.application import Sphinx

    app = Sphinx(
        str(src),
        str(src),
        str(out),
        str(out / ".doctrees"),
        builder,
        confoverrides=overrides,
        status=None,
        warning=None,
        freshenv=True,
    )
    app.build(force_all=True)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(CONF, encoding="utf-8")
    (src / "index.md").write_text(PAGE, encoding="utf-8")
    return src


def test_the_extraction_writes_every_exercise_title(project: Path, tmp_path: Path):
    _build(project, tmp_path / "pot", "gettext")
    with (tmp_path / "pot" / "index.pot").open("rb") as f:
        ids = {m.id for m in read_po(f) if m.id}
    assert set(TRANSLATION) <= ids, sorted(ids)


def test_a_translated_page_shows_the_exercise_titles_translated(project: Path, tmp_path: Path):
    cat = Catalog(locale="zh_CN")
    for en, zh in TRANSLATION.items():
        cat.add(en, zh)
    mo = project / "locales" / "zh_CN" / "LC_MESSAGES" / "index.mo"
    mo.parent.mkdir(parents=True)
    with mo.open("wb") as f:
        write_mo(f, cat)
    _build(project, tmp_path / "html", "html", language="zh_CN")
    html = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", "", html)
    assert "常数预算方案" in text
    assert "A constant schedule" not in text  # neither the exercise's title nor its solution's
    assert "较小" in text and "Small" not in text
    # the solution's title names the exercise with its translated title
    assert len(re.findall("常数预算方案", text)) >= 2, text


def test_the_books_catalogues_translate_every_exercise_title():
    """Each ``{exercise}`` title of a chapter or the primer has a Chinese translation in its page's catalogue."""
    import json

    sources = [*sorted((ROOT / "notebooks").glob("*.ipynb")), ROOT / "book" / "primer.ipynb"]
    title = re.compile(r"^(?:```+|:::+)\{exercise(?:-start)?\}[ \t]+(.+?)\s*$", re.M)
    missing, found = [], 0
    for path in sources:
        nb = json.loads(path.read_text(encoding="utf-8"))
        text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
        rel = path.relative_to(ROOT).with_suffix(".po")
        po = ROOT / "locales" / "zh_CN" / "LC_MESSAGES" / rel
        with po.open("rb") as f:
            catalogue = {m.id: m.string for m in read_po(f) if m.id}
        for t in title.findall(text):
            found += 1
            zh = catalogue.get(t)
            if not zh or not re.search(r"[\u4e00-\u9fff]", zh):
                missing.append(f"{rel}: {t}")
    assert found >= 30, found
    assert not missing, "\n".join(missing)
