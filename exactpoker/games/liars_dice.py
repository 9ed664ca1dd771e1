"""The end game of Liar's Dice, with the rules of Thomas Ahle's ``snyd`` project.

``library:dice(sides=6, dice=2v1, rule=normal)`` builds it (:func:`liars_dice`);
its sequence form comes straight from the rules (:meth:`LiarsDice.compiled`) and
the engine solves it as any other two-player zero-sum game.

Rules (as ``snyd_or.py`` of github.com/thomasahle/snyd defines them)
---------------------------------------------------------------------
* Player 1 rolls ``dice[0]`` dice and player 2 rolls ``dice[1]`` dice, each
  die uniform on the faces ``1..sides``.  A player sees the own dice, in the
  order rolled (the stairs rule below depends on that order), never the
  other's.  (The other rules depend on the multiset of faces only; the tree
  deals multisets, see "Size" below.)
* Player 1 bids first; then the players alternate.  A bid is a pair
  ``(count, face)``, read "at least ``count`` dice show ``face``"; bids are
  ordered by count, then by face, and each bid must be higher than the
  previous one.  After the first bid, the player to move may instead *call*
  (snyd's "snyd", "liar"), which ends the game; after the highest bid only a
  call is left.
* At a call all dice are shown.  The bidder of the last bid wins (+1, the
  caller -1) if at least ``count`` dice count as ``face``, else the caller
  wins.  The payoff is zero-sum, given to player 1.

The rule decides which bids exist and which dice count as ``face``
(``N = dice[0] + dice[1]``):

``normal``
    bids with counts ``1..N`` and faces ``1..sides``; a die counts if it
    shows ``face``.
``joker``
    ones are wild: bids with counts ``1..N`` and faces ``2..sides`` (no bid on
    ones); a die counts if it shows ``face`` or 1.
``stairs``
    bids with counts ``1..2N`` and faces ``2..sides``; a player whose dice show
    ``1, 2, ..., k`` in the order rolled (``k`` the player's number of dice; a
    single die showing 1) has a *stair*, which counts as ``k + 1`` dice of any
    face; otherwise the player's dice showing ``face`` count (ones are not
    wild).  This is ``is_correct_call`` of ``snyd_or.py`` as written; its
    README's "a perfect permutation" would also count a stair rolled in
    another order, which the printed tables do not: with two sides that
    reading gives 1/4 (2v1) and 0 (1v2), the tables 3/8 and -1/4, as here.
``openspiel``
    OpenSpiel's ``liars_dice`` (``bidding_rule=reset-face``): bids with counts
    ``1..N`` and faces ``1..sides``; the highest face is wild (a die counts if
    it shows ``face`` or ``sides``), and may itself be bid.  Written here to
    cross-check the generator against ``openspiel:liars_dice``.

Size, counted without building (:meth:`LiarsDice.size`): with ``B`` bids the
bid histories are the ``2^B`` increasing subsets of the bids, so each deal has
``2^B`` decision nodes and ``2^B - 1`` leaves, and a player with ``R`` distinct
rolls has ``R (2^B - 1) + 1`` sequences.  Under the normal, joker and openspiel
rules only the multiset of a player's faces matters, so the game deals the
``C(sides + k - 1, k)`` multisets of ``k`` dice, each with the probability of
its ordered rolls (:meth:`LiarsDice.weight`): a lossless abstraction built
into the rules (A. Gilpin, T. Sandholm, "Lossless abstraction of imperfect
information games", J. ACM 54(5), 2007), e.g. 21 instead of 36 rolls of two
six-sided dice.  Under the stairs rule only the stair depends on the order, so
the multiset ``{1, ..., k}`` is dealt as two classes, the stair and the rest
(11 instead of 16 rolls of two four-sided dice).

The sequence form comes straight from the rules as integer arrays
(:meth:`LiarsDice.compiled`, :mod:`exactpoker.games.liars_dice_compile`),
identical to compiling the tree; the tree itself is built only when a consumer
reads it.  Under the stairs rule with more than two dice some bids can never
hold (:meth:`LiarsDice.hopeless_bids`): whoever makes one loses 1 if it is
called, the least payoff of the game, and every other action is worth at least
-1, so one expects an equilibrium in which nobody makes them and the opponent
calls right after one.  The rules declare the game without them
(:meth:`LiarsDice.restriction`); the engine solves it, lifts the equilibrium
to the full rules and certifies it there (:mod:`exactpoker.solve.engine.restricted`),
e.g. 18 bids become 15 with 4 sides and two dice against one.

References
----------
T. D. Ahle, "snyd: an analysis of the end game of Liar's Dice",
github.com/thomasahle/snyd (README and ``snyd_or.py``; its tables came from a
floating-point LP, Glop, printed as fractions by ``limit_denominator``).
D. Koller, N. Megiddo, "The complexity of two-person zero-sum games in
extensive form", Games and Economic Behavior 4 (1992): the sequence-form LP
that ``snyd`` and exactpoker both solve.
A. Gilpin, T. Sandholm, "Lossless abstraction of imperfect information games",
Journal of the ACM 54(5), 2007: merging isomorphic information sets.
M. Lanctot et al., "OpenSpiel", arXiv:1908.09453 (2019): ``liars_dice``.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace
from fractions import Fraction

from exactpoker import guard
from exactpoker.core.compiled import CompiledGame
from exactpoker.core.restriction import Restriction
from exactpoker.core.tree import Chance, GameTree, LazyTree, Move, Terminal, TreeNode, paused_gc
from exactpoker.errors import InvalidParameterError
from exactpoker.games.liars_dice_compile import CALL, compile_dice, roll_name
from exactpoker.numbers import parse_int

__all__ = ["CALL", "RULES", "DiceSize", "LiarsDice", "liars_dice", "parse_dice"]

#: The rules :class:`LiarsDice` knows (see the module docstring).
RULES = ("normal", "joker", "stairs", "openspiel")

_WINS = (Terminal((1, -1)), Terminal((-1, 1)))  # player 1 wins, player 2 wins


@dataclass(frozen=True)
class DiceSize:
    """The size of a Liar's Dice tree, counted from the rules.

    ``bids`` is the number of bids, ``nodes`` and ``terminals`` count the
    tree, ``infosets`` and ``sequences`` are per player.
    """

    bids: int
    nodes: int
    terminals: int
    infosets: tuple[int, int]
    sequences: tuple[int, int]


@dataclass(frozen=True)
class LiarsDice:
    """The rules of one Liar's Dice end game (see the module docstring).

    Parameters
    ----------
    sides : int
        Faces of each die, ``1..sides``.
    dice : tuple of two ints
        The number of dice of player 1 (who bids first) and of player 2.
    rule : str
        One of :data:`RULES`.
    possible_bids : bool
        Leave out the bids that can never hold (:meth:`hopeless_bids`): the
        smaller game of :meth:`restriction`, whose equilibria the engine lifts
        to and certifies on the full rules.  False: every bid.
    """

    sides: int
    dice: tuple[int, int]
    rule: str
    possible_bids: bool = False

    @property
    def name(self) -> str:
        kept = ",bids=possible" if self.possible_bids else ""
        return f"dice(sides={self.sides},dice={self.dice[0]}v{self.dice[1]},rule={self.rule}{kept})"

    @property
    def parameters(self) -> tuple[tuple[str, object], ...]:
        """The game's parameters as its tree reports them."""
        kept = (("bids", "possible"),) if self.possible_bids else ()
        return (("sides", self.sides), ("dice", f"{self.dice[0]}v{self.dice[1]}"), ("rule", self.rule)) + kept

    def all_bids(self) -> tuple[tuple[int, int], ...]:
        """Every bid ``(count, face)`` of the rule, lowest first."""
        total = sum(self.dice) * (2 if self.rule == "stairs" else 1)
        lowest = 2 if self.rule in ("joker", "stairs") else 1
        return tuple((count, face) for count in range(1, total + 1) for face in range(lowest, self.sides + 1))

    def hopeless_bids(self) -> tuple[tuple[int, int], ...]:
        """The bids that hold after no deal: a count above the most dice that can count for the face.

        Under the stairs rule a player's ``k`` dice count at most ``k + 1`` (a
        stair), so with ``N`` dice the bids of more than ``N + 2`` (of ``2N``)
        never hold once ``N > 2``; under the other rules every bid can hold.
        """
        most = {face: sum(max(self.counts(roll, face) for roll in self.rolls(p)) for p in (0, 1))
                for face in range(1, self.sides + 1)}
        return tuple((count, face) for count, face in self.all_bids() if count > most[face])

    def bids(self) -> tuple[tuple[int, int], ...]:
        """The bids of this game, lowest first: every bid, or those that can hold (``possible_bids``)."""
        if not self.possible_bids:
            return self.all_bids()
        hopeless = set(self.hopeless_bids())
        return tuple(bid for bid in self.all_bids() if bid not in hopeless)

    def ordered(self) -> bool:
        """Whether the order of a player's dice matters: only under the stairs rule (a stair in the order rolled)."""
        return self.rule == "stairs"

    def rolls(self, player: int) -> tuple[tuple[int, ...], ...]:
        """The classes of rolls of ``player`` (0 or 1), each standing for :meth:`weight` equally likely ordered rolls.

        Only the multiset of faces counts, so a roll is its faces sorted (a
        lossless abstraction: the rolls ``(1, 2)`` and ``(2, 1)`` lead to
        identical subgames, cf. Gilpin and Sandholm's GameShrink); under the
        stairs rule the order counts for the stair alone, so the multiset
        ``{1, ..., k}`` (``k >= 2``) is split into the stair ``(1, ..., k)``
        and the rest, shown as ``(k, ..., 1)``, which counts as its faces.
        """
        faces, k = range(1, self.sides + 1), self.dice[player]
        stair = tuple(range(1, k + 1))
        rolls = []
        for roll in itertools.combinations_with_replacement(faces, k):
            rolls.append(roll)
            if self.ordered() and roll == stair and k > 1:
                rolls.append(stair[::-1])
        return tuple(rolls)

    def weight(self, roll: tuple[int, ...]) -> int:
        """How many ordered rolls ``roll`` stands for: the multinomial coefficient of its multiset, less the
        stair's one ordering when the stairs rule splits it off (one for the stair itself)."""
        weight = math.factorial(len(roll))
        for face in set(roll):
            weight //= math.factorial(roll.count(face))
        stair = tuple(range(1, len(roll) + 1))
        if self.ordered() and sorted(roll) == list(stair):
            return 1 if roll == stair else weight - 1
        return weight

    def counts(self, roll: tuple[int, ...], face: int) -> int:
        """How many dice of one player's ``roll`` count as ``face`` under the rule."""
        if self.rule == "stairs" and roll == tuple(range(1, len(roll) + 1)):
            return len(roll) + 1
        wild = {"joker": 1, "openspiel": self.sides}.get(self.rule)
        return sum(1 for die in roll if die == face or die == wild)

    def size(self) -> DiceSize:
        """The tree's size, counted without building it (see the module docstring)."""
        b = len(self.bids())
        r1, r2 = (len(self.rolls(p)) for p in (0, 1))
        deals = r1 * r2
        histories = 2**b
        return DiceSize(
            bids=b,
            nodes=1 + r1 + deals * (2 * histories - 1),
            terminals=deals * (histories - 1),
            infosets=(r1 * histories // 2, r2 * histories // 2),
            sequences=(r1 * (histories - 1) + 1, r2 * (histories - 1) + 1),
        )

    def tree(self) -> GameTree:
        """The game as a :class:`~exactpoker.core.tree.GameTree`, refused first if it would not fit the memory.

        Raises
        ------
        ResourceLimitError
            If the estimated memory (:func:`exactpoker.guard.game_tree`) is
            over the limit.
        """
        size = self.size()
        guard.require(guard.game_tree(size.nodes, sum(size.sequences)),
                      f"library:{self.name} ({size.nodes} tree nodes, {sum(size.sequences)} sequences)")
        with paused_gc():
            return GameTree("dice", ("1", "2"), self._root(), self.parameters)

    def compiled(self) -> CompiledGame:
        """The sequence form straight from the rules (:func:`~exactpoker.games.liars_dice_compile.compile_dice`),
        identical to ``compile_tree(self.tree())``; its ``game`` is a
        :class:`~exactpoker.core.tree.LazyTree` that builds the nodes only if a
        consumer reads them.

        Raises
        ------
        ResourceLimitError
            If the estimated memory of the arrays
            (:func:`exactpoker.guard.sequence_arrays`) is over the limit.
        """
        size = self.size()
        guard.require(guard.sequence_arrays(size.terminals, sum(size.sequences)),
                      f"library:{self.name} ({size.terminals} payoff entries, {sum(size.sequences)} sequences)")
        return compile_dice(self, LazyTree("dice", ("1", "2"), self._root, self.parameters))

    def restriction(self) -> Restriction | None:
        """The game without the bids that can never hold (:meth:`hopeless_bids`), or ``None`` when every bid can.

        The engine solves it, lifts its equilibrium to these rules (those bids
        never made, a call right after one) and certifies it on them
        (:mod:`exactpoker.solve.engine.restricted`); the rules only declare it.
        """
        hopeless = self.hopeless_bids()
        if not hopeless or self.possible_bids:
            return None
        left_out = tuple(f"{count}x{face}" for count, face in hopeless)
        return Restriction(replace(self, possible_bids=True), CALL, left_out, what="the bids that can never hold",
                           lifted="those bids never made, a call right after one", name="hopeless bids",
                           counted="bids", total=len(self.all_bids()))

    def solve_memory(self) -> tuple[int, str]:
        """The solve's estimated peak memory in bytes and what was counted, from the rules, before anything is built.

        The solve runs on the game without the hopeless bids when there are
        any (:meth:`restriction`); that game's arrays alone
        (:func:`exactpoker.guard.array_game_solve`), or, when the full rules'
        arrays and certificate come on top, the general estimate
        (:func:`exactpoker.guard.compiled_game`).
        """
        restricted = self.restriction() is not None
        size = replace(self, possible_bids=True).size() if restricted else self.size()
        estimate = (guard.compiled_game if restricted else guard.array_game_solve)(sum(size.sequences), size.terminals)
        without = ", without the bids that can never hold" if restricted else ""
        return estimate, f"{sum(size.sequences)} sequences, {size.terminals} payoff entries{without}"

    def _root(self) -> TreeNode:
        """The tree's root: player 1's roll, then player 2's, then the bidding."""
        rolls1, rolls2 = self.rolls(0), self.rolls(1)
        total1, total2 = (self.sides**d for d in self.dice)
        return Chance(tuple(
            (roll_name(d1), Fraction(self.weight(d1), total1), Chance(tuple(
                (roll_name(d2), Fraction(self.weight(d2), total2), self._bidding(d1, d2)) for d2 in rolls2),
                label=f"roll of player 2 (player 1 rolled {roll_name(d1)})"))
            for d1 in rolls1), label="roll of player 1")

    def _bidding(self, d1: tuple[int, ...], d2: tuple[int, ...]) -> TreeNode:
        """The bidding after the deal ``(d1, d2)``: player ``p`` sees ``"<own roll>|<bids so far>"``."""
        bids = self.bids()
        names = [f"{count}x{face}" for count, face in bids]
        true = [self.counts(d1, face) + self.counts(d2, face) >= count for count, face in bids]
        seen = (roll_name(d1) + "|", roll_name(d2) + "|")

        def node(last: int, history: str, mover: int) -> Move:
            # ``last``: index of the last bid (-1 before any); the bidder of it is ``1 - mover``.
            prefix = history + " " if history else history
            actions = [(names[j], node(j, prefix + names[j], 1 - mover)) for j in range(last + 1, len(bids))]
            if last >= 0:
                winner = 1 - mover if true[last] else mover
                actions.append((CALL, _WINS[winner]))
            return Move(mover, seen[mover] + history, tuple(actions))

        return node(-1, "", 0)


def parse_dice(value: object, name: str = "dice") -> tuple[int, int]:
    """``"2v1"``, ``"2;1"`` or a pair -> ``(2, 1)``: the dice of player 1 and of player 2, each >= 1."""
    if isinstance(value, (tuple, list)):
        items = list(value)
    else:
        items = str(value).lower().replace("v", ";").split(";")
    if len(items) != 2:
        raise InvalidParameterError(f"{name} must be the dice of player 1 and of player 2, e.g. 2v1 or 2;1; "
                                    f"got {value!r}")
    first, second = (parse_int(str(item).strip(), name, 1, 9) for item in items)
    return first, second


def liars_dice(sides: object = 6, dice: object = "1v1", rule: object = "normal") -> LiarsDice:
    """The Liar's Dice end game with ``sides``-sided dice, ``dice`` per player and ``rule``.

    Raises
    ------
    InvalidParameterError
        If ``rule`` is not one of :data:`RULES`, ``sides`` is not an integer
        from 1 to 9 (2 to 9 for joker and stairs, whose bids leave out the
        ones), or ``dice`` is not two integers from 1 to 9.
    """
    rule = str(rule).strip().lower()
    if rule not in RULES:
        raise InvalidParameterError(f"rule must be one of {', '.join(RULES)}; got {rule!r}")
    lowest = 2 if rule in ("joker", "stairs") else 1
    hint = f"the {rule} rule bids no ones" if lowest == 2 else ""
    return LiarsDice(parse_int(sides, "sides", lowest, 9, hint=hint), parse_dice(dice), rule)
