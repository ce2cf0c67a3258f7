"""The book's chapter ids, read from the chapters' manifests: tests name no chapter id themselves (issue 25)."""

from __future__ import annotations

from dpcompendium.chapters.registry import chapter_id

DP_MEAN = chapter_id("dpcompendium.chapters.dp_mean")
MWEM = chapter_id("dpcompendium.chapters.mwem")
HISTOGRAMS = chapter_id("dpcompendium.chapters.histograms")
FEDERATED_PCA = chapter_id("dpcompendium.chapters.federated_pca")
HIERA = chapter_id("dpcompendium.chapters.hiera")
PRIVACY_AUDIT = chapter_id("dpcompendium.chapters.privacy_audit")
