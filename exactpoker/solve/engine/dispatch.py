"""The one entry point for any game: :func:`solve_game`; the method follows from the game.

:func:`solve_game` is what ``exactpoker solve GAME`` runs too, on the game as
:func:`~exactpoker.solve.engine.loaded.as_loaded` makes it ready: under the
default options the game's own path first (a restricted game its rules
declare, a structure in its rules or its tree), else the game compiled, its
size guarded (:mod:`exactpoker.guard`) and solved by the method its shape
calls for (:func:`_solve_compiled`, private: every caller goes through
:func:`solve_game`).

The method looks at the compiled game, not at where it came from (the poker
language, a Gambit file, OpenSpiel, or a paper's model), and chooses:

* one player: a best response by backward induction (the game is a decision
  problem);
* two players, zero-sum: the exact sequence-form LP
  (:func:`exactpoker.solve.lp.zerosum.solve_zero_sum`, Koller--Megiddo--von
  Stengel 1996): from the float guide's support on small games, from its
  optimal basis (``"basis"``) on large ones; a constant-sum game (the payoffs
  add up to the same constant at every leaf) is solved as the zero-sum game it
  differs from by that constant, and its values reported as they are;
* two players, general-sum: the exact sequence-form Lemke method
  (:func:`exactpoker.solve.lemke.lcp.solve_lemke`);
* three or more players: the float guide and the staged exact finish
  (:func:`exactpoker.solve.nplayer.pipeline.solve_n_player`);
* ``all_pure=True``: every pure equilibrium by best-response enumeration
  (:func:`exactpoker.solve.enumeration.pure.pure_equilibria`);
* ``family=True`` (two-player zero-sum): besides one equilibrium, every
  optimal strategy of each player, as the exact vertices of the set of
  optimal realization plans (:func:`exactpoker.solve.lp.optimal_set.optimal_set`).

:data:`METHODS` is the one ``method`` vocabulary of the package: every
game's API and every command's ``--method`` speak it (the papers' commands map
their historical names onto it, :mod:`exactpoker.commands`).

A game tree (any number of players) is first reduced by lossless abstraction
(:func:`exactpoker.solve.structure.abstraction.lossless_abstraction`: information sets
that an exactly checked automorphism of the game maps onto each other are
merged) when that merges anything; the reduced game is solved and its
equilibrium lifted back (``abstraction=False`` turns this off).

Every equilibrium returned has passed :func:`exactpoker.certify.verify`; a
method that cannot finish raises, it never returns an unchecked answer.
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, Mapping

from exactpoker import guard, progress
from exactpoker.certify import Certificate, verify
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.evaluate import best_response, sequence_values
from exactpoker.core.profile import BehaviourProfile
from exactpoker.core.tree import paused_gc
from exactpoker.errors import CertificationError, InvalidParameterError, NotZeroSumError, ResourceLimitError
from exactpoker.numbers import exact_str
from exactpoker.results import Equilibrium, SolveResult
from exactpoker.solve.engine.tables import Tables, infoset_tables, labelled_tables

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.solve.engine.loaded import LoadedGame
    from exactpoker.solve.lp.strategic import Strategies
    from exactpoker.solve.nplayer.point import CertifiedPoint

__all__ = ["Method", "METHODS", "DEFAULTS", "solve_game", "guarded_compiled", "Tables", "infoset_tables",
           "labelled_tables"]

Method = Literal["auto", "structured", "lp", "basis", "simplex", "strategic", "per-card", "lemke", "n-player"]
#: The one ``method`` vocabulary, each name with what it does (``exactpoker solve --method``, every game's API).
METHODS: Mapping[str, str] = MappingProxyType({
    "auto": "chosen from the game: its structure first, then its shape (players, zero-sum)",
    "structured": "the structure detected in the rules: the card-by-card LP of a game decided by the higher card, "
                  "the ordered model of one decided by the order of the cards (seed 000, O(n))",
    "lp": "two players, zero-sum: the sequence-form LP, float-guided (support, or optimal basis when large), "
          "finished exactly",
    "basis": "two players, zero-sum: the sequence-form LP from HiGHS's optimal basis, finished exactly",
    "simplex": "two players, zero-sum: the sequence-form LP by the exact rational simplex",
    "strategic": "two players, zero-sum: the strategic form (every pure strategy, or the given ones) solved as a "
                 "matrix game by the exact simplex (small games; seed 000's MNE)",
    "per-card": "two players, zero-sum, a one-card game where player II moves once: player I's LP against II's "
                "pure choices at each of her cards, by the exact simplex (seed 000's djnMNE; small games)",
    "lemke": "two players: Lemke's method on the sequence form (general-sum)",
    "n-player": "any number of players: the float guide and the staged exact finish",
})

#: Sequences (both players) from which "auto" skips the support attempt and goes to the optimal basis.
BASIS_FROM = 1500

#: The least fraction of information sets the colour classes must be able to merge for the dispatcher to
#: search for automorphisms (:func:`exactpoker.solve.structure.symmetry.symmetry_orbits`): below it the search costs more
#: than the smaller game saves (OpenSpiel's liars_dice: 15 of 24,576).
MIN_MERGE = 0.05

#: The options of :func:`solve_game` and their defaults (``tables`` apart: the loaded game gives it).  With every
#: option at its default a game's own path is tried first.
DEFAULTS: Mapping[str, Any] = MappingProxyType({"method": "auto", "all_pure": False, "family": False,
                                                "all_equilibria": False, "params": None, "abstraction": True,
                                                "digits": 30, "strategies": None, "nearest": None})


def solve_game(game: Any, *, tables: Tables | None = None, **options: Any) -> SolveResult:
    """Exact, certified equilibria of ``game``, whatever it is: the package's one way in.

    ``exactpoker solve GAME`` runs it too (same method, equilibria and
    certificate).  With every option at its default (:data:`DEFAULTS`) the
    game's own path comes first: a smaller game its rules declare, solved and
    lifted (:mod:`~exactpoker.solve.engine.restricted`), else a structure in
    its rules or its tree (:mod:`~exactpoker.solve.engine.structured`, in O(n);
    ``method="structured"`` asks for it).  Otherwise the game is compiled, its
    solve's memory guarded (:mod:`exactpoker.guard`) and solved by the method
    its shape calls for (module docstring).

    Parameters
    ----------
    game : object
        A :class:`~exactpoker.core.compiled.CompiledGame`, a
        :class:`~exactpoker.core.tree.GameTree`, a :class:`~exactpoker.core.poker.PokerGame`,
        a :class:`~exactpoker.core.game.BettingGame`, rules that compile
        themselves (:class:`~exactpoker.solve.engine.loaded.CompilingRules`, Liar's
        Dice) or build their tree (:class:`~exactpoker.solve.engine.loaded.TreeRules`),
        or a front end's :class:`~exactpoker.solve.engine.loaded.LoadedGame`; or a game by name, as
        ``exactpoker solve`` takes it (``"library:kuhn"``, ``"openspiel:kuhn_poker"``, a ``.efg``, ``.nfg`` or
        ``.py`` path), a ``pyspiel.Game`` or a ``pygambit.Game``.
    tables : callable, optional
        The result's ``strategies`` layout (default: the loaded game's, else
        :func:`~exactpoker.solve.engine.tables.infoset_tables`).
    method : str
        One of :data:`METHODS` (default ``"auto"``: chosen from the game); a
        forced method raises :class:`~exactpoker.errors.NotZeroSumError` or
        :class:`~exactpoker.errors.InvalidParameterError` when it does not
        apply.
    all_pure : bool
        List every pure equilibrium instead of finding one equilibrium.
    family : bool
        Two-player zero-sum only: also describe every optimal strategy of each
        player exactly (``details["optimal strategies"]``; small games).
    all_equilibria : bool
        Every extreme equilibrium and the maximal convex sets of equilibria
        (two players: :func:`exactpoker.solve.enumeration.two_player.all_equilibria_two_player`;
        more: support enumeration); the result's ``extras`` hold the sets and
        ``complete``.  Not with ``all_pure``, ``family`` or a ``method``.
    params : mapping, optional
        The result's ``params`` (default: the game's parameters).
    abstraction : bool
        Solve a game tree on its lossless abstraction when it has one (not
        with ``all_pure``, ``family`` or ``all_equilibria``); the lifted
        equilibrium is certified on the full game.
    digits : int
        Three or more players: the certified decimal places of an equilibrium
        given by an isolating box (:func:`~exactpoker.solve.nplayer.pipeline.solve_n_player`).
    strategies : sequence, optional
        Two players: restrict each player to the given pure strategies (per
        player, one row of action indices per pure strategy, one per
        information set in layout order) and solve that matrix game
        (``method="strategic"``, or ``all_pure=True`` for its pure
        equilibria); the equilibria are the restricted game's, their
        certificate's ``scope`` says so (:mod:`exactpoker.solve.lp.strategic`).
    nearest : mapping, optional
        Two players, zero-sum: per player name, a target strategy
        (``{information set name: [probabilities]}``, as ``strategies``
        lays it out); that player's optimal strategy nearest to it in L1
        (realization plans) replaces the one found, the distance and the LP in
        ``details["nearest"]`` (:mod:`exactpoker.solve.lp.nearest`).  ``method``
        then says how that exact LP is solved: ``"simplex"`` from scratch,
        ``"basis"`` from HiGHS's basis, ``"auto"`` by size.

    Returns
    -------
    SolveResult

    Raises
    ------
    InvalidParameterError
        For an unknown option or a bad value.
    ResourceLimitError
        If the solve's estimated memory is over the limit (checked before building).
    """
    from exactpoker.solve.engine.loaded import as_loaded

    return _solve_loaded(as_loaded(game, tables=tables), **options)


def _solve_loaded(loaded: "LoadedGame", **options: Any) -> SolveResult:
    """:func:`solve_game` on the game made ready: its own path under the default options, else compiled and solved."""
    unknown = sorted(set(options) - set(DEFAULTS))
    if unknown:
        raise InvalidParameterError(f"solve: unknown option {unknown[0]!r}; allowed: {', '.join(DEFAULTS)}")
    asked = {key: value for key, value in options.items() if not _is_default(value, DEFAULTS[key])}
    if asked.get("method") == "structured":
        return _forced_structure(loaded, asked)
    if not asked:
        if loaded.restriction is not None:
            return _restricted(loaded)
        try:
            found = _structured_path(loaded)
        except CertificationError as failure:
            return _after_structure_failed(loaded, failure)
        if found is not None:
            return found
    return _solve_compiled(guarded_compiled(loaded), tables=loaded.tables, **asked)


def _after_structure_failed(loaded: "LoadedGame", failure: CertificationError) -> SolveResult:
    """The structured path gave up (e.g. three-player poker at a bet where no support near its guide certifies):
    the compiled game's own methods, where it fits; a failure names both (issue 41: a default that never gives
    up where another method works)."""
    try:
        compiled = guarded_compiled(loaded)
    except ResourceLimitError as error:
        raise CertificationError(f"{failure}; the compiled game's methods not tried: {error}") from None
    try:
        return _solve_compiled(compiled, tables=loaded.tables)
    except CertificationError as error:
        raise CertificationError(f"the structured path failed ({failure}); then the compiled game's: {error}"
                                 ) from None


def _is_default(value: Any, default: Any) -> bool:
    """Whether an option was left at its default (``None`` by identity: a value may be an array)."""
    return value is default or (default is not None and not hasattr(value, "__array__") and value == default)


def _structured_path(loaded: "LoadedGame") -> SolveResult | None:
    """The structured path of the game's rules or tree (:func:`solve_game`, step 2), or ``None``."""
    if loaded.solve is not None:
        return loaded.solve()
    if loaded.rules is not None:
        from exactpoker.solve.engine.structured import _solve_structured

        guard.betting_rules(loaded.rules, f"solve {loaded.source}")  # the structured path's own estimate
        return _solve_structured(loaded.rules)
    if loaded.compiled is None and loaded.tree is not None:  # a one-card betting game: an O(n) path (seed 000)
        from exactpoker.solve.engine.structured_tree import _solve_structured_tree

        return _solve_structured_tree(loaded.tree, loaded.tables, labelled_tables)
    return None


