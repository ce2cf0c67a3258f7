"""The referee's findings of issue 46, each pinned by a test that fails on the behaviour of commit 8071128."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from dpcompendium.core.mechanisms.gaussian import calibrated_sigma


# (5) federated-pca: the noisy power method's per-iteration sensitivity is sqrt(2)/n, not 2/n
def test_noisy_power_sensitivity_is_that_of_analyze_gauss():
    from dpcompendium.chapters.federated_pca import power
    from dpcompendium.chapters.federated_pca.core import sensitivity

    n, iters, eps, delta = 1000, 10, 0.5, 1e-5
    sigma = power.power_noise_scale(eps, delta, n, iters=iters)
    assert sigma == pytest.approx(
        calibrated_sigma(math.sqrt(2 * iters) / n, eps, delta, "classical")
    )
    # per entry, sqrt(L) times Analyze Gauss's noise (8071128: sqrt(2L) times)
    tau = calibrated_sigma(sensitivity(n, "replace-one"), eps, delta, "classical")
    assert sigma / tau == pytest.approx(math.sqrt(iters))


def test_the_power_method_bound_is_attained_and_never_exceeded():
    """||(yy^T - xx^T) X||_F <= sqrt(2) for unit-ball rows and orthonormal X, with equality at orthogonal unit rows:
    sqrt(2)/n is the sensitivity (not a loose bound below the truth)."""
    rng = np.random.default_rng(0)
    d, k = 6, 3
    x0 = np.eye(d)[:, :k]
    e1, e2 = np.eye(d)[0], np.eye(d)[1]
    assert np.linalg.norm((np.outer(e2, e2) - np.outer(e1, e1)) @ x0) == pytest.approx(math.sqrt(2))
    worst = 0.0
    for _ in range(2000):
        x, y = rng.standard_normal((2, d))
        x /= max(1.0, np.linalg.norm(x)) * rng.uniform(1, 1.5)
        y /= max(1.0, np.linalg.norm(y)) * rng.uniform(1, 1.5)
        q = np.linalg.qr(rng.standard_normal((d, k)))[0]
        worst = max(worst, float(np.linalg.norm((np.outer(y, y) - np.outer(x, x)) @ q)))
    assert worst <= math.sqrt(2) + 1e-12


# (S6) federated-pca: secure aggregation and central DP-PCA release subspaces identical in law (up to fixed-point
# rounding); the chapter states that as a proposition and checks the simulation against it (a two-sided test of a zero
# difference), where 8071128 ran a TOST pooled over all cells, whose "equivalent" passes a real shift below the margin
def _energy_with_shift(shift, se=0.0005):
    import pandas as pd

    cells = pd.MultiIndex.from_product([["a", "b"], ["equal"], [0.5, 1.0], [2, 50]]).to_frame(
        index=False
    )
    cells.columns = ["dataset", "split", "epsilon", "sites"]
    base = np.linspace(0.6, 0.95, len(cells))
    return pd.concat(
        cells.assign(method=m, captured_energy=q, captured_energy_se=se)
        for m, q in (("central", base), ("secure-aggregation", base + shift))
    )


def test_fedpca_identity_in_law_is_checked_not_called_equivalent():
    from dpcompendium.chapters import federated_pca

    # a shift of half the margin: the pooled TOST (8071128's verdict) calls it equivalent; the identity's check
    # flags it, as it must (the two arms have the same law: any systematic difference is a bug)
    shifted = _energy_with_shift(0.5 * federated_pca.EQUIVALENCE_MARGIN)
    assert federated_pca.equivalence_test(shifted, "secure-aggregation")["equivalent"]
    assert not federated_pca.same_law_check(shifted, "secure-aggregation")["consistent"]
    check = federated_pca.same_law_check(_energy_with_shift(0.0), "secure-aggregation")
    assert check["consistent"] and check["difference"] == 0.0
    with pytest.raises(ValueError, match="z must be"):
        federated_pca.same_law_check(shifted, z=0.0)


def test_fedpca_secure_aggregation_is_central_in_law_to_rounding():
    """The proposition itself: from the same standard normal draws, the secure-aggregation aggregate (s shares of
    N(0, tau^2/s), fixed point, summed) equals A + E with E = sum of the shares, to the rounding s*2^-(f+1)."""
    from dpcompendium.chapters import federated_pca as P
    from dpcompendium.chapters.federated_pca.protocols import FRAC_BITS

    rng = np.random.default_rng(3)
    x = P.prepare(rng.standard_normal((400, 6)))
    s = 7
    sd = P.SiteData.from_labels(x, P.split_sites(len(x), s, rng), s)
    tau = P.noise_scale(1.0, 1e-5, sd.n) / math.sqrt(s)
    shares = P.symmetric_gaussian(sd.d, tau, np.random.default_rng(9), size=(s,))
    agg = P.decode(P.encode(sd.shares + shares).sum(axis=0, dtype=np.uint64))
    assert (
        np.abs(agg - (sd.second_moment + shares.sum(axis=0))).max()
        <= s * 2.0 ** -(FRAC_BITS + 1) + 1e-13
    )


def test_fedpca_chapter_states_the_identity_and_no_pooled_equivalence():
    text = _notebook_source("federated-pca")
    assert "prf:proposition" in text and "prop-fedpca-same-law" in text
    assert "same_law_check(" in text
    assert (
        "equivalence_test(" not in text
    )  # 8071128: eq_secure = federated_pca.equivalence_test(energy, ...)


# (6) dp-mean: the Gaussian mean's sigma is the analytic calibration (8071128: a zCDP conversion, 16-45 % larger)
@pytest.mark.parametrize("eps", [0.1, 1.0, 5.0])
def test_gaussian_mean_takes_the_analytic_calibration(eps):
    from dpcompendium.chapters import dp_mean
    from dpcompendium.core.mechanisms.gaussian import analytic_gaussian_sigma, gaussian_epsilon

    n, bounds, delta = 1000, (140.0, 200.0), 1e-6
    sigma = dp_mean.gaussian_mean_sigma(n, eps, delta, bounds)
    assert sigma == pytest.approx(analytic_gaussian_sigma(60.0 / n, eps, delta), rel=1e-9)
    # tight: the exact epsilon of this sigma is the target (a conversion leaves slack)
    assert gaussian_epsilon(sigma, 60.0 / n, delta) == pytest.approx(eps, rel=1e-4)
    assert (
        "analytic" in dp_mean.noisy_average_gaussian.privacy_claim(eps, delta, bounds, n).mechanism
    )


# (2) dp-mean: method 4 calibrated directly under replace-one (8071128: run at eps/2 under add-remove and
# converted by group privacy, which spends only 2(1 - c) eps/2 of the eps it is compared at)
def test_method_4_under_replace_one_is_calibrated_directly():
    from dpcompendium.chapters import dp_mean
    from dpcompendium.chapters.dp_mean import experiments

    num, _den, relation, _ = experiments.COMPARISONS["replace-one: method 4 vs method 3"]
    assert relation == "replace-one" and num == ("centred-clamped", "replace-one")
    func, kwargs = experiments.SWEEP_METHODS[num]
    assert "_eps_factor" not in kwargs and kwargs.get("calibration") == "replace-one"
    bounds = (17.0, 90.0)
    claim = dp_mean.noisy_average_centred.privacy_claim(
        1.0, bounds, neighbours="replace-one", calibration="replace-one"
    )
    assert claim.epsilon == 1.0 and claim.neighbours == "replace-one"
    # the converted run's real spend under replace-one is 2(1 - c) times its add-remove eps
    c = dp_mean.optimal_count_share(bounds, dp_mean.MEAN_OFFSET_GUESS["adult-age"])
    converted = dp_mean.noisy_average_centred.privacy_claim(0.5, bounds, c, "replace-one")
    assert converted.epsilon == pytest.approx((1 - c) * 1.0) and converted.epsilon < 0.7
    # directly calibrated, method 4's release is method 3's in law: same error to Monte-Carlo precision
    rng = np.random.default_rng(46)
    x = rng.uniform(20, 60, 200)
    reps = 20_000
    e4 = func(x, 1.0, bounds, rng, size=reps, **kwargs) - x.mean()
    e3 = dp_mean.noisy_average_clamped(x, 1.0, bounds, rng, size=reps) - x.mean()
    mse4, mse3 = np.mean(e4**2), np.mean(e3**2)
    se = math.sqrt(np.var(e4**2) / reps + np.var(e3**2) / reps)
    assert abs(mse4 - mse3) < 4 * se


# (8) histograms: the settings a method "wins" are counted from tested rankings, a tie as a tie (8071128 counted the
# lowest point estimate: value_counts of the argmin)
def test_histogram_winners_count_ties_as_ties():
    import pandas as pd

    from dpcompendium.chapters import histograms
    from dpcompendium.core.comparison import winner_counts

    rng = np.random.default_rng(8)
    base = rng.gamma(50.0, 40.0 / 50.0, size=20)
    # setting A: ahp's losses are hierarchical's, 2 % higher (a tie at 20 repetitions with a 14 % spread), identity
    # ten times higher; setting B: ahp clearly lowest
    laws = {
        "A": {"hierarchical": base, "ahp": 1.02 * base[::-1], "identity": 10 * base},
        "B": {"hierarchical": 10 * base, "ahp": base, "identity": 10 * base[::-1]},
    }
    rows = [
        {"dataset": d, "epsilon": 1.0, "method": m, "variant": "private", "rep": r, "mse": v}
        for d, arms in laws.items()
        for m, vals in arms.items()
        for r, v in enumerate(vals)
    ]
    runs = pd.DataFrame(rows)
    argmin = runs.groupby(["dataset", "method"])["mse"].mean().groupby("dataset").idxmin()
    assert len(argmin) == 2  # the old count gives every setting to one method
    alone, ties = winner_counts(histograms.rank_settings(runs))
    assert ties == 1 and alone == {"ahp": 1}
    br = histograms.baseline_brackets(
        runs.assign(method=runs["method"].replace({"hierarchical": "uniform"}))
    )
    assert br.loc[(br["dataset"] == "A") & (br["method"] == "ahp"), "vs_uniform"].item() == "tie"


def _notebook_source(chapter: str) -> str:
    import json
    from pathlib import Path

    nb = json.loads(
        (Path(__file__).resolve().parents[1] / "notebooks" / f"{chapter}.ipynb").read_text()
    )
    return "\n".join("".join(c["source"]) for c in nb["cells"])


def test_histograms_winner_count_is_rendered_from_rankings():
    text = _notebook_source("histograms")
    assert 'summary["method"].value_counts()' not in text
    assert "comparison.winner_sentence(" in text and "histograms.rank_settings(" in text


# (N1, the referee's leftovers) histograms: "the claim holds against P-HP" was free text read off a ratio of means below
# 1; it is now a one-sided superiority comparison of the private grouping only, Holm over the budgets, rendered by the
# comparison object
def _php_like_runs(seed=46, reps=20):
    """Runs shaped like the chapter's on ADULT: the grouping's MSEs tight around 1.1e4, P-HP's heavy-tailed with a
    larger mean (a few bad releases), so the ratio of means is below 1 at every budget — the old text's "holds" —
    while one run more or less of P-HP's tail decides it."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    rows = []
    for eps in (math.log(2), 1.0, 1.5):
        grouping = rng.normal(1.1e4, 800.0, reps)
        php = 6e3 * rng.lognormal(0.0, 0.5, reps)
        php[: reps // 7] *= 10.0  # the tail: about one release in seven ten times worse
        for (m, v), vals in {
            ("sampling_grouping", "private"): grouping,
            ("sampling_grouping", "as-written:sum"): grouping * 1.01,
            ("php", "private"): php,
        }.items():
            rows += [
                {
                    "dataset": "ADULT",
                    "method": m,
                    "variant": v,
                    "epsilon": eps,
                    "rep": r,
                    "mse": val,
                }
                for r, val in enumerate(vals)
            ]
    return pd.DataFrame(rows)


def test_histograms_claim_against_php_is_a_superiority_family():
    from dpcompendium.chapters import histograms

    runs = _php_like_runs()
    ratios = runs.groupby(["epsilon", "method", "variant"])["mse"].mean().unstack([1, 2])
    old_holds = (ratios[("sampling_grouping", "private")] / ratios[("php", "private")] < 1).all()
    fam = histograms.claim_superiority(runs, "ADULT", np.random.default_rng(1))
    assert old_holds  # 8071128's sentence: "the claim holds against P-HP"
    assert len(fam) == 3 and all(r.comparison.relation == "superiority" for r in fam)
    assert all(r.comparison.test == "bootstrap-t" for r in fam)
    # the private variant only, against the authors' P-HP, under one guarantee
    assert {r.comparison.a.method for r in fam} == {"sampling_grouping"}
    assert {r.comparison.b.method for r in fam} == {"php"}
    assert all(r.comparison.a.claim.private for r in fam)
    # Holm over the budgets, and the tested verdict is not the point estimate's
    assert all(r.p_adjusted >= r.p_value for r in fam)
    assert sum(r.holds for r in fam) < 3
    sentence = str(comparison_family_sentence(fam))
    assert "of 3 settings" in sentence and "Holm" in sentence
    with pytest.raises(ValueError, match="as-written"):
        histograms.claim_superiority(runs, "ADULT", np.random.default_rng(1), variant="as-written")


def comparison_family_sentence(fam):
    from dpcompendium.core.comparison import family_sentence

    return family_sentence(fam)


def test_histograms_php_claim_is_rendered_by_the_comparison_object():
    text = _notebook_source("histograms")
    assert "the claim holds against P-HP" not in text
    assert "histograms.claim_superiority(" in text
    # the lead sentence (referee round 2, N1): the family's count of holding comparisons, the tail, the rank test
    assert '"hist.php_lead"' in text and "sum(r.holds for r in fam_php)" in text


# (9) histograms: the privacy fix is "at most 10 % worse" by a non-inferiority test of core.comparison (8071128: "costs
# no accuracy within ±25 %" from a TOST whose 90 % intervals excluded 1)
def test_histograms_privacy_fix_is_a_non_inferiority_verdict():
    text = _notebook_source("histograms")
    assert "equivalence_margin = 1.1  #" in text  # the margin, a parameter
    assert '"non-inferiority"' in text
    # its family is rendered by the comparison object: a row of the families' table (issue 49, F2), which counts
    # each family per relation with the pair named (referee 10, V1); the sentence beside it says the
    # non-inferiority verdict in plain words, counted from the same family (issue 49: no tally in the paragraph)
    # with the book's post-hoc margin the family's row says exploratory (referee 19, N-3)
    assert (
        'message("hist.fix_family_ni_exploratory" if POST_HOC else "hist.fix_family_ni"),\n        fam_sum,'
        in text
    )
    # its rows flag the verdicts short of runs, each family its own Holm family (referee 20, L-5)
    assert "comparison.families_table(fix_rows, power=POWER, per_family=True)" in text
    assert '"hist.fix_verdict"' in text
    assert "histograms.budgets_md(sum(r.holds for r in fam_sum), len(fam_sum))" in text
    assert "costs no accuracy within ±{pct}" not in text and "fix costs no accuracy" not in text


# referee 10, V1: the summary of the privacy fix said the margin was "fixed before this run", while §2.4.3 says it
# was chosen after an earlier version's intervals were known; it states the S5-on-mean cost beside the verdict
def test_histograms_fix_summary_says_when_the_margin_was_chosen_and_the_mean_cost():
    from dpcompendium.core.messages import CATALOGUE

    text = _notebook_source("histograms")
    assert '"hist.fix_summary_exploratory"' in text and '"hist.fix_lead"' not in text
    for lang, catalogue in CATALOGUE.items():
        hist = {k: v for k, v in catalogue.items() if k.startswith("hist.")}
        assert not any("fixed before this run" in v for v in hist.values()), lang
        assert not any("在本次运行之前" in v for v in hist.values()), lang
    summary = CATALOGUE["en"]["hist.fix_summary_exploratory"]
    assert "chosen after earlier versions' intervals were known" in summary
    assert "%(mean_lo)s–%(mean_hi)s times" in summary
    assert "%(uppers)s" in CATALOGUE["en"]["hist.fix_verdict_exploratory"]


def test_non_inferiority_says_at_most_ten_percent_worse_where_tost_would_fail():
    """Intervals like the referee's ([1.012, 1.050]) exclude 1 — not "no cost" — but lie below 1.1."""
    from dpcompendium.core import comparison
    from dpcompendium.core.messages import message
    from dpcompendium.core.privacy import PrivacyClaim

    claim = PrivacyClaim("m", "add-remove", "1", 1.0)
    a = comparison.Arm("a", claim, mean=1.031, se=0.0115, n=200)
    b = comparison.Arm("b", claim, mean=1.0, se=0.0, n=math.inf)
    ni = comparison.Comparison(
        message("quantity.mse"), a, b, "non-inferiority", margin=1.1
    ).result()
    tie = comparison.Comparison(message("quantity.mse"), a, b, "tie").result()
    assert ni.outcome == "non-inferior" and "at most 10 % worse" in str(ni.sentence())
    assert tie.outcome == "worse" and ni.lo > 1


# (1) DAWA: the book's repair is not called "DAWA"; a private DAWA keeps the method's design (the partition computed
# on a noisy histogram bought with eps1, then post-processing), with its claim and an audit row (8071128: the repair
# was "DAWA", and the only private variant)
def test_private_dawa_partitions_a_noisy_histogram():
    from dpcompendium.chapters import histograms
    from dpcompendium.chapters.histograms.audits import audit_specs
    from dpcompendium.core.mechanisms import dawa as dw

    assert histograms.DAWA_CALIBRATION == {
        "private": "noisy-histogram",
        "repaired": "proved",
        "dpbench": "authors",
    }
    claim = histograms.privacy_claim("dawa", 1.0, "private")
    assert claim.private and "noisy histogram" in claim.mechanism
    assert histograms.privacy_claim("dawa", 1.0, "repaired").private
    assert not histograms.privacy_claim("dawa", 1.0, "dpbench").private
    # the partition reads the data only through x + Lap(1/eps1): the same noise gives the same partition whatever
    # generator state follows, and a histogram whose noisy version is flat is one bucket
    x = np.array([3.0, 3.0, 3.0, 3.0, 50.0, 50.0, 50.0, 50.0])
    a = dw.dawa_partition(x, 1.0, np.random.default_rng(1), calibration="noisy-histogram", size=50)
    b = dw.dawa_partition(x, 1.0, np.random.default_rng(1), calibration="noisy-histogram", size=50)
    assert (a == b).all() and a[:, 0].all()
    # with little noise no bucket straddles the jump between cells 3 and 4 (a flat stretch may still be split: the
    # noise's spread against the 1/eps2 a bucket costs does not shrink with eps, eps2/eps1 being fixed)
    starts = dw.dawa_partition(
        x, 1e4, np.random.default_rng(2), calibration="noisy-histogram", size=50
    )
    assert starts[:, 4].all() and starts[:, 0].all()
    rows = {s.mechanism: s for s in audit_specs()}
    spec = rows["dawa: private partition (on a noisy histogram)"]
    assert spec.expected == "holds" and "dawa: private partition (repaired)" in rows


def test_histograms_does_not_call_the_repair_dawa():
    text = _notebook_source("histograms")
    assert '("dawa", "private"): "DAWA",' not in text
    assert '("dawa", "repaired"): str(message("hist.name_dawa_repaired"))' in text


# (3) mwem: agreement with the course's reference table is an equivalence test with a stated margin, Holm-corrected
# over the figures, rendered by core.comparison (8071128: "reproduced" = inside our 95 % interval or within 10 %,
# a non-rejection, counted as agreement)
def test_mwem_reference_agreement_is_equivalence_not_non_rejection():
    import pandas as pd

    from dpcompendium.chapters import mwem
    from dpcompendium.core.rng import make_rng

    rng = np.random.default_rng(46)
    n = 100
    # heavy-tailed errors with a 150 % spread (relative standard error 15 % at 100 runs, as the course's 1-D figures)
    rows = [
        {
            "variant": "coursework",
            "epsilon": eps,
            "rep": r,
            **{m: v[k] for k, m in enumerate(mwem.METRICS)},
        }
        for eps in (0.1, 1.0)
        for r, v in enumerate(rng.lognormal(np.log(100.0), 1.0, size=(n, 4)))
    ]
    runs = pd.DataFrame(rows)
    means = runs.groupby("epsilon")[list(mwem.METRICS)].mean()
    # the reference 12 % above our average at every figure: inside the interval at this spread
    ref = (means * 1.12).reset_index()
    old = mwem.compare_with_reference(runs, ref, make_rng(1), n_boot=500)
    assert old["reproduced"].all()  # the old criterion called every figure reproduced
    claim = mwem.privacy_claim(1.0, 30, "coursework", 1)
    agr, tab = mwem.reference_agreement(runs, ref, lambda e: claim, margin=1.25)
    counts = agr.counts()
    assert counts["equivalent"] < len(tab) == 8 and counts["differ"] == 0
    assert set(tab["verdict"]) <= {"equivalent", "uncertain"}
    assert (tab["ratio"] - 1 / 1.12).abs().max() < 1e-9
    text = str(agr.sentence())
    assert "within a factor 1.25" in text and "too uncertain to tell" in text
    # a reference 60 % off is shown to differ; one equal to our average with a tight spread is equivalent
    tight = runs.assign(
        **{
            m: means.loc[runs["epsilon"], m].to_numpy() * rng.uniform(0.98, 1.02, len(runs))
            for m in mwem.METRICS
        }
    )
    tmeans = tight.groupby("epsilon")[list(mwem.METRICS)].mean()
    far, _ = mwem.reference_agreement(tight, (tmeans * 1.6).reset_index(), lambda e: claim)
    same, _ = mwem.reference_agreement(tight, tmeans.reset_index(), lambda e: claim)
    assert far.counts()["differ"] == 8 and same.counts()["equivalent"] == 8
    with pytest.raises(ValueError, match="reference_runs"):
        mwem.reference_agreement(runs, ref, lambda e: claim, reference_runs=1)


def test_mwem_reference_verdicts_are_rendered_by_the_comparison_object():
    text = _notebook_source("mwem")
    assert "ref1.reproduced.sum()" not in text and "cw2_.reproduced.sum()" not in text
    assert "reference_margin = 1.25  #" in text  # the margin fixed before the run
    assert "mwem.reference_agreement(" in text and "overview_1d = agr1.sentence()" in text
    # 2-D: our boxes are not the course's, so only the two-sided tests are read (issue 46, second review, M-S3)
    assert "comparison.family_sentence(agr.difference) for agr in (agr2, agr2a)" in text
    assert "agr2.sentence()" not in text and "agr2a.sentence()" not in text


# (4) MWEM on DPBench: pure-eps rows ranked only with pure-eps baselines ((eps, delta) rows refused, reported apart),
# ties counted as ties, the best MWEM row against the best baseline with an interval on the ratio (8071128: the best
# row over all variants, the zCDP one included, against pure-eps baselines by point estimates, "a baseline wins 5 of 8")
def _db_table():
    import pandas as pd

    rows = []
    for eps, (mw, hb) in {0.1: (100.0, 101.0), 1.0: (50.0, 20.0), 5.0: (10.0, 30.0)}.items():
        rows += [
            {
                "data": "D",
                "epsilon": eps,
                "method": "MWEM standard",
                "output": "last",
                "T": 10,
                "reps": 20,
                "mean_error": mw,
                "mean_error_sd": 0.2 * mw,
            },
            {
                "data": "D",
                "epsilon": eps,
                "method": "MWEM zcdp",
                "output": "last",
                "T": 10,
                "reps": 20,
                "mean_error": 0.5 * mw,
                "mean_error_sd": 0.1 * mw,
            },
            {
                "data": "D",
                "epsilon": eps,
                "method": "Hb",
                "output": "estimate",
                "T": float("nan"),
                "reps": 20,
                "mean_error": hb,
                "mean_error_sd": 0.2 * hb,
            },
        ]
    return pd.DataFrame(rows)


def _db_claim(row):
    from dpcompendium.chapters import mwem

    if row["output"] == "estimate":
        return mwem.baseline_claim(row["method"], row["epsilon"])
    v = row["method"].removeprefix("MWEM ")
    return mwem.privacy_claim(
        row["epsilon"], int(row["T"]), v, 1, delta=1e-7 if v == "zcdp" else None
    )


def test_mwem_dpbench_ranks_one_guarantee_and_counts_ties():
    from dpcompendium.chapters import mwem
    from dpcompendium.core.comparison import winner_counts

    table = _db_table()
    # the old summary: the zCDP row is the "best MWEM" and "wins" where its point estimate is lower
    old = mwem.best_against_baselines(table, by=("data",))
    assert old["best_mwem"].str.contains("zcdp").all() and (old["ratio"] < 1).sum() == 2
    with pytest.raises(ValueError, match="delta"):
        mwem.rank_against_baselines(
            table, _db_claim
        )  # (eps, delta) rows are not ranked with pure-eps ones
    pure = table[table["method"] != "MWEM zcdp"]
    rankings, results, tab = mwem.rank_against_baselines(pure, _db_claim)
    alone, ties = winner_counts(rankings)
    assert ties == 1 and alone == {
        "Hb": 1,
        "MWEM standard, last, T = 10": 1,
    }  # eps = 0.1: 100 vs 101, a tie
    assert list(tab["outcome"]) == ["tie", "worse", "better"]
    assert ((tab["lo"] < tab["ratio"]) & (tab["ratio"] < tab["hi"])).all()
    # the best-MWEM-vs-best-baseline comparisons are one family over the cells, Holm-corrected (issue 46, M-S4):
    # adjusted p-values at least the raw ones, intervals at the level of their Holm step (the first at 1 - 0.05/3)
    assert all(r.p_adjusted >= r.p_value and r.level >= 0.95 for r in results)
    assert max(r.level for r in results) == pytest.approx(1 - 0.05 / 3)
    assert (tab["p_adjusted"] == [r.p_adjusted for r in results]).all()
    assert all("% interval" in str(r.sentence()) for r in results)
    # the course-data summary can pool only the baselines' guarantee (issue 46, M-U3)
    std_only = mwem.best_against_baselines(table, by=("data",), mwem_methods=("MWEM standard",))
    assert not std_only["best_mwem"].str.contains("zcdp").any()
    assert list(std_only["ratio"]) == pytest.approx([100 / 101, 50 / 20, 10 / 30])
    every, some, _ = mwem.epsilons_shown_better(
        pure[pure["method"] == "MWEM standard"], pure[pure["method"] == "Hb"], _db_claim
    )
    assert every == [5.0] and some == []


def test_mwem_dpbench_bootstrap_t_reads_every_repetition():
    """Referee round 2, N10: the DPBench rankings by bootstrap-t on the repetitions (heavy-tailed errors), not Welch
    on summaries; the same clear verdicts, drawn from the rng (same seed, same result), and a tie stays a tie."""
    import pandas as pd

    from dpcompendium.chapters import mwem

    pure = _db_table()
    pure = pure[pure["method"] != "MWEM zcdp"]
    rng = np.random.default_rng(7)
    runs = pd.concat(
        [
            pd.DataFrame(
                {
                    **r.drop(["reps", "mean_error", "mean_error_sd"]).to_dict(),
                    "mean_error": r["mean_error"] * rng.lognormal(0.0, 0.2, 20),
                }
            )
            for _, r in pure.iterrows()
        ],
        ignore_index=True,
    )
    values = mwem.run_values(runs)
    assert len(values) == len(pure) and all(v.size == 20 for v in values.values())
    summary = pure.assign(mean_error=[values[("D", r.epsilon, mwem.row_label(r))].mean()
                                      for _, r in pure.iterrows()])  # fmt: skip
    out = [
        mwem.rank_against_baselines(summary, _db_claim, values=values, rng=np.random.default_rng(1))
        for _ in range(2)
    ]
    (rankings, results, tab), (_, results2, tab2) = out
    assert list(tab["outcome"]) == [
        "tie",
        "worse",
        "better",
    ]  # 100 vs 101: a tie; 2.5 and 1/3: separated
    assert all(r.comparison.test == "bootstrap-t" for rk in rankings for r in rk.results)
    assert all(r.comparison.test == "bootstrap-t" for r in results)
    assert tab.equals(tab2) and [r.p_value for r in results] == [r.p_value for r in results2]
    every, _, fam = mwem.epsilons_shown_better(
        summary[summary["method"] == "MWEM standard"],
        summary[summary["method"] == "Hb"],
        _db_claim,
        values=values,
        rng=np.random.default_rng(2),
    )
    assert every == [5.0] and all(r.comparison.test == "bootstrap-t" for r in fam)
    with pytest.raises(ValueError, match="together"):
        mwem.rank_against_baselines(summary, _db_claim, values=values)
    with pytest.raises(ValueError, match="no repetitions"):
        mwem.rank_against_baselines(summary, _db_claim, values={}, rng=np.random.default_rng(1))


def test_mwem_ratio_spans_show_the_side_of_1():
    """Referee round 2, N8: a span of ratios that straddles 1 is printed with the digits that show it."""
    from dpcompendium.book import prose
    from dpcompendium.chapters import mwem

    assert str(prose.span([0.954, 1.049], mwem.ratio_digits([0.954, 1.049]))) == "0.954–1.05"
    assert str(prose.span([0.35, 1.007], mwem.ratio_digits([0.35, 1.007]))) == "0.35–1.01"
    assert mwem.ratio_digits([0.35, 0.8]) == 2 and mwem.ratio_digits([1.0, 1.3]) == 2
    assert mwem.ratio_digits([0.9996, 1.2]) == 4 and mwem.ratio_digits([]) == 2
    with pytest.raises(ValueError, match="digits"):
        mwem.ratio_digits([1.0], digits=0)


def test_mwem_dpbench_verdicts_are_rendered_by_the_comparison_object():
    text = _notebook_source("mwem")
    # issue 46 (second review): the pay-off is listed from tests, not read off a maximum (M-W1); the zCDP variant
    # is compared at a T fixed in advance, with no causal clause (M-U2); DAWA is the private design-preserving
    # variant, named so (M-U1); the 2-D report is not called "the outlier" (M-V1)
    # referee round 2 (N10): the pay-off grid and the DPBench tests read every repetition by bootstrap-t, the grid
    # at 20 repetitions per cell (5 heavy-tailed runs: point estimates only, and the text says why)
    assert (
        "mwem.payoff_shown_better(" in text
        and "runs=payoff_runs, rng=make_rng(ss_pay_test)" in text
    )
    # the grid's default is chosen from its tests' power (issue 50), never below the 20 runs at which a bootstrap-t
    # test is trusted (tests/test_comparison_bootstrap.py checks its size and coverage at twenty runs)
    payoff_reps = int(re.search(r"^payoff_reps = (\d+)  #", text, re.M).group(1))
    assert "PAYOFF_TEST_REPS = 20" in text and payoff_reps >= 20
    assert '"mwem.payoff_points"' in text and '"mwem.payoff_tested_lead"' in text
    # reader review 3, M2: the tested grid is a one-row family table and a grid of every cell, not a tally
    assert "comparison.family_table(" in text and "comparison.results_grid(" in text
    assert "up to nε" not in text and "Welch tests" not in text
    assert text.count("rng=rng_db_") == 2 and "mwem.run_values(dpbench_runs)" in text
    assert "lets it use more rounds" not in text and "the smallest of each over T" not in text
    assert '"Identity", "Hb", "DAWA")' not in text and "mwem.DAWA_NAME" in text
    assert "the report's 2-D code is the outlier" not in text
    assert "its 2-D code deviates from the course's" not in text
    assert (
        "mwem.best_against_baselines(ranked_db" not in text
        and "beats every ranked MWEM row" not in text
    )
    assert "mwem.rank_against_baselines(" in text and "comparison.winner_sentence(" in text
    assert "mwem.epsilons_beating(" not in text


# issue 46, the referee's leftovers on dp-mean


def _cell_source(chapter: str, cell_id: str) -> str:
    import json
    from pathlib import Path

    nb = json.loads(
        (Path(__file__).resolve().parents[1] / "notebooks" / f"{chapter}.ipynb").read_text()
    )
    return next("".join(c["source"]) for c in nb["cells"] if c.get("id") == cell_id)


# N2: two releases identical in law are a proposition with its proof (8071128: an equivalence test within a margin
# of 1.5 gave the verdict); the simulation stays as a check
def test_dp_mean_method_4_is_method_3_is_a_proposition():
    text = _notebook_source("dp-mean")
    assert ":::{prf:proposition} Method 4 under replace-one is method 3" in text
    assert ":label: prop-dp-mean-m4-is-m3" in text
    after = text.split(":label: prop-dp-mean-m4-is-m3", 1)[1]
    assert after.index(":::{prf:proof}") < after.index("**Verdict.**")
    glue_cell = _cell_source("dp-mean", "glue-dpmean-conclusion")
    assert "MATCH_MARGIN" not in glue_cell and '"equivalence"' not in glue_cell
    assert "dpmean_coupled" in glue_cell  # the check: one stream, one release


@pytest.mark.parametrize("eps", [0.1, 1.0, 4.0])
def test_dp_mean_method_4_under_replace_one_is_method_3_draw_for_draw(eps):
    """The proposition's proof, in code: the same noise through both functions gives the same release."""
    from dpcompendium.chapters import dp_mean

    x = np.random.default_rng(0).uniform(17, 90, 37)
    a = dp_mean.noisy_average_centred(
        x, eps, (17.0, 90.0), np.random.default_rng(5), size=5000, calibration="replace-one"
    )
    b = dp_mean.noisy_average_clamped(x, eps, (17.0, 90.0), np.random.default_rng(5), size=5000)
    assert np.max(np.abs(a - b)) < 1e-9


# S5: CoinPress against the private-bounds mean is two-sided (8071128: a one-sided superiority test, which cannot
# say "worse"); S2: its table's intervals are Holm-consistent, with their level
def test_dp_mean_coinpress_is_two_sided_with_holm_intervals():
    glue_cell = _cell_source("dp-mean", "glue-dpmean-conclusion")
    coinpress = glue_cell.split("# CoinPress against the private-bounds mean", 1)[1].split(
        "glue(", 1
    )[0]
    assert '"superiority"' not in coinpress and '"tie"' in coinpress
    assert "comparison.holm(family)" in coinpress and '"level": r.level' in coinpress
    assert '"level"' in _cell_source("dp-mean", "dpmean-coinpress-table")


# minor: the Gaussian mean's cost is a comparison object's sentence at one (eps, delta) (8071128: a free-text median
# RMSE ratio, "Laplace beats Gaussian" asserted on one scalar)
def test_dp_mean_gaussian_cost_is_rendered_by_the_comparison_object():
    glue_cell = _cell_source("dp-mean", "glue-dpmean-conclusion")
    gauss = glue_cell.split("# the Gaussian mean against method 3 at one (eps, delta)", 1)[1]
    assert 'families.setdefault(("gauss", d)' in gauss
    # each dataset's family after its label in one plain sentence (reader review 6, A: no test named in it)
    assert 'verdict_texts.get("gauss", message("dpmean.no_large_cells"))' in gauss
    assert "comparison.labelled_verdicts(" in glue_cell and "family_sentence(" not in glue_cell
    assert "dp_mean.GAUSSIAN_DELTA" in gauss.split(".at_delta(", 1)[1][:80]
    assert "gauss_cost = dp_mean.rmse_ratio" not in glue_cell
    assert "prose.num(gauss_cost" not in glue_cell


# issue 46, second referee (D-V1): the summary, the conclusion figure's caption and the takeaways cite the coupled
# identity check (one stream, one release), not the independent-stream tests (a rejection there is a false one)
def test_dp_mean_identity_is_cited_by_its_coupled_check():
    import json
    from pathlib import Path

    nb = json.loads(
        (Path(__file__).resolve().parents[1] / "notebooks" / "dp-mean.ipynb").read_text()
    )
    cells = {c.get("id"): c for c in nb["cells"]}
    caption = cells["8b53c806"]["metadata"]["mystnb"]["figure"]["caption"]
    for text in (_cell_source("dp-mean", "57331b7e"), _cell_source("dp-mean", "7799d61d"), caption):
        assert "dpmean_coupled" in text
        assert "dpmean_verdict_matched" not in text and "dpmean_m4_sweep" not in text
    assert "dpmean_verdict_matched" not in json.dumps(
        nb
    )  # the independent-stream family is §1.6's check alone


# D-S1: the dp-mean families of MSE ratios are decided by the bootstrap-t on the repetitions' squared errors (not
# Welch's t on skewed losses), and the CoinPress table reports p-values through the comparison object (floored)
def test_dp_mean_families_use_the_bootstrap_and_floored_p_values():
    glue_cell = _cell_source("dp-mean", "glue-dpmean-conclusion")
    assert glue_cell.count('test="bootstrap-t"') == 3
    assert "comparison.bootstrap_t_family(" in glue_cell
    assert (
        "mean=" not in glue_cell and "mse_se" not in glue_cell.split("sq = dp_mean.squared", 1)[1]
    )
    assert '"p_holm": r.p_text()' in glue_cell  # the comparison object's rendering, floored


# m3: the errors table labels variants apart from the method names ("zcdp" is CoinPress's zCDP, not "MWEM")
def test_dp_mean_variants_are_not_method_names():
    from dpcompendium.chapters import dp_mean

    assert str(dp_mean.variant_label("zcdp")) == "zCDP"
    labels = {v: dp_mean.variant_label(v) for v in dp_mean.VARIANTS_SWEPT}
    assert not any("MWEM" in str(x) or "MWEM" in x.by_lang["zh_CN"] for x in labels.values())
    assert all(x.by_lang["zh_CN"] for x in labels.values())
    with pytest.raises(ValueError, match="variant"):
        dp_mean.variant_label("mwem")
    assert "dp_mean.variant_label" in _cell_source("dp-mean", "56a60b70")


# m7: the factor clamping divides the add-remove RMSE by names the method and split it belongs to
def test_dp_mean_clamping_factor_names_its_method():
    glue_cell = _cell_source("dp-mean", "glue-dpmean-conclusion")
    small = glue_cell.split('"dpmean_verdict_small"', 1)[1].split("display=False", 1)[0]
    assert "the add-remove method's" not in small
    assert "even split" in small and "optimised split" in small
    assert '("centred", "split-opt"), ("centred-clamped", "split-opt")' in glue_cell


# issue 49: no print dump on the dp-mean page or the primer: every cell that prints is a hidden check
@pytest.mark.parametrize("chapter", ["dp-mean", "primer"])
def test_no_print_dump_on_the_page(chapter):
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    path = root / ("book/primer.ipynb" if chapter == "primer" else f"notebooks/{chapter}.ipynb")
    nb = json.loads(path.read_text())
    shown = [
        c.get("id")
        for c in nb["cells"]
        if c["cell_type"] == "code"
        and "print(" in "".join(c["source"])
        and "remove-cell" not in c["metadata"].get("tags", [])
        and "remove-output" not in c["metadata"].get("tags", [])
    ]
    assert not shown, f"{chapter}: cells whose printed text reaches the page: {shown}"


def _notebook_text(chapter: str) -> str:
    """Every cell's source of a chapter's notebook, joined (markdown and code)."""
    import json
    from pathlib import Path

    nb = json.loads(
        (Path(__file__).resolve().parents[1] / "notebooks" / f"{chapter}.ipynb").read_text()
    )
    return "\n".join("".join(c["source"]) for c in nb["cells"])


# referee round 3 (issue 46): each finding pinned against the text that was refereed
# N2: fed-PCA's noisy-projection accuracy is the cost of that construction, not of private publication as such
def test_fedpca_noisy_projections_cost_is_of_this_release():
    text = _notebook_text("federated-pca")
    assert "is what private published data costs" not in text
    assert "is what this noisy-projection release costs" in text
    assert "are not tried here" in text


# R1: mwem's 2-D coursework-vs-standard comparison is untested: said as point estimates, with both run counts
def test_mwem_2d_coursework_below_standard_is_marked_untested():
    text = _notebook_text("mwem")
    below = text.split('"mwem_2d_below"', 1)[1].split("display=False", 1)[0]
    assert "point" in below and "not tested" in below
    assert "{n_cw2}" in below and "{n_std2}" in below


# R2: the error-vs-ε figure's caption gives the 2-D standard and zCDP variants' own repetitions
def test_mwem_error_figure_caption_gives_both_repetition_counts():
    from pathlib import Path

    raw = (Path(__file__).resolve().parents[1] / "notebooks" / "mwem.ipynb").read_text()
    caption = raw.split("Mean absolute error over the workload against", 1)[1][:300]
    assert "mwem_reps:myst" in caption and "mwem_reps_2d:myst" in caption


# R3 and R4: histograms' P-HP rank tests name their Holm family (claim.csv, with the rows not shown); the privacy fix's
# table prints each interval's level and calls the two-sided test so
def test_histograms_holm_family_and_interval_levels_are_stated():
    text = _notebook_text("histograms")
    assert "Holm-adjusted over the table's" not in text
    assert "rank tests of claim.csv" in text and 'not "\n' in text
    shown = text.split('save_table(equiv, "equivalence", out)', 1)[1].split("]\n", 2)
    assert '"level"' in "".join(shown[:2]) and '{"tie": "two-sided"}' in shown[0]


# R5: dp-mean's verdict table bounds method 2's loss by the chapter's own supremum, not by ≈2ε
def test_dp_mean_method_2_loss_is_the_supremum():
    text = _notebook_text("dp-mean")
    assert "loss up to $\\approx2\\varepsilon$" not in text
    assert "loss up to $\\varepsilon+\\ln(2-e^{-\\varepsilon})<2\\varepsilon$" in text


# issue 50: every family of mwem's verdicts says, beside its verdicts, whether its runs are enough for them
# (core.comparison.design_sentence: the power the verdicts shown had, or what "not separated" could have separated)
def test_mwem_verdict_families_carry_their_design_sentence():
    text = _notebook_source("mwem")
    for family in (
        "design_1d_eq = comparison.design_sentence(agr1.equivalence)",
        "design_1d_diff = comparison.design_sentence(agr1.difference)",
        "comparison.design_sentence(agr.difference) for agr in (agr2, agr2a)",
        "comparison.design_sentence(db_id_family)",
        "comparison.design_sentence(db_best_res)",
        "comparison.design_sentence([r for rk in db_rankings for r in rk.results])",
        "comparison.design_sentence(pay_family)",
    ):
        assert family in text, family
    raw = _notebook_text("mwem")
    for key in (
        "mwem_1d_design_eq",
        "mwem_1d_design_diff",
        "mwem_2d_design_last",
        "mwem_2d_design_average",
        "mwem_db_identity_design",
        "mwem_db_best_design",
        "mwem_db_rank_design",
        "mwem_payoff_design",
    ):
        assert f"{{glue:md}}`{key}:myst`" in raw, key


# referee 5, m8: every family of dp-mean's verdicts (method 4 vs method 3 under replace-one, CoinPress vs the private
# bounds, the Gaussian mean vs method 3) says beside its verdicts whether its runs are enough for them: the design
# sentence of each dataset's Holm family, from the results that family's verdicts are rendered from
def test_dp_mean_verdict_families_carry_their_design_sentence():
    glue_cell = _cell_source("dp-mean", "glue-dpmean-conclusion")
    assert 'sentence=comparison.design_sentence(decided[(kind, d)], null=kind == "m4")' in glue_cell
    assert (
        'for kind in ("m4", "coinpress", "gauss"):'
        in glue_cell.split("comparison.design_sentence", 1)[0]
    )
    prose = {
        "m4": (_cell_source("dp-mean", "20554f27"), "dpmean_m4_sweep"),
        "coinpress": (_cell_source("dp-mean", "20554f27"), "dpmean_verdict_coinpress"),
        "gauss": (_cell_source("dp-mean", "dpmean-today-md"), "dpmean_gauss_cost"),
    }
    for kind, (text, verdict) in prose.items():
        after = text.split(f"{{glue:md}}`{verdict}:myst`", 1)[1]
        # the design sentence follows its family's verdicts: in the next sentence, or first in the "Is the evidence
        # enough?" dropdown that directly follows the verdict's paragraph (reader review 4, M2)
        gap = after[: after.index(f"{{glue:md}}`dpmean_design_{kind}:myst`")]
        if ":::{dropdown} Is the evidence enough?" in gap:
            gap = gap.split(":::{dropdown} Is the evidence enough?", 1)[1]
            assert after.index(":::{dropdown}") < 200 + len(after) - len(after.lstrip()), kind
        assert len(gap) < 200, kind


# referee 6, m6 and m7: method 4 vs method 3 under replace-one is one method (the proposition), so its design
# sentence is a known-null check's (size and band, no power); every family's comparisons carry their cell, so that
# the band names its noisiest comparison
def test_dp_mean_known_null_family_reports_size_not_power_and_cells_are_named():
    cell = _cell_source("dp-mean", "glue-dpmean-conclusion")
    assert 'null=kind == "m4"' in cell
    assert 'cell = message("dpmean.cell", n=str(n_), eps=prose.num(e_))' in cell
    assert cell.count("setting=cell,") == 3  # the three families: m4, CoinPress, Gaussian
    m9 = _cell_source("dp-mean", "dpmean-today-md")
    # the first design sentence the reader meets links to the paragraph that explains it
    assert m9.index("{doc}`how to read this sentence <../book/reproducibility>`") < m9.index(
        "{glue:md}`dpmean_design_gauss:myst`"
    )
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    page = (root / "book" / "reproducibility.md").read_text(encoding="utf-8")
    assert "## How many runs: the design sentences" in page
    for words in (
        "a check after the fact",
        "restates the test statistic's margin",
        "optimistic for a row chosen",
    ):
        assert words in page, words


def test_dp_mean_design_sentences_read_each_family():
    """On a toy family like the chapter's (bootstrap-t, two-sided, Holm): the glued sentence is the core's
    design sentence of that family, per dataset."""
    from dpcompendium.core import comparison
    from dpcompendium.core.messages import join, message
    from dpcompendium.core.privacy import PrivacyClaim

    rng = np.random.default_rng(3)
    claim = PrivacyClaim("toy", "replace-one", "1", 1.0)
    fam = [
        comparison.Comparison(
            message("quantity.mse"),
            comparison.Arm("a", claim, values=rng.exponential(s, 200)),
            comparison.Arm("b", claim, values=rng.exponential(1.0, 200)),
            "tie",
            test="bootstrap-t",
        )
        for s in (1.0, 3.0)
    ]
    decided = comparison.holm(comparison.bootstrap_t_family(fam, np.random.default_rng(4)))
    text = str(
        join(
            [
                message(
                    "dpmean.on_data",
                    data=message("dpmean.data_heights"),
                    sentence=comparison.design_sentence(decided),
                )
            ],
            "; ",
        )
    )
    assert text.startswith("for heights") and "200 runs per arm" in text
    # the tie: the bootstrap's own interval, no t-based band (referee 8, n1)
    assert "the one not shown was decided by the studentized bootstrap" in text
    assert "could have been shown only at ratios outside" not in text
    # the separated cell: decided by the bootstrap, so no t-based count (referee 7, m-a)
    assert "the runs the 1 shown would need are not computed" in text
    assert "would be reached" not in text and "Welch approximation" not in text


# referee6 m2: the P-HP superiority family is decided by the studentized bootstrap (tail-driven MSEs); a t-based
# count of the runs it needs is not valid there, so the page says so instead of printing one
def test_histograms_php_design_is_not_a_t_count_for_bootstrap_t():
    from dpcompendium.core.messages import message

    text = _notebook_text("histograms")
    assert 'if all(r.comparison.test == "bootstrap-t" for r in fam_php)' in text
    assert '"hist.php_design_tail"' in text
    sentence = message("hist.php_design_tail", runs="700")
    assert str(sentence).startswith("these verdicts rest on 700 runs per arm")
    assert "not computed" in str(sentence) and "would be reached" not in str(sentence)
    assert "未予计算" in sentence.in_language("zh_CN")


# referee6 m4: where the ranking's per-setting tests and the PrivTree-vs-Hb family over the settings disagree, the
# settings are named; the dense-histogram winners' budgets are listed per dataset, not as a union
def test_histograms_privtree_names_the_settings_where_the_tests_differ():
    from dpcompendium.core.messages import message

    text = _notebook_text("histograms")
    assert '"hist.privtree_differ"' in text and "r.best.method" in text
    # per dataset, each set of budgets once (histograms.grouped_budgets; reader review, issue 49)
    assert "histograms.grouped_budgets(first_eps[m])" in text
    setting = message(
        "hist.privtree_setting",
        name="HEPTH",
        eps="0.01",
        ranking=message("hist.pt_lower"),
        family=message("hist.pt_none"),
    )
    assert (
        str(setting) == "HEPTH, ε = 0.01 (the ranking: PrivTree lower; this family: not separated)"
    )
    assert "PrivTree 较低" in setting.in_language("zh_CN")


def test_mwem_dpbench_comparisons_name_their_setting():
    """Referee 7, m-b: every DPBench comparison carries its setting (histogram, T when swept, ε), so a design
    sentence names its noisiest comparison by where it was made, not by the pair that every comparison shares."""
    from dpcompendium.chapters import mwem
    from dpcompendium.core.comparison import design_sentence

    pure = _db_table()
    pure = pure[pure["method"] != "MWEM zcdp"]
    rankings, results, tab = mwem.rank_against_baselines(pure, _db_claim)
    for (_, row), res in zip(tab.iterrows(), results, strict=True):
        assert str(res.comparison.setting) == f"{row['data']}, ε = {row['epsilon']:g}"
    assert all(r.comparison.setting for rk in rankings for r in rk.results)
    _, _, fam = mwem.epsilons_shown_better(
        pure[pure["method"] == "MWEM standard"], pure[pure["method"] == "Hb"], _db_claim
    )
    assert {str(r.comparison.setting) for r in fam} == {
        f"D, T = {t:g}, ε = {e:g}"
        for t, e in pure[pure["method"] == "MWEM standard"][["T", "epsilon"]].itertuples(
            index=False
        )
    }
    said = str(design_sentence(results))
    assert "noisiest" not in said or "D, ε = " in said


def _cells(chapter: str) -> dict[str, str]:
    import json
    from pathlib import Path

    nb = json.loads(
        (Path(__file__).resolve().parents[1] / "notebooks" / f"{chapter}.ipynb").read_text()
    )
    return {c.get("id", ""): "".join(c["source"]) for c in nb["cells"]}


def test_referee9_m1_the_non_inferiority_stream_is_not_said_to_be_unused():
    """Referee 9, m1: the non-inferiority test's seed stream has been drawn since the margin was fixed; the page
    said 'seed streams no earlier version used', which stopped being true when a later version drew it again."""
    text = _cells("histograms")["equiv-md"]
    assert "no earlier version used" not in text
    assert "first used after the margin was" in text and "the margin's choice saw" in text


def test_referee9_m2_the_checks_sentence_says_which_cells_run_fewer_repetitions():
    """Referee 9, m2: 'In this run (20 repetitions) all four hold' also covered check 1, which pools the cells
    that feed no verdict and run SHOWN_REPS repetitions: the sentence says so whenever such cells exist."""
    src = _cells("federated-pca")["glue-fedpca-checks"]
    assert "In this run ({checks_reps}) all four hold" in src
    assert (
        "few_reps = int(energy.reps.min())" in src and "check 1 also pools the cells at s =" in src
    )


def test_referee9_m3_no_glue_starting_in_lower_case_after_a_full_stop():
    """Referee 9, m3: hist_dawa_dpbench's sentence starts in lower case ('against DAWA as DPBench runs it'); glued
    after a full stop it read '. against DAWA'. It follows a semicolon wherever it starts a clause."""
    for cid, text in _cells("histograms").items():
        assert ". {glue:md}`hist_dawa_dpbench:myst`" not in text, cid


def test_referee16_m4_verdict_tables_have_leads_and_say_what_they_show():
    """Referee 16, m4: mwem's pay-off family table and dp-mean's CoinPress table each get a lead from the comparison
    objects (``table_lead``); the CoinPress table's lead names the ε it shows (every fourth) and how many of the settings; the
    histograms' mean-reading result is in the text, not in the dropdown on the evidence."""
    from dpcompendium.core.messages import message

    mwem_text = _notebook_source("mwem")
    assert "lead=comparison.table_lead(pay_family)" in mwem_text
    assert "LEAD-SENTENCE" in str(
        message("mwem.payoff_tested_lead", reps="70", lead="LEAD-SENTENCE")
    )
    dp_text = _notebook_source("dp-mean")
    # per dataset since referee 18, l-2: each dataset is its own Holm family
    assert "lead=cp_lead" in dp_text and "dpmean_coinpress_lead" in dp_text
    assert "comparison.labelled_verdicts(" in dp_text
    assert "every fourth" in dp_text
    # the lead (not the caption, which has its Chinese pair) says which settings the table shows
    shown = str(message("dpmean.cp_table_lead", k="24", n="78", eps="$EPS$", lead="LEAD"))
    assert "24 of the 78 settings" in shown and "those with $EPS$" in shown
    # a run whose table shows every setting says so, not "every fourth" (reader's run with two ε)
    every = str(message("dpmean.cp_table_lead_all", n="6", lead="LEAD"))
    assert "all 6 settings" in every and "fourth" not in every
    hist = _notebook_source("histograms")
    dropdown = hist.split("{glue:md}`hist_php_reconcile:myst`", 1)[1].split(":::", 2)[1]
    assert "hist_php_detail" not in dropdown and "hist_php_detail:myst" in hist
