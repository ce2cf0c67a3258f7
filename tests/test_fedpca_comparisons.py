"""federated-pca: the referee's findings of issue 46 on the chapter's verdicts (F-V1, m5, m6), each tested.

F-V1: the source's utility claim ("less noise than DPdisPCA, hence higher utility") names the captured energy *and*
the SVM accuracy; each is said through :mod:`dpcompendium.core.comparison` (``utility_comparisons``), setting by
setting, so an SVM setting where DPdisPCA's accuracy is the higher one is not folded into a verdict on the energy.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from dpcompendium.chapters import federated_pca as P
from dpcompendium.core import comparison
from dpcompendium.core.messages import METHOD_NAMES, message

DELTA = {"wine": 1e-5}


def _runs(acc_central, acc_dpdis, column="accuracy", eps=1.0):
    rows = []
    for rep, (a, b) in enumerate(zip(acc_central, acc_dpdis, strict=True)):
        rows.append({"dataset": "wine", "epsilon": eps, "rep": rep, "method": "central", column: a})
        rows.append(
            {"dataset": "wine", "epsilon": eps, "rep": rep, "method": "dpdispca", column: b}
        )
    return pd.DataFrame(rows)


def _compare(runs, column="accuracy"):
    return P.utility_comparisons(runs, column, message("fedpca.quantity_svm"), DELTA)


def test_utility_comparisons_says_which_arm_is_higher():
    rng = np.random.default_rng(0)
    central = 0.90 + 0.005 * rng.standard_normal(10)
    dpdis = 0.80 + 0.005 * rng.standard_normal(10)
    res = _compare(_runs(central, dpdis))
    assert list(res.outcome) == ["better"] and res.test.item() == "paired"
    assert res.ratio.item() == pytest.approx((1 - central.mean()) / (1 - dpdis.mean()))
    # the other way round: DPdisPCA's accuracy higher (as on wine in the book's run) is said as such
    res = _compare(_runs(dpdis, central))
    assert list(res.outcome) == ["worse"]
    text = str(comparison.family_sentence(list(res.result)))
    assert "differ" in text and "lower in 0 and higher in 1" in text


def test_utility_comparisons_counts_an_unseparated_setting_as_a_tie():
    rng = np.random.default_rng(1)
    same = 0.85 + 0.02 * rng.standard_normal(10)
    res = _compare(_runs(same + 0.001 * rng.standard_normal(10), same))
    assert list(res.outcome) == ["tie"]
    assert "not separated" in str(comparison.family_sentence(list(res.result)))


def test_utility_comparisons_zero_loss_takes_welch_and_fewer_than_two_reps_none():
    res = _compare(_runs([1.0, 0.9, 0.95, 0.92], [0.8, 0.82, 0.79, 0.81]))
    assert res.test.item() == "welch"
    assert len(_compare(_runs([0.9], [0.8]))) == 0


def test_utility_comparisons_holm_over_the_settings():
    rng = np.random.default_rng(2)
    runs = pd.concat(
        [
            _runs(0.9 + 0.01 * rng.standard_normal(6), 0.88 + 0.01 * rng.standard_normal(6), eps=e)
            for e in (0.5, 1.0, 2.0)
        ]
    )
    res = _compare(runs)
    raw = [r.comparison.result().p_value for r in res.result]
    assert len(res) == 3
    assert all(pa >= p for pa, p in zip(res.p_adjusted, raw, strict=True))
    assert sorted(res.p_adjusted)[0] == pytest.approx(min(1.0, 3 * min(raw)))


def test_utility_comparisons_refuses_runs_without_its_columns():
    with pytest.raises(ValueError, match="runs must have columns"):
        P.utility_comparisons(pd.DataFrame({"x": [1]}), "accuracy", "q", DELTA)


def test_svm_table_from_its_runs_is_the_table():
    args = (["wine"], [1.0], 1e-5, 2, 2, 2, 3)
    runs = P.svm_runs(*args, folds=3, max_rows=100)
    pd.testing.assert_frame_equal(
        P.svm_table(*args, folds=3, max_rows=100, runs=runs),
        P.svm_table(*args, folds=3, max_rows=100),
    )


def test_noise_table_names_cape_as_published():
    """m5: the noise-level table's CAPE is CAPE as published, not the calibrated variant the sweeps call "cape"."""
    assert METHOD_NAMES["en"]["cape-as-published"] == "CAPE (as published)"
    assert "cape-as-published" in METHOD_NAMES["zh_CN"]


