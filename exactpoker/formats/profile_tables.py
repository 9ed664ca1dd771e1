"""Profiles given as tables by name: OpenSpiel policies (JSON), CSV files, exactpoker's own JSON.

Every shape comes down to one table per player, ``{information set:
{action: probability}}``, by the game's own names (a ``.efg`` file's
information-set labels, OpenSpiel's ``information_state_string``, the poker
language's labels such as ``"K|b"``), then to an exact
:class:`~exactpoker.core.profile.BehaviourProfile`:

JSON (:func:`read_json_value`)
    * ``{"action_probability_array": [[...], ...], "state_lookup": {state: row}}``
      (an OpenSpiel ``TabularPolicy``'s two fields); without ``state_lookup``,
      or as the bare list of rows, the rows are in the order of
      ``TabularPolicy(game).state_lookup`` (OpenSpiel games only; OpenSpiel is
      asked for that order);
    * ``{state: row}`` over all players (``TabularPolicy.to_dict()``), or
      ``{player: {state: row}}`` (an ``exactpoker solve`` result's
      ``strategies`` or ``labelled_strategies``);
    * an ``exactpoker ... --json`` result: each of its ``equilibria``.

    A row is ``{action: probability}``, ``[[action, probability], ...]`` or a
    list of probabilities (one per action in the game's order; for an
    OpenSpiel game also one per action id, ``num_distinct_actions`` of them,
    the illegal ones 0).  An action is named as the game names it or, in an
    OpenSpiel game, by its action id (``0``, ``"1"``).

CSV (:func:`read_csv`)
    A header naming ``player``, ``information_set`` (or ``infoset``),
    ``action`` and ``probability`` (or ``prob``), in any order, then one row
    per action; actions left out have probability 0.

An information set left out is refused when the player's own strategy can
reach it; one it cannot reach (after an action given probability 0) changes no
payoff and gets its first action.
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

from exactpoker.core.profile import BehaviourProfile
from exactpoker.errors import InvalidParameterError

from exactpoker.formats.profile_game import GivenProfile, ProfileGame

__all__ = ["read_json_value", "read_csv", "profile_of_tables"]

Number = Callable[[object, str], Fraction]
#: Per player, per information set (layout index), per action (index): the probabilities given.
Tables = list[dict[int, dict[int, Fraction]]]


def read_json_value(game: ProfileGame, value: Any, source: str, number: Number) -> list[GivenProfile]:
    """The profiles in a parsed JSON value (module docstring)."""
    if isinstance(value, Mapping) and isinstance(value.get("equilibria"), list):
        found = []
        for k, equilibrium in enumerate(value["equilibria"], 1):
            table = equilibrium.get("labelled_strategies") or equilibrium.get("strategies") \
                if isinstance(equilibrium, Mapping) else None
            if not isinstance(table, Mapping):
                raise InvalidParameterError(f"PROFILE {source}: equilibrium {k} has no strategies")
            where = f"equilibrium {k} of {source}"
            found.append(GivenProfile(where, profile_of_tables(game, _nested(game, table, where, number), where)))
        if not found:
            raise InvalidParameterError(f"PROFILE {source}: the result has no equilibria")
        return found
    if isinstance(value, list) or (isinstance(value, Mapping) and "action_probability_array" in value):
        tables = _tabular(game, value, source, number)
    elif isinstance(value, Mapping):
        tables = _nested(game, value, source, number)
    else:
        raise InvalidParameterError(f"PROFILE {source}: expected a JSON object or list; got {type(value).__name__}")
    return [GivenProfile(source, profile_of_tables(game, tables, source))]


def read_csv(game: ProfileGame, text: str, source: str, number: Number) -> list[GivenProfile]:
    """The profile of a CSV file's text (module docstring)."""
    reader = csv.reader(io.StringIO(text))
    header = [cell.strip().lower() for cell in next(reader)]
    columns = {}
    for name, aliases in (("player", ("player",)), ("infoset", ("information_set", "infoset")),
                          ("action", ("action",)), ("probability", ("probability", "prob"))):
        found = [header.index(a) for a in aliases if a in header]
        if not found:
            raise InvalidParameterError(f"PROFILE {source}: the CSV header must name the columns player, "
                                        f"information_set, action and probability; got {','.join(header)}")
        columns[name] = found[0]
    names = {name: p for p, name in enumerate(game.compiled.player_names)}
    tables: Tables = [{} for _ in game.compiled.layouts]
    for line, row in enumerate(reader, 2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) < len(header):
            raise InvalidParameterError(f"PROFILE {source} line {line}: {len(row)} cells; the header has {len(header)}")
        player, key, action, prob = (row[columns[c]].strip() for c in ("player", "infoset", "action", "probability"))
        if player not in names:
            raise InvalidParameterError(f"PROFILE {source} line {line}: no player {player!r}; the players are "
                                        f"{', '.join(names)}")
        p = names[player]
        infoset = _infoset(game, p, key, f"{source} line {line}")
        where = f"{source} line {line}"
        _put(tables[p].setdefault(infoset, {}), _action(game, p, infoset, action, where), number(prob, where), where)
    return [GivenProfile(source, profile_of_tables(game, tables, source))]


