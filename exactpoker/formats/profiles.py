"""Someone else's strategy profile, read exactly: Gambit's ``NE,`` lines, a CSV, an OpenSpiel policy, pygambit.

:func:`read_profiles` turns what ``exactpoker certify GAME PROFILE`` is given
into exact :class:`~exactpoker.core.profile.BehaviourProfile` s of the game:

* **Gambit's lines** (what ``gambit-lcp``, ``gambit-enummixed``, ``gambit-lp``
  ... print): one profile a line, ``NE,`` and then the probabilities, comma
  separated (the ``NE,`` may be left out; blank lines and lines starting with
  ``#`` are skipped).  A line as long as the game's behaviour profile lists,
  player after player, each information set in Gambit's order and each of its
  actions (:mod:`~exactpoker.formats.gambit_order`); a line as long as the
  reduced strategic form lists each player's mixed strategy over Gambit's
  reduced strategies (for a ``.nfg`` game, its strategies).  When both lengths
  agree the line is a behaviour profile unless ``kind="mixed"``;
* **a CSV file** with a header naming the columns ``player``,
  ``information_set`` (or ``infoset``), ``action`` and ``probability`` (or
  ``prob``), one row per action (:mod:`~exactpoker.formats.profile_tables`);
* **JSON**: an OpenSpiel ``TabularPolicy`` written out (``to_dict()``, or its
  ``action_probability_array`` with or without ``state_lookup``), a table
  ``{information set: {action: probability}}`` flat or per player, an
  ``exactpoker ... --json`` result (each of its equilibria), or pygambit's
  nested lists (what ``mixed_behavior_profile(data=...)`` takes: players, their
  information sets in Gambit's order, their actions; or
  ``mixed_strategy_profile(data=...)``'s players and strategies, but for an
  OpenSpiel game, whose bare lists of rows are its policy's);
* Python objects: a pygambit ``MixedBehaviorProfile`` or
  ``MixedStrategyProfile`` (:mod:`~exactpoker.formats.gambit_objects`), an
  OpenSpiel ``TabularPolicy``, such a mapping, or a ``BehaviourProfile``.

Numbers are read exactly (:func:`exact_number`): ``1/3`` is one third and a
decimal is the decimal written, ``0.1`` is 1/10 (never the float nearest it).
Each information set's probabilities must be >= 0 and add up to exactly 1, so a
row of rounded decimals (``0.333333, 0.666667``... of a float policy that does
not add up) is refused, naming the information set and the sum.  With
``decimals="fractions"`` a decimal or float is read instead as the simplest
fraction that is the same double (denominator at most 10**6,
:func:`~exactpoker.formats.openspiel.exact_fraction`): ``0.3333333333333333``
is 1/3; a number that is no such fraction is refused.
"""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from fractions import Fraction
from typing import Callable, Literal, Sequence

from exactpoker.core.compiled import CompiledGame
from exactpoker.core.profile import BehaviourProfile
from exactpoker.errors import InvalidGameError, InvalidParameterError
from exactpoker.formats.profile_game import GivenProfile, ProfileGame
from exactpoker.lazy import is_instance
from exactpoker.numbers import to_fraction

__all__ = ["Decimals", "DECIMALS", "Kind", "KINDS", "GivenProfile", "ProfileGame", "exact_number", "read_profiles",
           "check_distributions"]

Decimals = Literal["exact", "fractions"]
DECIMALS: tuple[str, ...] = ("exact", "fractions")
Kind = Literal["auto", "behaviour", "mixed"]
KINDS: tuple[str, ...] = ("auto", "behaviour", "mixed")

_DECIMAL_TEXT = re.compile(r"[^/]*[.eE][^/]*")


def exact_number(value: object, where: str, decimals: Decimals = "exact") -> Fraction:
    """``value`` (a number or a number's text) as an exact rational, by the rule of the module docstring.

    Raises
    ------
    InvalidParameterError
        If ``value`` is no finite number (naming ``where``), or, with
        ``decimals="fractions"``, a decimal that is no small fraction.
    """
    if isinstance(value, bool) or value is None:
        raise InvalidParameterError(f"PROFILE: {where}: expected a probability; got {value!r}")
    if isinstance(value, Decimal):
        value = str(value)
    if isinstance(value, str) and decimals == "fractions" and _DECIMAL_TEXT.fullmatch(value.strip()):
        value = _float(value, where)
    if isinstance(value, float) or is_instance(value, "numpy", "floating"):
        number = float(value)  # type: ignore[arg-type]
        if not math.isfinite(number):
            raise InvalidParameterError(f"PROFILE: {where}: {number!r} is not a probability")
        if decimals == "fractions":
            from exactpoker.formats.openspiel import exact_fraction

            try:
                return exact_fraction(number, f"PROFILE: {where}: the number")
            except InvalidGameError as error:
                raise InvalidParameterError(f"{error} (--decimals fractions)") from None
        value = repr(number)  # the decimal that the float prints as: what a JSON or CSV file holds
    try:
        return to_fraction(value, f"PROFILE: {where}: a probability")
    except InvalidParameterError:
        raise InvalidParameterError(f"PROFILE: {where}: expected a number such as 1/3, 0.25 or 1; "
                                    f"got {str(value)[:40]!r}") from None