def test_secure_aggregation_claim_is_for_real_valued_shares():
    """m6: the secure-aggregation claim states that its accounting is for real-valued shares."""
    claim = P.privacy_claim("secure-aggregation", 1.0, 1e-6, 10_000, s=10)
    assert claim.private and P.SECURE_AGGREGATION_REAL_SHARES in claim.conditions
    assert "fixed-point" in str(claim.statement())
    # and what is released after the subspace carries it too
    rel = P.release_claim("secure-aggregation", 1.0, 1e-6, 10_000, release="subspace", s=10)
    assert P.SECURE_AGGREGATION_REAL_SHARES in rel.conditions


def test_claims_cards_read_as_text_and_maths():
    """reader B2/B5: the claims cards print the sensitivity as sqrt(2)/n in maths with a short number, powers of two
    and primed symbols in maths, no code names, no e-notation (the cards' text outside maths is prose)."""
    cards = [
        P.privacy_claim(m, 1.0, 1e-6, 10_000, s=10, preprocessing=pre)
        for m in ("central", "secure-aggregation", "cape", "noisy-power")
        for pre in ("public", "as-written")
    ]
    cards += [
        P.release_claim("central", 1.0, 1e-6, 10_000, release=r, s=10)
        for r in ("exact-projections", "noisy-projections")
    ]
    for c in cards:
        md = c.statement_md()
        text = re.sub(r"\$[^$]*\$", " ", md)
        assert "0.000141421" not in md, md
        if "rows in the unit ball: " in md:
            assert r"rows in the unit ball: $\sqrt{2}/n = 0.000141$" in md, md
        for raw in (
            "2^64",
            "V'",
            "release_claim",
            "preprocessing_sensitivity",
            "audit_rows",
            "e-0",
        ):
            assert raw not in text, (raw, md)
    assert "$2^{64}$" in cards[2].statement_md()


def test_a_group_of_release_rows_prints_every_rows_guarantee_not_the_first():
    """referee N7: the noisy-projections rows run at several ε and each dataset's δ; the group's guarantee is their
    range, from the claims, not the first row's (ε, δ)."""
    rows = []
    for eps in (0.1, 1.0, 10.0):
        for dlt in (3.1e-7, 5.6e-5):
            c = P.release_claim(
                "secure-aggregation", eps, dlt, 10_000, release="noisy-projections", s=10
            )
            assert c.private
            rows.append({"epsilon": eps, "delta": dlt, "private": c.private, "label": c.guarantee})
    df = pd.DataFrame(rows)
    g = P.release_guarantee(df)
    assert str(g) == "(ε, δ)-DP at each row's ε (0.1–10) and its dataset's δ (3.1e-07–5.6e-05)"
    assert "10^{-7}" in g.myst and "e-07" not in g.myst and df.label.iloc[0] not in str(g)
    # one shared claim is printed as it is; not-private rows print why
    assert str(P.release_guarantee(df.iloc[:1])) == df.label.iloc[0]
    why = P.release_claim("central", 1.0, 1e-6, 10_000, release="exact-projections").why.split(
        " — "
    )[0]
    bad = pd.DataFrame(
        [{"epsilon": e, "delta": 1e-6, "private": False, "label": why} for e in (0.1, 1.0)]
    )
    assert str(P.release_guarantee(bad)) == why
    with pytest.raises(ValueError, match="all private or all not private"):
        P.release_guarantee(pd.concat([df, bad]))
    with pytest.raises(ValueError, match="rows must be non-empty"):
        P.release_guarantee(df.drop(columns="delta"))


def test_svm_runs_do_not_depend_on_n_jobs():
    """A reader may pass n_jobs 2 (the default is 1, issue 50): the SVM sweep's rows are the same with one worker or two (the
    energy sweep's: test_pca.py::test_energy_runs_reproducible_and_ordered)."""
    args = (["wine", "breast_cancer"], [0.5, 5.0], 1e-5, 2, 2, 2, 7)
    one = P.svm_runs(*args, folds=3, max_rows=100)
    two = P.svm_runs(*args, folds=3, max_rows=100, n_jobs=2)
    pd.testing.assert_frame_equal(one, two)


def test_each_comparison_family_is_followed_by_its_design_sentence():
    """Issue 50: the repetitions are chosen from the power each verdict needs, and the chapter says so: each family of
    utility verdicts (captured energy, SVM accuracy) is glued with ``design_named`` of its own results (the design
    sentence with its short verdicts named, referee 8 n3), and the prose puts that sentence right after the family's
    verdicts."""
    import json

    from dpcompendium.core.paths import repo_root

    nb = json.loads((repo_root() / "notebooks" / "federated-pca.ipynb").read_text(encoding="utf-8"))
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    prose = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    for family, results in (("energy", "energy_cmp"), ("svm", "svm_cmp")):
        assert re.search(rf"paired_{family} = \[r for r in {results}\.result if", code), family
        assert re.search(
            rf'"fedpca_{family}_design",\s*federated_pca\.design_named\(paired_{family}\)', code
        ), family
        # right after the family's verdicts: in the same table cell or line of prose
        assert re.search(
            rf"`fedpca_{family}_family:myst`[^|\n]*`fedpca_{family}_design:myst`", prose
        ), family


