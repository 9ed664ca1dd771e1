"""A game tree that is a one-card betting game, solved by its structured path and answered in its own terms.

``exactpoker solve`` on a ``.efg`` file of von Neumann poker (or any tree of
a game of seed 000's kind) reaches the O(n) methods of the papers' named
commands: :func:`~exactpoker.solve.structure.card_structure.detect_betting_game`
recovers the rules from the tree, :mod:`~exactpoker.solve.engine.structured`
solves them when they have a structure (the card-by-card LP of seed 000
sections 2-3, the ordered model of section 4), and the equilibrium is mapped
back to the tree's information sets and actions.

Certificates: the structured path's own exact check (every deviation, card by
card) always holds for the rules, which compile to the tree's sequence form;
a tree of at most :data:`VERIFY_LEAVES` leaves (already in memory) is also
compiled and the mapped profile checked by :func:`exactpoker.certify.verify`
on it, which must agree on every player's payoff.  That certificate, on the
game as given, is then the one the result carries.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from exactpoker import progress
from exactpoker.certify import Certificate, verify
from exactpoker.core.profile import BehaviourProfile
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.tree import GameTree, compile_tree
from exactpoker.errors import CertificationError
from exactpoker.results import Equilibrium, SolveResult
from exactpoker.solve.structure.card_structure import DetectedGame, detect_betting_game
from exactpoker.solve.engine.structured import _solve_structured, has_structure

__all__ = ["VERIFY_LEAVES"]

#: Trees with at most this many leaves are compiled and the mapped equilibrium checked on them by ``verify``.
VERIFY_LEAVES = 200_000

#: A front end's formatting of a profile (``tables(game, profile)``, e.g.
#: :func:`~exactpoker.solve.engine.dispatch.infoset_tables`); ``game`` has ``player_names`` and ``layouts``.
Format = Callable[[Any, BehaviourProfile], Mapping[str, Any]]


def _solve_structured_tree(tree: GameTree, tables: Format, labelled: Format) -> SolveResult | None:
    """The equilibria of ``tree`` by the structured path of the betting game it is, or ``None``.

    Parameters
    ----------
    tree : GameTree
    tables : callable
        Lays out the result's ``strategies`` (the front end's, e.g. a Gambit
        behaviour profile for a ``.efg`` file).
    labelled : callable
        Lays out ``labelled_strategies``
        (:func:`~exactpoker.solve.engine.dispatch.labelled_tables`).

    Returns
    -------
    SolveResult or None
        ``None`` when the tree is not a one-card betting game or its rules
        have no structured path: the caller then solves it as a general tree.

    Raises
    ------
    CertificationError
        If the check on the tree fails or disagrees with the structured
        certificate (nothing unchecked is returned).
    """
    progress.stage("looking for a one-card betting game in the tree")
    detected = detect_betting_game(tree, accept=has_structure)
    if detected is None:
        return None
    return _solve_detected(detected, lambda: compile_tree(tree), tables, labelled)


def _solve_detected(detected: DetectedGame, compile: Callable[[], CompiledGame], tables: Format,
                    labelled: Format) -> SolveResult | None:
    """The equilibria of the game ``detected`` describes, by its rules' structured path, or ``None``.

    ``compile()`` gives the game's own sequence form (its information sets
    named as ``detected.tree``'s); it is called, and every equilibrium checked
    on it, when the game has at most :data:`VERIFY_LEAVES` leaves (module
    docstring).  :func:`_solve_structured_tree` and a poker-language game's
    rules (:func:`~exactpoker.solve.structure.poker_structure.detect_poker_game`) both end here.
    """
    found = _solve_structured(detected.rules)
    if found is None:
        return None
    compiled = compile() if detected.leaves <= VERIFY_LEAVES else None
    view = detected.tree if compiled is None else compiled
    equilibria = []
    for equilibrium in found.equilibria:
        profile = detected.tree_profile(equilibrium.profile)
        certificate = equilibrium.certificate
        if compiled is not None:
            certificate = _checked_on_tree(verify(compiled, profile), certificate)
        equilibria.append(Equilibrium.from_certificate(certificate, tables(view, profile), profile,
                                                       labelled=labelled(view, profile)))
    game = detected.tree.game
    notes = (_note(detected, compiled is not None),) + found.notes
    return SolveResult(game.name, dict(game.parameters), found.method, tuple(equilibria), notes,
                       _details(found.details, detected, compiled is not None))


def _checked_on_tree(on_tree: Certificate, structured: Certificate) -> Certificate:
    """The tree's certificate, after checking it holds and gives the structured certificate's payoffs."""
    if not on_tree.holds or on_tree.payoffs != structured.payoffs:
        raise CertificationError(
            "solve: the equilibrium of the rules recovered from the tree failed the exact check on the tree "
            f"(max regret {on_tree.max_regret}; payoffs {on_tree.payoffs} against {structured.payoffs}); "
            "nothing is returned")
    return on_tree


def _note(detected: DetectedGame, on_tree: bool) -> str:
    deck = detected.rules.deck
    dealt = "with" if deck.replacement else "without"
    checked = ("each equilibrium also checked exactly on the tree as given" if on_tree else
               f"certified by the structured path's exact check (the tree, {detected.leaves} leaves, is over "
               f"{VERIFY_LEAVES} and not compiled)")
    return (f"one-card betting game recovered from the {detected.source}: cards 1..{deck.cards} dealt {dealt} "
            f"replacement, the same betting below every deal; {checked}")


def _details(details: Mapping[str, Any], detected: DetectedGame, on_tree: bool) -> dict[str, Any]:
    """The structured path's details in the tree's terms, and how the structure was found."""
    result = dict(details)
    result["sequences"] = [layout.num_sequences for layout in detected.tree.layouts]
    if "free_infosets" in result:
        names = [{pair: key for key, pair in infosets.items()} for infosets in detected.infosets]
        result["free_infosets"] = {
            player: [names[p][(int(card), label)] for card, _, label in (item.partition(":") for item in items)]
            for p, (player, items) in enumerate(result["free_infosets"].items())}
    deck = detected.rules.deck
    result["structure"] = {"source": detected.source, "cards": deck.cards, "replacement": deck.replacement,
                           "leaves": detected.leaves, "verified_on_tree": on_tree}
    return result
