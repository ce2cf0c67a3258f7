"""dpcompendium.book."""