def _forced_structure(loaded: "LoadedGame", asked: Mapping[str, Any]) -> SolveResult:
    """``method="structured"``: the structured path (with ``all_pure``: the prefix-count enumeration of a game
    decided by the higher card), or a refusal naming why there is none."""
    other = sorted(key for key in asked if key not in ("method", "digits", "abstraction", "all_pure"))
    if other:
        raise InvalidParameterError(f"--method structured finds one equilibrium or every pure one; give it "
                                    f"without {other[0]!r}")
    if asked.get("all_pure"):
        from exactpoker.solve.engine.structured import _solve_structured_pure

        found = None if loaded.rules is None else _solve_structured_pure(loaded.rules)
    else:
        found = _structured_path(loaded)
    if found is None:
        needed = ("every pure equilibrium by prefix counts needs a two-action one-card betting game decided by the "
                  "higher card (von Neumann poker)") if asked.get("all_pure") else (
            "--method structured needs a one-card betting game decided by the higher card or by the order of the "
            "cards (seed 000)")
        raise InvalidParameterError(f"{needed}; {loaded.source or 'this game'} is not one, or came compiled "
                                    "(try --method auto)")
    return found


def _restricted(loaded: "LoadedGame") -> SolveResult:
    """The smaller game the rules declare, solved; its equilibrium lifted and certified on the full game."""
    from exactpoker.solve.engine.loaded import as_loaded
    from exactpoker.solve.engine.restricted import lifted_result

    restriction = loaded.restriction
    smaller = guarded_compiled(as_loaded(restriction.rules))
    reduced = _solve_compiled(smaller)
    return lifted_result(loaded.compiled, smaller, reduced, restriction, loaded.tables)


