"""How the audit chapter audits the local mechanisms of the HierA chapter [src_hiera]: Duchi, Harmony, PM,
Hybrid, graded Laplace, LHP (as the source implies, exact, and calibrated to the graded bound), the IDUE mean, GRR on
levels, and PrivUnitG (the SGD's whole-gradient mechanism, [asi2022optimal]).

A graded (input-discriminative) guarantee bounds each pair of levels t, t′ by min(ε_t, ε_t′); it is audited as one
spec per distinct bound ε_j, over exactly the pairs of level ends whose bound is ε_j.

Local DP: a raw dataset is one user's record, and any two records are neighbours. Worst-case inputs are the domain
ends −1 and +1 (or, for LHP, every level's interval ends). Duchi and LHP are audited exactly from their output laws,
the others empirically from the chapter's samplers.
"""

from __future__ import annotations

import numpy as np

from ...core.audit.spec import AuditSpec
from ...core.mechanisms.audits import grr_law, value_events
from ...core.mechanisms.privunit import privunitg, privunitg_params, projunit, projunit_claim
from ...core.privacy import PrivacyClaim
from ..registry import chapter_id

#: this chapter's id (from its manifest)
CHAPTER = chapter_id(__name__)

__all__ = ["audit_specs"]


def _one(v) -> np.ndarray:
    return np.array([v], dtype=float)


