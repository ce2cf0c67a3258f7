"""Long inline maths is cut where TeX breaks a line (``dpcompendium.book.mathbreak``, issue 49: formulas ran past a
phone's column and were clipped)."""

from __future__ import annotations

import re

import pytest

from dpcompendium.book.mathbreak import MIN_LENGTH, split_inline_tex


def _joined(pieces: list[str]) -> str:
    return re.sub(r"\s+", "", "".join(p.removesuffix("{}") for p in pieces))


@pytest.mark.parametrize(
    ("tex", "pieces"),
    [
        (
            r"\ln f_D(y)/f_{D'}(y) = (|ny-s'| - |ny-s|)/\beta + \ln Z(s')/Z(s)",
            [r"\ln f_D(y)/f_{D'}(y) =", r"(|ny-s'| - |ny-s|)/\beta +{}", r"\ln Z(s')/Z(s)"],
        ),
        (
            r"\Pr[M(D)\in E] \le e^{\varepsilon}\Pr[M(D^-)\in E] \le e^{2\varepsilon}\Pr[M(D')\in E]",
            [
                r"\Pr[M(D)\in E] \le",
                r"e^{\varepsilon}\Pr[M(D^-)\in E] \le",
                r"e^{2\varepsilon}\Pr[M(D')\in E]",
            ],
        ),
        # a lone \| (a divergence's separator) is a symbol, not an open norm
        (
            r"D_\alpha(P\|Q) = \frac{1}{\alpha-1}\ln \mathbb{E}_{Y\sim Q}[(p(Y)/q(Y))^\alpha] = 0.5 + x",
            [
                r"D_\alpha(P\|Q) =",
                r"\frac{1}{\alpha-1}\ln \mathbb{E}_{Y\sim Q}[(p(Y)/q(Y))^\alpha] =",
                r"0.5 + x",
            ],
        ),
        # norms are operands: nothing is cut inside them
        (
            r"\|(A'-A)X\|_F = \|(yy^\top - xx^\top)X\|_F/n \le 2/n",
            [r"\|(A'-A)X\|_F =", r"\|(yy^\top - xx^\top)X\|_F/n \le 2/n"],
        ),
    ],
)
def test_cut_after_top_level_relations(tex, pieces):
    assert split_inline_tex(tex) == pieces
    assert _joined(pieces) == _joined([tex])


@pytest.mark.parametrize(
    "tex",
    [
        r"x = 1",  # short
        r"\begin{aligned} a &= b \\ c &= d \end{aligned} + 1 + 2 + 3",  # an environment
        r"{\displaystyle \sum_i x_i} = \frac{1}{n} + 1 + 2 + 3 + 4",  # a style switch
        r"\left(\sum_i (x_i-m) + \mathrm{Lap}(\Delta/\varepsilon)\right)/n",  # nothing at the top level
    ],
)
def test_left_whole(tex):
    assert split_inline_tex(tex) == [tex.strip()]


def test_binary_operators_only_in_long_pieces_and_never_unary():
    tex = r"-x_{1} + y_{2} = -z_{3} - w_{4} + 1234567890123456789"
    pieces = split_inline_tex(tex)
    assert pieces[0] == r"-x_{1} + y_{2} ="  # shorter than MIN_LENGTH: not cut at its +
    assert len(pieces[0]) < MIN_LENGTH
    # the unary minus of -z stays with its operand; binary operators end a piece, as TeX breaks after them
    assert pieces[1:] == [r"-z_{3} -{}", r"w_{4} +{}", "1234567890123456789"]
    assert _joined(pieces) == _joined([tex])
    # every piece balanced
    for p in pieces:
        assert p.count("{") == p.count("}") and p.count("(") == p.count(")")


def test_a_formula_written_over_two_lines_and_cut_inside_brackets_as_tex_does():
    """A formula may hold a line break (a paragraph's source lines): every character counts, so no command is
    cut; a piece still twice MIN_LENGTH long is cut inside brackets too, where TeX itself breaks."""
    tex = (
        "\\Pr\\big[u(x, M(x)) \\le \\max_r u(x, r) - \\frac{2 \\Delta u}{\\varepsilon} "
        "(\\ln \\lvert \\mathcal{R} \\rvert + t)\\big]\n\\le e^{-t}"
    )
    pieces = split_inline_tex(tex)
    assert len(pieces) > 2
    assert all(re.search(r"\\l$", p) is None for p in pieces)  # no \le cut in two
    assert pieces[-1].endswith("\\le e^{-t}") or pieces[-1] == "e^{-t}"
    assert _joined(pieces) == _joined([tex])