def guarded_compiled(loaded: "LoadedGame") -> CompiledGame:
    """The compiled game of ``loaded``, refused when its solve's estimated memory is over the limit.

    The game every equilibrium of :func:`solve_game` is laid out on (and
    certified on); ``exactpoker certify`` checks a given profile on it.

    A seed paper's rules are counted before compiling (their layouts and
    deals); any other game once compiled (its sequences and payoff entries),
    by the rules' own estimate if they give one (``loaded.solve_memory``).
    """
    if loaded.rules is not None:
        from exactpoker.core.compiler import compile_game, compile_layouts

        rules = loaded.rules
        deals = rules.num_deals
        sequences = sum(layout.num_sequences for layout in compile_layouts(rules))
        guard.require(guard.compiled_game(sequences, deals), f"solve {loaded.source} ({deals} deals)")
        return compile_game(rules)
    from exactpoker.core.tree import compile_tree

    if loaded.compiled is not None:
        compiled = loaded.compiled
    else:
        compiled = loaded.compile() if loaded.compile is not None else compile_tree(loaded.tree)
    sequences = sum(layout.num_sequences for layout in compiled.layouts)
    estimate = loaded.solve_memory
    if estimate is None:
        estimate = guard.compiled_game(sequences, len(compiled.sequences))
    guard.require(estimate, f"solve {loaded.source} ({sequences} sequences, {len(compiled.sequences)} payoff entries)")
    return compiled


