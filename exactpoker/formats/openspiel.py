"""OpenSpiel games, walked once into an exact :class:`~exactpoker.core.tree.GameTree`.

:func:`load_openspiel` takes any pyspiel game string (``"kuhn_poker"``,
``"kuhn_poker(players=3)"``, ``"leduc_poker"``, ...) or a loaded
``pyspiel.Game`` and walks its whole tree once, depth first:

* a decision node becomes a :class:`~exactpoker.core.tree.Move` at the
  information set keyed by ``information_state_string(player)``; its actions
  are the legal actions in increasing action id, named by
  ``action_to_string``;
* a chance node becomes a :class:`~exactpoker.core.tree.Chance` whose
  probabilities are the floats of ``chance_outcomes()`` read as exact
  fractions (:func:`exact_fraction`); they must sum to exactly one;
* a terminal node becomes a :class:`~exactpoker.core.tree.Terminal` with
  ``returns()`` read exactly the same way.

OpenSpiel stores probabilities and payoffs as floats.  A float is taken as the
fraction with the smallest denominator (at most ``10**6``) that rounds to it,
and only if it does round to exactly that float: 1/3 comes back from
``0.3333333333333333``; a probability such as ``pi/4`` is refused, naming the
node's history, rather than turned silently into a long binary fraction.

Refused with a one-line :class:`~exactpoker.errors.InvalidGameError`: games
that are not sequential (simultaneous moves), that pay rewards along the way
instead of at the end, that sample chance instead of listing it, that give no
information-state strings, whose tree is larger than ``max_nodes`` (before any
walking when Knuth's estimate of its size, :func:`estimate_nodes`, is many times
over: ``go`` is refused in a second, not after 112 s and 836 MB), and games
where two players share an information-state string (OpenSpiel's
``TabularPolicy`` could not tell them apart).  Perfect recall is checked when
the tree is compiled (:func:`~exactpoker.core.tree.compile_tree`), naming the
information set that breaks it.

Results lay out strategies per player as OpenSpiel does (:func:`openspiel_tables`):
for each player (``"0"``, ``"1"``, ...) one entry per information-state string
with the probabilities of the legal actions in increasing action id (the
result's ``labelled_strategies`` names them by ``action_to_string``), which
:func:`to_tabular_policy` turns into
an ``open_spiel.python.policy.TabularPolicy`` so that OpenSpiel's own
``exploitability.nash_conv`` can check the answer.

References
----------
M. Lanctot et al., "OpenSpiel: A Framework for Reinforcement Learning in
Games", arXiv:1908.09453 (2019): the ``State`` API walked here.
"""

from __future__ import annotations

import math
import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

from exactpoker import progress
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.profile import BehaviourProfile
from exactpoker.core.tree import Chance, GameTree, Move, Terminal, TreeNode, paused_gc
from exactpoker.errors import InvalidGameError, InvalidParameterError
from exactpoker.formats import LoadedGame

if TYPE_CHECKING:  # pragma: no cover
    import pyspiel
    from open_spiel.python.policy import TabularPolicy

__all__ = ["MAX_NODES", "MAX_DENOMINATOR", "exact_fraction", "estimate_nodes", "load_openspiel", "openspiel_tables",
           "OpenSpielTables", "to_tabular_policy", "tabular_state_lookup"]

#: The largest tree (chance, decision and terminal nodes together) the walker builds.
MAX_NODES = 2_000_000
#: Random paths of :func:`estimate_nodes`, and how many times over the walker's budget its estimate must be for the
#: game to be refused before the walk (the estimate is unbiased but spread: its median over the paths, with room).
PROBES, OVER_BUDGET = 31, 20
#: The largest denominator :func:`exact_fraction` looks for.
MAX_DENOMINATOR = 10**6


def exact_fraction(value: float, what: str) -> Fraction:
    """The fraction with denominator ``<= MAX_DENOMINATOR`` that is exactly the float ``value``.

    Returns the simplest such fraction; ``what`` names the number in the
    error message.

    >>> exact_fraction(1 / 3, "p"), exact_fraction(0.1, "p")
    (Fraction(1, 3), Fraction(1, 10))

    Raises
    ------
    InvalidGameError
        If no fraction with a small denominator rounds to exactly ``value``
        (``math.pi / 4``, ``0.7000000000000001``), or ``value`` is not finite.
    """
    if not math.isfinite(value):
        raise InvalidGameError(f"{what} is {value!r}, not a finite number")
    fraction = Fraction(value).limit_denominator(MAX_DENOMINATOR)
    if float(fraction) != value:
        raise InvalidGameError(
            f"{what} is the float {value!r}, which is no fraction with denominator <= {MAX_DENOMINATOR} "
            f"(the nearest, {fraction}, is {float(fraction)!r}): refusing to guess an exact value"
        )
    return fraction


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError:
        raise InvalidParameterError(
            "GAME openspiel:NAME needs OpenSpiel: pip install 'exactpoker[openspiel]'"
        ) from None
    return pyspiel


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Silence file descriptor 2: OpenSpiel's C++ prints every error there before raising it."""
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no descriptor 2 to silence
        yield
        return
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _load(game_string: str) -> "pyspiel.Game":
    pyspiel = _pyspiel()
    text = game_string.strip()
    if not text:
        raise InvalidParameterError("GAME openspiel:NAME: give a game name such as kuhn_poker or leduc_poker")
    try:
        with _quiet_stderr():
            return pyspiel.load_game(text)
    except pyspiel.SpielError as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else "rejected"
        if reason.startswith("Unknown game"):
            reason = reason.split(". Available")[0] + " (see pyspiel.registered_names())"
        raise InvalidParameterError(f"GAME openspiel:{text}: OpenSpiel cannot load it: {reason}") from None