def test_design_sentence_reads_enough_runs_on_a_clear_family():
    """The sentence the chapter glues on a utility family: "reached with power 0.9 from M runs" when the largest
    ``runs_needed`` of its shown verdicts, M, is at most the runs per arm."""
    rng = np.random.default_rng(3)
    clear = _compare(
        _runs(0.90 + 0.005 * rng.standard_normal(10), 0.80 + 0.005 * rng.standard_normal(10))
    )
    text = str(comparison.design_sentence(list(clear.result)))
    assert "rest on 10 runs per arm" in text and "would be reached with power 0.9 from" in text
    needed = max(r.runs_needed(0.9) for r in clear.result if r.holds)
    assert needed <= 10


def _notebook_cells() -> dict[str, str]:
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "notebooks" / "federated-pca.ipynb"
    return {c.get("id"): "".join(c["source"]) for c in json.loads(path.read_text())["cells"]}


def test_source_table_rows_carry_design_sentences_and_values_not_parameter_names():
    # referee5 m8: the SVM row of the comparison-with-source table had no design sentence (the energy row has one)
    # and printed the parameter name `svm_sites` instead of its value
    cells = _notebook_cells()
    params = re.findall(r"^(\w+) = ", cells["1863d1dd"], flags=re.M)
    assert "svm_sites" in params and "svm_reps" in params
    rows = [r for r in cells["51f217e1"].splitlines() if "hence higher utility" in r]
    assert len(rows) == 2
    for row, design in zip(rows, ("fedpca_energy_design", "fedpca_svm_design"), strict=True):
        assert f"{{glue:md}}`{design}:myst`" in row, row
        shown = [p for p in params if f"`{p}`" in row]
        assert not shown, f"the row names parameters {shown} instead of their values: {row}"
    assert 'glue("fedpca_svm_sites", f"{svm_sites}"' in "".join(cells.values())


def test_secure_aggregation_card_says_the_coalition_factor_is_exact_for_mu_only():
    # referee5 m11: "(eps grows by sqrt(s/(s-c)))" is exact for mu-GDP, approximate for eps at fixed delta
    # (the coalition table shows 6.81 against sqrt(s) = 7.07)
    claim = P.privacy_claim("secure-aggregation", 1.0, 1e-6, 10_000, s=10)
    plain, en, zh = str(claim.why), claim.why.myst, claim.why.in_language("zh_CN")
    assert "eps grows by sqrt" not in plain and "mu of mu-GDP grows by sqrt(s/(s-c))" in plain
    # referee 6 m5: and not as a bound (under the analytic calibration the exact eps exceeds the factor)
    assert (
        "roughly so, not as a bound" in plain
        and "roughly so, not as a bound" in en
        and "\\mu" in en
    )
    assert "不是上界" in zh and "\\mu" in zh
    # the exact coalition epsilon is below the first-order factor at c = s - 1, as the card now says
    coal = P.coalition_table(1.0, 1e-6, 10_000, [10])
    last = coal[coal.colluders == 9].iloc[0]
    assert last.secure_aggregation < last.first_order


def test_shown_epsilons_render_one_value_when_they_tie():
    # issue 45 (new user): a run with one epsilon headed its SVM table "epsilon = 0.01 and 0.01"
    assert P.shown_epsilons(0.01, 0.01) == ([0.01], "0.01")
    assert P.shown_epsilons(1.0, 0.1) == ([0.1, 1.0], "0.1 and 1")
    assert P.shown_epsilons(0.1, 1.0, 10.0)[1] == "0.1, 1 and 10"
    with pytest.raises(ValueError, match="epsilons"):
        P.shown_epsilons()
    with pytest.raises(ValueError, match="epsilons"):
        P.shown_epsilons(-1.0)
    # the SVM cell's print and its table's caption and rows go through it
    cells = _notebook_cells()
    for cid in ("e7c59a55", "fedpca-svm-table"):
        assert "{eps_lo:g} and {eps_mid:g}" not in cells[cid], cid
        assert "{eps_shown_text}" in cells[cid] and "(slice(None), eps_shown)" in cells[cid], cid
    assert "federated_pca.shown_epsilons(eps_lo, eps_mid)" in cells["e7c59a55"]