def _solve_compiled(
    compiled: CompiledGame,
    *,
    method: Method = "auto",
    all_pure: bool = False,
    family: bool = False,
    all_equilibria: bool = False,
    tables: Tables = infoset_tables,
    params: Mapping[str, Any] | None = None,
    abstraction: bool = True,
    digits: int = 30,
    strategies: Strategies | None = None,
    nearest: Mapping[str, Mapping[str, Any]] | None = None,
) -> SolveResult:
    """Exact, certified equilibria of ``compiled``, by the method its shape calls for.

    The options are :func:`solve_game`'s; ``tables`` formats each profile as
    the result's ``strategies`` (the front end's public layout).
    """
    if method not in METHODS:
        raise InvalidParameterError(f"--method must be one of {', '.join(METHODS)}; got {method!r}")
    if strategies is not None:
        if method not in ("auto", "strategic") or family or all_equilibria:
            raise InvalidParameterError("strategies: a game restricted to given pure strategies is solved as a "
                                        "matrix game (method strategic or auto, or all_pure)")
        method = "strategic"
    if nearest is not None and (method not in ("auto", "simplex", "basis") or all_pure or family or all_equilibria):
        raise InvalidParameterError("nearest: one equilibrium of a two-player zero-sum game; give it alone, with "
                                    "method auto, simplex or basis (how its exact LP is solved)")
    players = compiled.num_players
    _require_two_players(players, method, family)
    params = dict(compiled.game.parameters) if params is None else dict(params)
    zero_sum = compiled.is_zero_sum
    notes: list[str] = []
    details: dict[str, Any] = {"players": players, "zero-sum": zero_sum, "sequences": _sizes(compiled)}
    shifted = None if zero_sum or players != 2 else _constant_sum(compiled)
    if shifted is not None:
        details["constant-sum"] = exact_str(shifted[1])

    extras: dict[str, Any] = {}
    # Python's cyclic collector paused for two-player solves (this package's own LP, Lemke and certificate
    # code): the exact stages keep millions of acyclic integers and fractions alive, and the collector's full
    # passes over them were a third of OpenSpiel's liars_dice exact solve (6.7 s against 4.2 s).  The
    # N-player paths run sympy and keep the collector on.
    with paused_gc() if players == 2 else nullcontext():
        if all_equilibria:
            profiles, used, extras = _all_equilibria(compiled, shifted, method, all_pure or family, notes, details)
        elif nearest is not None:
            profiles, used = _nearest(compiled, shifted, nearest, method, notes, details)
        elif abstraction and players >= 2 and not (all_pure or family) and method != "strategic" \
                and _is_tree(compiled):
            profiles, used = _abstracted_profiles(compiled, method, shifted, notes, details, digits)
        else:
            profiles, used = _profiles(compiled, method, all_pure, shifted, notes, details, digits, strategies)
        equilibria = tuple(_certified(compiled, profile, tables) for profile in profiles)
        if family:
            details["optimal strategies"] = _optimal_strategies(compiled, equilibria)
    return SolveResult(compiled.game.name, params, used, equilibria, tuple(notes), details, extras)