def _check_type(game: "pyspiel.Game", name: str) -> None:
    pyspiel = _pyspiel()
    kind = game.get_type()
    if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise InvalidGameError(
            f"openspiel:{name}: moves are not sequential ({kind.dynamics.name}); only sequential games have an "
            "exact tree here (a simultaneous game can be wrapped as turn_based_simultaneous_game(game=...))"
        )
    if kind.reward_model != pyspiel.GameType.RewardModel.TERMINAL:
        raise InvalidGameError(f"openspiel:{name}: rewards are paid along the way ({kind.reward_model.name}); "
                               "only games that pay at the end are read")
    if kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC:
        raise InvalidGameError(f"openspiel:{name}: chance is sampled, not listed with its probabilities; "
                               "an exact tree needs explicit chance outcomes")
    if not kind.provides_information_state_string:
        raise InvalidGameError(f"openspiel:{name}: the game gives no information_state_string, which keys "
                               "the information sets")


class _Frame:
    """A chance or decision node being built: its state, the actions to follow, the children built so far."""

    __slots__ = ("state", "actions", "player", "key", "outcomes", "children")

    def __init__(self, state: "pyspiel.State", actions: Sequence[int], player: int, key: str,
                 outcomes: Sequence[tuple[int, float]] = ()) -> None:
        self.state, self.actions, self.player, self.key, self.outcomes = state, actions, player, key, outcomes
        self.children: list[TreeNode] = []


class _Walker:
    """Builds the :class:`GameTree` of one OpenSpiel game, depth first and bottom up, without recursion."""

    def __init__(self, game: "pyspiel.Game", name: str, max_nodes: int, limit: str) -> None:
        self.game, self.name, self.max_nodes, self.limit = game, name, max_nodes, limit
        self.players = game.num_players()
        self.nodes = 0
        self.numbers: dict[float, Fraction] = {}
        # (player, information state) -> (legal action ids, action names)
        self.infosets: dict[tuple[int, str], tuple[tuple[int, ...], tuple[str, ...]]] = {}
        self.owner: dict[str, int] = {}

    def exact(self, value: float, what: Callable[[], str]) -> Fraction:
        """:func:`exact_fraction`, remembered per float (a game repeats few numbers)."""
        found = self.numbers.get(value)
        if found is None:
            found = self.numbers[value] = exact_fraction(value, what())
        return found

    def walk(self) -> TreeNode:
        progress.stage(f"walking openspiel:{self.name}", unit="states")
        root = self.enter(self.game.new_initial_state())
        if isinstance(root, Terminal):
            return root
        stack = [root]
        while True:
            frame = stack[-1]
            if len(frame.children) < len(frame.actions):
                child = self.enter(frame.state.child(frame.actions[len(frame.children)]))
                if isinstance(child, Terminal):
                    frame.children.append(child)
                else:
                    stack.append(child)
                continue
            node = self.leave(stack.pop())
            if not stack:
                return node
            stack[-1].children.append(node)

    def enter(self, state: "pyspiel.State") -> "Terminal | _Frame":
        """A terminal node, or the frame of a chance or decision node."""
        self.nodes += 1
        progress.advance()
        if self.nodes > self.max_nodes:
            raise InvalidGameError(f"openspiel:{self.name}: the game tree has more than {self.max_nodes} nodes, "
                                   f"{self.limit}")
        if state.is_terminal():
            return Terminal(tuple(
                self.exact(v, lambda: f"openspiel:{self.name}: the return at history [{state.history_str()}]")
                for v in state.returns()
            ))
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            return _Frame(state, [a for a, _ in outcomes], -1, "", outcomes)
        player = state.current_player()
        if not 0 <= player < self.players:
            raise InvalidGameError(
                f"openspiel:{self.name}: the node at history [{state.history_str()}] belongs to player {player} "
                "(simultaneous or mean-field node); only sequential games are read"
            )
        key = state.information_state_string(player)
        legal = tuple(sorted(state.legal_actions(player)))
        known = self.infosets.get((player, key))
        if known is None:
            owner = self.owner.setdefault(key, player)
            if owner != player:
                raise InvalidGameError(
                    f"openspiel:{self.name}: players {owner} and {player} share the information state {key!r}; "
                    "strategies keyed by information_state_string (as in TabularPolicy) could not tell them apart"
                )
            self.infosets[(player, key)] = (legal, self.action_names(state, player, legal))
        elif known[0] != legal:
            raise InvalidGameError(
                f"openspiel:{self.name}: information state {key!r} of player {player} offers different legal "
                f"actions at different nodes ({list(known[0])} and {list(legal)})"
            )
        return _Frame(state, legal, player, key)

    @staticmethod
    def action_names(state: "pyspiel.State", player: int, legal: tuple[int, ...]) -> tuple[str, ...]:
        """``action_to_string`` of each action; the action id is added where two names coincide."""
        names = [state.action_to_string(player, a) for a in legal]
        if len(set(names)) != len(names):
            names = [f"{n} [{a}]" for n, a in zip(names, legal)]
        return tuple(names)

    def leave(self, frame: _Frame) -> TreeNode:
        """The finished node of ``frame``."""
        if frame.player >= 0:
            names = self.infosets[(frame.player, frame.key)][1]
            return Move(frame.player, frame.key, tuple(zip(names, frame.children)))
        state = frame.state
        history = state.history_str()
        outcomes = tuple(
            (state.action_to_string(state.current_player(), action),
             self.exact(prob, lambda: f"openspiel:{self.name}: the chance probability of outcome {action} at "
                        f"history [{history}]"),
             child)
            for (action, prob), child in zip(frame.outcomes, frame.children)
        )
        return Chance(outcomes, label=f"openspiel:{self.name} history [{history}]")


