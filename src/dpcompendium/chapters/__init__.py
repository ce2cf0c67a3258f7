"""dpcompendium.book.contract."""
