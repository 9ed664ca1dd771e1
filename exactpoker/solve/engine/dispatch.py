"""One entry point for any game, and for any compiled game: the method follows from the game.

:func:`solve_loaded` is what ``exactpoker solve GAME`` and :func:`solve_game`
both run, on the game as :func:`~exactpoker.solve.engine.loaded.as_loaded` makes it
ready: under the default options the game's own path first (its rules' own
solve, a structure in its rules or its tree), else the game compiled, its
size guarded (:mod:`exactpoker.guard`) and :func:`solve_compiled` called.

:func:`solve_compiled` looks at the compiled game, not at where it came from
(the poker language, a Gambit file, OpenSpiel, or a paper's model), and
chooses:

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
from exactpoker.errors import CertificationError, InvalidParameterError, NotZeroSumError
from exactpoker.numbers import exact_str
from exactpoker.results import Equilibrium, SolveResult
from exactpoker.solve.engine.tables import Tables, infoset_tables, labelled_tables

if TYPE_CHECKING:  # pragma: no cover
    from exactpoker.solve.engine.loaded import LoadedGame
    from exactpoker.solve.nplayer.point import CertifiedPoint

__all__ = ["Method", "METHODS", "DEFAULTS", "solve_game", "solve_loaded", "solve_compiled", "Tables",
           "infoset_tables", "labelled_tables"]

Method = Literal["auto", "lp", "basis", "simplex", "lemke", "n-player"]
METHODS: tuple[str, ...] = ("auto", "lp", "basis", "simplex", "lemke", "n-player")

#: Sequences (both players) from which "auto" skips the support attempt and goes to the optimal basis.
BASIS_FROM = 1500

#: The least fraction of information sets the colour classes must be able to merge for the dispatcher to
#: search for automorphisms (:func:`exactpoker.solve.structure.symmetry.symmetry_orbits`): below it the search costs more
#: than the smaller game saves (OpenSpiel's liars_dice: 15 of 24,576).
MIN_MERGE = 0.05

#: The options of :func:`solve_loaded` and their defaults (those of :func:`solve_compiled` but ``tables``, which
#: the loaded game gives).  With every option at its default a game's own path is tried first.
DEFAULTS: Mapping[str, Any] = MappingProxyType({"method": "auto", "all_pure": False, "family": False,
                                                "all_equilibria": False, "params": None, "abstraction": True,
                                                "digits": 30})


def solve_game(game: Any, *, tables: Tables | None = None, **options: Any) -> SolveResult:
    """Solve ``game`` exactly, whatever it is: :func:`solve_loaded` on :func:`~exactpoker.solve.engine.loaded.as_loaded`.

    The same function as ``exactpoker solve GAME``: the same method, the same
    equilibria and the same certificate.

    Parameters
    ----------
    game : object
        A :class:`~exactpoker.core.compiled.CompiledGame`, a
        :class:`~exactpoker.core.tree.GameTree`, a
        :class:`~exactpoker.core.poker.PokerGame` (compiled straight from its
        rules), a :class:`~exactpoker.core.game.BettingGame` (its structure
        detected from its rules), rules that load themselves
        (:class:`~exactpoker.solve.engine.loaded.SelfLoadingRules`, e.g. Liar's Dice)
        or build their tree (:class:`~exactpoker.solve.engine.loaded.TreeRules`), or a
        front end's :class:`~exactpoker.solve.engine.loaded.LoadedGame` (e.g.
        ``load_game("vn.efg")``).
    tables : callable, optional
        The result's ``strategies`` layout (default: the loaded game's, else
        :func:`~exactpoker.solve.engine.tables.infoset_tables`).
    **options
        Those of :func:`solve_compiled` but ``tables`` (:data:`DEFAULTS`).

    Returns
    -------
    SolveResult
    """
    from exactpoker.solve.engine.loaded import as_loaded

    return solve_loaded(as_loaded(game, tables=tables), **options)


def solve_loaded(loaded: "LoadedGame", **options: Any) -> SolveResult:
    """The engine's one entry point for a loaded game: ``exactpoker solve GAME`` and :func:`solve_game` run it.

    With every option at its default (:data:`DEFAULTS`) the game's own path
    comes first:

    1. the rules' own certified solve (``loaded.solve``: Liar's Dice without
       the bids that can never hold, :mod:`exactpoker.games.liars_dice_lift`);
    2. a seed paper's rules with a structure
       (:func:`~exactpoker.solve.engine.structured.solve_structured`: seed 000
       sections 2-4, in O(n));
    3. a tree that is such a game
       (:func:`~exactpoker.solve.engine.structured_tree.solve_structured_tree`, laid
       out by ``loaded.tables``).

    Otherwise, or when none applies, the game is compiled (unless it came
    compiled), its solve's estimated memory checked against the limit
    (:func:`exactpoker.guard.compiled_game`), and it is solved by
    :func:`solve_compiled` with ``loaded.tables`` and the options asked.

    Raises
    ------
    InvalidParameterError
        For an unknown option (or a bad value, from :func:`solve_compiled`).
    ResourceLimitError
        If the solve's estimated memory is over the limit (before compiling a
        seed paper's rules, else before solving).
    """
    unknown = sorted(set(options) - set(DEFAULTS))
    if unknown:
        raise InvalidParameterError(f"solve: unknown option {unknown[0]!r}; allowed: {', '.join(DEFAULTS)}")
    asked = {key: value for key, value in options.items() if value != DEFAULTS[key]}
    if not asked:
        found = _own_path(loaded)
        if found is not None:
            return found
    return solve_compiled(_guarded_compiled(loaded), tables=loaded.tables, **asked)


def _own_path(loaded: "LoadedGame") -> SolveResult | None:
    """The game's own path under the default options (:func:`solve_loaded`, steps 1-3), or ``None``."""
    if loaded.solve is not None:
        return loaded.solve()
    if loaded.rules is not None:
        from exactpoker.solve.engine.structured import solve_structured

        return solve_structured(loaded.rules)
    if loaded.compiled is None and loaded.tree is not None:  # a one-card betting game: an O(n) path (seed 000)
        from exactpoker.solve.engine.structured_tree import solve_structured_tree

        return solve_structured_tree(loaded.tree, loaded.tables, labelled_tables)
    return None


