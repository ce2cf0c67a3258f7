"""dpcompendium.core."""
