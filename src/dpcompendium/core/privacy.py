"""Privacy claims: what each mechanism promises, and the conditions it rests on, stated in one place.

Every mechanism or estimator in the book states its neighbour relation, its sensitivity, its (ε, δ) and the
assumptions the guarantee needs (public preprocessing statistics, which quantities are public, the range where a
noise calibration is proved). A :class:`PrivacyClaim` is that statement as data, so that chapters tabulate it and
render every sentence that states a guarantee from it (:meth:`PrivacyClaim.statement`, :func:`claims_table`), and the
audit chapter checks it against what the mechanism actually delivers. A claim whose parameters fall
outside its conditions is ``private=False`` with the reason in ``why``.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import re
import textwrap
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Literal

import numpy as np

from .messages import (
    CATALOGUE,
    CJK_EDITIONS,
    Md,
    get_language,
    language,
    message,
    method_name,
    myst,
    myst_to_html,
    tex,
    tex_number,
)

Neighbours = Literal["replace-one", "add-remove", "local", "queries", "monotone", "one-query"]

NEIGHBOUR_RELATIONS: dict[str, str] = {
    "replace-one": "datasets of the same public size n that differ in one record (bounded DP)",
    "add-remove": "datasets that differ by adding or removing one record (unbounded DP)",
    "local": "any two inputs of one user (local DP: the guarantee holds per report)",
    "queries": "vectors of query answers on neighbouring datasets, each answer moving by at most its sensitivity "
    "(the DP-testing literature's benchmark relation)",
    "monotone": "vectors of query answers on neighbouring datasets, each moving by at most its sensitivity and all "
    "in the same direction (monotonic queries: counts under add-remove; the relation of monotone sparse vector)",
    "one-query": "vectors of query answers on neighbouring datasets of which exactly one answer moves, by at most "
    "its sensitivity (one vote, one count of disjoint bins; the relation of PATE-style report noisy max)",
}


def _real(value: object, name: str) -> float:
    """``value`` as a float if it is a real number (not a bool, not NaN); else a one-line ValueError."""
    if (
        isinstance(value, bool | np.bool_)
        or not isinstance(value, numbers.Real)
        or math.isnan(float(value))
    ):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    return float(value)


def _fmt(x: float) -> str:
    """4 significant digits, or 7 when rounding to 4 gives a round number (two significant digits or fewer) that
    hides a difference (ε(1 + 5·10⁻⁶) is "1.000005", not "1"; 2.1666… stays "2.167"; 1.48988 is "1.49": a third
    digit is no round number, reader review 3, m4)."""
    if math.isinf(x):
        return "inf"
    short = f"{x:.4g}"
    digits = short.split("e")[0].replace("-", "").replace(".", "").lstrip("0")
    hides = len(digits) <= 2 and abs(float(short) - x) > 1e-9 * abs(x)
    return f"{x:.7g}" if hides else short


def epsilon_tex(x: float) -> str:
    """A claim's ε as TeX, at the digits a claim prints it with: a number that 4 digits would round to a round number it is not is written as that round
    number plus or minus the difference at one significant digit, in parentheses ("1.000005" is
    ``(1 + 5 \\cdot 10^{-6})``, "1.499995" is ``(1.5 - 5 \\cdot 10^{-6})``: reader review 4, m11); any other
    number as :func:`~dpcompendium.core.messages.tex_number` writes it."""
    text = _fmt(x)
    if math.isinf(x) or text == f"{x:.4g}":
        return tex_number(text)
    base = float(f"{x:.4g}")
    mant, exp = f"{abs(x - base):.0e}".split("e")
    sign = "+" if x > base else "-"
    return f"({base:g} {sign} {mant} \\cdot 10^{{{int(exp)}}})"


def epsilon_md(x: float) -> Md:
    """A claim's ε (or a privacy loss, a composition total) for a sentence or a table cell: its plain text at the digits
    a claim prints it with ("1.000005": CSVs, ``{glue:text}``), its MyST through :func:`epsilon_tex`
    (``$(1 + 5 \\cdot 10^{-6})$``), so that no page writes a near-round ε as a decimal (referee 16, l1)."""
    return Md(_fmt(x), f"${epsilon_tex(x)}$")


@dataclass(frozen=True)
class PrivacyClaim:
    """A mechanism's privacy statement.

    ``private`` is False for methods that the book shows are *not* private as written, or whose parameters fall
    outside the conditions of the guarantee; ``why`` then says why (``why`` may also comment a private claim).
    ``conditions`` lists the assumptions the guarantee rests on (each a short sentence); a ``private=True`` claim is
    true only under them, and :meth:`statement` always prints them. ``refuted`` (read only when ``private`` is False)
    says whether the claim is shown false (``"not … as claimed"``) or only not shown (``"… as claimed is not
    shown"``): an upper bound above the claimed ε, e.g. from basic composition, does not refute the claim.
    """

    mechanism: str
    neighbours: Neighbours
    sensitivity: str
    epsilon: float
    delta: float = 0.0
    private: bool = True
    why: str = ""
    conditions: tuple[str, ...] = ()
    refuted: bool = True

    def __post_init__(self) -> None:
        """Validated on construction, so that no layer above re-checks a claim: the relation is one of
        :data:`NEIGHBOUR_RELATIONS`; ε a real number > 0 (∞ only in a claim that is not private); δ in [0, 1); the
        sensitivity a non-empty statement; the conditions a tuple of strings."""
        if self.neighbours not in NEIGHBOUR_RELATIONS:
            raise ValueError(
                f"neighbours must be one of {sorted(NEIGHBOUR_RELATIONS)}, got {self.neighbours!r}"
            )
        eps = _real(self.epsilon, "epsilon")
        if not eps > 0 or (self.private and math.isinf(eps)):
            bound = "finite and > 0" if self.private else "> 0"
            raise ValueError(f"epsilon must be {bound}, got {self.epsilon!r}")
        delta = _real(self.delta, "delta")
        if not 0.0 <= delta < 1.0:
            raise ValueError(f"delta must be in [0, 1), got {self.delta!r}")
        if not isinstance(self.sensitivity, str) or not self.sensitivity.strip():
            raise ValueError(f"sensitivity must be a non-empty statement, got {self.sensitivity!r}")
        if not isinstance(self.private, bool | np.bool_):
            raise ValueError(f"private must be True or False, got {self.private!r}")
        if not isinstance(self.refuted, bool | np.bool_):
            raise ValueError(f"refuted must be True or False, got {self.refuted!r}")
        if isinstance(self.conditions, str):
            raise ValueError(f"conditions must be a tuple of strings, got {self.conditions!r}")
        object.__setattr__(self, "conditions", tuple(self.conditions))

    @property
    def guarantee(self) -> str:
        """``"(ε, δ)-DP"`` or ``"ε-DP"`` with the numbers (``"ε-LDP"`` for local claims); plain text (CSV columns).
        :attr:`guarantee_md` is the same as MyST."""
        return str(self.guarantee_md)

    @property
    def guarantee_md(self) -> Md:
        """The guarantee as an :class:`~dpcompendium.core.messages.Md`: ``"2.167-DP"`` in plain text, ``$2.167$-DP``
        in MyST (``$(1, 10^{-5})$-DP`` with a δ)."""
        dp = "LDP" if self.neighbours == "local" else "DP"
        eps, tex_eps = _fmt(self.epsilon), epsilon_tex(self.epsilon)
        if self.delta:
            delta = f"{self.delta:.3g}"
            return Md(
                str(message("claim.guarantee_delta", epsilon=eps, delta=delta, dp=dp)),
                message(
                    "claim.guarantee_delta",
                    epsilon=Md(eps, tex_eps),
                    delta=Md(delta, tex_number(delta)),
                    dp=dp,
                ).myst,
            )
        return message("claim.guarantee", epsilon=Md(eps, tex_eps), dp=dp)

    def statement(self, fmt: Literal["plain", "myst"] = "plain") -> str:
        """One sentence stating the guarantee with its relation and conditions, or why there is none.

        ``fmt="plain"`` (the default) returns an :class:`~dpcompendium.core.messages.Md`: its ``str`` is the plain
        sentence (CSV columns, ``repr``) and its ``.myst`` the sentence typeset (``myst_nb.glue`` stores both, so
        the ``{glue:md}`` role (``key:myst``) shows the maths); ``fmt="myst"`` returns the MyST string itself
        (:meth:`statement_md`). Every part comes from a template of :mod:`dpcompendium.core.messages`; the free text
        of ``why``, ``sensitivity`` and ``conditions`` is typeset by :func:`~dpcompendium.core.messages.to_myst`
        unless it is an ``Md`` already."""
        if fmt not in ("plain", "myst"):
            raise ValueError(f"fmt must be 'plain' or 'myst', got {fmt!r}")
        if not self.private:
            text = message(
                "claim.not_private" if self.refuted else "claim.not_shown",
                mechanism=self.mechanism,
                guarantee=self.guarantee_md,
                why=self.why,
            )
        else:
            rel = (
                ""
                if self.neighbours == "local"
                else message("claim.relation", neighbours=relation_name(self.neighbours))
            )
            cond = (
                message("claim.conditions", conditions=_joined(self.conditions))
                if self.conditions
                else ""
            )
            text = message(
                "claim.statement",
                mechanism=self.mechanism,
                guarantee=self.guarantee_md,
                relation=rel,
                sensitivity=self.sensitivity,
                conditions=cond,
            )
        return text.myst if fmt == "myst" else text

    def statement_md(self) -> str:
        """:meth:`statement` as MyST (inline maths, emphasis), for ``{glue:md}``."""
        return self.statement(fmt="myst")

    def failing(self, why: str) -> PrivacyClaim:
        """The same claim, ``private=False`` with reason ``why`` (a condition does not hold: refuted)."""
        return dataclasses.replace(self, private=False, why=why, refuted=True)

    def with_conditions(self, *conditions: str) -> PrivacyClaim:
        """The same claim with extra conditions appended."""
        return dataclasses.replace(self, conditions=(*self.conditions, *conditions))

    def at_delta(self, delta: float) -> PrivacyClaim:
        """The same guarantee stated at a δ no smaller than its own: an (ε, δ)-DP mechanism is (ε, δ')-DP for
        every δ' ≥ δ (an ε-DP one for every δ' ≥ 0), so two methods can be compared at one (ε, δ)."""
        d = _real(delta, "delta")
        if not self.delta <= d < 1.0:
            raise ValueError(f"delta must be in [{self.delta:g}, 1), got {delta!r}")
        if d == self.delta:
            return self
        return dataclasses.replace(
            self,
            delta=d,
            conditions=(
                *self.conditions,
                message("claim.implied_delta", delta=tex(f"{self.delta:g}")),
            ),
        )

    def as_dict(self) -> dict:
        d = asdict(self)
        d.pop("refuted")  # carried by the statement; the tables' columns stay as they were
        d["conditions"] = _joined(self.conditions)
        d["guarantee"] = self.guarantee if self.private else "none"
        d["statement"] = self.statement()
        return d


def relation_name(neighbours: str) -> Md:
    """The name of a neighbour relation (a key of ``NEIGHBOUR_RELATIONS``) in every language: its id in
    English ("replace-one"), the term base's name in Chinese (替换一条记录)."""
    return message(f"claim.neighbours.{neighbours}")


class _Joined(Md):
    """The conditions of a claim joined by "; " (the CSV column), keeping each condition with its renderings in
    every language (:attr:`parts`), so that a claims card lists them in the language of its page."""

    parts: tuple[str, ...]


def _joined(conditions: Iterable[str]) -> Md:
    conditions = list(conditions)
    out = _Joined(
        "; ".join(str(c) for c in conditions),
        "; ".join(myst(c) for c in conditions),
        {
            lang: ("；" if lang in CJK_EDITIONS else "; ").join(myst(c, lang) for c in conditions)
            for lang in CATALOGUE
            if any(isinstance(c, Md) and c.by_lang for c in conditions)
        },
    )
    out.parts = tuple(conditions)
    return out


def claims_table(claims: Mapping[str, PrivacyClaim] | Iterable[PrivacyClaim], key: str = "method"):
    """A DataFrame of claims, one row each (``key`` column from the mapping's keys), with the rendered statement."""
    import pandas as pd

    items = (
        list(claims.items()) if isinstance(claims, Mapping) else [(c.mechanism, c) for c in claims]
    )
    return pd.DataFrame([{key: k, **c.as_dict()} for k, c in items])


def _text(value: object) -> str:
    """A table cell as text: "" for a missing value (NaN, None), an :class:`Md` kept as it is."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return value if isinstance(value, str) else str(value)


def _split_conditions(value: object) -> list[str]:
    """The conditions of a claims-table cell ("a; b"), each keeping its MyST when the cell is an :class:`Md`."""
    text = _text(value)
    if not text or text == "nan":
        return []
    if isinstance(text, _Joined):
        return [c for c in text.parts if str(c)]
    plain_parts = str(text).split("; ")
    if isinstance(text, Md):
        myst_parts = text.myst.split("; ")
        if len(myst_parts) == len(plain_parts):
            return [Md(p, m) for p, m in zip(plain_parts, myst_parts, strict=True)]
    return [p for p in plain_parts if p]


#: A label's characters that do not tell two renderings apart (spaces, punctuation, brackets of either width)
_LABEL_NOISE = re.compile(r"[\s,;:()（），；：、·$-]+")
#: A label "head (qualifier)" in either language's brackets
_QUALIFIED = re.compile(r"^(.+?)\s*[(（](.+)[)）]$")


def _closes_at_end(text: str) -> bool:
    """``text`` opens a bracket whose match is its last character (brackets inside maths ``$…$`` not counted)."""
    depth, maths = 0, False
    for i, ch in enumerate(text):
        if ch == "$":
            maths = not maths
        elif not maths and ch in "(（":
            depth += 1
        elif not maths and ch in ")）":
            depth -= 1
            if depth == 0:
                return i == len(text) - 1
    return False


def _claim_label(named: str, mech: str, left: str, right: str, comma: str) -> str:
    """A claims-table row's label from its name (the label columns, rendered) and its mechanism (rendered),
    saying a word once (native review 6, D: "DPdisPCA（DPdisPCA）", "加噪幂迭代法（差分隐私加噪幂迭代法（10 次迭代））"):
    the name alone where the mechanism says nothing more, the mechanism alone where it contains the name, and
    one head with the qualifiers of both where one head contains the other or both start with the same name
    ("Analyze Gauss（中心化差分隐私，可信的数据管理者）", "CAPE 相关噪声（论文原方案，按消息校准）", "CAPE correlated noise
    (per-message calibration, as-published)"); else "name (mechanism)"."""

    def key(text: str) -> str:
        return _LABEL_NOISE.sub("", text).casefold()

    def split(text: str) -> tuple[str, str]:
        found = _QUALIFIED.match(text)
        if not found:
            return (text, "")
        # the qualifier is the bracket that closes the label, outside maths ("… $\\exp((n\\varepsilon/2)…)$ on the
        # sphere (exponential mechanism, $k = 1$)": not the bracket of exp); the first such from the left
        for i, ch in enumerate(text):
            if ch in "(（" and text[:i].count("$") % 2 == 0 and _closes_at_end(text[i:]):
                return text[:i].strip(), text[i + 1 : -1]
        return (text, "")

    if key(mech) in key(named):
        return named
    if key(named) in key(mech):
        return mech
    (head_n, qual_n), (head_m, qual_m) = split(named), split(mech)
    first_n, first_m = (re.match(r"[A-Za-z]{3,}", h) for h in (head_n, head_m))
    same_first = bool(first_n and first_m and first_n[0].casefold() == first_m[0].casefold())
    if key(head_n) in key(head_m) or key(head_m) in key(head_n) or same_first:
        head = head_m if len(key(head_m)) > len(key(head_n)) else head_n
        quals = [q for q in (qual_n, qual_m) if q]
        if len(quals) == 2 and (key(qual_m) in key(qual_n) or key(qual_n) in key(qual_m)):
            # the same words: the one with its maths typeset
            quals = [max(quals, key=lambda q: (len(key(q)), q.count("$")))]
        return head + (f"{left}{comma.join(quals)}{right}" if quals else "")
    return f"{named}{left}{mech}{right}"


#: The condition every claims table adds to a private row: the guarantee is proved in real arithmetic, and the
#: book's samplers draw floating-point numbers, which are not exactly DP (the privacy-audit chapter's floating-point
#: section shows the low bits of numpy's Laplace draws telling neighbours apart).
REAL_ARITHMETIC = message("claim.cond_real_arithmetic")


class ClaimsTable:
    """Claims shown as a table in a notebook (:func:`show_claims`): one row per claim, its guarantee (or why there
    is none), neighbour relation, sensitivity and the conditions it rests on as a list. Plain text: one claim per
    paragraph."""

    #: Columns of a claims DataFrame that describe the claim itself (the others label it: method, variant, ...).
    FIELDS = (
        "mechanism",
        "neighbours",
        "sensitivity",
        "epsilon",
        "delta",
        "private",
        "why",
        "conditions",
        "guarantee",
        "statement",
    )

    #: The table's headers per language.
    HEADERS: ClassVar[dict[str, tuple[str, ...]]] = {
        "en": ("claim", "guarantee", "neighbours", "sensitivity", "rests on"),
        "zh_CN": ("声明", "隐私保证", "邻居数据集", "敏感度", "前提"),
    }

    def __init__(self, table, lang: str | None = None, caption: Md | str | None = None) -> None:
        self.table = table
        #: the language of the table (None: the current one, ``messages.get_language``)
        self.lang = lang
        #: the table's caption (None: the claims tables' own, ``claims.caption``; "": none)
        self.caption = message("claims.caption") if caption is None else caption

    def _rows(self) -> list[dict[str, Any]]:
        labels = [c for c in self.table.columns if c not in self.FIELDS]
        rows = []
        for r in self.table.to_dict("records"):
            parts = [r[c] for c in labels if str(r[c]) not in ("", "nan")]
            name = ", ".join(str(p) for p in parts)
            mech = _text(r.get("mechanism", ""))
            plain = mech if not name else (name if mech in ("", name) else f"{name} ({mech})")
            # Chinese writes the label's comma and brackets full-width (native review 4, X5)
            comma, left, right = (
                ("，", "（", "）") if get_language().startswith("zh") else (", ", " (", ")")
            )
            named = (
                comma.join(  # one human name per method; a text with its own renderings as it is
                    myst(p) if isinstance(p, Md) and p.by_lang else method_name(p) for p in parts
                )
            )
            label = Md(
                plain,
                myst(mech)
                if not name
                else (
                    named
                    if mech in ("", name)
                    else _claim_label(named, myst(mech), left, right, comma)
                ),
            )
            private = bool(r.get("private", True))
            if (
                "epsilon" in r
            ):  # the guarantee claimed, with the numbers (also when it does not hold)
                delta = float(r.get("delta", 0.0) or 0.0)
                claimed = PrivacyClaim(
                    "claim",
                    r["neighbours"],
                    str(r.get("sensitivity") or "as stated"),
                    float(r["epsilon"]),
                    delta,
                    private=private,
                ).guarantee_md
            else:
                claimed = r.get("guarantee", "") if private else message("claim.private")
            conds = _split_conditions(r.get("conditions", ""))
            if private:  # every guarantee of the book is proved for real numbers (referee 10, V11)
                conds.append(REAL_ARITHMETIC)
            rows.append(
                {
                    "claim": label,
                    "private": private,
                    "guarantee": claimed,
                    # a claim with no noise at all: "not ∞-DP" would be false (every mechanism is ∞-DP)
                    "unbounded": not math.isfinite(float(r.get("epsilon", 0.0) or 0.0)),
                    "why": _text(r.get("why", "")),
                    "neighbours": str(r["neighbours"]),
                    "sensitivity": _text(r.get("sensitivity", "")),
                    "conditions": conds,
                }
            )
        return rows

    def _repr_html_(self) -> str:
        """The table, its text typeset: MyST maths as the ``math`` spans MathJax renders."""
        with language(self.lang or get_language()):
            return self._html()

    def _html(self) -> str:
        def e(value: object) -> str:
            return myst_to_html(myst(value))

        heads = self.HEADERS.get(get_language(), self.HEADERS["en"])
        caption = (
            f"<caption>{myst_to_html(myst(self.caption))}</caption>" if str(self.caption) else ""
        )
        out = [
            '<table class="dpc-claims">'
            + caption
            + "<thead><tr>"
            + "".join(f"<th>{h}</th>" for h in heads)
            + "</tr></thead><tbody>"
        ]
        for r in self._rows():
            if r["private"]:
                guarantee = e(r["guarantee"]) + (
                    f"<br><small>{e(r['why'])}</small>" if r["why"] else ""
                )
            else:
                not_ = (
                    message("claim.not_finite")
                    if r.get("unbounded")
                    else message("claim.not", guarantee=r["guarantee"])
                )
                colon = "：" if get_language().startswith("zh") else ": "  # native review 4, F6
                guarantee = f'<span class="dpc-not">{e(not_)}</span>{colon}{e(r["why"])}'
            conds = "".join(f"<li>{e(c)}</li>" for c in r["conditions"])
            out.append(
                f"<tr><td>{e(r['claim'])}</td><td>{guarantee}</td><td>{e(relation_name(r['neighbours']))}</td>"
                f"<td>{e(r['sensitivity'])}</td><td>{f'<ul>{conds}</ul>' if conds else ''}</td></tr>"
            )
        out.append("</tbody></table>")
        return "".join(out)

    def __repr__(self) -> str:
        parts = []
        for r in self._rows():
            head = (
                f"{r['claim']}: {r['guarantee']} under {r['neighbours']} neighbours"
                if r["private"]
                else f"{r['claim']}: not {r['guarantee']}: {r['why']}"
            )
            body = [f"  sensitivity: {r['sensitivity']}"] + [
                textwrap.fill(str(c), 79, initial_indent="  - ", subsequent_indent="    ")
                for c in r["conditions"]
            ]
            parts.append("\n".join([head, *body]))
        return "\n\n".join(parts)


def show_claims(claims, key: str = "method") -> ClaimsTable:
    """Claims for a notebook to display as a table (not one long line each): ``claims`` a mapping or iterable of
    :class:`PrivacyClaim` (as :func:`claims_table`), or a DataFrame of ``PrivacyClaim.as_dict()`` rows with label
    columns (``method``, ``variant``, ...) beside them."""
    import pandas as pd

    table = claims if isinstance(claims, pd.DataFrame) else claims_table(claims, key)
    return ClaimsTable(table)
