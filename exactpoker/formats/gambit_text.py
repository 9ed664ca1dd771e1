"""A tokenizer and reader for Gambit's text formats (``.efg`` and ``.nfg``).

Both formats are whitespace-separated streams of: quoted strings (``"..."``,
a quote inside written ``\\"`` and a backslash ``\\\\``), braces ``{ }``,
optional commas, words (``EFG``, ``R``, ``c``, ``p``, ``t``) and numbers.
Numbers are read EXACTLY as :class:`~fractions.Fraction`: integers, rationals
``p/q`` and decimals (``1.25``, ``-0.5``, ``1e-3`` are 5/4, -1/2 and 1/1000,
never floats).

Files of a million nodes are read in one pass of one compiled regular
expression (:data:`_TOKEN`, ``re.findall``: the tokens' texts, nothing per
character in Python); a token becomes a value only when the reader asks for
one, and each distinct number text is converted to a fraction once (payoffs
and probabilities repeat).  Positions are not kept: the line and column of a
token are found again (one more scan, from the last place looked up) only for
an error or a label that names them.

Every error is one line ``SOURCE:LINE:COLUMN: message`` raised as
:class:`~exactpoker.errors.InvalidGameError`.

References
----------
The Gambit Project, "Game representation formats", https://gambitproject.readthedocs.io
(the ``.efg`` and ``.nfg`` file format sections).  Strings are unescaped as
C++'s ``std::quoted`` writes them (a backslash escapes the next character), so
:func:`~exactpoker.formats.efg.write_efg` output reads back exactly.  Gambit's
own reader (pygambit 16.7) agrees on ``\\"`` but keeps the backslashes of
``\\\\`` (it reads ``"b\\\\c"`` as ``b\\\\\\c``): a label with a backslash reads
differently there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from exactpoker.errors import InvalidGameError

__all__ = ["Token", "TokenReader", "tokenize"]

_NUMBER_TEXT = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?(?:/\d+)?"
_GOOD_TEXT = rf'"[^"\\]*(?:\\.[^"\\]*)*"|[{{}}]|{_NUMBER_TEXT}|[A-Za-z_][A-Za-z0-9_]*'
#: One token, tried in this order: a quoted string (escapes inside), a brace,
#: a number, a word; else, where none of them starts, the rest of the text
#: (a bad character or the quote of a string that never ends: the error, found
#: in the same pass).  Whitespace and commas match nothing, so ``findall`` skips them.
_TOKEN = re.compile(rf"{_GOOD_TEXT}|[^\s,].*", re.S)
_GOOD = re.compile(_GOOD_TEXT, re.S)
_WORD_START = re.compile(r"[A-Za-z_]")
_ESCAPE = re.compile(r"\\(.)", re.S)


@dataclass(frozen=True)
class Token:
    """One token: ``kind`` is ``"string"``, ``"number"``, ``"word"``, ``"{"``, ``"}"`` or ``"end"``."""

    kind: str
    value: object
    line: int
    column: int


def _unescape(quoted: str) -> str:
    """The text of a quoted string token (``\\x`` is ``x``)."""
    body = quoted[1:-1]
    return _ESCAPE.sub(r"\1", body) if "\\" in body else body


def tokenize(text: str, source: str) -> list[Token]:
    """The tokens of ``text`` with their values and positions; commas are separators and dropped.

    The readers do not build these (:class:`TokenReader` reads the texts
    directly); this is the token stream spelled out, for tools and tests.

    Raises
    ------
    InvalidGameError
        At an unterminated string, a zero denominator or a character that
        starts no token, naming ``source:line:column``.
    """
    reader = TokenReader(text, source)
    tokens = []
    for index in range(len(reader.tokens)):
        kind, value = reader.kind(index), None
        if kind == "string":
            value = _unescape(reader.tokens[index])
        elif kind == "number":
            value = reader.fraction(index, "a number")
        elif kind != "end":
            value = reader.tokens[index]
        tokens.append(Token(kind, value, *reader.line_column(index)))
    return tokens


class TokenReader:
    """Reads tokens one by one with expectations; errors name ``source:line:column``.

    ``tokens`` holds the tokens' texts (a quoted string with its quotes), then
    ``""`` for the end of the text; ``position`` is the next token's index.
    """

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.tokens: list[str] = _TOKEN.findall(text)
        self.position = 0
        self.numbers: dict[str, Fraction] = {}
        self._cursor = (0, 0, 1)  # a token's index, its offset in the text and its line
        if self.tokens and not _GOOD.fullmatch(self.tokens[-1]):
            rest = self.tokens.pop()
            problem = "unterminated string" if rest[0] == '"' else f"unexpected character {rest[0]!r}"
            raise InvalidGameError(f"{self._place(len(text) - len(rest))}: {problem}")
        self.tokens.append("")
        self.count = len(self.tokens) - 1  # the index of the end

    def release(self) -> None:
        """Forget the tokens' texts once they are read (they are most of a large file's memory); positions
        and errors naming a token by its index still work."""
        self.tokens = []

    # ------------------------------------------------------------- positions and errors

    def line_column(self, index: int) -> tuple[int, int]:
        """The line and column (1-based) where token ``index`` starts.

        Scans on from the last token looked up (from the start when ``index``
        is before it), so looking up tokens in file order costs one scan in all.
        """
        text = self.text
        if index >= self.count:
            return self._line_column(len(text))
        known, at, line = self._cursor
        if index < known:
            known, at, line = 0, 0, 1
        matches = _TOKEN.finditer(text, at)
        for _ in range(index - known):
            next(matches)
        offset = next(matches).start()
        line += text.count("\n", at, offset)
        self._cursor = (index, offset, line)
        return line, offset - text.rfind("\n", 0, offset)

    def _line_column(self, offset: int) -> tuple[int, int]:
        return self.text.count("\n", 0, offset) + 1, offset - self.text.rfind("\n", 0, offset)

    def _place(self, offset: int) -> str:
        line, column = self._line_column(offset)
        return f"{self.source}:{line}:{column}"

    def where(self, index: int) -> str:
        """``source:line:column`` of token ``index``."""
        line, column = self.line_column(index)
        return f"{self.source}:{line}:{column}"

    def error(self, message: str, index: int | None = None) -> InvalidGameError:
        """An error at token ``index`` (default: the next one)."""
        return InvalidGameError(f"{self.where(self.position if index is None else index)}: {message}")

    def expected(self, what: str, index: int | None = None) -> InvalidGameError:
        """``expected WHAT, found ...`` at token ``index`` (default: the next one)."""
        index = self.position if index is None else index
        kind, text = self.kind(index), self.tokens[index]
        if kind == "end":
            found = "end of file"
        elif kind == "string":
            found = repr(_unescape(text))
        elif kind == "number":
            found = str(self.fraction(index, what))
        else:
            found = repr(text)
        return self.error(f"expected {what}, found {found}", index)

    def kind(self, index: int) -> str:
        """The kind of token ``index`` (see :class:`Token`)."""
        text = self.tokens[index]
        if not text:
            return "end"
        first = text[0]
        if first == '"':
            return "string"
        if first in "{}":
            return first
        return "word" if _WORD_START.match(first) else "number"

    def fraction(self, index: int, what: str) -> Fraction:
        """Token ``index`` as an exact fraction (each distinct text converted once)."""
        text = self.tokens[index]
        value = self.numbers.get(text)
        if value is not None:
            return value
        if self.kind(index) != "number":
            raise self.expected(what, index)
        mantissa, _, denominator = text.partition("/")
        if denominator and int(denominator) == 0:
            raise self.error(f"zero denominator in {text!r}", index)
        value = Fraction(mantissa)
        if denominator:
            value /= int(denominator)
        self.numbers[text] = value
        return value

    # ------------------------------------------------------------- reading in order

    def at(self, kind: str) -> bool:
        """Whether the next token is of ``kind``."""
        text = self.tokens[self.position]
        if kind == "string":
            return text[:1] == '"'
        if kind in ("{", "}"):
            return text == kind
        return self.kind(self.position) == kind

    def string(self, what: str = "a quoted string") -> str:
        value = self.optional_string()
        if value is None:
            raise self.expected(what)
        return value

    def optional_string(self) -> str | None:
        """The next token's text if it is a quoted string (the reader moves past it), else None."""
        text = self.tokens[self.position]
        if text[:1] != '"':
            return None
        self.position += 1
        return "" if text == '""' else _unescape(text)

    def number(self, what: str = "a number") -> Fraction:
        value = self.numbers.get(self.tokens[self.position])
        if value is None:
            value = self.fraction(self.position, what)
        self.position += 1
        return value

    def integer(self, what: str = "an integer") -> int:
        try:
            value = int(self.tokens[self.position])
        except ValueError:
            start = self.position
            number = self.number(what)
            if number.denominator != 1:
                raise self.error(f"expected {what}, found {number}", start) from None
            return int(number)
        self.position += 1
        return value

    def word(self, what: str = "a word") -> str:
        if self.kind(self.position) != "word":
            raise self.expected(what)
        self.position += 1
        return self.tokens[self.position - 1]

    def symbol(self, symbol: str) -> None:
        if self.tokens[self.position] != symbol:
            raise self.expected(f"'{symbol}'")
        self.position += 1

    def header(self, tag: str, version: int) -> tuple[str, list[str]]:
        """The opening of a Gambit file: ``TAG version R|D "title" { "player" ... }``; the title and the labels."""
        first = self.position
        if self.word(f"'{tag}'") != tag:
            raise self.error(f"expected '{tag}'", first)
        number = self.position
        if self.integer(f"the version {version}") != version:
            raise self.error(f"expected the version {version}", number)
        kind = self.position
        if self.word("'R' or 'D'") not in ("R", "D"):
            raise self.error("expected 'R' or 'D'", kind)
        title = self.string("the game's title")
        labels = self.strings_in_braces("a player's label")
        if not labels:
            raise self.error("the game needs at least one player")
        return title, labels

    def braced(self) -> tuple[int, tuple[str, ...]]:
        """``{ ... }``: the index of the first token inside and the texts of the tokens up to ``}`` (not checked:
        see :meth:`strings_at`, :meth:`fractions_at`); the reader moves past the ``}``.

        Without a ``}`` the texts run to the end, ``""`` included (so checking them
        finds the end of the file where the ``}`` was expected).
        """
        found = self.optional_braced()
        if found is None:
            raise self.expected("'{'")
        return found

    def optional_braced(self) -> tuple[int, tuple[str, ...]] | None:
        """:meth:`braced` if the next token is ``{``, else None."""
        tokens = self.tokens
        if tokens[self.position] != "{":
            return None
        start = self.position + 1
        try:
            end = tokens.index("}", start)
        except ValueError:
            end = len(tokens) - 1
            self.position = end
            return start, tuple(tokens[start:])
        self.position = end + 1
        return start, tuple(tokens[start:end])

    def strings_at(self, start: int, texts: tuple[str, ...], what: str) -> list[str]:
        """``texts``, the tokens from index ``start``, each a quoted string, unquoted."""
        for index, text in enumerate(texts, start):
            if text[:1] != '"':
                raise self.expected(what, index)
        return [_unescape(text) for text in texts]

    def fractions_at(self, start: int, texts: tuple[str, ...], what: str) -> tuple[Fraction, ...]:
        """``texts``, the tokens from index ``start``, each a number, as exact fractions."""
        numbers = self.numbers
        try:
            return tuple([numbers[text] for text in texts])
        except KeyError:  # a text not converted yet (or not a number: the error names it)
            return tuple([self.fraction(index, what) for index in range(start, start + len(texts))])

    def strings_in_braces(self, what: str) -> list[str]:
        """``{ "a" "b" ... }``."""
        return self.strings_at(*self.braced(), what)

    def numbers_to_end(self, what: str) -> list[Fraction]:
        """Every remaining token, each a number (the payoff list of an ``.nfg`` file)."""
        start, end = self.position, len(self.tokens) - 1
        self.position = end
        return list(self.fractions_at(start, tuple(self.tokens[start:end]), what))

    def end(self) -> None:
        if self.tokens[self.position] != "":
            raise self.expected("end of file")