def _nested(game: ProfileGame, table: Mapping[str, Any], source: str, number: Number) -> Tables:
    """``{player: {state: row}}`` or a flat ``{state: row}`` as tables."""
    names = game.compiled.player_names
    per_player = table and set(table) <= set(names) and all(
        isinstance(rows, Mapping) and all(isinstance(row, (Mapping, list)) for row in rows.values())
        for rows in table.values())
    tables: Tables = [{} for _ in names]
    items = [(names.index(player), key, row) for player, rows in table.items() for key, row in rows.items()] \
        if per_player else [(None, key, row) for key, row in table.items()]
    for player, key, row in items:
        p = _owner(game, key, source) if player is None else player
        infoset = _infoset(game, p, key, source)
        tables[p][infoset] = _row(game, p, infoset, row, f"{source}: information set {key!r}", number)
    return tables


def _tabular(game: ProfileGame, value: Any, source: str, number: Number) -> Tables:
    """An ``action_probability_array`` (with its ``state_lookup``, or OpenSpiel's order) as tables."""
    rows = value if isinstance(value, list) else value["action_probability_array"]
    lookup = None if isinstance(value, list) else value.get("state_lookup")
    if lookup is None:
        lookup = _openspiel_lookup(game, source)
    if not isinstance(rows, list) or not isinstance(lookup, Mapping):
        raise InvalidParameterError(f"PROFILE {source}: action_probability_array must be a list of rows and "
                                    "state_lookup an object {state: row number}")
    if len(lookup) != len(rows):
        raise InvalidParameterError(f"PROFILE {source}: {len(rows)} rows for {len(lookup)} information states")
    tables: Tables = [{} for _ in game.compiled.layouts]
    for key, at in lookup.items():
        if not isinstance(at, int) or not 0 <= at < len(rows):
            raise InvalidParameterError(f"PROFILE {source}: state_lookup[{key!r}] = {at!r} is no row number")
        p = _owner(game, key, source)
        infoset = _infoset(game, p, key, source)
        tables[p][infoset] = _row(game, p, infoset, rows[at], f"{source}: information state {key!r}", number)
    return tables


def _openspiel_lookup(game: ProfileGame, source: str) -> dict[str, int]:
    """``TabularPolicy(game).state_lookup`` of the OpenSpiel game the profile is for."""
    name = game.loaded.source
    if not name.startswith("openspiel:"):
        raise InvalidParameterError(f"PROFILE {source}: rows without a state_lookup are in OpenSpiel's order, and "
                                    f"{name} is no OpenSpiel game; give state_lookup or a table by name")
    from exactpoker.formats.openspiel import tabular_state_lookup

    return tabular_state_lookup(name[len("openspiel:"):])


def _owner(game: ProfileGame, key: object, source: str) -> int:
    """The player whose information set ``key`` is (a flat table: the name must be one player's)."""
    owners = [p for p in range(game.compiled.num_players) if str(key) in game.infoset_index(p)]
    if len(owners) != 1:
        what = "no player has" if not owners else "several players have"
        hint = "; give one table per player {player: {information set: row}}" if owners else ""
        raise InvalidParameterError(f"PROFILE {source}: {what} the information set {key!r}{hint}")
    return owners[0]


def _infoset(game: ProfileGame, player: int, key: object, source: str) -> int:
    found = game.infoset_index(player).get(str(key))
    if found is None:
        raise InvalidParameterError(f"PROFILE {source}: player {game.compiled.player_names[player]} has no "
                                    f"information set {str(key)[:80]!r}")
    return found