def test_coalition_first_order_value_is_an_approximation_and_the_exact_c0_value_is_stated():
    # referee 6 m5: eps sqrt(s/(s-c)) is not a bound (analytic calibration: the exact eps exceeds it at c = s - 1),
    # and "with one colluder it is at 0.806" needs the exact eps at c = 0 (0.797) beside the nominal 1
    n = P.load_dataset("adult").n
    analytic = P.coalition_table(1.0, 0.01 / n, n, [50], calibration="analytic")
    assert analytic.iloc[-1].secure_aggregation > analytic.iloc[-1].first_order
    classical = P.coalition_table(1.0, 0.01 / n, n, [50], calibration="classical")
    assert classical.iloc[0].secure_aggregation < 1.0 < classical.iloc[-1].first_order
    cells = _notebook_cells()
    glue_cell = cells["glue-fedpca-coalition"]
    # the sentence is a template (native review 8, C6: fedpca.coalition), glued with and without Adult's δ
    from dpcompendium.core.messages import CATALOGUE

    template = CATALOGUE["en"]["fedpca.coalition"]
    assert "whose exact value with no colluder is" in template and "is not a bound" in template
    assert "exact0=prose.num(at_s_big.secure_aggregation[0], 3)" in glue_cell
    assert "federated_pca.coalition_sentence(" in glue_cell
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "notebooks" / "federated-pca.ipynb"
    nb = json.loads(path.read_text(encoding="utf-8"))
    caption = next(c for c in nb["cells"] if c.get("id") == "fedpca-coalition-fig")["metadata"]
    caption = caption["mystnb"]["figure"]["caption"]
    assert "first-order approximation" in caption
    assert (
        "not a bound: ε grows faster than μ once μ is large; exact values in the table" in caption
    )
    text = "".join(cells.values()) + "".join(
        "".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"
    )
    for stale in (
        "first-order bound",
        "by about as much",
        "exactly for the analytic calibration's leading term",
    ):
        assert stale not in text, stale
    for module in Path(P.__file__).parent.glob("*.py"):
        body = " ".join(module.read_text(encoding="utf-8").split())
        assert "first-order bound" not in body and "by about as much" not in body, module


def _notebook_json() -> dict:
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "notebooks" / "federated-pca.ipynb"
    return json.loads(path.read_text())


def test_attack_epsilon_is_rendered_as_its_value_in_prose_and_captions():
    # referee 7 m-f: "at ε = attack_epsilon" in §4.4, §4.5, a caption and the takeaway, instead of its value
    nb = _notebook_json()
    markdown = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    captions = [
        c["metadata"]["mystnb"]["figure"]["caption"]
        for c in nb["cells"]
        if "figure" in c["metadata"].get("mystnb", {})
    ]
    assert "`attack_epsilon`" not in markdown
    assert not [cap for cap in captions if "attack_epsilon" in cap]
    assert markdown.count("{glue:md}`fedpca_attack_eps:myst`") >= 4
    assert 'glue("fedpca_attack_eps", prose.num(attack_epsilon)' in "".join(
        "".join(c["source"]) for c in nb["cells"]
    )


def test_figure_captions_write_epsilon_as_the_symbol():
    # issue 48 (zh review 3, R2): "Captured energy against epsilon" spelt the letter out in a caption
    for c in _notebook_json()["cells"]:
        cap = c["metadata"].get("mystnb", {}).get("figure", {}).get("caption", "")
        assert not re.search(r"\bepsilon\b", cap), cap


def test_each_epsilon_says_the_delta_it_is_at():
    # referee 7 m-f: the takeaway's CAPE ε (1.08) is at the generic run's δ = 1e-6, §4.5's coalition ε's at Adult's δ
    cells = _notebook_cells()
    text = "\n".join(cells.values())
    take = next(s for s in cells.values() if s.startswith("## Key takeaways"))
    assert "$\\delta$ = {glue:md}`fedpca_take_delta:myst`" in take
    assert "{glue:md}`fedpca_take_cape:myst` (at the same\n  $\\delta$;" in take
    # referee 10, N3: the coalition section's CAPE number (Adult's δ, the most sites) is named with its settings
    assert (
        "{glue:md}`fedpca_take_cape_big:myst` at Adult's $\\delta$ with "
        "{glue:md}`fedpca_take_sites_big:myst` sites" in take
    )
    assert 'glue("fedpca_take_cape_big", prose.num(at_s_big.cape[0], 3)' in text
    assert 'glue("fedpca_take_delta", prose.num(delta)' in text
    # inside the coalition sentence in the claims table; after §4.5's lead, which gives Adult's δ, it is not
    # said twice (native review 8, C6)
    assert "federated_pca.coalition_sentence(**coalition, delta=adult_delta)" in text
    assert "{glue:md}`fedpca_coalition_text:myst` |" in "".join(
        "".join(c["source"]) for c in _notebook_json()["cells"] if c["cell_type"] == "markdown"
    )
    assert "Adult's\n$\\delta$ = {glue:md}`fedpca_adult_delta:myst`" in text


