"""Judges & Kings: a digital edition of the strategy board game.

The package runs as pure Python, or with its compiled core (`bash scripts/compile.sh`: C
extensions beside their sources, imported first). A compiled module older than its source
would run the old code: importing the package then fails, naming it.
"""

from __future__ import annotations

from pathlib import Path

__version__ = "0.1.0"

_HERE = Path(__file__).resolve().parent


def compiled_modules() -> list[str]:
    """The modules of this package that run compiled (`scripts/compile.sh`), by dotted name."""
    return sorted(
        "judges." + ".".join(so.relative_to(_HERE).with_name(so.name.split(".", 1)[0]).parts)
        for so in _HERE.glob("*/*.so")
    )


def _refuse_stale(package: Path = _HERE) -> None:
    """Raises ImportError when a compiled module of `package`'s subpackages is older than its source."""
    for so in package.glob("*/*.so"):
        source = so.with_name(so.name.split(".", 1)[0] + ".py")
        if source.exists() and source.stat().st_mtime > so.stat().st_mtime:
            raise ImportError(
                f"{source.relative_to(package.parent)} changed after it was compiled ({so.name}): "
                "run `bash scripts/compile.sh` again, or `bash scripts/compile.sh --clean` for pure Python"
            )


_refuse_stale()
