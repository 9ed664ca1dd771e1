"""Gambit ``.efg`` / ``.nfg`` files whose payoffs are polynomials in a named parameter (an extension of the formats).

Where Gambit's formats have a payoff number, a parametric file may have a
polynomial in the parameter, written without spaces: ``2*b``, ``1+b``,
``-b/2``, ``b^2-1`` (``^`` or ``**``), with exact rational coefficients.  The
parameter is named on the command line (``exactpoker solve game.efg --over
b=1/2..4``); it must be an identifier that is not a keyword of the formats
(``EFG``, ``NFG``, ``R``, ``D``, ``c``, ``p``, ``t``).  Text inside quotes
(labels, names) is never read as a polynomial.  A file without the
parameter is a plain Gambit file and is read as before.

How it is read (:func:`parametric_file`): every unquoted token that mentions
the parameter is parsed once as a polynomial (sympy); at a value of the
parameter the file is the plain Gambit text with each such token replaced by
its exact value, read by :func:`~exactpoker.formats.efg.read_efg` or
:func:`~exactpoker.formats.nfg.read_nfg` and compiled.  The degree bound of the
game's payoffs is the largest degree of the tokens.  The parameter may appear
in payoffs only: chance probabilities must not depend on it, which is checked
by reading the chance probabilities at ``degree + 1`` values inside the
interval of interest (a polynomial of degree ``<= d`` equal at ``d + 1`` points
is constant).
"""

from __future__ import annotations

import re
from fractions import Fraction

import sympy

from exactpoker.core.parametric import ParametricGame
from exactpoker.core.tree import Chance, Move, compile_tree
from exactpoker.errors import InvalidParameterError
from exactpoker.numbers import exact_str

__all__ = ["parametric_file", "substitute"]

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[^\s{},"]+')
_RESERVED = {"EFG", "NFG", "R", "D", "c", "p", "t"}


def _polynomials(text: str, parameter: str) -> list[tuple[int, int, sympy.Poly]]:
    """``(start, end, polynomial)`` of every unquoted token of ``text`` mentioning ``parameter``."""
    symbol = sympy.Symbol(parameter)
    mention = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(parameter)}(?![A-Za-z0-9_])")
    found = []
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        if token.startswith('"') or not mention.search(token):
            continue
        line = text.count("\n", 0, match.start()) + 1
        try:
            expr = sympy.sympify(token.replace("^", "**"), locals={parameter: symbol}, rational=True)
            poly = sympy.Poly(expr, symbol, domain="QQ")
        except (sympy.SympifyError, sympy.PolynomialError, TypeError, SyntaxError, sympy.GeneratorsNeeded) as error:
            raise InvalidParameterError(f"line {line}: {token!r} is not a polynomial in {parameter} "
                                        f"with rational coefficients ({type(error).__name__})") from None
        found.append((match.start(), match.end(), poly))
    return found


def substitute(text: str, parameter: str, value: Fraction) -> str:
    """The plain Gambit text of a parametric file at ``parameter = value``."""
    pieces, last = [], 0
    point = sympy.Rational(value.numerator, value.denominator)
    for start, end, poly in _polynomials(text, parameter):
        result = poly.eval(point)
        pieces += [text[last:start], exact_str(Fraction(int(result.p), int(result.q)))]
        last = end
    return "".join(pieces) + text[last:]


def _chance_probabilities(node: object, out: list[Fraction], seen: set[int]) -> list[Fraction]:
    if id(node) in seen:
        return out
    seen.add(id(node))
    if isinstance(node, Chance):
        out.extend(p for _, p, _ in node.outcomes)
        for _, _, child in node.outcomes:
            _chance_probabilities(child, out, seen)
    elif isinstance(node, Move):
        for _, child in node.actions:
            _chance_probabilities(child, out, seen)
    return out


def parametric_file(path: str, parameter: str, within: tuple[Fraction, Fraction] = (Fraction(0), Fraction(1))
                    ) -> ParametricGame:
    """The ``.efg`` / ``.nfg`` file at ``path`` as a function of ``parameter`` (module docstring).

    ``within`` is the interval of interest: the chance probabilities are
    compared at points inside it.

    Raises
    ------
    InvalidParameterError
        For a reserved or malformed parameter name, a token that is not a
        polynomial, a file that does not mention the parameter, or chance
        probabilities that depend on it.
    """
    from exactpoker.files import check_readable
    from exactpoker.formats.efg import read_efg
    from exactpoker.formats.nfg import read_nfg

    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", parameter) or parameter in _RESERVED:
        raise InvalidParameterError(f"--over: the parameter of a Gambit file must be an identifier other than "
                                    f"{', '.join(sorted(_RESERVED))}; got {parameter!r}")
    check_readable(path, "GAME")
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    found = _polynomials(text, parameter)
    if not found:
        raise InvalidParameterError(f"--over: {path} has no payoff that depends on {parameter}")
    degree = max(max(poly.degree(), 0) for _, _, poly in found)
    reader = read_nfg if path.lower().endswith(".nfg") else read_efg

    def tree(value: Fraction):  # noqa: ANN202 - a GameTree
        return reader(substitute(text, parameter, value), path).tree

    low, high = within
    points = [low + (high - low) * Fraction(k, degree + 2) for k in range(1, degree + 2)]
    chances = [_chance_probabilities(tree(point).root, [], set()) for point in points]
    if any(c != chances[0] for c in chances[1:]):
        raise InvalidParameterError(f"--over: in {path} the chance probabilities depend on {parameter}; "
                                    "a parameter may appear in payoffs only")
    return ParametricGame(path, parameter, lambda value: compile_tree(tree(value)), degree=max(degree, 1))
