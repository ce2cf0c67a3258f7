"""The audit catalogue's notes read as maths where they are maths (native review 8, M1).

A note is a plain sentence that :func:`dpcompendium.core.messages.to_myst` turns into MyST for the catalogue's table
(the Chinese one first goes through its figure template). Norm bars written in ASCII (``||A(D')-A(D)||``) became
``\\|\\|`` text and a stray ``\\vert \\vert`` inside the maths, and "tau_0 for sqrt(2)/N_0" set the word "for" as
``\\mathrm{for}`` inside a formula; "235 x Delta = sqrt(2)/n" read as if 235Δ were √2/n.
"""

from __future__ import annotations

import re

import pytest

from dpcompendium.core.figure_messages import FIGURE_MESSAGES
from dpcompendium.core.messages import to_myst

#: what the broken renderings looked like: norm bars as text or as two \vert, an English word set as maths, "x" for ×
BROKEN = re.compile(r"\\vert \\vert|\\\|\\\||\\mathrm\{(?:for|where|is)\}| x \\Delta")
OLD_NOTES = [
    "raw rows, replace-one, n = 1002: measured ||A(D')-A(D)|| = 0.3314 = 235 x Delta = sqrt(2)/n; "
    "statistic <triu(A+E), w>",
    "raw rows, public preprocessing, X0 public (seeded); measured ||(A'-A) X0||_F = 0.001 <= sqrt(2)/n = 0.0014; "
    "statistic <A X0 + G, W>",
    "site 0 (N_0 = 251, tau_0 for sqrt(2)/N_0), public preprocessing; statistic <triu(A_0+E_0), w>",
]


@pytest.mark.parametrize("note", OLD_NOTES)
def test_the_check_finds_the_old_renderings(note):
    assert BROKEN.search(to_myst(note)), to_myst(note)


def _filled(template: str) -> str:
    return re.sub(r"%\((\w+)\)s", "235", template).replace("%%", "%")


def test_no_figure_or_note_template_renders_broken_maths():
    bad = [
        (mid, to_myst(_filled(t)))
        for mid, en, zh in FIGURE_MESSAGES
        for t in (en, zh)
        if BROKEN.search(to_myst(_filled(t)))
    ]
    assert not bad, bad


def test_the_measured_norm_note_reads_235_delta_where_delta_is_sqrt2_over_n():
    (en,) = [en for _, en, _ in FIGURE_MESSAGES if "the measured norm of A(D')" in en]
    md = to_myst(en % {"n": "1002", "m": "0.3314", "r": "235"})
    assert r"is $0.3314 = 235\Delta$, where $\Delta = \sqrt{2}/n$" in md, md
