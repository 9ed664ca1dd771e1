"""The call syntax of a ``library:`` game: ``name`` or ``name(key=value,...)``.

Its own module so that the library (:mod:`exactpoker.games.library`) can read
it without importing :mod:`exactpoker.formats`, which loads the library.
"""

from __future__ import annotations

from exactpoker.errors import InvalidParameterError

__all__ = ["parse_call"]


def parse_call(text: str) -> tuple[str, dict[str, str]]:
    """``"name(a=1,b=x)"`` -> ``("name", {"a": "1", "b": "x"})``; a plain ``"name"`` has no parameters.

    Raises
    ------
    InvalidParameterError
        For text that is not of that form, or a parameter given twice (``kuhn(bet=1,bet=2)``).
    """
    text = text.strip()
    if "(" not in text:
        return text, {}
    if not text.endswith(")"):
        raise InvalidParameterError(f"GAME: {text!r} must look like name or name(key=value,...)")
    name, inner = text[:-1].split("(", 1)
    params: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in inner.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InvalidParameterError(f"GAME: parameter {item!r} of {name!r} must look like key=value")
        if key.strip() in params:
            raise InvalidParameterError(f"GAME: parameter {key.strip()!r} of {name.strip()!r} is given twice; "
                                        "give each parameter once")
        params[key.strip()] = value.strip()
    return name.strip(), params