def _require_two_players(players: int, method: str, family: bool) -> None:
    """Refuse at once, before any abstraction or solve, a method or ``--family`` that needs two players (the same
    errors :func:`_profiles` and :func:`_optimal_strategies` give; ``library:leduc(players=3) --family`` used to
    solve the three-player game for minutes first)."""
    if players == 2:
        return
    if method in ("lp", "basis", "simplex") or family:
        what = f"--method {method}" if method != "auto" else "--family"
        raise NotZeroSumError(f"{what} needs a two-player zero-sum game; this one has {players} players")
    if method == "lemke":
        raise InvalidParameterError(f"--method lemke needs a two-player game; this one has {players} players")


def _profiles(compiled: CompiledGame, method: str, all_pure: bool, shifted: tuple[CompiledGame, Fraction] | None,
              notes: list[str], details: dict[str, Any], digits: int = 30, strategies: Strategies | None = None
              ) -> tuple[list["BehaviourProfile | Checked | CertifiedPoint"], str]:
    """The candidate profiles of one solve (not ``--all``) and the method used; ``notes`` and ``details`` may grow."""
    players, zero_sum = compiled.num_players, compiled.is_zero_sum
    if all_pure:
        profiles, used = _all_pure(compiled, method, strategies)
        if not profiles:
            notes.append("The game has no pure equilibrium.")
    elif players == 1:
        profiles, used = [_decision_problem(compiled)], "best response (one player)"
    elif method == "strategic":
        profiles, used = _strategic(compiled, shifted, strategies, details)
    elif method == "per-card":
        _require_zero_sum(compiled, method, shifted)
        from exactpoker.solve.lp.per_card import per_card_lp

        profiles, used = [per_card_lp(compiled)], "LP over player II's pure choices per card (exact simplex)"
    elif method in ("lp", "basis", "simplex") or (method == "auto" and players == 2 and (zero_sum or shifted)):
        _require_zero_sum(compiled, method, shifted)
        from exactpoker.solve.lp.zerosum import solve_zero_sum

        lp_game = compiled if shifted is None else shifted[0]
        if method in ("basis", "simplex"):
            path_asked = method
        else:
            path_asked = "basis" if sum(_sizes(compiled)) >= BASIS_FROM else "support"
        profile, certificate, path = solve_zero_sum(lp_game, method=path_asked)
        profiles, used = [Checked(profile, certificate) if shifted is None else profile], \
            f"sequence-form LP ({path}, exact)"
        if shifted is not None:  # certified on the shifted game: checked again on this one
            used += _shift_note(shifted)
    elif method == "lemke" or (method == "auto" and players == 2):
        if players != 2:
            raise InvalidParameterError(f"--method lemke needs a two-player game; this one has {players} players")
        from exactpoker.solve.lemke.lcp import solve_lemke

        profiles, used = [solve_lemke(compiled)], "sequence-form Lemke (exact)"
    else:
        from exactpoker.solve.nplayer.pipeline import solve_n_player

        found = solve_n_player(compiled, digits=digits)
        profiles, used = [found], found.method or f"float guide + exact finish ({found.stage})"
        notes.extend(found.notes)
        details.update(found.support_details())
        if found.box is not None:
            details["isolating_box"] = found.box_details()
    return profiles, used


