"""The audit's report: verdict, per-pair table, text and plots."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ...core.messages import Md, literal, message
from . import describe
from .events import _plot_summary


@dataclass
class AuditReport:
    """The outcome of :func:`audit_callable`.

    ``epsilon_lower`` is a lower bound on the function's ε at the claimed δ that holds with probability at least
    ``confidence`` — the empirical audit's, also with a pmf (``method="exact"``), where ``exact_epsilon`` is the
    exact ε of the declared pmf over the candidate pairs and ``empirical`` the empirical audit's report.
    ``table`` has one row per candidate pair (its selection-half estimate; the chosen row also carries the
    evaluation-half counts and the bound).
    """

    verdict: str
    epsilon_lower: float
    confidence: float
    table: pd.DataFrame
    claimed_epsilon: float
    claimed_delta: float
    neighbours: str
    method: str
    pair: str
    event: str
    p_a: float
    p_b: float
    n_samples: int
    batched: bool
    function: str = ""
    inputs: str = ""
    params: dict = field(default_factory=dict)
    chunk_size: int | None = None
    #: exact audits (``method="exact"``): the exact ε of the declared pmf, the sampler check's draws per input and
    #: the smallest output probability it sees with probability 95 %, the empirical audit of the sampler, and why
    #: the verdict is what it is (inconsistent, not established)
    exact_epsilon: float | None = None
    sampler_draws: int = 0
    detectable_p: float = math.nan
    empirical: AuditReport | None = None
    reason: str = ""
    #: what the user should know beyond the verdict (probes not audited, what the sampler check can see)
    notes: list[str] = field(default_factory=list)
    #: what makes the verdict meaningless (outputs that never vary or do not depend on the input)
    warnings: list[str] = field(default_factory=list)
    #: where the function's ``epsilon``/``delta`` came from: ``{name: (value, "set" | "default" | "claim")}``
    sources: dict = field(default_factory=dict)
    #: what the search covered, in words (empirical audits of a family)
    coverage: Md | None = None
    #: the chosen event in words and values, with its frequencies on D and D′ (empirical audits)
    event_text: Md | None = None
    #: the bound in words: "audited ε ≥ …", or an infinite leak said as such
    bound_text: Md | None = None
    #: the audited pair (D, D') as the function received it (written in full to ``pair.json``)
    pair_data: tuple | None = field(default=None, repr=False)
    _plot: dict = field(default_factory=dict, repr=False)

    def summary(self) -> str:
        """One line: the verdict, the claim with its neighbour relation, the audited ε and its confidence (exact
        audits: the declared pmf's exact ε, then the empirical bound on the sampler, then the reason)."""
        delta = f", δ = {self.claimed_delta:g}" if self.claimed_delta else ""
        claim = (
            f"{self.verdict.upper()}: claimed ε = {self.claimed_epsilon:g}{delta} ({self.neighbours} neighbours)"
            f"{describe.parameters_text(self.sources)}"
        )
        bound = f"ε ≥ {self.epsilon_lower:.3f} with confidence {self.confidence:.3g}"
        if self.method == "exact":
            emp = self.empirical
            witness = f" (pair {emp.pair}; event {emp.event})" if emp is not None else ""
            line = (
                f"{claim}; exact ε of the declared pmf = {self.exact_epsilon:.4g} (pair {self.pair}; event "
                f"{self.event}); empirical {bound}{witness}"
            )
            return f"{line} — {self.reason}" if self.reason else line
        if self.event_text is not None and self.bound_text is not None:
            line = str(self.sentence())
        else:
            line = f"{claim}; audited {bound} (pair {self.pair}; event {self.event})"
        return line + "".join(f" — WARNING: {w}" for w in self.warnings)

    def sentence(self) -> Md:
        """The verdict of an empirical audit as one sentence of the message catalogue (plain text: its ``str``;
        MyST in English and Chinese: :class:`~dpcompendium.core.messages.Md`): the verdict, the claim and its
        relation, the parameters the function ran with, the bound (or an infinite leak said as such), the pair, and
        the event in words with how often each input gave it."""
        if self.claimed_delta:
            claimed = message("audit.claim_delta", eps=literal(f"{self.claimed_epsilon:g}"),
                              delta=literal(f"{self.claimed_delta:g}"))  # fmt: skip
        else:
            claimed = message("audit.claim", eps=literal(f"{self.claimed_epsilon:g}"))
        verdict = (
            message(f"audit.verdict.{self.verdict}")
            if self.verdict in ("holds", "violated")
            else literal(self.verdict.upper())
        )
        return message(
            "audit.line", verdict=verdict, claimed=claimed, relation=literal(self.neighbours),
            ran=describe.parameters_text(self.sources), bound=self.bound_text, pair=literal(self.pair),
            event=self.event_text,
        )  # fmt: skip

    def to_markdown(self) -> str:
        """A short report: claim, verdict, witness event, per-pair table."""
        lines = [
            f"# Privacy audit of `{self.function or 'function'}`",
            "",
            f"**Verdict: {self.verdict}.** {self.summary()}",
            "",
            f"- claim: ε = {self.claimed_epsilon:g}, δ = {self.claimed_delta:g}, neighbours: {self.neighbours}",
            f"- inputs: {self.inputs or 'given pair'}; parameters: {self.params or '{}'}",
            *([f"- search: {self.coverage}"] if self.coverage else []),
            f"- method: {self.method}" + self._method_note(),
            *(f"- **warning**: {w}" for w in self.warnings),
            *(f"- note: {n}" for n in self.notes),
            f"- witness: pair {self.pair}; event {self.event}; P[M(D) ∈ S] = {self.p_a:.4g}, "
            f"P[M(D') ∈ S] = {self.p_b:.4g}",
            f"- calls: {'vectorized (size=...)' if self.batched else 'one call per sample (no size parameter)'}",
            "",
            "A verdict of *holds* means no violation was found on these inputs and events; it is not a proof: no "
            "black-box test can establish a mechanism's ε without assumptions on it (Gorla et al., 2025), and this "
            "one tries a finite family of inputs and events.",
            "",
            self.table.to_markdown(index=False, floatfmt=".4g"),
            "",
            "![Output distributions on the chosen pair](report.png)",
            "",
        ]
        return "\n".join(lines)

    def _method_note(self) -> str:
        n = self.n_samples
        if self.method != "empirical":
            return (
                f" — output probabilities from the declared pmf (sampler checked on {self.sampler_draws} draws per "
                "input), and the empirical audit of the sampler"
                + (self.empirical._method_note() if self.empirical else "")
            )
        if self.chunk_size is None:
            return (
                f" — pair and event chosen on {n // 2} samples per input; on the chosen pair {n} fresh samples, "
                f"direction fixed on half, ε bounded on {n - n // 2} (Clopper–Pearson)"
            )
        k = min(n // 2, self.chunk_size)
        return (
            f" — pair and event chosen on {k} samples per input; on the chosen pair {n} fresh samples, direction "
            f"fixed on {k}, ε bounded on {n - k} counted in chunks of {self.chunk_size} (Clopper–Pearson)"
        )

    def figure(self):
        """The two output distributions (of the chosen statistic) on the chosen pair, the event shaded."""
        from matplotlib.figure import Figure

        fig = Figure(figsize=(7, 3.6))
        ax = fig.subplots()
        summary = self._plot.get("summary")
        if summary is None and self._plot.get("a") is not None:
            summary = _plot_summary(self._plot["a"], self._plot["b"])
        labels = self._plot.get("labels", ("M(D)", "M(D')"))
        if summary is None:
            ax.text(0.5, 0.5, "no samples", ha="center")
            return fig
        if "values" in summary:
            w = 0.4
            vals, pa, pb = summary["values"], summary["pa"], summary["pb"]
            pos = np.arange(vals.size)
            ax.bar(pos - w / 2, pa, w, label=labels[0])
            ax.bar(pos + w / 2, pb, w, label=labels[1])
            enc = self._plot.get("encoder")
            ax.set_xticks(pos, [enc.label(v) if enc else f"{v:g}" for v in vals], fontsize=9)
            ax.set(ylabel="probability")
            lo, hi = self._plot.get("event", (np.nan, np.nan))
            for p, v in zip(pos, vals, strict=True):
                if lo < v <= hi:
                    ax.axvspan(p - 0.5, p + 0.5, color="0.85", zorder=0)
        else:
            bins = summary["bins"]
            lo_q, hi_q = bins[0], bins[-1]
            # the histogram of the samples, drawn from its counts (one weighted point per bin)
            for counts, label in zip((summary["ha"], summary["hb"]), labels, strict=True):
                ax.hist(
                    bins[:-1], bins=bins, weights=counts, density=True, histtype="step", label=label
                )
            lo, hi = self._plot.get("event", (np.nan, np.nan))
            ax.axvspan(max(lo, lo_q), min(hi, hi_q), color="0.85", zorder=0, label="event S")
            ax.set(ylabel="density")
        ax.set(xlabel=self._plot.get("statistic", "output"), title=f"{self.verdict}: {self.pair}")
        ax.legend(fontsize=9)
        fig.tight_layout()
        return fig

    def save(self, out_dir: str | Path) -> list[Path]:
        """Write ``report.csv``, ``report.md``, ``report.png`` and (the audited pair in full) ``pair.json`` into
        ``out_dir``; returns the paths."""
        import json

        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        paths = [out / "report.csv", out / "report.md", out / "report.png"]
        self.table.to_csv(paths[0], index=False)
        paths[1].write_text(self.to_markdown(), encoding="utf-8")
        self.figure().savefig(paths[2], dpi=110)
        if self.pair_data is not None:

            def plain(x):
                arr = np.asarray(x)
                return arr.tolist() if arr.dtype.kind in "biufUS" else repr(x)

            paths.append(out / "pair.json")
            paths[-1].write_text(json.dumps({"D": plain(self.pair_data[0]), "D'": plain(self.pair_data[1])}),
                                 encoding="utf-8")  # fmt: skip
        return paths
