"""Spaces in the Chinese edition's running text: none between two Chinese characters, none beside full-width
punctuation (native review 3, W1).

A Chinese sentence is written without spaces, but its catalogue entry often has them around what the build puts in
(a bold lead-in, a ``{prf:ref}``/``{numref}`` link, a glued value): "**你将学到** 如何", "定理 7 （高级组合", "最终选择。
每次", "课程作业变体 的误差". :func:`tidy` removes, in each paragraph, title and caption of a doctree, every run of
spaces whose neighbours (across the inline nodes: strong, emphasis, references, glued spans) are both Chinese
characters, or of which one neighbour is full-width punctuation, and the space between a number and its ``%``
("95.5 %" is "95.5%"). A space beside Latin letters, digits, maths or code
stays ("在 \\(n\\) 个站点上", "见 ``privacy.csv``"), as Chinese typography keeps it. Sphinx runs it on the resolved
doctree of each page of a Chinese edition (``dpcompendium.book.sphinxext``), so that the rule holds for every
translated sentence and every glued value, not entry by entry.

Half-width punctuation in Chinese text goes the same way (native review 3, W2-W3, X4): parentheses around Chinese
text (an exercise's title, "练习 5.2 (审计…)", which sphinx-exercise builds from its parts) become （…）, and a
``,`` ``;`` ``:`` beside Chinese becomes ，；：.
"""

from __future__ import annotations

import re

from docutils import nodes

__all__ = ["full_width_brackets", "full_width_punctuation", "is_tight", "tidy", "tidy_text"]

#: Chinese characters (CJK unified ideographs and extension A)
_HAN = "\u3400-\u4dbf\u4e00-\u9fff"
#: Full-width punctuation: no space on either side
_FULL_WIDTH = "，。、；：！？（）《》〈〉「」『』【】“”‘’—…·\uff01-\uff0f\uff1a-\uff20\u3001-\u3003"
_HAN_CHAR = re.compile(f"[{_HAN}]")
#: Full-width punctuation that also stands in Latin text and maths ("(a, …, a)", "a — b", "a · b"): beside it a
#: half-width ``,`` ``;`` ``:`` is not Chinese text (native review 4)
_SHARED = "—…·"
_CHINESE_PUNCT_CHAR = re.compile(f"[{''.join(c for c in _FULL_WIDTH if c not in _SHARED)}]")
#: Inline maths written in a text node (``\\(…\\)``, ``$…$``): opaque, as a maths node is
_INLINE_MATH = re.compile(r"\\\(.*?\\\)|\$[^$\n]+\$", re.S)
_FULL_WIDTH_CHAR = re.compile(f"[{_FULL_WIDTH}]")
_SPACES = re.compile(r"[ \t\n]+")
#: Inline nodes whose text is not running text: a space beside them is kept (they count as a Latin letter).
_OPAQUE = (
    nodes.math,
    nodes.literal,
    nodes.raw,
    nodes.image,
    nodes.footnote_reference,
    nodes.citation_reference,
)
#: Text elements that keep their spaces as written.
_FIXED = (nodes.FixedTextElement, nodes.math_block, nodes.raw)


def is_tight(before: str, after: str) -> bool:
    """Whether a run of spaces between the characters ``before`` and ``after`` goes (``""``: a paragraph's edge,
    where spaces are kept, but before full-width punctuation)."""
    if not after:
        return False
    if (
        not before
    ):  # a text's start: no space before full-width punctuation (an exercise's title, " （…）")
        return bool(_FULL_WIDTH_CHAR.match(after))
    if _FULL_WIDTH_CHAR.match(before) or _FULL_WIDTH_CHAR.match(after):
        return True
    # Chinese writes "95.5%", not "95.5 %" (native review 4, F9)
    if after == "%" and before.isdigit():
        return True
    return bool(_HAN_CHAR.match(before) and _HAN_CHAR.match(after))


def tidy_text(text: str, before: str = "", after: str = "") -> str:
    """``text`` without the spaces :func:`is_tight` removes; ``before``/``after``: the characters around it
    (``"a"`` for maths or code, ``""`` for a paragraph's edge)."""

    def run(m: re.Match) -> str:
        left = text[m.start() - 1] if m.start() > 0 else before
        right = text[m.end()] if m.end() < len(text) else after
        return "" if is_tight(left, right) else m.group()

    return _SPACES.sub(run, text)


_PAIR = re.compile(r"\(([^()]*)\)")
#: half-width ``,`` ``;`` ``:`` (and the spaces after it) in Chinese text: beside a Chinese character or full-width
#: punctuation it is the full-width ，；：
_HALF_PUNCT = re.compile(r"([,;:])[ \t\n]*")
_FULL_PUNCT = {",": "，", ";": "；", ":": "："}


