"""Loading the audited target: ``path/to/file.py:function`` or ``module:function``."""

from __future__ import annotations

import importlib
import importlib.util
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .common import UserCodeError


def load_target(target: str) -> Callable:
    """``path/to/file.py:function`` or ``package.module:function`` → the function object."""
    if not isinstance(target, str) or target.count(":") < 1:
        raise ValueError(
            f"target must be 'path/to/file.py:function' or 'module:function', got {target!r}"
        )
    where, _, name = target.rpartition(":")
    if not where or not name.isidentifier():
        raise ValueError(
            f"target must be 'path/to/file.py:function' or 'module:function', got {target!r}"
        )
    module = load_module(where)
    func = getattr(module, name, None)
    if func is None or not callable(func):
        raise ValueError(f"target {target!r}: {where} defines no function {name!r}")
    return func


def load_module(where: str):
    """Import a module from a ``.py`` path or a dotted module name (errors as one-line ValueError)."""
    try:
        if where.endswith(".py") or "/" in where or "\\" in where:
            path = Path(where).expanduser().resolve()
            if not path.is_file():
                raise ValueError(f"target file {where!r} does not exist")
            modname = f"_dpcompendium_user_{path.stem}_{abs(hash(str(path))) % 10**8}"
            spec = importlib.util.spec_from_file_location(modname, path)
            if spec is None or spec.loader is None:
                raise ValueError(f"target file {where!r} is not a Python module")
            module = importlib.util.module_from_spec(spec)
            sys.modules[modname] = module
            spec.loader.exec_module(module)
            _pickle_by_value(module)
            return module
        return importlib.import_module(where)
    except ValueError:
        raise
    except Exception as exc:  # the user's module failed to import
        raise UserCodeError(f"importing {where!r} failed: {type(exc).__name__}: {exc}") from exc


def _pickle_by_value(module) -> None:
    """Worker processes cannot import a module loaded from a file path: have cloudpickle ship its functions by
    value (with the globals they use) instead of by reference."""
    try:
        import cloudpickle
    except ImportError:  # pragma: no cover - joblib >= 1.5 depends on it
        return
    cloudpickle.register_pickle_by_value(module)


class _Shipped:
    """A callable pickled by value with cloudpickle whatever the pickler that carries it: Dask tries the standard
    pickle first, which would send a user function by reference (an import the worker cannot do)."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable) -> None:
        self.fn = fn

    def __call__(self, *args: Any) -> Any:
        return self.fn(*args)

    def __reduce__(self):
        import cloudpickle

        return _unship, (cloudpickle.dumps(self.fn),)


def _unship(payload: bytes) -> _Shipped:
    return _Shipped(pickle.loads(payload))