def _guarded_compiled(loaded: "LoadedGame") -> CompiledGame:
    """The compiled game of ``loaded``, refused when its solve's estimated memory is over the limit.

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


def solve_compiled(
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
) -> SolveResult:
    """Exact, certified equilibria of ``compiled``, by the method its shape calls for.

    Parameters
    ----------
    compiled : CompiledGame
    method : {"auto", "lp", "basis", "simplex", "lemke", "n-player"}
        ``"auto"`` chooses from the game (module docstring); the others force
        a method and raise :class:`~exactpoker.errors.NotZeroSumError` or
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
    tables : callable
        Formats each profile as the result's ``strategies`` (the front end's
        public layout; by default :func:`infoset_tables`).
    params : mapping, optional
        The result's ``params`` (default: the game's parameters).
    abstraction : bool
        Solve a game tree on its lossless abstraction when it has
        one (not with ``all_pure``, ``family`` or ``all_equilibria``, which ask
        about every equilibrium); the sizes go to ``details["abstraction"]``
        and the lifted equilibrium is certified on the full game.
    digits : int
        Three or more players: the certified decimal places of an equilibrium
        given by an isolating box (:func:`~exactpoker.solve.nplayer.pipeline.solve_n_player`).

    Returns
    -------
    SolveResult
    """
    if method not in METHODS:
        raise InvalidParameterError(f"--method must be one of {', '.join(METHODS)}; got {method!r}")
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
        elif abstraction and players >= 2 and not (all_pure or family) and _is_tree(compiled):
            profiles, used = _abstracted_profiles(compiled, method, shifted, notes, details, digits)
        else:
            profiles, used = _profiles(compiled, method, all_pure, shifted, notes, details, digits)
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
              notes: list[str], details: dict[str, Any], digits: int = 30
              ) -> tuple[list["BehaviourProfile | Checked | CertifiedPoint"], str]:
    """The candidate profiles of one solve (not ``--all``) and the method used; ``notes`` and ``details`` may grow."""
    players, zero_sum = compiled.num_players, compiled.is_zero_sum
    if all_pure:
        profiles, used = _all_pure(compiled)
        if not profiles:
            notes.append("The game has no pure equilibrium.")
    elif players == 1:
        profiles, used = [_decision_problem(compiled)], "best response (one player)"
    elif method in ("lp", "basis", "simplex") or (method == "auto" and players == 2 and (zero_sum or shifted)):
        if players != 2 or not (zero_sum or shifted):
            raise NotZeroSumError(
                f"--method {method} needs a two-player zero-sum game; this one has {players} players"
                + ("" if zero_sum else " and is not zero-sum")
                + " (try --method auto)"
            )
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
            used += f"; constant-sum ({exact_str(shifted[1])}) solved as zero-sum"
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
        used = found.method + ("" if shifted is None else f"; constant-sum ({exact_str(shifted[1])}) solved as zero-sum")
        if not found.zero_sum:
            details["bases_visited"] = dict(zip(compiled.player_names, found.bases))
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


def _all_pure(compiled: CompiledGame) -> tuple[list[BehaviourProfile], str]:
    if compiled.num_players == 2:
        from exactpoker.solve.enumeration.pure import pure_equilibria

        found = pure_equilibria(compiled, progress=progress.counter("enumerating pure strategies", "strategies"))
        used = "pure-enumeration (best responses, exact)"
    else:
        from exactpoker.solve.nplayer.pipeline import pure_equilibria_n

        found = pure_equilibria_n(compiled)
        used = "pure-enumeration (N players, exact)"
    profiles = []
    for pure in found:
        strategies = []
        for layout, choices in zip(compiled.layouts, pure.choices):
            strategies.append(tuple(
                tuple(Fraction(int(a == choices[i])) for a in range(len(layout.infoset_sequences(i))))
                for i in range(layout.num_infosets)
            ))
        profiles.append(BehaviourProfile(tuple(strategies)))
    return profiles, used
