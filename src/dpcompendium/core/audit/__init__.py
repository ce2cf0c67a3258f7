"""dpcompendium.core.audit."""
