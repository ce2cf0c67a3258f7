"""Differentially private PCA across sites: the source's shared-seed protocol, its flaw, and a fix.

- :mod:`.core` — noise calibration (``τ = Δ√(2 ln(1.25/δ))/ε``, ``Δ = √2/n``, replace-one with n public), symmetric Gaussian noise, subspaces,
  captured energy.
- :mod:`.methods` — :func:`pca`, :func:`central_dp_pca` (Analyze Gauss), :func:`dpdis_pca` (Imtiaz & Sarwate 2018),
  :func:`federated_pca` (``variant="shared-seed" | "secure-aggregation"``), :func:`fit_subspace` (one of
  them by name), :func:`privacy_claim`.
- :mod:`.protocols` — the masked mean, the shared-seed protocol and its seed attack, secure aggregation.
- :mod:`.datasets` — the chapter's datasets, the public and the as-written preprocessing, horizontal splits.
- :mod:`.audits` — how the audit chapter audits these methods (raw neighbouring datasets).
- :mod:`.experiments` — the sweeps behind the chapter's tables, what each SVM row releases (:func:`release_claims`)
  and what the published projections reveal (:func:`reconstruction_table`).

References: ``src_fedpca``, ``dwork2014analyze``, ``imtiaz2018distributed``, ``bonawitz2017practical``.
"""

from .core import (
    analytic_gaussian_sigma,
    captured_energy,
    noise_scale,
    normalize_rows,
    scatter,
    sensitivity,
    symmetric_gaussian,
    top_k_eigh,
    top_k_subspace,
)
from .datasets import (
    BOUNDS_SOURCES,
    DATASETS,
    PUBLIC_BOUNDS,
    Dataset,
    bounds_condition,
    load_dataset,
    make_low_rank,
    prepare,
    preprocessing_sensitivity,
    split_sites,
)
from .experiments import (
    END_TO_END,
    attack_table,
    energy_runs,
    energy_table,
    pooled_pattern_z,
    pooled_z,
    reconstruction_table,
    release_claims,
    site_pattern,
    svm_table,
)
from .methods import (
    END_TO_END_SHARES,
    METHODS,
    PREPROCESSING,
    RELEASES,
    SiteData,
    central_dp_pca,
    dpdis_pca,
    federated_pca,
    fit_subspace,
    noisy_projections,
    pca,
    privacy_claim,
    release_claim,
)
from .protocols import (
    MaskedSumCount,
    Transcript,
    decode,
    encode,
    masked_sum_count,
    pairwise_masks,
    secure_aggregation_protocol,
    seed_attack,
    shared_seed_protocol,
    unmask_attack,
)

__all__ = [
    "BOUNDS_SOURCES",
    "DATASETS",
    "END_TO_END",
    "END_TO_END_SHARES",
    "METHODS",
    "PREPROCESSING",
    "PUBLIC_BOUNDS",
    "RELEASES",
    "Dataset",
    "MaskedSumCount",
    "SiteData",
    "Transcript",
    "analytic_gaussian_sigma",
    "attack_table",
    "bounds_condition",
    "captured_energy",
    "central_dp_pca",
    "decode",
    "dpdis_pca",
    "encode",
    "energy_runs",
    "energy_table",
    "federated_pca",
    "fit_subspace",
    "load_dataset",
    "make_low_rank",
    "masked_sum_count",
    "noise_scale",
    "noisy_projections",
    "normalize_rows",
    "pairwise_masks",
    "pca",
    "pooled_pattern_z",
    "pooled_z",
    "prepare",
    "preprocessing_sensitivity",
    "privacy_claim",
    "reconstruction_table",
    "release_claim",
    "release_claims",
    "scatter",
    "secure_aggregation_protocol",
    "seed_attack",
    "sensitivity",
    "shared_seed_protocol",
    "site_pattern",
    "split_sites",
    "svm_table",
    "symmetric_gaussian",
    "top_k_eigh",
    "top_k_subspace",
    "unmask_attack",
]