def test_share_span_prints_one_number_for_a_degenerate_range():
    # referee 7 m-f: "re-identifies 100.0%–100.0% of them"
    assert str(P.share_span([1.0, 1.0, 1.0])) == "100.0%"
    assert str(P.share_span(pd.Series([0.9996, 1.0]))) == "100.0%"  # both ends round alike
    assert str(P.share_span([0.972, 1.0])) == "97.2%–100.0%"
    assert str(P.share_span([0.5, 0.97], 0)) == "50%–97%"
    with pytest.raises(ValueError, match="values"):
        P.share_span([])
    text = "\n".join(_notebook_cells().values())
    assert "federated_pca.share_span(recon.reidentified, 1)" in text
    assert "{recon.reidentified.min():.1%}–" not in text


def test_comparisons_name_their_setting():
    # referee 7 m-b: the noisiest comparison was named by its arms only ("Analyze Gauss (central) vs DPdisPCA")
    rng = np.random.default_rng(3)
    runs = pd.concat(
        [
            _runs(0.85 + 0.02 * rng.standard_normal(8), 0.84 + 0.02 * rng.standard_normal(8), eps=e)
            for e in (0.1, 1.0)
        ]
    )
    res = _compare(runs)
    labels = [r.comparison.setting for r in res.result]
    assert [str(s) for s in labels] == ["wine, ε = 0.1", "wine, ε = 1"]
    assert labels[0].myst == "wine, $\\varepsilon = 0.1$"
    assert labels[0].in_language("zh_CN") == "葡萄酒数据，$\\varepsilon = 0.1$"
    design = comparison.design_sentence(list(res.result))
    assert "(wine, ε = " in str(design)
    # with a split (the energy family): the split's words in each language
    runs["split"] = "unequal"
    res = P.utility_comparisons(
        runs,
        "accuracy",
        message("fedpca.quantity_svm"),
        DELTA,
        by=["dataset", "split", "epsilon"],
    )
    setting = res.result.iloc[0].comparison.setting
    assert str(setting) == "wine, unequal sites, ε = 0.1"
    assert setting.in_language("zh_CN") == "葡萄酒数据，站点规模不等，$\\varepsilon = 0.1$"


def _family_with_short_verdicts():
    """Central against DPdisPCA on wine at four ε with 6 repetitions: two settings far apart (shown with room to
    spare), one close but shown (short of runs for power 0.9), one not separated."""
    rng = np.random.default_rng(1)
    noise = rng.standard_normal((4, 6))
    runs = pd.concat(
        [
            _runs(0.90 + 0.002 * noise[0], 0.70 + 0.002 * noise[1], eps=0.5),
            _runs(0.90 + 0.002 * noise[1], 0.60 + 0.002 * noise[2], eps=1.0),
            _runs(0.900 + 0.01 * noise[2], 0.880 + 0.01 * noise[2] + 0.014 * noise[3], eps=2.0),
            _runs(0.85 + 0.02 * noise[3], 0.85 + 0.02 * noise[0], eps=5.0),
        ]
    )
    return list(_compare(runs).result)


def test_design_named_names_exactly_the_short_verdicts_the_sentence_counts():
    """Referee 8, n3: the SVM and energy families counted their short verdicts ("… and 2 would need up to 13 runs")
    without naming them; the sentence now names each (its setting and the runs it needs), and the named ones are
    exactly those the count covers."""
    results = _family_with_short_verdicts()
    figures = comparison.design_figures(results)
    short = P.short_verdicts(results)
    assert figures["short_counted"] >= 1 and len(short) == figures["short_counted"]
    assert max(need for _, need in short) == figures["needed_counted"]
    text = str(P.design_named(results))
    assert text.startswith(str(comparison.design_sentence(results)))
    a, b = results[0].comparison.a.name, results[0].comparison.b.name
    assert f"; the shown verdicts short of these runs ({a} against {b}): " in text
    for r, need in short:
        assert f"{r.comparison.setting} ({int(need)} runs)" in text
    # the verdicts with runs to spare are not named
    named = {str(r.comparison.setting) for r, _ in short}
    for r in results:
        if str(r.comparison.setting) not in named:
            assert f"{r.comparison.setting} (" not in text
    # and the Chinese sentence names them too, with the runs each needs
    zh = P.design_named(results).in_language("zh_CN")
    assert "其中重复次数不足的已表明判定" in zh
    for _, need in short:
        assert f"需要 {int(need)} 次运行" in zh