def _require_zero_sum(compiled: CompiledGame, method: str, shifted: tuple[CompiledGame, Fraction] | None) -> None:
    """Refuse a zero-sum method on a game that is not two-player zero-sum (or constant-sum)."""
    players, zero_sum = compiled.num_players, compiled.is_zero_sum
    if players != 2 or not (zero_sum or shifted):
        raise NotZeroSumError(
            f"--method {method} needs a two-player zero-sum game; this one has {players} players"
            + ("" if zero_sum else " and is not zero-sum")
            + " (try --method auto)"
        )


def _shift_note(shifted: tuple[CompiledGame, Fraction]) -> str:
    return f"; constant-sum ({exact_str(shifted[1])}) solved as zero-sum"


def _nearest(compiled: CompiledGame, shifted: tuple[CompiledGame, Fraction] | None,
             nearest: Mapping[str, Mapping[str, Any]], method: str, notes: list[str], details: dict[str, Any]
             ) -> tuple[list[BehaviourProfile], str]:
    """``nearest``: an optimal profile, each named player's strategy then moved to the optimal one nearest its
    target (:func:`~exactpoker.solve.lp.nearest.nearest_optimal`); :func:`_certified` checks the profile."""
    from exactpoker.solve.lp.nearest import nearest_optimal, target_plan

    if shifted is not None or compiled.num_players != 2 or not compiled.is_zero_sum:
        raise NotZeroSumError("nearest: needs a two-player zero-sum game")
    unknown = sorted(set(nearest) - set(compiled.player_names))
    if unknown:
        raise InvalidParameterError(f"nearest: unknown player {unknown[0]!r}; the players are "
                                    f"{', '.join(compiled.player_names)}")
    [found], used = _profiles(compiled, "auto", False, None, notes, details)
    optimal = _profile(found)
    values = (found.certificate if isinstance(found, Checked) else verify(compiled, optimal)).payoffs
    strategies, moved = list(optimal.strategies), {}
    for name, target in nearest.items():
        p = compiled.player_names.index(name)
        strategies[p], moved[name] = nearest_optimal(compiled, p, optimal, values[p],
                                                     target_plan(compiled, p, target), method)
    details["nearest"] = moved
    return [BehaviourProfile(tuple(strategies))], used + "; the optimal strategy nearest to the target (exact LP)"


def _strategic(compiled: CompiledGame, shifted: tuple[CompiledGame, Fraction] | None, strategies: Strategies | None,
               details: dict[str, Any]) -> tuple[list["BehaviourProfile | Checked"], str]:
    """``method="strategic"``: the strategic form (every pure strategy, or the given ones) as a matrix game.

    Over every pure strategy the profile is checked on the game itself (by
    :func:`_certified`); over given ones it is an equilibrium of the
    restricted game, with the matrix game's check (its scope says so).
    """
    _require_zero_sum(compiled, "strategic", shifted)
    if strategies is not None and shifted is not None:
        raise NotZeroSumError("strategies: a restricted strategic form needs a zero-sum game (this one is constant-sum)")
    from exactpoker.solve.lp.strategic import solve_strategic

    profile, certificate, found = solve_strategic(compiled if shifted is None else shifted[0], strategies)
    details.update(found)
    which = "every pure strategy" if strategies is None else "the given pure strategies"
    used = f"strategic form over {which}: exact LP of the matrix game" + ("" if shifted is None else _shift_note(shifted))
    return [profile if strategies is None else Checked(profile, certificate)], used


