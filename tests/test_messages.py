"""The book's voice (issue 33): the message catalogue, ASCII maths typeset, claims rendered as MyST, tables."""

from __future__ import annotations

import math
import re

import pandas as pd
import pytest

import dpcompendium.chapters  # noqa: F401  (registers the chapters' methods: dpcompendium.core.methods)
from dpcompendium.book import prose
from dpcompendium.chapters import dp_mean, federated_pca, hiera, histograms, mwem
from dpcompendium.core import messages
from dpcompendium.core.messages import CATALOGUE, PLAIN, Md, message, method_name, to_myst
from dpcompendium.core.privacy import PrivacyClaim, show_claims
from dpcompendium.core.tables import format_number, interval, readable

#: ASCII maths a reader must not see in typeset text (outside the $…$ of inline maths).
ASCII_MATHS = re.compile(r"\beps(?:_\w+)?\b|>=|<=|\bLap\(|\bsqrt\(|\d\s*\*\s*\d|\^\(|\^\{|_\{")
#: Markup that must not reach the page as text.
RAW_MARKUP = re.compile(r"\*\*|`")


def outside_maths(md: str) -> str:
    """The text of MyST ``md`` outside its inline maths, escapes removed."""
    text = re.sub(r"(?<!\\)\$.+?(?<!\\)\$", " ", md)
    return re.sub(r"\\(.)", r"\1", text)


def balanced(md: str) -> bool:
    """Every inline maths of ``md`` is closed and its braces balance."""
    parts = re.split(r"(?<!\\)\$", md)
    if len(parts) % 2 == 0:
        return False
    for tex in parts[1::2]:
        depth = 0
        for c in re.sub(r"\\[{}]", "", tex):
            depth += (c == "{") - (c == "}")
            if depth < 0:
                return False
        if depth:
            return False
    return True


# ------------------------------------------------------------------------------------------------ the catalogue
def test_every_language_table_has_the_english_ids_and_the_same_placeholders():
    en = CATALOGUE["en"]
    assert set(PLAIN) == set(en), "every message has a plain-text and a MyST template"
    for lang, table in CATALOGUE.items():
        assert set(table) <= set(en), f"{lang}: ids not in English: {sorted(set(table) - set(en))}"
        for msgid, template in table.items():
            names = set(re.findall(r"%\((\w+)\)", template))
            assert names == set(re.findall(r"%\((\w+)\)", en[msgid])), (lang, msgid)
            assert names == set(re.findall(r"%\((\w+)\)", PLAIN[msgid])), (lang, msgid)


def test_a_second_language_is_a_second_table(monkeypatch):
    monkeypatch.setitem(CATALOGUE, "xx", {"prose.count": "%(k)s / %(n)s"})
    try:
        messages.set_language("xx")
        m = message("prose.count", k="3", n="5")
        assert str(m) == "3 of 5" and m.myst == "3 / 5"  # plain text (CSVs) stays English
        assert message("prose.na").myst == "n/a"  # a missing id falls back to English
    finally:
        messages.set_language("en")
    with pytest.raises(ValueError, match="lang"):
        messages.set_language("zz")


def test_po_export_names_every_message_with_python_format():
    po = messages.to_po("en")
    assert po.count("#, python-format") == len(CATALOGUE["en"])
    assert 'msgctxt "claim.statement"' in po


def test_md_keeps_both_renderings_through_copies_and_concatenation():
    import copy
    import pickle

    m = Md("ε = 1", r"$\varepsilon = 1$")
    for other in (copy.deepcopy(m), pickle.loads(pickle.dumps(m)), copy.copy(m)):
        assert other == "ε = 1" and other.myst == m.myst
    joined = "at " + m + "."
    assert str(joined) == "at ε = 1." and joined.myst == r"at $\varepsilon = 1$."
    assert m._repr_markdown_() == m.myst


