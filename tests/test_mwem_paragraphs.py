"""mwem's glued paragraphs stay within the house limit of 600 visible characters, and its counts are grouped as
each edition writes them (session 21: the 3-D witness, AIM's lead on DPBench and the rankings' overview were
742, 608 and 643 characters; native review 8, U2: "2,464 和 110,600" in the Chinese prose)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from dpcompendium import PrivacyClaim
from dpcompendium.core import comparison, messages
from dpcompendium.core.comparison import Arm, Comparison, holm
from dpcompendium.core.messages import Md, and_list, capitalized, grouped, message

MAX_PARAGRAPH = 600
CLAIM = PrivacyClaim("m", "replace-one", "1", 1.0)
LANGS = list(messages.CATALOGUE)


def _visible(text: str) -> str:
    """A MyST text as a reader counts it: maths delimiters and commands, and role markup, dropped."""
    return re.sub(r"\\[a-zA-Z]+|[$]", "", text)


@pytest.mark.parametrize("lang", LANGS)
def test_the_3d_witness_is_three_paragraphs_each_within_the_limit(lang):
    spent = Md("(1.5 + 5e-6)-DP", "$(1.5 + 5 \\cdot 10^{-6})$-DP")
    loss = Md("(1.5 - 5e-6)", "$(1.5 - 5 \\cdot 10^{-6})$")
    parts = [
        "In 3-D the coursework's accounting: "
        + message("mwem.cw3_witness", spent=spent, T="200").in_language(lang),
        message("mwem.cw3_witness_event", loss=loss, eps="1").in_language(lang),
        message("mwem.cw3_witness_transcript", T="200").in_language(lang),
    ]
    for p in parts:
        assert len(_visible(p)) + 1 <= MAX_PARAGRAPH, (len(_visible(p)), p)
    # nothing was lost in the split: the witness's numbers and both T's
    text = " ".join(parts)
    assert text.count("200") == 2 and "10^{-5}" in text and "T = 1" in text


def _family(b, means_b, seed):
    rng = np.random.default_rng(seed)
    return holm(
        [
            Comparison(
                "MSE",
                Arm.of("AIM", CLAIM, rng.exponential(1.0, 30)),
                Arm.of(b, CLAIM, rng.exponential(mb, 30)),
                "tie",
                1.0,
                setting=f"ε = {e}",
            ).result()
            for e, mb in zip((0.1, 1, 5, 10), means_b, strict=True)
        ]
    )


def test_one_against_leads_split_the_lead_in_two_sentences_that_keep_every_clause():
    names = [
        "zCDP MWEM (Gaussian), last iterate, T = 10",
        "Gaussian Identity",
        "MST",
        "Gaussian Identity, non-negative fit",
        "MST, no compression",
        "Independence, one-way marginals",
    ]
    fams = [
        _family(b, [m * 0.1, m, m * 3, m * 30], i)
        for i, (b, m) in enumerate(zip(names, (20, 40, 0.4, 10, 2, 1), strict=True))
    ]
    whole = str(comparison.one_against_lead(fams))
    first, more = comparison.one_against_leads(fams, 3)
    assert str(more).startswith("Against Gaussian Identity, non-negative fit")
    assert str(first).startswith(str(comparison.one_against_lead(fams[:3])))
    # the two sentences say what the one said: its clauses, in order
    assert str(first) + "; " + str(more)[0].lower() + str(more)[1:] == whole
    for p in (first, more):
        for lang in LANGS:
            assert len(_visible(p.in_language(lang))) < len(_visible(whole))
    assert more.in_language("zh_CN").startswith("对")
    with pytest.raises(ValueError):
        comparison.one_against_leads(fams, 0)


def test_capitalized_starts_a_sentence_in_each_language():
    m = capitalized(message("comparison.against_clause", b="MST", verdicts="lower in 2"))
    assert str(m).startswith("Against MST") and m.myst.startswith("Against MST")
    assert m.in_language("zh_CN").startswith("对")


def test_counts_are_grouped_with_a_narrow_space_in_chinese():
    g = grouped(110600.0)
    assert str(g) == "110,600" and g.in_language("en") == "110,600"
    assert g.in_language("zh_CN") == "110\u202f600"
    text = message(
        "mwem.redraw",
        runs=and_list(
            message("mwem.redraw_per_run", n=n, d=d) for n, d in (("41", "1"), ("1100", "2"))
        ),
        evals=and_list([grouped(2464), grouped(110600)]),
        full=and_list([grouped(1800), grouped(1230000)]),
    )
    assert "2,464 and 110,600 query evaluations instead of 1,800 and 1,230,000" in str(text)
    zh = text.in_language("zh_CN")
    assert "2\u202f464" in zh and "1\u202f230\u202f000" in zh
    assert not re.search(r"\d,\d{3}", zh), zh
