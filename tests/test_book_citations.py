"""One citation style (issue 49): the works lists are labelled as the text cites, author–year
(book/_ext/dpcompendium_pybtex.py, ``bibtex_default_style`` in ``_config.yml``)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
EXT = ROOT / "book" / "_ext"
BIB = ROOT / "book" / "references.bib"


def _config() -> dict:
    return yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["sphinx"]["config"]


def test_the_book_uses_author_year_in_text_and_in_the_works_lists():
    sys.path.insert(0, str(EXT))
    try:
        import dpcompendium_pybtex
    finally:
        sys.path.remove(str(EXT))
    config = _config()
    assert config["bibtex_reference_style"] == dpcompendium_pybtex.REFERENCE_STYLE
    assert config["bibtex_default_style"] == dpcompendium_pybtex.FORMATTING_STYLE
    assert "dpcompendium_pybtex" in config["extensions"]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> str:
    """A one-page Sphinx project citing every work of references.bib, with its works list, built with the book's
    citation settings; its HTML."""
    from pybtex.database import parse_file

    keys = list(parse_file(str(BIB)).entries)
    src = tmp_path_factory.mktemp("cite")
    config = _config()
    (src / "conf.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(EXT)!r})\n"
        "extensions = ['sphinxcontrib.bibtex', 'dpcompendium_pybtex']\n"
        f"bibtex_bibfiles = [{str(BIB)!r}]\n"
        f"bibtex_reference_style = {config['bibtex_reference_style']!r}\n"
        f"bibtex_default_style = {config['bibtex_default_style']!r}\n",
        encoding="utf-8",
    )
    cites = "\n\n".join(f":cite:p:`{k}`" for k in keys)
    (src / "index.rst").write_text(
        f"Works\n=====\n\n{cites}\n\n.. bibliography::\n", encoding="utf-8"
    )
    out = src / "_html"
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", str(src), str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    return (out / "index.html").read_text(encoding="utf-8")


def _text(fragment: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", fragment)).strip()


def test_each_work_is_labelled_in_the_list_as_the_text_cites_it(built):
    """Every in-text citation's text is the label of the works-list entry it links to; no list entry is numbered."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(built, "html.parser")
    labels = {
        c["id"]: c.select_one("span.label").get_text().strip("[]")
        for c in soup.select("div.citation")
    }
    assert labels, "the works list is on the page"
    assert not [label for label in labels.values() if label.isdigit()], "numbered entries"
    cited = soup.select("span[id^=id] a[href*='#'], a.reference.internal[href^='#']")
    pairs = [
        (a["href"].split("#", 1)[1], a.get_text())
        for a in cited
        if a["href"].split("#", 1)[1] in labels
    ]
    assert len(pairs) >= len(labels)
    wrong = [(text, labels[target]) for target, text in pairs if text != labels[target]]
    assert not wrong, f"in-text citation and works-list label differ: {wrong[:3]}"
    # works sharing an author–year are told apart in both (references.bib has such pairs: Dwork et al., 2006)
    shared = [label for label in labels.values() if re.search(r"\d{4}[a-z]$", label)]
    assert shared and {text for _, text in pairs} >= set(shared)


def _pybtex_hook():
    sys.path.insert(0, str(EXT))
    try:
        import dpcompendium_pybtex
    finally:
        sys.path.remove(str(EXT))
    return dpcompendium_pybtex


#: The five sources, cited by their titles (Chinese, with the English edition's back-translation).
SOURCES = ("src_dpmean", "src_mwem", "src_histograms", "src_fedpca", "src_hiera")


def test_the_chinese_edition_cites_a_chinese_work_by_its_chinese_fields():
    """Native review 4, E1: the Chinese edition showed a Chinese source's English back-translation and "n.d." (about
    35 places); it cites the Chinese title in 《》, with the year or 无日期, and the works list shows the Chinese
    fields (``<name>_zh``). The English edition is unchanged."""
    from pybtex.database import parse_file

    hook = _pybtex_hook()
    entries = parse_file(str(BIB)).entries
    assert (
        hook.chinese_title("基于抽样分组的方法 (A method based on sampling)")
        == "基于抽样分组的方法"
    )
    assert (
        hook.chinese_title("The Use of Limits (in the Binomial)")
        == "The Use of Limits (in the Binomial)"
    )
    label = {}
    for lang in ("en", "zh_CN"):
        hook.LANGUAGE["value"] = lang
        try:
            label[lang] = {
                k: hook.author_year_label(entries[k]) for k in (*SOURCES, "clopper1934use")
            }
            edition = {k: hook.edition_entry(entries[k]) for k in SOURCES}
        finally:
            hook.LANGUAGE["value"] = "en"
        if lang == "en":
            assert label["en"]["src_histograms"].endswith(
                "(Differentially private histogram publication method "
                "and device based on sampling grouping), 2023"
            )
            assert label["en"]["src_mwem"].endswith(", n.d.")
            assert all(edition[k] is entries[k] for k in SOURCES)
    zh = label["zh_CN"]
    assert zh["src_histograms"] == "《基于抽样分组的差分隐私直方图发布方法及设备》, 2023"
    assert zh["src_mwem"] == "《差分隐私数据合成基础实验》, 无日期"
    assert zh["clopper1934use"] == label["en"]["clopper1934use"]
    for key in SOURCES:
        assert not re.search(
            r"[A-Za-z]{4,}|n\.d\.", zh[key].replace("HierA", "").replace("PCA", "")
        ), zh[key]
        fields = hook.edition_entry(entries[key], "zh_CN").fields
        assert not re.search(r"[a-z]{4,}", fields["howpublished"]), fields["howpublished"]
        assert not any(k.lower().endswith("_zh") for k in fields)