# ------------------------------------------------------------------------------------- ASCII maths → MyST maths
@pytest.mark.parametrize(
    ("plain", "myst"),
    [
        ("Lap(2*60/eps)", r"$\mathrm{Lap}(2 \cdot 60/\varepsilon)$"),
        (
            "guarantees only eps_eff = 2.167 > eps = 1",
            r"guarantees only $\varepsilon_{\mathrm{eff}} = 2.167 > \varepsilon = 1$",
        ),
        ("n >= 1 public (replace-one)", r"$n \geq 1$ public (replace-one)"),
        ("density ratio 2 e^(eps/2)", r"density ratio $2 e^{\varepsilon/2}$"),
        (
            "sqrt(2)/N_i per site (1/N_i add-remove)",
            r"$\sqrt{2}/N_i$ per site ($1/N_i$ add-remove)",
        ),
        ("285 at ε = 1, 207 at ε = 10", r"285 at $\varepsilon = 1$, 207 at $\varepsilon = 10$"),
        ("ε ∈ [0.5, 2]", r"$\varepsilon \in [0.5, 2]$"),
        ("h_i and m_j", "$h_i$ and $m_j$"),
        ("a nominal ε₁ = 0.4", r"a nominal $\varepsilon_1 = 0.4$"),
        ("at the **edge of the grid**", "at the *edge of the grid*"),
        ("the `coursework` variant", "the Coursework MWEM variant"),
        ("sampling_grouping wins", r"sampling\_grouping wins"),
        ("P-HP loses on 3 of 5", "P-HP loses on 3 of 5"),
        # e-notation is printed as powers of ten (reader B5), in a guarantee and standing alone
        (
            "the joint view is only (1.081, 1e-06)-DP",
            r"the joint view is only $(1.081, 10^{-6})$-DP",
        ),
        ("from 3.1e-07 to 5.6e-05", r"from $3.1 \times 10^{-7}$ to $5.6 \times 10^{-5}$"),
        ("δ = 1e-06", r"$\delta = 10^{-6}$"),
        ("a 2.5e+07 count, version 1.2e3x", r"a $2.5 \times 10^{7}$ count, version 1.2e3x"),
    ],
)
def test_to_myst_typesets_the_formulas_of_a_sentence(plain, myst):
    assert to_myst(plain) == myst


def _claims() -> list[PrivacyClaim]:
    """The claims the chapters state, at the book's ε and at a small and a large one."""
    out: list[PrivacyClaim] = []
    for eps in (0.3, 1.0, 5.0):
        for m in dp_mean.METHODS:
            for v in dp_mean.VARIANTS if m != "clamped" else ("as-written",):
                for nb in ("replace-one", "add-remove"):
                    out.append(dp_mean.privacy_claim(m, eps, (0.0, 60.0), v, nb))
                    out.append(dp_mean.effective_claim(m, eps, (0.0, 60.0), v, nb))
        out.append(histograms.privacy_claim("sampling_grouping", eps, "private"))
        out.append(histograms.privacy_claim("sampling_grouping", eps, "as-written"))
        out.append(histograms.privacy_claim("php", eps))
        for v in ("coursework", "standard"):
            for d in (1, 2):
                out.append(mwem.privacy_claim(eps, 30, v, d))
        for m in ("duchi", "harmony", "pm", "graded-laplace", "hiera"):
            out.append(hiera.privacy_claim(m, eps))
        for m in ("central", "dpdispca", "shared-seed", "secure-aggregation"):
            out.append(federated_pca.privacy_claim(m, eps, 1e-5, 1000))
    return out


def test_every_chapter_claim_reads_as_mathematics():
    claims = _claims()
    assert len(claims) > 50
    for c in claims:
        plain = c.statement()
        md = c.statement(fmt="myst")
        assert md == c.statement_md() == plain.myst
        assert balanced(md), md
        text = outside_maths(md)
        assert not ASCII_MATHS.search(text), f"ASCII maths left in {md!r}"
        assert not RAW_MARKUP.search(text), f"raw markup in {md!r}"
        assert "$" in md  # the guarantee at least is typeset


def test_plain_statement_is_unchanged_for_the_csvs():
    c = PrivacyClaim("laplace", "add-remove", "1", 0.5, 1e-5, conditions=("n >= 1 public",))
    assert c.statement() == (
        "laplace: (0.5, 1e-05)-DP under add-remove neighbours (sensitivity 1), given: n >= 1 public"
    )
    assert c.statement_md() == (
        r"laplace: $(0.5, 10^{-5})$-DP under add-remove neighbours (sensitivity 1), given: $n \geq 1$ public"
    )
    bad = c.failing("eps_eff = 2 > eps = 1")
    assert bad.statement() == "laplace: not (0.5, 1e-05)-DP as claimed — eps_eff = 2 > eps = 1"
    assert bad.statement_md().startswith(
        r"laplace: *not* $(0.5, 10^{-5})$-DP as claimed — $\varepsilon"
    )
    assert c.guarantee == "(0.5, 1e-05)-DP" and c.as_dict()["statement"] == c.statement()
    with pytest.raises(ValueError, match="fmt"):
        c.statement(fmt="html")  # type: ignore[arg-type]


def test_claims_table_typesets_its_cells():
    html = show_claims({"a": _claims()[4]})._repr_html_()
    assert 'class="math notranslate nohighlight"' in html and not re.search(r"\beps\b", html)