def _abstracted_profiles(compiled: CompiledGame, method: str, shifted: tuple[CompiledGame, Fraction] | None,
                         notes: list[str], details: dict[str, Any], digits: int = 30
                         ) -> tuple[list["BehaviourProfile | CertifiedPoint"], str]:
    """:func:`_profiles` on the lossless abstraction of ``compiled`` when it merges anything, lifted back."""
    from exactpoker.solve.structure.abstraction import lossless_abstraction

    from exactpoker.solve.structure.symmetry import symmetry_orbits

    progress.stage("looking for isomorphic information sets (lossless abstraction)")
    orbits = symmetry_orbits(compiled, min_merge=MIN_MERGE)
    if not orbits.generators:  # no automorphism: every orbit single, nothing to merge or rebuild
        return _profiles(compiled, method, False, shifted, notes, details, digits)  # type: ignore[return-value]
    found = lossless_abstraction(compiled, orbits)
    if not found.reduces:
        return _profiles(compiled, method, False, shifted, notes, details, digits)  # type: ignore[return-value]
    summary = details["abstraction"] = found.summary()
    notes.append("Lossless abstraction: information sets " + _sizes_text(summary["information_sets"])
                 + ", sequences " + _sizes_text(summary["sequences"])
                 + "; solved on the reduced game, certified on the full game.")
    reduced = found.reduced
    if method == "auto" and compiled.num_players == 2 and (compiled.is_zero_sum or shifted) \
            and sum(_sizes(compiled)) >= BASIS_FROM:
        method = "basis"  # the full game's size decides: its reduction is as degenerate (Leduc: 2186 -> 674)
    profiles, used = _profiles(reduced, method, False, None if shifted is None else _constant_sum(reduced),
                               notes, details, digits)
    return [found.lift(_profile(p)) if isinstance(p, (BehaviourProfile, Checked)) else p.lifted(found.lift)
            for p in profiles], used


def _is_tree(compiled: CompiledGame) -> bool:
    from exactpoker.core.tree import GameTree

    return isinstance(compiled.game, GameTree)


def _sizes_text(sizes: Mapping[str, list[int]]) -> str:
    return " + ".join(map(str, sizes["full"])) + " -> " + " + ".join(map(str, sizes["reduced"]))


def _all_equilibria(compiled: CompiledGame, shifted: tuple[CompiledGame, Fraction] | None, method: str,
                    other_question: bool, notes: list[str], details: dict[str, Any]
                    ) -> tuple[list[BehaviourProfile], str, dict[str, Any]]:
    """``--all``: the candidate profiles, the method, and the result's extras (the sets and ``complete``)."""
    players = compiled.num_players
    if method != "auto" or other_question:
        raise InvalidParameterError("--all chooses its own method: give it without --method, --all-pure and --family")
    if players == 2:
        from exactpoker.solve.enumeration.two_player import all_equilibria_two_player

        found = all_equilibria_two_player(compiled if shifted is None else shifted[0],
                                          progress=progress.counter("vertex enumeration", "bases"))
        notes.extend(found.notes())
        used = found.method + ("" if shifted is None else _shift_note(shifted))
        details.update(found.details(compiled.player_names))
        return found.profiles(compiled), used, found.to_dict(compiled)
    if players < 2:
        raise InvalidParameterError("--all needs a game of two or more players; this one has one (use solve)")
    from exactpoker.solve.enumeration.supports import all_equilibria_n_player

    everything = all_equilibria_n_player(compiled)
    return [e.profile for e in everything.equilibria], "support enumeration (exact)", everything.to_dict()


def _optimal_strategies(compiled: CompiledGame, equilibria: tuple[Equilibrium, ...]) -> dict[str, Any]:
    if compiled.num_players != 2 or not compiled.is_zero_sum or not equilibria:
        raise NotZeroSumError("--family needs a two-player zero-sum game")
    from exactpoker.solve.lp.optimal_set import optimal_set

    values = equilibria[0].certificate.payoffs
    return {
        compiled.player_names[p]: optimal_set(compiled, p, values[p]).to_dict(compiled.layouts[p]) for p in (0, 1)
    }


def _constant_sum(compiled: CompiledGame) -> tuple[CompiledGame, Fraction] | None:
    """A two-player game tree whose payoffs add up to one constant ``c != 0``: the zero-sum game ``(u1 - c, u2)``."""
    from exactpoker.core.tree import GameTree, Terminal, compile_tree, map_terminals

    game = compiled.game
    if not isinstance(game, GameTree):
        return None
    totals = {sum(leaf.payoffs) for leaf in game.nodes() if isinstance(leaf, Terminal)}
    if len(totals) != 1:
        return None
    constant = totals.pop()
    return compile_tree(map_terminals(game, lambda payoffs: (payoffs[0] - constant, payoffs[1]))), constant


def _sizes(compiled: CompiledGame) -> list[int]:
    return [layout.num_sequences for layout in compiled.layouts]


@dataclass(frozen=True)
class Checked:
    """A profile with the certificate its solver computed by :func:`verify` on the very game being solved.

    The zero-sum solver certifies its answer before it returns it (a failed
    check sends it to its next method); :func:`_certified` keeps that
    certificate instead of checking the same profile on the same game twice.
    """

    profile: BehaviourProfile
    certificate: Certificate