def _legal(game: ProfileGame) -> Any:
    """The OpenSpiel tables (legal action ids) when the game is an OpenSpiel game, else None."""
    from exactpoker.formats.openspiel import OpenSpielTables

    tables = game.loaded.tables
    return tables if isinstance(tables, OpenSpielTables) else None


def _action(game: ProfileGame, player: int, infoset: int, action: object, where: str) -> int | None:
    """The index of ``action`` (a name or, in an OpenSpiel game, an action id); None for an illegal id."""
    layout = game.compiled.layouts[player]
    names = layout.infoset_actions(infoset)
    if isinstance(action, str) and action in names:
        return names.index(action)
    openspiel = _legal(game)
    if openspiel is not None and str(action).strip().lstrip("-").isdigit():
        legal = openspiel.legal_actions[layout.infoset_name(infoset)]
        ident = int(str(action))
        return legal.index(ident) if ident in legal else None
    raise InvalidParameterError(f"PROFILE {where}: no action {action!r} at {layout.infoset_name(infoset)!r}; its "
                                f"actions are {', '.join(names)}")


def _put(row: dict[int, Fraction], action: int | None, prob: Fraction, where: str) -> None:
    if action is None:
        if prob:
            raise InvalidParameterError(f"PROFILE {where}: an illegal action has probability {prob}")
        return
    if action in row:
        raise InvalidParameterError(f"PROFILE {where}: an action is given twice")
    row[action] = prob


def _row(game: ProfileGame, player: int, infoset: int, row: Any, where: str, number: Number) -> dict[int, Fraction]:
    """One information set's probabilities, by action index."""
    found: dict[int, Fraction] = {}
    actions = game.compiled.layouts[player].infoset_actions(infoset)
    if isinstance(row, Mapping):
        for action, prob in row.items():
            _put(found, _action(game, player, infoset, action, where), number(prob, f"{where}, {action!r}"), where)
    elif isinstance(row, list) and row and all(isinstance(x, list) and len(x) == 2 for x in row):
        for action, prob in row:
            _put(found, _action(game, player, infoset, action, where), number(prob, f"{where}, {action!r}"), where)
    elif isinstance(row, list):
        openspiel = _legal(game)
        if len(row) == len(actions):
            found = {a: number(prob, f"{where}, action {a + 1}") for a, prob in enumerate(row)}
        elif openspiel is not None and len(row) == openspiel.num_distinct_actions:
            for ident, prob in enumerate(row):
                _put(found, _action(game, player, infoset, ident, where), number(prob, f"{where}, id {ident}"), where)
        else:
            raise InvalidParameterError(f"PROFILE {where}: {len(row)} probabilities for {len(actions)} actions")
    else:
        raise InvalidParameterError(f"PROFILE {where}: expected {{action: probability}} or a list; got {row!r:.40}")
    return found


def profile_of_tables(game: ProfileGame, tables: Sequence[Mapping[int, Mapping[int, Fraction]]],
                      source: str) -> BehaviourProfile:
    """The exact profile of per-player tables (actions left out: 0; information sets: module docstring).

    Raises
    ------
    InvalidParameterError
        If an information set the player's own strategy can reach is left out.
    """
    strategies = []
    for p, layout in enumerate(game.compiled.layouts):
        given = tables[p]
        reached = [False] * layout.num_sequences
        reached[0] = True
        strategy = []
        for infoset in range(layout.num_infosets):  # parents before children
            size = len(layout.infoset_actions(infoset))
            row = given.get(infoset)
            sequences = layout.infoset_sequences(infoset)
            if row is None:
                if reached[layout.parent_sequence(infoset)]:
                    missing = sum(1 for i in range(layout.num_infosets) if i not in given)
                    raise InvalidParameterError(
                        f"PROFILE {source}: player {game.compiled.player_names[p]}'s strategy reaches the information "
                        f"set {layout.infoset_name(infoset)!r}, which is not given ({missing} left out in all)")
                strategy.append(tuple(Fraction(int(a == 0)) for a in range(size)))
                continue
            dist = tuple(row.get(a, Fraction(0)) for a in range(size))
            for s, prob in zip(sequences, dist):
                reached[s] = reached[layout.parent_sequence(infoset)] and prob > 0
            strategy.append(dist)
        strategies.append(tuple(strategy))
    return BehaviourProfile(tuple(strategies))
