"""Line breaks in long inline maths, as TeX makes them (issue 49, a reader on a phone).

MathJax 3 does not break inline maths: a formula such as
``\\ln f_D(y)/f_{D'}(y) = (|ny - s'| - |ny - s|)/\\beta + \\ln Z(s')/Z(s)`` stays one box of about 500 px, and in a
390 px column the box runs past the column's edge, where the theme clips it. TeX breaks a paragraph's inline maths
after a relation or a binary operator at the formula's top level; this post-transform does the same for the HTML
builders: an inline formula longer than :data:`MIN_LENGTH` characters of TeX is cut after each relation (``=``,
``\\le``, ``\\in``, …) and, if a piece is still long, after each binary ``+`` or ``-`` — at the top level, outside
braces, brackets, parentheses, bars and ``\\left … \\right``; a piece still twice as long is cut in the same way
inside brackets and parentheses too, as TeX would (they are not groups in TeX); never inside braces, an environment
or after a style switch — into several inline formulas joined by a space, where the line may break. Each piece is valid TeX; the spacing is TeX's
(a relation's thick space on its left, the space between the pieces on its right). The PDF is printed from the HTML,
so it breaks the same way.

The cutting is a pure function, :func:`split_inline_tex`, tested on its own (``tests/test_mathbreak.py``).
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

#: Inline formulas shorter than this (characters of TeX) are never cut.
MIN_LENGTH = 24
#: Pieces shorter than this are joined to the piece before them (no line of a lone "= 0").
MIN_PIECE = 6

_RELATION_COMMANDS = (
    "le|leq|ge|geq|ne|neq|approx|propto|equiv|in|notin|subseteq|subset|supseteq|to|mapsto|Rightarrow|"
    "Leftrightarrow|iff|coloneqq|sim|simeq|ll|gg|leqslant|geqslant"
)
_TOKEN = re.compile(
    r"\\left\b|\\right\b|\\begin\b|\\(?:" + _RELATION_COMMANDS + r")(?![A-Za-z])|\\[A-Za-z]+|\\.|"
    r":=|[{}()\[\]=<>+\-≤≥≠≈∈|]|.",
    re.DOTALL,  # a formula may hold line breaks: every character is a token, so positions add up
)
_RELATIONS = {"=", "<", ">", ":=", "≤", "≥", "≠", "≈", "∈"}
#: Commands after which a cut would change what follows (a style switch applies to the rest of the formula).
_NO_CUT = re.compile(
    r"\\(?:displaystyle|textstyle|scriptstyle|color|rm|bf|it|cal|tt|sf|over|choose|atop|begin|middle|tag)(?![A-Za-z])"
    r"|&|\\\\"
)


def _scan(
    tex: str, nest_bars: bool, brackets: bool = True
) -> list[tuple[str, int, bool, bool]] | None:
    """``(token, depth, is_relation, is_binary)`` for each token of ``tex``; depth counts braces and
    ``\\left``/``\\right`` pairs (TeX's groups), with ``brackets`` also brackets and parentheses and (``nest_bars``)
    ``|…|`` and ``\\|…\\|``; None if a bar is left open."""
    out = []
    depth = 0
    bars = {"|": False, "\\|": False} if nest_bars and brackets else {}
    opening = ("{", "(", "[", "\\left") if brackets else ("{", "\\left")
    closing = ("}", ")", "]", "\\right") if brackets else ("}", "\\right")
    prev_operand = False
    for m in _TOKEN.finditer(tex):
        t = m.group(0)
        rel = False
        binary = False
        if t in bars:  # an absolute value or a norm: |x - y| is one operand
            bars[t] = not bars[t]
            depth = max(depth + (1 if bars[t] else -1), 0)
        elif t in opening:
            depth += 1
        elif t in closing:
            depth = max(depth - 1, 0)
        elif depth == 0:
            rel = t in _RELATIONS or (
                t.startswith("\\")
                and re.fullmatch(r"\\(?:" + _RELATION_COMMANDS + ")", t) is not None
            )
            binary = t in ("+", "-") and prev_operand
        out.append((t, depth, rel, binary))
        if not t.isspace():
            # an operand ends before a binary operator: not right after an opening, a relation or an operator
            prev_operand = not (rel or t in ("{", "(", "[", "\\left", "+", "-", ",", "^", "_"))
    return None if any(bars.values()) else out


def _tokens(tex: str, brackets: bool = True) -> list[tuple[str, int, bool, bool]]:
    """``_scan`` with bars as brackets, or as symbols if one is left open (a single ``\\|`` as in
    ``D(P\\|Q)``)."""
    tokens = _scan(tex, nest_bars=True, brackets=brackets)
    return tokens if tokens is not None else _scan(tex, nest_bars=False, brackets=brackets) or []


def _cut(tex: str, tokens: list[tuple[str, int, bool, bool]], use: int) -> list[str]:
    """``tex`` cut after each top-level token whose flag ``use`` (2 relations, 3 binary operators) is set."""
    pieces, start, pos = [], 0, 0
    for tok in tokens:
        pos += len(tok[0])
        if tok[use] and tex[pos:].strip():
            pieces.append(tex[start:pos].strip())
            start = pos
    pieces.append(tex[start:].strip())
    merged: list[str] = []
    for piece in pieces:
        if merged and (len(piece) < MIN_PIECE or len(merged[-1]) < MIN_PIECE):
            merged[-1] = f"{merged[-1]} {piece}"
        else:
            merged.append(piece)
    return merged


def split_inline_tex(tex: str, min_length: int = MIN_LENGTH) -> list[str]:
    """The pieces an inline formula ``tex`` is typeset in: ``[tex]`` if it is short, holds an environment, an
    alignment or a style switch, or has no top-level relation or binary operator; otherwise ``tex`` cut after each
    top-level relation, and each still-long piece after each top-level binary ``+``/``-`` (TeX's own inline break
    points). Joining the pieces with spaces gives back ``tex`` up to white space."""
    tex = tex.strip()
    if len(tex) < min_length or _NO_CUT.search(tex):
        return [tex]
    tokens = _tokens(tex)
    if any(depth for _, depth, _, _ in tokens[-1:]) or sum(
        1 if t in ("{", "(", "[", "\\left") else -1 if t in ("}", ")", "]", "\\right") else 0
        for t, *_ in tokens
    ):
        return [tex]  # unbalanced (a half-open interval such as [a, b)): leave it whole
    pieces = []
    for piece in _cut(tex, tokens, 2):
        if len(piece) < min_length:
            pieces.append(piece)
            continue
        for part in _cut(piece, _tokens(piece), 3):
            # still long: cut where TeX itself would, inside brackets and parentheses too (they are not groups
            # in TeX), after relations, then binary operators
            if len(part) < 2 * min_length:
                pieces.append(part)
                continue
            for sub in _cut(part, _tokens(part, brackets=False), 2):
                long = len(sub) >= 2 * min_length
                pieces.extend(_cut(sub, _tokens(sub, brackets=False), 3) if long else [sub])
    # a binary operator that ends a piece keeps its spacing: TeX makes a trailing + an ordinary symbol, so the
    # piece gets an empty operand after it (TeX's own idiom for a formula broken by hand)
    return [
        p + "{}" if i < len(pieces) - 1 and p.endswith(("+", "-")) else p
        for i, p in enumerate(pieces)
    ]


class BreakInlineMaths(SphinxPostTransform):
    """Cut long inline formulas where TeX would break the line (HTML builders only: the PDF is printed from the
    HTML)."""

    default_priority = 400
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        for node in list(self.document.findall(nodes.math)):
            pieces = split_inline_tex(node.astext())
            if len(pieces) < 2:
                continue
            new: list[nodes.Node] = []
            for i, piece in enumerate(pieces):
                if i:
                    new.append(nodes.Text(" "))
                new.append(nodes.math(piece, piece))
            node.replace_self(new)


def setup(app) -> dict[str, Any]:
    app.add_post_transform(BreakInlineMaths)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