def audit_specs() -> list[AuditSpec]:
    from .. import hiera as ldp

    eps = 1.0
    out: list[AuditSpec] = []
    ends = (_one(-1.0), _one(1.0))

    # Duchi's output law from the chapter's exact LHP law: two levels with equal budgets, levels marginalized out
    # (then P(v* = b | t) = (1 + b t tanh(eps/2))/2 whatever the level), at the worst inputs t = -1, +1.
    def duchi_law(d):
        return ldp.lhp_output_probabilities(
            np.asarray(d, dtype=float), [eps, eps], edges=[0.0]
        ).sum(axis=-2)[0]

    claim = ldp.numeric_claim("duchi", eps)
    out.append(
        AuditSpec(
            "Duchi (binary output), exact",
            CHAPTER,
            "private",
            claim,
            ends,
            distribution=duchi_law,
            outputs=["+C", "-C"],
            true_epsilon=eps,
            note="law from lhp_output_probabilities with one budget for both levels, summed over levels; t = -1, +1",
        )
    )
    C = float(ldp.numeric.duchi_constant(eps))
    out.append(
        AuditSpec(
            "Duchi sampler",
            CHAPTER,
            "private",
            claim,
            ends,
            sample=lambda d, n, g: ldp.duchi_privatise(np.full(n, d[0]), eps, g),
            events=value_events([-C, C]),
            true_epsilon=eps,
            note="duchi_privatise at t = -1 vs +1",
        )
    )
    dim = 3
    claim = ldp.numeric_claim("harmony", eps)

    def harmony(d, n, g):
        r = ldp.harmony_privatise(
            np.tile(np.asarray(d, dtype=float).reshape(1, dim), (n, 1)), eps, g
        )
        j = np.argmax(r != 0, axis=1)
        return 2 * j + (r[np.arange(n), j] > 0)

    out.append(
        AuditSpec(
            f"Harmony (d = {dim}) sampler",
            CHAPTER,
            "private",
            claim,
            (np.full((1, dim), -1.0), np.full((1, dim), 1.0)),
            sample=harmony,
            events=value_events(range(2 * dim)),
            true_epsilon=eps,
            note="inputs (-1,-1,-1) vs (1,1,1); output coded as (coordinate, sign)",
        )
    )
    for method, func in (("pm", ldp.pm_privatise), ("hybrid", ldp.hybrid_privatise)):
        claim = ldp.numeric_claim(method, eps)
        out.append(
            AuditSpec(
                f"{'PM' if method == 'pm' else 'Hybrid'} sampler",
                CHAPTER,
                "private",
                claim,
                ends,
                sample=lambda d, n, g, f=func: f(np.full(n, d[0]), eps, g),
                true_epsilon=eps,
                note="inputs -1 vs +1",
            )
        )
    # Harmony and PM on the l2-clipped gradient (the SGD's matched-clip arm, referee 11 M1), through the user's
    # whole pipeline: raw gradients (3, 0, 0) vs (-3, 0, 0), clipped to l2 norm 1 (the clip binds: the first
    # coordinate becomes +1 or -1, the domain's ends), one coordinate sampled, the mechanism on it; output coded as
    # (coordinate, sign) for Harmony, 10 j + report for PM (the coordinates' ranges apart)
    from .sgd import l2_scalar_reports

    raw = (np.array([[3.0, 0.0, 0.0]]), np.array([[-3.0, 0.0, 0.0]]))
    for method in ("harmony-l2", "pm-l2"):

        def l2_sample(d, n, g, m=method):
            j, rep = l2_scalar_reports(np.tile(d, (n, 1)), eps, g, method=m)
            return 2 * j + (rep > 0) if m == "harmony-l2" else 10.0 * j + rep

        out.append(
            AuditSpec(
                f"{'Harmony' if method == 'harmony-l2' else 'PM'} on the l2-clipped gradient (d = 3) sampler",
                CHAPTER,
                "private",
                ldp.privacy_claim(method, eps),
                raw,
                sample=l2_sample,
                events=value_events(range(6)) if method == "harmony-l2" else None,
                true_epsilon=eps,
                note="raw gradients (3, 0, 0) vs (-3, 0, 0), clipped to l2 norm 1, one coordinate sampled; "
                "output (coordinate, report)",
            )
        )
    sched = ldp.schedule(0.5)  # the source's {5e, 4e, 3e, 2e, e} with e = 0.5
    for variant in ("as-written", "private"):
        claim = ldp.numeric_claim("graded-laplace", eps, epsilons=sched, variant=variant)
        out.append(
            AuditSpec(
                f"graded Laplace ({variant})",
                CHAPTER,
                variant,
                claim,
                ends,
                sample=lambda d, n, g, v=variant: ldp.graded_laplace_privatise(
                    np.full(n, d[0]), sched, g, variant=v
                ),
                expected="violated" if variant == "as-written" else "holds",
                true_epsilon=np.inf if variant == "as-written" else float(sched.min()),
                note="schedule 0.5 x (5,4,3,2,1); inputs -1 (level 1, eps 2.5) vs +1 (level 5, eps 0.5)",
            )
        )
    # LHP, exact from its discrete output law at every level's interval ends (closures).
    edges = np.asarray(ldp.DEFAULT_EDGES)
    bounds = ldp.level_bounds(edges)
    lv_ends = np.concatenate([bounds[:, 0], np.nextafter(bounds[:-1, 1], -np.inf), bounds[-1:, 1]])
    inputs = tuple(_one(v) for v in lv_ends)

    def lhp_law(d):
        return ldp.lhp_output_probabilities(np.asarray(d, dtype=float), sched).reshape(1, -1)[0]

    labels = [
        f"(level {s_ + 1}, {'+1' if b == 0 else '-1'})" for s_ in range(sched.size) for b in (0, 1)
    ]
    top = sched.size - 1
    level_idx = [i for i, v in enumerate(lv_ends) if ldp.level_of(np.array([v]), edges)[0] == top]
    pairs_top = [(i, j) for i in level_idx for j in range(lv_ends.size) if j != i]
    pairs_top += [(j, i) for i, j in pairs_top]
    claim = ldp.hiera_claim(sched, level=top)
    pair_eps = ldp.lhp_pair_epsilons(sched)
    out.append(
        AuditSpec(
            "LHP, most sensitive level (as the source implies)",
            CHAPTER,
            "as-written",
            claim,
            inputs,
            distribution=lhp_law,
            pairs=tuple(pairs_top),
            outputs=labels,
            expected="violated",
            true_epsilon=float(np.maximum(pair_eps, pair_eps.T)[top].max()),
            note="claim eps_5 = 0.5 for level-5 values against any other value; exact over level ends",
        )
    )
    claim = ldp.hiera_claim(sched)
    out.append(
        AuditSpec(
            "LHP, whole mechanism (exact claim)",
            CHAPTER,
            "private",
            claim,
            inputs,
            distribution=lhp_law,
            pairs=None,
            outputs=labels,
            true_epsilon=ldp.lhp_exact_epsilon(sched),
            note="claim = lhp_exact_epsilon; audited over all pairs of level ends",
        )
    )
    # Graded guarantees at base 1: LHP with the schedule of least variance under the bound min(eps_t, eps_t') of
    # {5,4,3,2,1} x 1 (hiera.graded_schedule), and the IDUE mean under the same bound; exact laws at level ends.
    base = 1.0
    bound = ldp.schedule(base)
    lv = ldp.level_of(lv_ends, edges)
    graded = ldp.graded_schedule(base)
    n_out = 2 ** (bound.size + 1)

    def idue_law(d):
        return ldp.idue_output_probabilities(np.asarray(d, dtype=float), bound)[0]

    laws = (
        (
            "LHP calibrated to the graded bound",
            lambda d: ldp.lhp_output_probabilities(np.asarray(d, dtype=float), graded).reshape(
                1, -1
            )[0],
            labels,
            ldp.graded_claim(base),
            ldp.lhp_pair_epsilons(graded),
        ),
        (
            "IDUE mean",
            idue_law,
            [f"bits {o:0{bound.size + 1}b}" for o in range(n_out)],
            ldp.idue_claim(bound),
            ldp.idue_pair_epsilons(ldp.idue_budgets(bound), bound.size),
        ),
    )
    for name, law, outs, whole, pair_bound in laws:
        out.append(
            AuditSpec(
                f"{name}, whole mechanism",
                CHAPTER,
                "private",
                whole,
                inputs,
                distribution=law,
                pairs=None,
                outputs=outs,
                true_epsilon=float(pair_bound.max()),
                note="schedule of the bound {5,4,3,2,1} x 1; all pairs of level ends",
            )
        )
        for j, eps_j in enumerate(bound):
            pairs = tuple(
                (a, b)
                for a in range(lv_ends.size)
                for b in range(lv_ends.size)
                if a != b and min(bound[lv[a]], bound[lv[b]]) == eps_j
            )
            claim = PrivacyClaim(
                f"{name}: values of levels t, t' with min(eps_t, eps_t') = eps_{j + 1}",
                "local",
                "value domain [-1, 1]; graded bound of {5,4,3,2,1} x 1",
                float(eps_j),
            )
            true = max(pair_bound[lv[a], lv[b]] for a, b in pairs)
            out.append(
                AuditSpec(
                    f"{name}, graded bound eps_{j + 1} = {eps_j:g}",
                    CHAPTER,
                    "private",
                    claim,
                    inputs,
                    distribution=law,
                    pairs=pairs,
                    outputs=outs,
                    true_epsilon=float(true),
                    note=f"the {len(pairs)} ordered pairs of level ends whose graded bound is eps_{j + 1}",
                )
            )
    k = sched.size
    p, q = ldp.grr_probabilities(k, float(sched.max()))
    claim = PrivacyClaim(f"GRR on levels, k={k}", "local", "any two levels", float(sched.max()))
    out.append(
        AuditSpec(
            f"GRR on the {k} levels (eps_1 = {sched.max():g})",
            CHAPTER,
            "private",
            claim,
            tuple(np.array([v]) for v in range(k)),
            distribution=grr_law(p, q, k),
            pairs=None,
            true_epsilon=float(sched.max()),
        )
    )
    # (its own name for the dimension: the samplers above close over `dim`)
    # PrivUnitG (the SGD's whole-gradient mechanism) in the dimensions the runs use (referee 10, H2): d = 7
    # coefficients on Adult, 11 on the synthetic data; unit inputs e1 and -e1 (the clip norm scales the output, not
    # the law of its direction): the antipodal pair, the two unit inputs at the largest angle, audited as the
    # presumed worst case — pairs of unit vectors differ by their angle, and no other pair is audited (referee 11,
    # m8); the event
    # "the output's projection on e1 lies in e1's cap" (<U, e1> >= gamma) has probabilities p and
    # (1 - p) q / (1 - q): ratio e^eps_used
    for pdim in (7, 11):
        pu = privunitg_params(eps, pdim)
        e1 = np.zeros((1, pdim))
        e1[0, 0] = 1.0
        out.append(
            AuditSpec(
                f"PrivUnitG (d = {pdim}) sampler",
                CHAPTER,
                "private",
                ldp.privacy_claim("privunitg", eps),
                (e1, -e1),
                sample=lambda d, n, g, pu=pu: privunitg(np.tile(d, (n, 1)), eps, g, params=pu),
                events=[
                    (
                        "<U, e1> >= gamma",
                        lambda y, pu=pu: y[:, 0] * pu.m >= pu.gamma,
                    )
                ],
                true_epsilon=pu.eps_used,
                note=f"d = {pdim} coefficients, as in the SGD; inputs e1 vs -e1, the antipodal pair (the unit "
                "inputs at the largest angle), audited as the presumed worst case; event: the projection on e1 in "
                "e1's cap",
            )
        )
    # ProjUnit [asi2023fast] (referee 12, §3): PrivUnitG in a public random k = 2 dimensional projection, d = 11 as
    # the synthetic data's gradients; the release is (W, z), flattened; inputs e1 and -e1 (the antipodal pair, as
    # above); the event "z's projection on the direction of W e1 lies in its cap" has probabilities p and
    # (1 - p) q / (1 - q) whatever W: ratio e^eps_used
    pj = privunitg_params(eps, 2)

    def proj_sample(d, n, g, pj=pj):
        w, z = projunit(np.tile(d, (n, 1)), eps, g, k=2, params=pj)
        return np.hstack([w.reshape(n, -1), z])

    def in_cap(y, pj=pj):
        w = y[:, :22].reshape(-1, 2, 11)[:, :, 0]  # W e1, (n, 2)
        u = w / np.sqrt(np.einsum("nk,nk->n", w, w))[:, None]
        return np.einsum("nk,nk->n", y[:, 22:], u) * pj.m >= pj.gamma

    e1 = np.zeros((1, 11))
    e1[0, 0] = 1.0
    out.append(
        AuditSpec(
            "ProjUnit (d = 11, k = 2) sampler",
            CHAPTER,
            "private",
            projunit_claim(eps, k=2),
            (e1, -e1),
            sample=proj_sample,
            events=[("<z, W e1/|W e1|> >= gamma", in_cap)],
            true_epsilon=pj.eps_used,
            note="d = 11, projected to k = 2 by a random W drawn independently of the data (public); inputs e1 vs "
            "-e1, the antipodal pair, audited as the presumed worst case; event: z in the cap of W e1's direction",
        )
    )
    return out
