"""What the ``dpcompendium`` commands share: YAML parsing of ``-p`` values and the one-line error."""

from __future__ import annotations

import contextlib
import os
import re
import sys

import yaml

__all__ = ["YamlLoader", "fail", "plain"]


class YamlLoader(yaml.SafeLoader):
    """YAML 1.1 reads ``1e-5`` as a string; accept exponents without a dot as floats, as YAML 1.2 does."""


YamlLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(
        r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
        |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
        |\.[0-9_]+(?:[eE][-+]?[0-9]+)?
        |[-+]?\.(?:inf|Inf|INF)
        |\.(?:nan|NaN|NAN))$""",
        re.X,
    ),
    list("-+0123456789."),
)


def fail(message: str, code: int = 2) -> int:
    print(
        f"dpcompendium: error: {message.splitlines()[0] if message else 'failed'}", file=sys.stderr
    )
    return code


@contextlib.contextmanager
def environ(env: dict[str, str]):
    """``os.environ`` with ``env`` set for the duration of the block (what a subprocess or kernel started inside it
    inherits), then as it was."""
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def plain(text: str) -> str:
    """A docstring's reStructuredText as plain text for ``--help``: inline literals and roles (func, mod, …) as their
    text, a literal block's double colon as one colon."""
    text = re.sub(r":[a-z]+:`~?([^`]+)`", r"\1", text)
    text = re.sub(r"``([^`]+)``", r"\1", text)
    return re.sub(r"::(\s*)$", r":\1", text, flags=re.M)