def _profile(found: "BehaviourProfile | Checked") -> BehaviourProfile:
    """The profile alone (its certificate belongs to the game it was solved on)."""
    return found.profile if isinstance(found, Checked) else found


def _certified(compiled: CompiledGame, found: "BehaviourProfile | Checked | CertifiedPoint",
               tables: Tables) -> Equilibrium:
    """The equilibrium with its exact certificate: :func:`verify` on the game, the solver's, or the box's proof.

    A profile given by an isolating box (``found.box``) was proved an
    equilibrium in ball arithmetic from the game alone
    (:func:`exactpoker.certify_balls.certify_box`, on the binary form when the
    game has larger information sets: the same payoffs); a :class:`Checked`
    profile comes with :func:`verify`'s certificate on ``compiled``; an N-player
    profile whose finish proved the sequential certificate on this game (which
    runs :func:`verify` and also checks every information set) keeps it; every
    other profile is checked here exactly.
    """
    if isinstance(found, Checked):
        return _equilibrium(compiled, found.profile, found.certificate, tables)
    if not isinstance(found, BehaviourProfile):
        if found.box is not None:
            return found.equilibrium(tables(compiled, found.profile))
        if found.certificate is not None and found.certificate.holds:
            return Equilibrium.from_certificate(found.certificate, tables(compiled, found.profile), found.profile,
                                                labelled=labelled_tables(compiled, found.profile))
        found = found.profile
    progress.stage("certifying the equilibrium exactly")
    return _equilibrium(compiled, found, verify(compiled, found), tables)


def _equilibrium(compiled: CompiledGame, profile: BehaviourProfile, certificate: Certificate,
                 tables: Tables) -> Equilibrium:
    """The result's equilibrium; raises if ``certificate`` (of ``profile`` on ``compiled``) does not hold."""
    if not certificate.holds:
        raise CertificationError(
            f"solve: a candidate equilibrium failed the exact check (max regret {certificate.max_regret}); "
            "nothing is returned"
        )
    return Equilibrium.from_certificate(certificate, tables(compiled, profile), profile,
                                        labelled=labelled_tables(compiled, profile))


def _decision_problem(compiled: CompiledGame) -> BehaviourProfile:
    """A one-player game: the first optimal action at every information set."""
    layout = compiled.layouts[0]
    _, optimal = best_response(layout, sequence_values(compiled, 0, [None]))
    strategy = tuple(
        tuple(Fraction(int(a == optimal[i][0])) for a in range(len(layout.infoset_sequences(i))))
        for i in range(layout.num_infosets)
    )
    return BehaviourProfile((strategy,))


def _all_pure(compiled: CompiledGame, method: str, strategies: Strategies | None
              ) -> tuple[list["BehaviourProfile | Checked"], str]:
    """Every pure equilibrium: best-response enumeration (``"strategic"``: the full table), or among given ones."""
    if strategies is not None:
        from exactpoker.solve.lp.strategic import strategic_pure_equilibria

        found = strategic_pure_equilibria(compiled, strategies)
        return [Checked(profile, certificate) for profile, certificate in found], \
            "pure-enumeration (the given pure strategies, exact)"
    if method not in ("auto", "strategic"):
        raise InvalidParameterError(f"--all-pure chooses among auto, strategic and structured; got --method {method}")
    if compiled.num_players == 2:
        from exactpoker.solve.enumeration.pure import pure_equilibria

        found = pure_equilibria(compiled, method="brute-force" if method == "strategic" else "auto",
                                progress=progress.counter("enumerating pure strategies", "strategies"))
        used = "pure-enumeration (best responses, exact)" if method == "auto" else \
            "pure-enumeration (strategic form, exact)"
    else:
        if method != "auto":
            raise InvalidParameterError("--all-pure --method strategic needs a two-player game")
        from exactpoker.solve.nplayer.pipeline import pure_equilibria_n

        found = pure_equilibria_n(compiled)
        used = "pure-enumeration (N players, exact)"
    profiles = []
    for pure in found:
        strategies_of = []
        for layout, choices in zip(compiled.layouts, pure.choices):
            strategies_of.append(tuple(
                tuple(Fraction(int(a == choices[i])) for a in range(len(layout.infoset_sequences(i))))
                for i in range(layout.num_infosets)
            ))
        profiles.append(BehaviourProfile(tuple(strategies_of)))
    return profiles, used
