"""DP histogram publication: the source's sampling-based grouping (``src_histograms``) against AHP, P-HP,
a hierarchical tree, Identity and Uniform, on range-query workloads (chapter ``histograms``).

Every publisher is ``f(x, epsilon, rng, *, <parameters>, size=None) -> noisy histogram`` and is vectorized over
``size`` repetitions. Neighbour relation throughout: add-remove (one record changes one bin by 1).
"""

from __future__ import annotations

from ..privacy import PrivacyClaim
from ..validation import check_epsilon
from .baselines import ahp, hierarchical, identity, php, uniform
from .experiment import (
    METHODS,
    baseline_brackets,
    claim_table,
    parameter_grid,
    release,
    run_comparison,
    summarize_runs,
)
from .sampling_grouping import (
    VARIANTS,
    assign_groups,
    centre_pair_probabilities,
    grouping_log_probability,
    grouping_loss_per_bin,
    grouping_privacy_loss,
    kmeanspp_centres,
    partition_probabilities,
    sampling_grouping,
)
from .workloads import (
    RangeWorkload,
    all_prefixes,
    identity_expected_mse,
    random_ranges,
    scaled_l1,
    workload_answers,
    workload_mse,
)

__all__ = [
    "METHODS",
    "VARIANTS",
    "RangeWorkload",
    "ahp",
    "all_prefixes",
    "assign_groups",
    "baseline_brackets",
    "centre_pair_probabilities",
    "claim_table",
    "grouping_log_probability",
    "grouping_loss_per_bin",
    "grouping_privacy_loss",
    "hierarchical",
    "identity",
    "identity_expected_mse",
    "kmeanspp_centres",
    "parameter_grid",
    "partition_probabilities",
    "php",
    "privacy_claim",
    "random_ranges",
    "release",
    "run_comparison",
    "sampling_grouping",
    "scaled_l1",
    "summarize_runs",
    "uniform",
    "workload_answers",
    "workload_mse",
]

_SENSITIVITY = {
    "identity": "histogram L1 sensitivity 1",
    "uniform": "total count, sensitivity 1",
    "hierarchical": "one node per level: L1 sensitivity h + 1 for a tree of h + 1 levels",
    "ahp": "noisy histogram (Δ₁ = 1, ε₁) then disjoint cluster sums (Δ₁ = 1, ε₂)",
    "php": "EM on SAE scores (Δ = 2, ε₁/depth per level, parallel within a level), part sums (Δ₁ = 1, ε₂)",
}


def privacy_claim(method: str, epsilon: float, variant: str = "private") -> PrivacyClaim:
    """The privacy statement of a histogram publisher (neighbours: add-remove for all).

    ``sampling_grouping`` with ``variant="as-written"`` is not private: the centre selection reads the true counts
    with no budget (support of the centre distribution changes with one record: unbounded loss), and with the true
    centre counts in the scores one record in a centre bin moves all n − k exponential-mechanism draws (up to
    (n − k)·ε₁). Its claim carries the nominal ε with ``private=False``.
    """
    eps = check_epsilon(epsilon)
    if method not in METHODS:
        raise ValueError(f"method must be one of {'|'.join(METHODS)}, got {method!r}")
    if method != "sampling_grouping":
        if variant != "private":
            raise ValueError(f"variant must be 'private' for method {method}, got {variant!r}")
        return PrivacyClaim(method, "add-remove", _SENSITIVITY[method], eps)
    if variant == "private":
        return PrivacyClaim(
            "sampling_grouping (private)",
            "add-remove",
            "noisy histogram for centres (Δ₁ = 1, ε₀); EM per bin on its own count (Δu = 1, ε₁, parallel over "
            "bins); group mean Δ = 1/m_j with Lap(1/(m_j ε₂))",
            eps,
        )
    if variant == "as-written":
        return PrivacyClaim(
            "sampling_grouping (as-written)",
            "add-remove",
            "claimed Δu = 1 for the EM; centre selection has no noise",
            eps,
            private=False,
            why=(
                "k-means++ centre selection on true counts spends no budget (a neighbour can turn a zero-probability "
                "centre choice into a positive one: unbounded loss), and true centre counts in every score let one "
                "record shift all n - k exponential-mechanism draws (loss up to (n - k)·ε₁)"
            ),
        )
    raise ValueError(f"variant must be one of {'|'.join(VARIANTS)}, got {variant!r}")
