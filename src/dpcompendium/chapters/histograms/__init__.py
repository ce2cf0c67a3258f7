"""DP histogram publication: the source's sampling-based grouping (``src_histograms``) against AHP, P-HP,
Hb, Privelet, least squares, DAWA, Identity and Uniform, on range-query workloads (chapter ``histograms``).

Every publisher is ``f(x, epsilon, rng, *, <parameters>, size=None) -> noisy histogram`` and is vectorized over
``size`` repetitions. Neighbour relation throughout: add-remove (one record changes one bin by 1).
"""

from __future__ import annotations

from ...core.experiments import RangeQueries, bootstrap_mean_ci  # the one implementation (core)
from ...core.mechanisms.dawa import dawa_claim
from ...core.mechanisms.ranges import range_claim
from ...core.privacy import PrivacyClaim
from ...core.validation import check_epsilon
from .baselines import (
    ahp,
    dawa,
    hierarchical,
    identity,
    least_squares,
    php,
    php_budget,
    php_depth,
    php_levelwise,
    php_partition,
    privelet,
    uniform,
)
from .experiment import (
    DAWA_CALIBRATION,
    METHOD_VARIANTS,
    METHODS,
    WORKLOAD_METHODS,
    baseline_brackets,
    check_method,
    claim_table,
    equivalence_test,
    grouping_tuning,
    holm,
    parameter_grid,
    rank_settings,
    release,
    run_comparison,
    setting_arms,
    summarize_runs,
)
from .sampling_grouping import (
    READINGS,
    SG_VARIANTS,
    VARIANTS,
    assign_groups,
    centre_pair_probabilities,
    grouping_log_probability,
    grouping_loss_per_bin,
    grouping_privacy_loss,
    kmeanspp_centres,
    parse_variant,
    partition_probabilities,
    sampling_grouping,
)
from .workloads import (
    all_prefixes,
    identity_expected_mse,
    random_ranges,
    scaled_l1,
    workload_mse,
)

__all__ = [
    "METHODS",
    "METHOD_VARIANTS",
    "READINGS",
    "SG_VARIANTS",
    "VARIANTS",
    "WORKLOAD_METHODS",
    "RangeQueries",
    "ahp",
    "all_prefixes",
    "assign_groups",
    "baseline_brackets",
    "bootstrap_mean_ci",
    "centre_pair_probabilities",
    "check_method",
    "claim_table",
    "dawa",
    "equivalence_test",
    "grouping_log_probability",
    "grouping_loss_per_bin",
    "grouping_privacy_loss",
    "grouping_tuning",
    "hierarchical",
    "holm",
    "identity",
    "identity_expected_mse",
    "kmeanspp_centres",
    "least_squares",
    "parameter_grid",
    "parse_variant",
    "partition_probabilities",
    "php",
    "php_budget",
    "php_depth",
    "php_levelwise",
    "php_partition",
    "privacy_claim",
    "privelet",
    "random_ranges",
    "rank_settings",
    "release",
    "run_comparison",
    "sampling_grouping",
    "scaled_l1",
    "setting_arms",
    "summarize_runs",
    "uniform",
    "workload_mse",
]

_SENSITIVITY = {
    "identity": "histogram L1 sensitivity 1",
    "uniform": "total count, sensitivity 1",
    "hierarchical": "one node per level: L1 sensitivity h + 1 for a tree of h + 1 levels (Hb, Qardaji et al.'s b)",
    "ahp": "noisy histogram (Δ₁ = 1, ε₁) then disjoint cluster sums (Δ₁ = 1, ε₂)",
    "php": "EM stop/split decisions on SAE scores (Δu = 2, ε_cluster/(2·depth) each, ≤ depth − 1 per record); EM "
    "over the intermediate partitions on their total error (Δu = 2, ε_cluster/2); part sums (Δ₁ = 1, ε_count)",
}
_LEVELWISE = (
    "EM on SAE scores (Δu = 2, ε₁/depth per level, parallel within a level), part sums (Δ₁ = 1, ε₂); a level-wise "
    "reading of P-HP, not the authors' procedure"
)


def privacy_claim(method: str, epsilon: float, variant: str = "private") -> PrivacyClaim:
    """The privacy statement of a histogram publisher (neighbours: add-remove for all).

    ``php`` has the variants ``private`` (the authors' procedure, :func:`php`) and ``level-wise``
    (:func:`php_levelwise`); both are ε-DP. ``sampling_grouping`` variants are ``"<centres>[:<reading>]"``
    (``parse_variant``). With ``as-written`` centres it is not private under either reading of S5: the centre
    selection reads the true counts with no budget (support of the centre distribution changes with one record:
    unbounded loss), and with the true centre counts in the scores one record in a centre bin moves all n − k
    exponential-mechanism draws (up to (n − k)·ε₁/2: each draw's log-probabilities move by at most ε₁/2, the
    chapter's exercise; :func:`grouping_privacy_loss` computes it exactly). Its claim carries the nominal ε with
    ``private=False``.
    """
    eps = check_epsilon(epsilon)
    check_method(method, variant)
    if method == "php" and variant == "level-wise":
        return PrivacyClaim("php (level-wise)", "add-remove", _LEVELWISE, eps)
    if method in ("privelet", "least_squares"):
        return range_claim(method, eps)
    if method == "dawa":
        return dawa_claim(eps, calibration=DAWA_CALIBRATION[variant])
    if method != "sampling_grouping":
        return PrivacyClaim(method, "add-remove", _SENSITIVITY[method], eps)
    centres, reading = parse_variant(variant)
    label = centres if ":" not in variant else f"{centres}, S5 {reading}"
    noise = (
        "group mean Δ = 1/m_j with Lap(1/(m_j ε₂)) (S5 read as scaled to the group)"
        if reading == "sum"
        else "Lap(1/ε₂) on each group mean (S5 read as unit sensitivity; the mean's is 1/m_j ≤ 1)"
    )
    if centres == "private":
        return PrivacyClaim(
            f"sampling_grouping ({label})",
            "add-remove",
            "noisy histogram for centres (Δ₁ = 1, ε₀); EM per bin on its own count (Δu = 1, ε₁, parallel over "
            f"bins); {noise}",
            eps,
        )
    return PrivacyClaim(
        f"sampling_grouping ({label})",
        "add-remove",
        f"claimed Δu = 1 for the EM; centre selection has no noise; {noise}",
        eps,
        private=False,
        why=(
            "k-means++ centre selection on true counts spends no budget (a neighbour can turn a zero-probability "
            "centre choice into a positive one: unbounded loss), and true centre counts in every score let one "
            "record shift all n - k exponential-mechanism draws (loss up to (n - k)·ε₁/2); either reading of S5"
        ),
    )
