"""A tokenizer and reader for Gambit's text formats (``.efg`` and ``.nfg``).

Both formats are whitespace-separated streams of: quoted strings (``"..."``,
a quote inside written ``\\"``), braces ``{ }``, optional commas, words
(``EFG``, ``R``, ``c``, ``p``, ``t``) and numbers.  Numbers are read
EXACTLY as :class:`~fractions.Fraction`: integers, rationals ``p/q`` and
decimals (``1.25``, ``-0.5``, ``1e-3`` are 5/4, -1/2 and 1/1000, never
floats).

Every error is one line ``SOURCE:LINE:COLUMN: message`` raised as
:class:`~exactpoker.errors.InvalidGameError`.

References
----------
The Gambit Project, "Game representation formats", https://gambitproject.readthedocs.io
(the ``.efg`` and ``.nfg`` file format sections).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from exactpoker.errors import InvalidGameError

__all__ = ["Token", "TokenReader", "tokenize"]

_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?(/\d+)?")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Token:
    """One token: ``kind`` is ``"string"``, ``"number"``, ``"word"``, ``"{"``, ``"}"`` or ``"end"``."""

    kind: str
    value: object
    line: int
    column: int


def _number(text: str) -> Fraction:
    """``text`` (already matched by ``_NUMBER``) as an exact fraction."""
    mantissa, _, denominator = text.partition("/")
    value = Fraction(mantissa)
    if denominator:
        value /= int(denominator)
    return value


def tokenize(text: str, source: str) -> list[Token]:
    """The tokens of ``text``; commas are separators and dropped.

    Raises
    ------
    InvalidGameError
        At an unterminated string, a zero denominator or a character that
        starts no token, naming ``source:line:column``.
    """
    tokens: list[Token] = []
    line, line_start, i, n = 1, 0, 0, len(text)
    while i < n:
        ch = text[i]
        column = i - line_start + 1
        if ch == "\n":
            line, line_start = line + 1, i + 1
            i += 1
        elif ch.isspace() or ch == ",":
            i += 1
        elif ch in "{}":
            tokens.append(Token(ch, ch, line, column))
            i += 1
        elif ch == '"':
            chars: list[str] = []
            start_line, i = line, i + 1
            while True:
                if i >= n:
                    raise InvalidGameError(f"{source}:{start_line}:{column}: unterminated string")
                if text[i] == "\\" and i + 1 < n:
                    chars.append(text[i + 1])
                    i += 2
                    continue
                if text[i] == '"':
                    i += 1
                    break
                if text[i] == "\n":
                    line, line_start = line + 1, i + 1
                chars.append(text[i])
                i += 1
            tokens.append(Token("string", "".join(chars), start_line, column))
        elif (match := _NUMBER.match(text, i)) is not None:
            if match.group(4) is not None and int(match.group(4)[1:]) == 0:
                raise InvalidGameError(f"{source}:{line}:{column}: zero denominator in {match.group(0)!r}")
            tokens.append(Token("number", _number(match.group(0)), line, column))
            i = match.end()
        elif (match := _WORD.match(text, i)) is not None:
            tokens.append(Token("word", match.group(0), line, column))
            i = match.end()
        else:
            raise InvalidGameError(f"{source}:{line}:{column}: unexpected character {ch!r}")
    tokens.append(Token("end", None, line, i - line_start + 1))
    return tokens


class TokenReader:
    """Reads tokens one by one with expectations; errors name ``source:line:column``."""

    def __init__(self, text: str, source: str) -> None:
        self.source = source
        self.tokens = tokenize(text, source)
        self.position = 0

    def peek(self) -> Token:
        return self.tokens[self.position]

    def error(self, message: str, token: Token | None = None) -> InvalidGameError:
        """An error at ``token`` (default: the next one)."""
        token = token or self.peek()
        return InvalidGameError(f"{self.source}:{token.line}:{token.column}: {message}")

    def _take(self, kind: str, what: str) -> Token:
        token = self.peek()
        if token.kind != kind:
            found = "end of file" if token.kind == "end" else (
                str(token.value) if token.kind == "number" else repr(token.value)
            )
            raise self.error(f"expected {what}, found {found}")
        self.position += 1
        return token

    def string(self, what: str = "a quoted string") -> str:
        return str(self._take("string", what).value)

    def number(self, what: str = "a number") -> Fraction:
        value = self._take("number", what).value
        assert isinstance(value, Fraction)
        return value

    def integer(self, what: str = "an integer") -> int:
        token = self.peek()
        value = self.number(what)
        if value.denominator != 1:
            raise self.error(f"expected {what}, found {value}", token)
        return int(value)

    def word(self, what: str = "a word") -> str:
        return str(self._take("word", what).value)

    def symbol(self, symbol: str) -> None:
        self._take(symbol, f"'{symbol}'")

    def at(self, kind: str) -> bool:
        return self.peek().kind == kind

    def header(self, tag: str, version: int) -> tuple[str, list[str]]:
        """The opening of a Gambit file: ``TAG version R|D "title" { "player" ... }``; the title and the labels."""
        first = self.peek()
        if self.word(f"'{tag}'") != tag:
            raise self.error(f"expected '{tag}'", first)
        number = self.peek()
        if self.integer(f"the version {version}") != version:
            raise self.error(f"expected the version {version}", number)
        kind = self.peek()
        if self.word("'R' or 'D'") not in ("R", "D"):
            raise self.error("expected 'R' or 'D'", kind)
        title = self.string("the game's title")
        labels = self.strings_in_braces("a player's label")
        if not labels:
            raise self.error("the game needs at least one player")
        return title, labels

    def strings_in_braces(self, what: str) -> list[str]:
        """``{ "a" "b" ... }``."""
        self.symbol("{")
        items = []
        while not self.at("}"):
            items.append(self.string(what))
        self.symbol("}")
        return items

    def numbers_in_braces(self, what: str) -> list[Fraction]:
        """``{ 1 2/3 -0.5 ... }``."""
        self.symbol("{")
        items = []
        while not self.at("}"):
            items.append(self.number(what))
        self.symbol("}")
        return items

    def end(self) -> None:
        self._take("end", "end of file")
