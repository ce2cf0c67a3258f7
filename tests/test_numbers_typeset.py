"""How numbers reach the page (referee 16, l1; reader review 5, m7).

- **A near-round ε is never a decimal on the page.** A claim's ε, a composition total or a privacy loss that four
  digits would round to a round number it is not ("1.000005", "1.499995") is typeset as that number plus or minus the
  difference, "(1 + 5·10⁻⁶)" (:func:`dpcompendium.core.privacy.epsilon_md`), in sentences (a claim's statement, its
  ``why``) and in table cells, in both languages; its plain text (CSVs, ``{glue:text}``) keeps the digits.
- **A negative number has a true minus.** A number that reached a plain string through an f-string lost the MyST of
  :func:`dpcompendium.book.prose.num` ("mean difference -0.00084"); :func:`dpcompendium.core.messages.to_myst`, which
  typesets every glued plain string and every table cell, sets the sign of a number outside maths as "−", and leaves
  hyphens ("2-D", "2026-11-30", "-p") alone.

The unit tests render the sentences and cells; the book test reads every built chapter page of both editions.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from dpcompendium.book import prose
from dpcompendium.book.generated_i18n import translate
from dpcompendium.chapters import mwem
from dpcompendium.chapters.registry import chapter_ids
from dpcompendium.core.messages import message, myst, myst_to_html, to_myst
from dpcompendium.core.privacy import epsilon_md, show_claims
from dpcompendium.core.tables import readable

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"

_DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?![\w.])")
#: a hyphen-minus as a number's sign, outside maths (text only: maths and code are removed before)
_HYPHEN_SIGN = re.compile(r"(?<![\w.)\]}$−-])-(?=\.?\d)")


def near_round_decimals(text: str) -> list[str]:
    """The decimals of ``text`` with five or more significant digits that four digits round to a number of at most
    two significant digits that they are not ("1.000005", "0.500005", "1.499995"; not "0.00001", "2.167", "1.25")."""
    found = []
    for m in _DECIMAL.finditer(text):
        token = m.group(0)
        if len(token.replace(".", "").lstrip("0")) < 5:
            continue
        x, short = float(token), f"{float(token):.4g}"
        if (
            len(short.split("e")[0].replace(".", "").lstrip("0")) <= 2
            and abs(float(short) - x) > 1e-9 * x
        ):
            found.append(token)
    return found


def test_the_detector_finds_near_round_decimals_only():
    assert near_round_decimals("gives 1.000005, 0.500005-DP, loss 1.499995 > 1") == [
        "1.000005",
        "0.500005",
        "1.499995",
    ]
    assert near_round_decimals("2.167, 1.25, 0.00001, 13.49, 1.48988, 2026-11-30, v1.000005a") == []


#: the coursework claims whose reason holds a near-round total or loss: (ε, T, ndim, domain)
NEAR_ROUND_CLAIMS = [
    (1, 30, 2, "public"),  # basic composition gives 1 + 5·10⁻⁶
    (1, 30, 3, "public"),  # 1.5 + 5·10⁻⁶, and a witness's loss 1.5 − 5·10⁻⁶ on the transcript
    (1, 1, 3, "public"),  # refuted: loss 1.5 − 5·10⁻⁶ > ε on the released histogram
    (1, 30, 1, "data"),  # the source's ε against the book's (0.5 + 5·10⁻⁶)-DP bound
    (1, 30, 2, "data"),
]


@pytest.mark.parametrize(("eps", "T", "ndim", "domain"), NEAR_ROUND_CLAIMS)
def test_a_claims_reason_typesets_a_near_round_epsilon_in_both_languages(eps, T, ndim, domain):
    statement = mwem.privacy_claim(eps, T, "coursework", ndim, domain=domain).statement()
    assert near_round_decimals(str(statement)), "the plain text (CSVs) keeps the digits"
    for lang in ("en", "zh_CN"):
        page = translate(statement.in_language(lang), lang)
        assert not near_round_decimals(page), (lang, page)
        assert r"5 \cdot 10^{-6})" in page


def test_a_claims_table_typesets_a_near_round_epsilon():
    claims = pd.DataFrame(
        [
            mwem.table_claim(mwem.privacy_claim(eps, T, "coursework", d, domain=domain)).as_dict()
            for eps, T, d, domain in NEAR_ROUND_CLAIMS
        ]
    )
    html = show_claims(claims)._repr_html_()
    assert not near_round_decimals(re.sub(r"<[^>]+>", " ", html)), html


def test_a_table_cell_typesets_a_near_round_epsilon():
    # mwem's budget table (Table 3.3): the composition total beside "not shown (the total is an upper bound)"
    total = 1 + 5e-6
    df = pd.DataFrame(
        {
            "variant": ["coursework"],
            "total_epsilon": [epsilon_md(total)],
            "private": [message("mwem.private_not_shown")],
        }
    )
    for lang in ("en", "zh_CN"):
        html = readable(df, lang=lang)._repr_html_()
        assert not near_round_decimals(re.sub(r"<[^>]+>", " ", html)), html
        assert r"5 \cdot 10^{-6})" in html
    assert str(epsilon_md(total)) == "1.000005" and str(epsilon_md(2.0)) == "2"


# ---- the true minus


def test_a_number_through_an_f_string_gets_a_true_minus():
    # federated-pca's check (reader review 5, m7): "mean difference -0.00084" three times
    text = f"mean difference {prose.num(-0.00084, 2)}, z = {prose.num(-0.68, 2)}"
    for md in (prose.markdown(text), prose.guarded(True, f"in this run it is ({text})", "")):
        assert "−0.00084" in md.myst and "-0.00084" not in md.myst, md.myst
        assert "-0.00084" in str(md), "the plain text keeps the hyphen-minus"
    # mwem's misses ("the mse at ε = 1, -23%"), the audit notes' "(-1,-1,-1)", a table cell, a number parameter
    assert to_myst("the mse, -23%; inputs (-1,-1,-1) vs (1,1,1)") == (
        "the mse, −23%; inputs (−1,−1,−1) vs (1,1,1)"
    )
    assert "−0.027" in myst_to_html(to_myst("differs by -0.027 (standard error 0.01)"))
    assert myst(-0.5) == "−0.5"
    assert to_myst("1e-05 and -2e-05") == r"$10^{-5}$ and $-2 \times 10^{-5}$"


@pytest.mark.parametrize(
    "text",
    [
        "the 2-D grid",
        "seed 2026-11-30",
        "run it with -p reps 2",
        "COVID-19",
        "x - 1",
        "pages 12-15",
    ],
)
def test_a_hyphen_stays_a_hyphen(text):
    assert to_myst(text) == text


def test_a_sign_inside_maths_is_left_to_tex():
    assert to_myst("z = -0.68") == "$z = -0.68$"


# ---- the built book (book stage)


def _pages() -> list[tuple[str, Path]]:
    pages = [("en", HTML / "book" / "primer.html")] + [
        ("en", HTML / "notebooks" / f"{c}.html") for c in chapter_ids()
    ]
    if (HTML / "zh_CN" / "notebooks").is_dir():
        pages += [("zh_CN", HTML / "zh_CN" / p.relative_to(HTML)) for _, p in list(pages)]
    return pages


def _prose_text(path: Path) -> str:
    """The text of a page a reader reads as prose and tables: code, maths and the rerun box removed."""
    from bs4 import BeautifulSoup

    if not path.is_file():
        pytest.fail(f"{path} is not built (make book)")
    soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    article = soup.select_one("main article") or soup
    for junk in article.select(
        "pre, code, div.cell_input, script, style, span.math, div.math, a.headerlink"
    ):
        junk.decompose()
    return " ".join(article.get_text(" ").split())


@pytest.mark.book
@pytest.mark.parametrize(("lang", "path"), _pages(), ids=lambda v: str(v))
def test_no_page_writes_a_near_round_epsilon_or_a_hyphen_for_a_minus(lang, path):
    text = _prose_text(path)
    assert not near_round_decimals(text), f"{path.name} ({lang}): {near_round_decimals(text)}"
    hyphens = [text[max(0, m.start() - 40) : m.end() + 8] for m in _HYPHEN_SIGN.finditer(text)]
    assert not hyphens, f"{path.name} ({lang}): a hyphen-minus as a sign: {hyphens}"
