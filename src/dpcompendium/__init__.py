"""dpcompendium — the tested library behind an executable book on differential privacy.

Subpackages, one per topic: :mod:`~dpcompendium.core.mechanisms` (Laplace, Gaussian, exponential, randomized response),
:mod:`~dpcompendium.core.experiments` (sweeps), :mod:`~dpcompendium.core.data` (registry and loaders), and one per chapter.
Every random function takes ``rng: numpy.random.Generator``.
"""

from .core.privacy import PrivacyClaim

__version__ = "0.1.0"
__all__ = ["PrivacyClaim", "__version__"]