def test_design_named_is_the_design_sentence_when_nothing_is_short():
    rng = np.random.default_rng(3)
    runs = _runs(0.9 + 0.001 * rng.standard_normal(20), 0.5 + 0.001 * rng.standard_normal(20))
    results = list(_compare(runs).result)
    assert P.short_verdicts(results) == []
    assert str(P.design_named(results)) == str(comparison.design_sentence(results))


def test_design_parts_put_the_short_verdicts_in_a_paragraph_of_their_own():
    """Issue 49: the design sentence and the verdicts short of runs were one paragraph of 650–730 characters; they are
    two, whose texts together say what :func:`design_named` says, in both languages."""
    results = _family_with_short_verdicts()
    design, short = P.design_parts(results)
    assert str(design) == str(comparison.design_sentence(results))
    a, b = results[0].comparison.a.name, results[0].comparison.b.name
    assert str(short).startswith(f"The shown verdicts short of these runs ({a} against {b}): ")
    assert str(short).endswith(".")
    whole = str(P.design_named(results))
    assert whole == str(design) + "; t" + str(short)[1:-1]
    for r, need in P.short_verdicts(results):
        assert f"{r.comparison.setting} ({int(need)} runs)" in str(short)
    zh = short.in_language("zh_CN")
    assert zh.startswith("其中重复次数不足的已表明判定") and zh.endswith("。")
    rng = np.random.default_rng(3)
    runs = _runs(0.9 + 0.001 * rng.standard_normal(20), 0.5 + 0.001 * rng.standard_normal(20))
    calm = list(_compare(runs).result)
    assert str(P.design_parts(calm)[1]) == "No shown verdict is counted short of these runs."


def test_flat_column_reads_as_two_paragraphs_below_the_limit():
    """Issue 49: the column z, flat, read alone was one paragraph of 673 characters (four sentences); it is two, the
    column and its largest z, then why a rejection is a type-I error; each case gives two non-empty paragraphs."""
    params = {"rows": "10", "z": "3.52", "where": "synthetic, unequal sites", "p": "0.0023",
              "p_holm": "0.023", "df": "19"}  # fmt: skip
    first, second = P.flat_column_paragraphs({"rows": 10, "p_holm": 0.023}, params)
    assert str(first).startswith("The column averages over") and str(first).endswith("column.")
    assert "is 3.52 (synthetic, unequal sites)" in str(first)
    assert str(second).startswith("That is below the family's level 0.05.") and str(
        second
    ).endswith("split.")
    assert max(len(str(first)), len(str(second))) < 600 < len(str(first)) + len(str(second)) + 200
    assert "同分布" in second.in_language("zh_CN")
    first, second = P.flat_column_paragraphs(
        {"rows": 10, "p_holm": 0.3}, params | {"p_holm": "0.3"}
    )
    assert str(first).endswith("read alone.")
    assert str(second).startswith("Its largest") and str(second).endswith("rows of one law.")
    first, second = P.flat_column_paragraphs({"rows": 0}, {})
    assert str(first) == "The column has no finite z-score."
    assert str(second) == "With one repetition a cell has no standard error."


def test_the_chapter_glues_the_split_paragraphs():
    """Issue 49: the dropdowns read the two-paragraph glues, each glued in a code cell."""
    import json
    from pathlib import Path

    nb = json.loads(
        (Path(__file__).resolve().parents[1] / "notebooks" / "federated-pca.ipynb").read_text()
    )
    md = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    for key in (
        "fedpca_flat_verdict",
        "fedpca_wishart_short",
        "fedpca_svm_design_alone",
        "fedpca_svm_short",
    ):
        assert f"{{glue:md}}`{key}:myst`" in md and f'glue("{key}"' in code
    assert "{glue:md}`fedpca_flat_column:myst`\n\n{glue:md}`fedpca_flat_verdict:myst`" in md
    assert "{glue:md}`fedpca_svm_design_alone:myst`.\n\n{glue:md}`fedpca_svm_short:myst`" in md


def test_shown_reps_keep_the_verdicts_rows_bit_for_bit():
    """Issue 50: what feeds no verdict runs ``SHOWN_REPS`` repetitions (energy cells between the smallest and the
    largest number of sites; the SVM's methods other than central and DPdisPCA); the verdicts' rows are those of the
    full count, and the shortened cells' rows are the first repetitions of the full count's, draw for draw."""
    keys = ["dataset", "split", "sites", "rep", "epsilon", "method"]
    args = (["wine"], [0.5, 2.0], 1e-5, [2, 5, 10], 2, 4, 9)
    full = P.energy_runs(*args, splits=("equal",), shown_reps=None)
    short = P.energy_runs(*args, splits=("equal",), shown_reps=2)
    assert short.groupby("sites").rep.nunique().to_dict() == {2: 4, 5: 2, 10: 4}
    both = full.merge(short, on=keys)
    assert len(both) == len(short)
    assert (both.captured_energy_x == both.captured_energy_y).all()

    keys = ["dataset", "rep", "epsilon", "method"]
    args = (["wine"], [0.5, 2.0], 1e-5, 3, 2, 4, 9)
    full = P.svm_runs(*args, folds=3, max_rows=100, shown_reps=None)
    short = P.svm_runs(*args, folds=3, max_rows=100, shown_reps=2)
    counts = short.groupby("method").rep.nunique()
    assert (counts[list(P.VERDICT_METHODS)] == 4).all()
    assert (counts.drop(list(P.VERDICT_METHODS)) == 2).all()
    both = full.merge(short, on=keys)
    assert len(both) == len(short)
    assert (both.accuracy_x == both.accuracy_y).all()