def full_width_brackets(text: str) -> str:
    """``text`` with each pair of half-width parentheses that holds a Chinese character as ``（…）`` (same length:
    the positions of the other characters do not move)."""
    work = list(text)
    masked = text
    while True:
        m = _PAIR.search(masked)
        if m is None:
            return "".join(work)
        han = _HAN_CHAR.search(m.group(1)) is not None
        work[m.start()], work[m.end() - 1] = ("（", "）") if han else ("(", ")")
        masked = (
            masked[: m.start()]
            + "\x01"
            + masked[m.start() + 1 : m.end() - 1]
            + "\x02"
            + masked[m.end() :]
        )


def full_width_punctuation(text: str, before: str = "", after: str = "") -> str:
    """``text`` with a half-width ``,`` ``;`` ``:`` that follows a Chinese character or full-width punctuation, or
    precedes a Chinese character, written full-width (its spaces dropped)."""

    def one(m: re.Match) -> str:
        left = text[m.start() - 1] if m.start() > 0 else before
        right = text[m.end()] if m.end() < len(text) else after
        chinese = _HAN_CHAR.match(left or " ") or _CHINESE_PUNCT_CHAR.match(left or " ")
        if chinese or _HAN_CHAR.match(right or " "):
            return _FULL_PUNCT[m.group(1)]
        return m.group()

    return _HALF_PUNCT.sub(one, text)


def _atoms(node: nodes.Node, out: list) -> None:
    """The text nodes of ``node`` in reading order, with ``None`` for an opaque inline node (maths, code); a text
    node holding inline maths is split around it (:func:`_tidy_element` puts the pieces back)."""
    for child in node.children:
        if isinstance(child, nodes.Text):
            text, pos = str(child), 0
            for m in _INLINE_MATH.finditer(text):
                if m.start() > pos:
                    out.append((child, text[pos : m.start()]))
                out.append((child, None, m.group()))
                pos = m.end()
            if pos < len(text) or not text:
                out.append((child, text[pos:]))
        elif isinstance(child, _OPAQUE):
            out.append(None)
        elif isinstance(child, nodes.Element):
            _atoms(child, out)


def _tidy_element(element: nodes.Element) -> int:
    atoms: list = []
    _atoms(element, atoms)
    changed = 0
    # a piece of a text node: (node, text) or, for inline maths in it, (node, None, maths); an opaque node: None
    texts = [a[1] if a is not None else None for a in atoms]
    # parentheses around Chinese text, across the inline nodes: 练习 5.1 (常数预算方案) → 练习 5.1（常数预算方案）
    joined = full_width_brackets("".join(t if t is not None else "\x00" for t in texts))
    pos = 0
    for i, t in enumerate(texts):
        n = len(t) if t is not None else 1
        if t is not None:
            texts[i] = joined[pos : pos + n]
        pos += n
    for i, t in enumerate(texts):
        if t:
            texts[i] = full_width_punctuation(t, _edge(texts, i, -1), _edge(texts, i, +1))
    for i, atom in enumerate(atoms):
        if atom is None or not texts[i]:
            continue
        texts[i] = tidy_text(texts[i], _edge(texts, i, -1), _edge(texts, i, +1))
    # put each text node's pieces back together, its maths as written
    rebuilt: dict[int, tuple[nodes.Text, list[str]]] = {}
    for atom, text in zip(atoms, texts, strict=True):
        if atom is None:
            continue
        parts = rebuilt.setdefault(id(atom[0]), (atom[0], []))[1]
        parts.append(atom[2] if len(atom) == 3 else text)
    for node, parts in rebuilt.values():
        new = "".join(parts)
        parent = node.parent
        if new == str(node) or parent is None:
            continue
        # by identity: a text node is a str, and ``Element.replace`` finds it by equality, so an equal text node
        # earlier in the parent (a lone space, say) would be taken for it
        at = next((k for k, child in enumerate(parent.children) if child is node), None)
        if at is None:
            continue
        parent[at] = nodes.Text(new)
        changed += 1
    return changed


def _edge(texts: list, i: int, step: int) -> str:
    """The character next to atom ``i`` on the side ``step`` (``"a"`` for an opaque node, ``""`` at the edge)."""
    j = i + step
    while 0 <= j < len(texts):
        t = texts[j]
        if t is None:
            return "a"
        t = t.strip(" \t\n")  # the spaces between are one run, whichever node holds them
        if t:
            return t[-1] if step < 0 else t[0]
        j += step
    return ""


def tidy(doctree: nodes.Node) -> int:
    """Remove the spaces :func:`is_tight` names from every running text of ``doctree`` (paragraphs, titles,
    captions, terms; not code, maths or raw blocks); the number of text nodes changed."""
    changed = 0
    for element in list(doctree.findall(nodes.TextElement)):
        if isinstance(element, (*_FIXED, *_OPAQUE)):
            continue
        if isinstance(element.parent, nodes.TextElement):
            continue  # an inline element: tidied with its paragraph
        changed += _tidy_element(element)
    return changed