def estimate_nodes(game: "pyspiel.Game", cap: int, probes: int = PROBES, seed: int = 0) -> int:
    """Knuth's estimate of the number of nodes of ``game``'s tree, from ``probes`` random paths (their median).

    Along a path from the root taking a uniformly random child at every node, the sum over depths of the product
    of the numbers of children met so far is an unbiased estimate of the number of nodes (D. E. Knuth,
    "Estimating the efficiency of backtrack programs", Mathematics of Computation 29, 1975, section 2).  A path
    stops once its sum passes ``cap``: the answer is then "more than ``cap``", found in a few steps even for
    ``go``.  Chance nodes count their outcomes like any other node's children.
    """
    import random

    rng = random.Random(seed)
    found = []
    with _quiet_stderr():
        for _ in range(probes):
            state, weight, total = game.new_initial_state(), 1, 1
            while not state.is_terminal() and total <= cap:
                actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
                if not actions:
                    break
                weight *= len(actions)
                total += weight
                state.apply_action(rng.choice(actions))
            found.append(total)
    return sorted(found)[len(found) // 2]


def load_openspiel(game: "str | pyspiel.Game", *, max_nodes: int = MAX_NODES,
                   limit: str = "the limit of the OpenSpiel walker (max_nodes)") -> LoadedGame:
    """The OpenSpiel game ``game`` (a game string or a ``pyspiel.Game``) as an exact tree.

    Parameters
    ----------
    game : str or pyspiel.Game
        Any string ``pyspiel.load_game`` accepts, e.g. ``"kuhn_poker(players=3)"``.
    max_nodes : int
        The largest tree walked (every chance, decision and terminal node).
    limit : str
        What ``max_nodes`` is, for the message when the walk stops there
        (``exactpoker solve`` sets it from the memory limit, :mod:`exactpoker.guard`).

    Returns
    -------
    LoadedGame
        The tree, with :func:`openspiel_tables` as its strategy layout
        (an :class:`OpenSpielTables`, which also keeps the legal action ids).

    Raises
    ------
    InvalidParameterError
        If OpenSpiel is not installed or cannot load ``game`` (unknown name,
        bad parameters); the message is one line and names the game.
    InvalidGameError
        If the game is not sequential with terminal rewards and explicit
        chance, gives no information-state strings, is larger than
        ``max_nodes``, or a chance probability or a return is not a clean
        fraction (:func:`exact_fraction`), naming the node's history.
    """
    if isinstance(game, str):
        game = _load(game)
    elif not hasattr(game, "new_initial_state"):
        raise InvalidParameterError(f"load_openspiel(): game must be a game string or a pyspiel.Game; got {game!r}")
    full_name = str(game)
    _check_type(game, full_name)
    progress.stage(f"estimating the size of openspiel:{full_name}")
    estimate = estimate_nodes(game, OVER_BUDGET * max_nodes)
    if estimate > OVER_BUDGET * max_nodes:
        raise InvalidGameError(f"openspiel:{full_name}: the game tree has more than {OVER_BUDGET * max_nodes} nodes "
                               f"(Knuth's estimate from {PROBES} random paths), far over {max_nodes}, {limit}")
    walker = _Walker(game, full_name, max_nodes, limit)
    with paused_gc():
        root = walker.walk()
    players = tuple(str(p) for p in range(game.num_players()))
    parameters = tuple(sorted(game.get_parameters().items()))
    tree = GameTree(game.get_type().short_name, players, root, parameters)
    legal = {key: actions for (_, key), (actions, _) in walker.infosets.items()}
    return LoadedGame(tree, OpenSpielTables(legal, game.num_distinct_actions()), f"openspiel:{full_name}")


@dataclass(frozen=True)
class OpenSpielTables:
    """:func:`openspiel_tables` as a loaded game's layout, with what a policy needs to be read back.

    ``legal_actions`` gives each information state's legal action ids in
    increasing order (the order of its actions in the tree), and
    ``num_distinct_actions`` the width of a ``TabularPolicy`` row.
    """

    legal_actions: Mapping[str, tuple[int, ...]]
    num_distinct_actions: int

    def __call__(self, compiled: CompiledGame, profile: BehaviourProfile) -> dict[str, dict[str, list[Fraction]]]:
        return openspiel_tables(compiled, profile)


def openspiel_tables(compiled: CompiledGame, profile: BehaviourProfile) -> dict[str, dict[str, list[Fraction]]]:
    """Per player, ``{information_state_string: [probability of each legal action, by increasing action id]}``.

    Together (the strings of different players are distinct, checked by
    :func:`load_openspiel`) the rows are exactly those of an OpenSpiel ``TabularPolicy``.
    """
    return {
        name: {key: list(probs) for key, probs in profile.by_infoset(compiled, p).items()}
        for p, name in enumerate(compiled.player_names)
    }


def _rows(strategies: Mapping[str, Any]) -> dict[str, Sequence[object]]:
    """One ``{information state: row}`` table from the per-player layout (or from an already flat one)."""
    if strategies and all(isinstance(table, Mapping) for table in strategies.values()):
        return {key: row for table in strategies.values() for key, row in table.items()}
    return dict(strategies)


def to_tabular_policy(game: "str | pyspiel.Game", strategies: Mapping[str, Any]) -> "TabularPolicy":
    """An OpenSpiel ``TabularPolicy`` of ``game`` holding ``strategies`` (as floats).

    ``strategies`` is laid out as :func:`openspiel_tables` (a solve result's
    ``equilibria[k].strategies``, or its JSON), per player; the flat table of
    earlier releases (one ``{information state: row}`` over all players) is
    read too.  Probabilities may be fractions, sympy numbers or exact strings
    such as ``"1/3"``.

    Raises
    ------
    InvalidParameterError
        If an information state of the game is missing from ``strategies``,
        ``strategies`` names one the game does not have, or a row has the
        wrong length.
    """
    from open_spiel.python.policy import TabularPolicy

    if isinstance(game, str):
        game = _load(game)
    policy = TabularPolicy(game)
    strategies = _rows(strategies)
    missing = [key for key in policy.state_lookup if key not in strategies]
    unknown = [key for key in strategies if key not in policy.state_lookup]
    if missing or unknown:
        raise InvalidParameterError(
            f"to_tabular_policy(): strategies do not match {game}: "
            + (f"{len(missing)} information state(s) missing, e.g. {missing[0]!r}" if missing else "")
            + ("; " if missing and unknown else "")
            + (f"{len(unknown)} unknown, e.g. {unknown[0]!r}" if unknown else "")
        )
    for key, row in policy.state_lookup.items():
        legal = policy.legal_actions_mask[row].nonzero()[0]
        probs = strategies[key]
        if len(probs) != len(legal):
            raise InvalidParameterError(
                f"to_tabular_policy(): information state {key!r} has {len(legal)} legal actions; "
                f"got {len(probs)} probabilities"
            )
        policy.action_probability_array[row, :] = 0.0
        policy.action_probability_array[row, legal] = [_to_float(p) for p in probs]
    return policy


def tabular_state_lookup(game: "str | pyspiel.Game") -> dict[str, int]:
    """``TabularPolicy(game).state_lookup``: each information state's row in OpenSpiel's policy arrays."""
    from open_spiel.python.policy import TabularPolicy

    return dict(TabularPolicy(_load(game) if isinstance(game, str) else game).state_lookup)


def _to_float(value: object) -> float:
    if isinstance(value, str):
        return float(Fraction(value))
    return float(value)  # type: ignore[arg-type]