def test_chapter_names_the_short_verdicts_of_both_families():
    """Referee 8, n3: the chapter's SVM and energy design sentences are :func:`design_named`'s (which name the short
    verdicts), not the bare count of ``comparison.design_sentence``; and the page says how many repetitions what
    feeds no verdict runs (issue 50)."""
    import json
    from pathlib import Path

    nb = json.loads(
        (Path(__file__).resolve().parents[1] / "notebooks" / "federated-pca.ipynb").read_text()
    )
    text = "\n".join("".join(c["source"]) for c in nb["cells"])
    assert "comparison.design_sentence(paired_" not in text
    assert "federated_pca.design_named(paired_energy)" in text
    assert "federated_pca.design_named(paired_svm)" in text
    assert (
        "{glue:md}`fedpca_energy_reps:myst`" in text and "{glue:md}`fedpca_svm_reps:myst`" in text
    )


def test_the_smallest_epsilon_sentence_says_which_pooled_subspaces_fall_below_dpdispca():
    """Referee 10, V7: "at the smallest ε the pooled-noise subspaces give at least DPdisPCA's accuracy" was typed
    over a table where secure aggregation (0.782) and the noisy power method (0.795) average below DPdisPCA (0.800);
    the sentence now counts and names them from the means it is given."""
    import pandas as pd

    from dpcompendium.chapters import federated_pca
    from dpcompendium.chapters.registry import load_methods

    load_methods()
    means = {"non-private": 0.9, "central": 0.813, "secure-aggregation": 0.782, "dpdispca": 0.800, "cape": 0.810,
             "noisy-power": 0.795}  # fmt: skip
    rows = [
        {
            "dataset": d,
            "epsilon": e,
            **{m: v + (0.0 if e == 0.1 else 0.1) for m, v in means.items()},
        }
        for d in ("a", "b")
        for e in (0.1, 1.0)
    ]
    acc = pd.DataFrame(rows).set_index(["dataset", "epsilon"])[list(federated_pca.UTILITY_METHODS)]
    text = federated_pca.smallest_epsilon_sentence(acc, 0.1)
    assert "DPdisPCA's accuracy is 0.8 " in str(text)
    assert "Secure aggregation 0.782" in str(text) and "Noisy power method 0.795" in str(text)
    assert "2 of the 4 reach DPdisPCA's mean" in str(text)
    assert "4 个中有 2 个" in text.by_lang["zh_CN"] and "安全聚合 0.782" in text.by_lang["zh_CN"]
    # all above: 4 of the 4
    higher = acc.assign(**{"secure-aggregation": 0.85, "noisy-power": 0.85})
    assert "4 of the 4 reach" in str(federated_pca.smallest_epsilon_sentence(higher, 0.1))


# referee 11, n2: Table 4.5's "z, flat" column read through the comparison object


def _flat_runs(q_lo, q_hi, eps=(1.0,), split="unequal"):
    rows = []
    for e in eps:
        for s_, qs in ((2, q_lo), (50, q_hi)):
            for rep, q in enumerate(qs):
                rows.append({"dataset": "wine", "split": split, "epsilon": e, "sites": s_,
                             "rep": rep, "method": "central", "captured_energy": q})  # fmt: skip
    return pd.DataFrame(rows)


def test_central_dp_pca_draws_the_same_subspace_on_any_split():
    # the identity the chapter's reading of the flat column rests on: central DP-PCA reads only the pooled A and
    # its noise, so the same stream gives the same subspace whatever the split (a split-dependent fit would differ)
    x = np.random.default_rng(1).standard_normal((400, 6)) / 3.0
    x /= np.maximum(1.0, np.linalg.norm(x, axis=1))[:, None]
    fits = []
    for s_, sizes in ((2, "equal"), (7, "unequal"), (40, "unequal")):
        labels = P.split_sites(400, s_, np.random.default_rng(s_), sizes=sizes)
        sd = P.SiteData.from_labels(x, labels, s_)
        fits.append(P.fit_subspaces("central", sd, 2, [0.5, 2.0], 1e-5, np.random.default_rng(9)))
    for f in fits[1:]:
        np.testing.assert_allclose(np.abs(f), np.abs(fits[0]), atol=1e-9)


