"""The total privacy of LDP-SGD over several passes (epochs), and what shuffling the reports would give.

Algorithm 4 uses each user once (one pass). If the SGD ran E passes, every user would send E reports, each
ε₀-LDP (local neighbours), and the guarantees compose. Every accountant is the book's core one
(:mod:`dpcompendium.core.accounting`); this module makes the chapter's table:

- **basic** composition [dwork2006calibrating]: E·ε₀, δ = 0;
- **zCDP** [bun2016concentrated]: an ε₀-DP mechanism is ε₀²/2-zCDP (Prop. 1.4), E of them are Eε₀²/2-zCDP,
  converted to (ε, δ) by :func:`dpcompendium.core.accounting.zcdp_epsilon`;
- **optimal** (the exact privacy-loss distribution of the worst case): by the optimal composition theorem of
  Kairouz, Oh and Viswanath [book_kairouz2015composition], E-fold composition of ε₀-DP mechanisms is dominated by
  that of randomized response, whose privacy loss is ε₀(E − 2I), I ~ Bin(E, 1/(1 + e^{ε₀})); its privacy profile
  δ(ε) = E[(1 − e^{ε − L})₊] is computed exactly (:func:`dpcompendium.core.accounting.pure_composition_epsilon`),
  no discretisation.

**Shuffling** [feldman2021hiding]: if a trusted shuffler permutes the reports of the n users of one group before the
collector sees them, the multiset is (ε, δ)-DP under replace-one neighbours (a central guarantee, against the
collector; each user is still ε₀-LDP against the shuffler) with the closed form of their Theorem 3.1
(:func:`dpcompendium.core.accounting.shuffle_epsilon`), valid for ε₀ ≤ ln(n/(16 ln(2/δ))). In mini-batch SGD only
the reports of one group can be shuffled together (the next group's query depends on them), so n is the group
size; a user's E shuffled reports compose across passes.
"""

from __future__ import annotations

import math

import pandas as pd

from ...core import accounting as core
from ...core.comparison import _method_md
from ...core.messages import Md, message, number
from ...core.validation import check_delta
from .hiera import lhp_exact_epsilon, schedule
from .levels import HIERA_MULTIPLIERS
from .methods_registry import sgd_labels

__all__ = [
    "ARM_LABELS",
    "COLUMN_LABELS",
    "SHOWN_COLUMNS",
    "code_budgets_note",
    "sgd_privacy_table",
    "shown_table",
]

#: headers of the accountants' columns on the page: the column ``zcdp`` is the zCDP accountant, which the book's
#: method-name catalogue would render as the method "zCDP MWEM (Gaussian)" (the referee's m3, issue 46)
COLUMN_LABELS = {"zcdp": "zCDP"}
#: the table's arms by what they run: HierA's level per report is that of the corrected SGD, the text's budgets
#: {2ε, …, ε}, not experiment 2's "HierA (source's budgets)" {5ε, …, ε} (referee 20, MJ-1)
ARM_LABELS = sgd_labels("corrected")
#: the columns the page shows (the CSV has them all)
SHOWN_COLUMNS = ["method", "epochs", "report_epsilon", "basic", "zcdp", "optimal", "shuffle_total"]


def sgd_privacy_table(
    report_epsilons: dict[str, dict[float, float]],
    group_sizes: dict[float, int],
    epochs: list[int],
    delta: float,
) -> pd.DataFrame:
    """Total privacy of a user of LDP-SGD after E passes, per method, base ε and E.

    ``report_epsilons[method][ε]``: the exact LDP level ε₀ of one report; ``group_sizes[ε]``: users per iteration
    (the shuffled batch). Columns: method, epsilon, report_epsilon, epochs, basic (E·ε₀), zcdp and optimal (at δ),
    shuffle_pass (one pass, shuffled within the group, at δ/(2E); NaN where the closed form's condition fails) and
    shuffle_total (E shuffled passes: the smaller of basic and advanced composition with slack δ/2, total δ).
    """
    d = check_delta(delta)
    rows = []
    for method, by_eps in report_epsilons.items():
        for eps, e0 in by_eps.items():
            g = group_sizes[eps]
            for n in epochs:
                if core.shuffle_applies(e0, g, d / (2 * n)):
                    per_pass = core.shuffle_epsilon(e0, g, d / (2 * n))
                    adv, _ = core.advanced_composition(per_pass, d / (2 * n), n, d / 2)
                    total = min(n * per_pass, adv)
                else:
                    per_pass = total = math.nan
                rows.append(
                    {
                        "method": method,
                        "epsilon": eps,
                        "report_epsilon": e0,
                        "group_size": g,
                        "epochs": n,
                        "delta": d,
                        "basic": core.basic_composition([e0] * n)[0],
                        "zcdp": core.zcdp_epsilon(n * core.pure_dp_rho(e0), d),
                        "optimal": core.pure_composition_epsilon(e0, n, d),
                        "shuffle_pass": per_pass,
                        "shuffle_total": total,
                    }
                )
    return pd.DataFrame(rows)


def shown_table(table: pd.DataFrame, epsilon: float) -> pd.DataFrame:
    """The page's view of :func:`sgd_privacy_table` at base ``epsilon``: the :data:`SHOWN_COLUMNS`, each arm by
    :data:`ARM_LABELS` (HierA with the text's budgets), rounded to 3 decimals, the accountants' headers
    :data:`COLUMN_LABELS`."""
    shown = table.loc[table["epsilon"] == epsilon, SHOWN_COLUMNS]
    return shown.replace({"method": ARM_LABELS}).round(3).rename(columns=COLUMN_LABELS)


def code_budgets_note(epsilon: float) -> Md:
    """What experiment 3's "HierA (code's budgets)" is (referee 20, L-3: three labels for two schedules): experiment
    2's schedule {5ε, …, ε}, the arm "HierA (source's budgets)", with its exact level per report at base ``epsilon``
    there (level tied to the value) and in the SGD (level taken from the feature x), both computed here."""
    sched = schedule(epsilon, HIERA_MULTIPLIERS)
    return message(
        "hiera.code_budgets",
        name=_method_md("hiera"),
        eps=number(epsilon),
        level=number(lhp_exact_epsilon(sched, coupled=True)),
        level_x=number(lhp_exact_epsilon(sched, coupled=False)),
    )