def _float(text: str, where: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise InvalidParameterError(f"PROFILE: {where}: expected a number; got {text[:40]!r}") from None


def read_profiles(game: ProfileGame, given: object, source: str = "PROFILE", *, decimals: Decimals = "exact",
                  kind: Kind = "auto") -> list[GivenProfile]:
    """Every profile in ``given`` (text or an object, module docstring), exact and checked.

    ``source`` names the file in the profiles' ``source`` and in messages.

    Raises
    ------
    InvalidParameterError
        At anything that is not a profile of this game, naming the line,
        player, information set or action.
    """
    if decimals not in DECIMALS:
        raise InvalidParameterError(f"--decimals must be one of {', '.join(DECIMALS)}; got {decimals!r}")
    if kind not in KINDS:
        raise InvalidParameterError(f"--as must be one of {', '.join(KINDS)}; got {kind!r}")
    number = lambda value, where: exact_number(value, where, decimals)  # noqa: E731
    if isinstance(given, BehaviourProfile):
        found = [GivenProfile(source, given)]
    elif isinstance(given, str):
        found = _read_text(game, given, source, number, kind)
    else:
        found = _read_object(game, given, source, number)
    for item in found:
        check_distributions(game.compiled, item.profile, item.source)
    return found


def _read_object(game: ProfileGame, given: object, source: str,
                 number: Callable[[object, str], Fraction]) -> list[GivenProfile]:
    from exactpoker.formats.gambit_objects import is_pygambit_profile, pygambit_profile
    from exactpoker.formats.profile_tables import read_json_value

    if is_pygambit_profile(given):
        return [GivenProfile(source, pygambit_profile(game, given, number))]
    if hasattr(given, "action_probability_array") and hasattr(given, "state_lookup"):  # an OpenSpiel TabularPolicy
        given = {"action_probability_array": given.action_probability_array.tolist(),  # type: ignore[attr-defined]
                 "state_lookup": dict(given.state_lookup)}  # type: ignore[attr-defined]
    return read_json_value(game, given, source, number)


def _read_text(game: ProfileGame, text: str, source: str, number: Callable[[object, str], Fraction],
               kind: Kind) -> list[GivenProfile]:
    from exactpoker.formats.profile_tables import read_csv, read_json_value

    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped[:1] in ("{", "["):
        try:
            value = json.loads(stripped, parse_float=str, parse_constant=_no_constant)
        except json.JSONDecodeError as error:
            raise InvalidParameterError(f"PROFILE {source}: not valid JSON: {error}") from None
        if _gambit_nesting(game, value):
            return [GivenProfile(source, _nested_profile(game, value, source, number))]
        return read_json_value(game, value, source, number)
    first = next((line for line in stripped.splitlines() if line.strip()), "")
    if re.search(r"\b(information_set|infoset)\b", first, re.I):
        return read_csv(game, stripped, source, number)
    return _read_lines(game, stripped, source, number, kind)


def _gambit_nesting(game: ProfileGame, value: object) -> bool:
    """Whether ``value`` is pygambit's nested list (players, then information sets, then actions; or, but for an
    OpenSpiel game, whose bare lists are policy rows: players, then strategies)."""
    if not (isinstance(value, list) and value and all(isinstance(mine, list) for mine in value)):
        return False
    deep = all(isinstance(row, list) for mine in value for row in mine)
    return deep or not game.loaded.source.startswith("openspiel:")


def _nested_profile(game: ProfileGame, value: list, source: str, number: Callable[[object, str], Fraction]
                    ) -> BehaviourProfile:
    """pygambit's nested list: a behaviour profile ``[[[p, ...], ...], ...]`` or a mixed one ``[[p, ...], ...]``."""
    compiled = game.compiled
    if len(value) != compiled.num_players:
        raise InvalidParameterError(f"PROFILE {source}: {len(value)} players' lists; the game has "
                                    f"{compiled.num_players} players")
    deep = all(isinstance(row, list) for mine in value for row in mine)
    if deep:
        for p, (mine, infosets) in enumerate(zip(value, game.order())):
            widths = [len(compiled.layouts[p].infoset_actions(i)) for i in infosets]
            if [len(row) for row in mine] != widths:
                raise InvalidParameterError(
                    f"PROFILE {source}: player {compiled.player_names[p]}'s lists have the lengths "
                    f"{[len(row) for row in mine][:8]}; its information sets in Gambit's order have "
                    f"{widths[:8]} actions")
    flat = [x for mine in value for x in (mine if not deep else [y for row in mine for y in row])]
    numbers = [number(x, f"{source}, number {k}") for k, x in enumerate(flat, 1)]
    return _line_profile(game, numbers, source, "behaviour" if deep else "mixed")


def _no_constant(name: str) -> None:
    raise InvalidParameterError(f"PROFILE: {name} is not a probability")


def _read_lines(game: ProfileGame, text: str, source: str, number: Callable[[object, str], Fraction],
                kind: Kind) -> list[GivenProfile]:
    """Gambit's ``NE,...`` lines (module docstring)."""
    found = []
    for line_number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        where = f"line {line_number} of {source}" if source != "PROFILE" else f"line {line_number}"
        cells = [cell.strip() for cell in line.split(",")]
        if cells[0].upper() == "NE":
            cells = cells[1:]
        if not cells or not re.fullmatch(r"[-+0-9./eE]+", cells[0]):
            raise InvalidParameterError(
                f"PROFILE {where}: expected Gambit's line NE,p1,p2,... (or a JSON policy, or a CSV with the "
                f"columns player,information_set,action,probability); got {line[:60]!r}")
        numbers = [number(cell, f"{where}, number {k}") for k, cell in enumerate(cells, 1)]
        found.append(GivenProfile(where, _line_profile(game, numbers, where, kind)))
    if not found:
        raise InvalidParameterError(f"PROFILE {source}: holds no profile")
    return found


def _line_profile(game: ProfileGame, numbers: Sequence[Fraction], where: str, kind: Kind) -> BehaviourProfile:
    """One line's numbers as a behaviour or mixed profile, by their count (or ``kind``)."""
    from exactpoker.formats.gambit_order import behaviour_profile, mixed_profile
    from exactpoker.formats.nfg import strategic_size

    compiled = game.compiled
    behaviour = sum(len(layout.infoset_actions(i)) for layout in compiled.layouts for i in range(layout.num_infosets))
    counts = strategic_size(compiled)
    if kind != "mixed" and len(numbers) == behaviour:
        return behaviour_profile(compiled, game.order(), numbers)
    if kind != "behaviour" and len(numbers) == sum(counts):
        _check_mixture(compiled, counts, numbers, where)
        return mixed_profile(compiled, game.order(), numbers)
    wanted = {"auto": "", "behaviour": " (--as behaviour)", "mixed": " (--as mixed)"}[kind]
    raise InvalidParameterError(
        f"PROFILE {where}: {len(numbers)} numbers{wanted}; this game's behaviour profile has {behaviour} (per "
        f"player, per information set in Gambit's order, per action), its mixed profile {sum(counts)} (the reduced "
        f"strategies: {' + '.join(map(str, counts))})")


def _check_mixture(compiled: CompiledGame, counts: Sequence[int], numbers: Sequence[Fraction], where: str) -> None:
    start = 0
    for name, count in zip(compiled.player_names, counts):
        mine = numbers[start:start + count]
        start += count
        if any(p < 0 for p in mine) or sum(mine) != 1:
            raise InvalidParameterError(f"PROFILE {where}: player {name}'s mixed strategy must be >= 0 and add up "
                                        f"to 1; it adds up to {_sum_text(sum(mine))}")


def check_distributions(compiled: CompiledGame, profile: BehaviourProfile, source: str) -> None:
    """Refuse a profile whose shape is not the game's, or whose probabilities are < 0 or do not add up to 1."""
    if len(profile.strategies) != compiled.num_players:
        raise InvalidParameterError(f"PROFILE {source}: {len(profile.strategies)} players; the game has "
                                    f"{compiled.num_players}")
    for p, layout in enumerate(compiled.layouts):
        strategy = profile.strategies[p]
        if len(strategy) != layout.num_infosets:
            raise InvalidParameterError(f"PROFILE {source}: player {compiled.player_names[p]} has "
                                        f"{len(strategy)} information sets; the game gives {layout.num_infosets}")
        for infoset, dist in enumerate(strategy):
            actions = layout.infoset_actions(infoset)
            if len(dist) != len(actions) or any(x < 0 for x in dist) or sum(dist) != 1:
                raise InvalidParameterError(
                    f"PROFILE {source}: player {compiled.player_names[p]}, information set "
                    f"{layout.infoset_name(infoset)!r}: {len(actions)} probabilities >= 0 adding up to exactly 1 "
                    f"are needed; got {len(dist)} adding up to {_sum_text(sum(dist))}"
                    + ("" if sum(dist) in (0, 1) or len(dist) != len(actions) else
                       " (decimals are read as written; give fractions such as 1/3, or --decimals fractions)"))


def _sum_text(total: object) -> str:
    """A sum as a decimal when it is one (``0.9999999999999999``), else as the exact rational."""
    from exactpoker.numbers import exact_str

    if not isinstance(total, Fraction) or total.denominator == 1:
        return exact_str(total)
    twos = (total.denominator & -total.denominator).bit_length() - 1
    fives = 0
    rest = total.denominator >> twos
    while rest % 5 == 0:
        rest //= 5
        fives += 1
    places = max(twos, fives)
    if rest != 1 or places > 40:
        return exact_str(total)
    digits = str(abs(total.numerator) * 10**places // total.denominator).rjust(places + 1, "0")
    return ("-" if total < 0 else "") + digits[:-places] + "." + digits[-places:]