def test_flat_comparisons_separate_a_shifted_law_and_not_a_shared_one():
    rng = np.random.default_rng(3)
    same = P.flat_comparisons(
        _flat_runs(0.8 + 0.01 * rng.standard_normal(20), 0.8 + 0.01 * rng.standard_normal(20)),
        2, 50, DELTA,
    )  # fmt: skip
    shifted = P.flat_comparisons(
        _flat_runs(0.8 + 0.01 * rng.standard_normal(20), 0.7 + 0.01 * rng.standard_normal(20)),
        2, 50, DELTA,
    )  # fmt: skip
    assert list(same.outcome) == ["tie"]
    assert list(shifted.outcome) == ["better"]  # s = 2 loses less energy
    sentence = comparison.family_sentence(list(shifted.result))
    assert "s = 2" in str(sentence) and "s = 50" in str(sentence)
    assert "$s = 50$" in sentence.by_lang["zh_CN"]


def test_flat_comparisons_are_one_holm_family_over_the_settings():
    rng = np.random.default_rng(4)
    eps = (0.5, 1.0, 2.0)
    runs = _flat_runs(
        0.8 + 0.01 * rng.standard_normal(20), 0.8 + 0.01 * rng.standard_normal(20), eps
    )
    out = P.flat_comparisons(runs, 2, 50, DELTA)
    assert len(out) == 3
    raw = sorted(out.p_value)
    assert out.p_adjusted.min() == pytest.approx(min(1.0, 3 * raw[0]))
    with pytest.raises(ValueError, match="runs must have columns"):
        P.flat_comparisons(runs.drop(columns="split"), 2, 50, DELTA)


def test_flat_column_holm_is_bonferroni_for_the_largest_z_on_students_t():
    pattern = pd.DataFrame(
        {"dataset": ["a", "b", "c"], "split": ["equal"] * 3, "flat_z": [0.5, -3.0, np.nan]}
    )
    got = P.flat_column_holm(pattern, 20)
    assert got["dataset"] == "b" and got["z"] == -3.0 and got["rows"] == 2 and got["df"] == 19
    assert got["p_holm"] == pytest.approx(2 * got["p"])
    # Student's t with 19 degrees of freedom, not the normal's 0.0027: few repetitions widen the tails
    assert got["p"] == pytest.approx(0.0073, abs=2e-4)
    assert P.flat_column_holm(pattern, 3)["p"] > 0.09
    assert P.flat_column_holm(pattern.assign(flat_z=np.nan), 20)["rows"] == 0
    assert P.flat_column_holm(pattern, 1)["rows"] == 0


def test_the_family_lead_carries_the_flag_of_its_verdicts_short_of_runs():
    """Referee 16, J1 and referee 18, m-8: the flag of the verdicts short of runs sits beside the count it qualifies
    in the lead a reader sees above the Wishart and SVM tables, as their cells flag them; the old sentence-apart
    flag (``short_flag``) is gone, nothing calls it."""
    results = _family_with_short_verdicts()
    short = P.short_verdicts(results)
    assert short
    assert not hasattr(P, "short_flag")
    code = "\n".join(_notebook_cells().values())
    # the SVM row of the source table: its plain sentence carries the flag beside the count it qualifies
    # (reader review 5, M1: no Holm template; referee 17, m2: not in a bracket after the last count)
    assert "comparison.verdict_sentence(list(svm_cmp.result), power=0.9)" in code
    assert "short_flag(" not in code
    # the Wishart and SVM sections: a plain lead and a table whose short verdicts carry the flag in their cells
    for family in ("wishart", "svm"):
        assert f"federated_pca.comparison_table({family}_cmp)" in code, family
    frame = pd.DataFrame(
        {"dataset": "wine", "epsilon": [0.5, 1.0, 2.0, 5.0][: len(results)], "result": results}
    )
    lead, tab = P.comparison_table(frame)
    assert str(tab).count("(short of runs: 6 of ") == len(short)
    for _r, need in short:
        assert f"(short of runs: 6 of {int(need)})" in str(tab)
    # the lead's count carries the same verdicts' flag (referee 18, m-8), and no test is named in it
    assert "short of runs" in str(lead) and "Holm" not in str(lead)
    if len(short) > 1:
        assert f"{len(short)} of them short of runs: 6 made, up to " in str(lead)
    assert "重复次数不足" in lead.in_language("zh_CN")
    # without power, no flag
    plain_lead, _ = P.comparison_table(frame, power=None)
    assert "short of runs" not in str(plain_lead)