# --------------------------------------------------------------------------------------------------- prose
def test_prose_helpers_keep_their_plain_text_and_typeset_their_myst():
    p = prose.pairs({1.0: 285.0, 10.0: 207.0})
    assert p == "285 at ε = 1, 207 at ε = 10"
    assert p.myst == r"285 at $\varepsilon = 1$, 207 at $\varepsilon = 10$"
    assert prose.num(2.5e7) == "2.5e+07" and prose.num(2.5e7).myst == r"$2.5 \times 10^{7}$"
    assert prose.num(1.5e-7) == "1.5e-07"  # small numbers keep their digits
    note = prose.guarded(False, "it holds", "it fails at eps = 2.")
    assert note.myst.endswith(r"fails at $\varepsilon = 2$ (unlike the book's default run)")
    assert str(note) == "At these parameters: it fails at eps = 2 (unlike the book's default run)"
    assert prose.markdown("eps = 1").myst == r"$\varepsilon = 1$"
    assert prose.markdown(3) == "3" and prose.markdown(0.5).myst == "0.5"


# --------------------------------------------------------------------------------------------------- tables
def test_one_human_name_per_method():
    assert method_name("php") == "P-HP"
    assert method_name("sampling_grouping") == "Sampling grouping (patent)"
    assert method_name("as-written:sum") == "sum, as written"
    assert method_name("unknown_thing") == r"unknown\_thing"


@pytest.mark.parametrize(
    ("x", "text"),
    [
        (170.912477, "171"),
        (140.0, "140"),
        (6150000.0, "6\u202f150\u202f000"),
        (0.693147, "0.693"),
        (-3.2, "−3.2"),
    ],
)
def test_numbers_in_tables_have_three_significant_figures(x, text):
    assert format_number(x) == text


def test_interval_reads_as_estimate_and_range():
    assert interval(2190.4, 1790.2, 2660.0) == "2\u202f190 (1\u202f790–2\u202f660)"
    assert interval(1.0, math.nan, 2.0) == "1"


def test_readable_table_has_no_default_index_and_typeset_headers():
    df = pd.DataFrame(
        {
            "method": ["sampling_grouping", "php"],
            "mse": [2190.4, 170.912477],
            "mse_lo": [1790.2, 150.0],
            "mse_hi": [2660.0, 190.0],
            "note": ["Lap(2*60/eps)", "2.19e+03 [1.79e+03, 2.66e+03]"],
        }
    )
    html = readable(df)._repr_html_()
    assert "<th>MSE</th>" in html and "mse_lo" not in html
    assert "2\u202f190 (1\u202f790–2\u202f660)" in html and "Sampling grouping (patent)" in html
    assert ">0<" not in html and "$" not in html and not re.search(r"\beps\b", html)
    wide = pd.DataFrame(
        [[1.0, 2.0, 3.0]], columns=[math.log(2), 1.0, 1.5], index=pd.Index(["php"], name="method")
    )
    html = readable(wide)._repr_html_()
    assert "0.693147" not in html and "<th>0.693</th>" in html and "<td>P-HP</td>" in html


def test_a_possessive_s_is_text_not_maths():
    """ "the patent's ε ∈ {…}" once became "the patent'$s \\varepsilon \\in …$" on the histograms page."""
    assert (
        to_myst("the patent's ε ∈ {ln 2, 1}") == "the patent's $\\varepsilon \\in \\{\\ln 2, 1\\}$"
    )
    assert to_myst("P-HP's error at eps = 1") == "P-HP's error at $\\varepsilon = 1$"
    assert to_myst("x' = x + 1") == "$x' = x + 1$"


def test_a_generated_table_is_cards_on_a_phone_only_when_asked():
    """Reader review 6: a generated table may ask to be cards on a phone (the class dpcompendium.css lays out as
    cards below 700 px, as a page's prose tables); by default it stays a table, in every language."""
    head, rows = ["data", "verdict"], [["Adult", "lower"]]
    plain_table, cards = (
        messages.table(head, rows, "A caption"),
        messages.table(head, rows, "A caption", cards=True),
    )
    for lang in [None, *CATALOGUE]:
        a, b = (t.myst if lang is None else t.in_language(lang) for t in (plain_table, cards))
        assert ":class: dpc-generated-table" in a.splitlines() and "dpc-cards" not in a
        assert ":class: dpc-generated-table dpc-cards" in b.splitlines()
    assert str(plain_table) == str(cards)  # the plain text (CSVs) is the same
