"""A one-card betting game found inside any game tree: the rules recovered from the tree alone.

The structured paths of :mod:`exactpoker.solve.engine.rules` (von Neumann and Newman
poker, seed 000 sections 2 and 3: the card-by-card LP; three-player poker,
section 4: the O(n) ordered model) read a :class:`~exactpoker.core.game.BettingGame`.
:func:`detect_betting_game` recovers that description from a
:class:`~exactpoker.core.tree.GameTree` (a Gambit ``.efg`` file, an OpenSpiel
walk, a user's tree), so the same game reaches the same path whatever door it
came through.  The tree is one exactly when:

* chance moves first, and only first: every path through the leading chance
  nodes is a deal, all deals have the same exact probability, and there are
  ``n**k`` of them (cards ``1..n`` dealt with replacement) or
  ``n! / (n - k)!`` (without);
* below every deal hangs the same betting tree: the same players, the same
  action names in the same order, the same shape, no chance node;
* each player's information-set partition is exactly "own card x betting
  label": a player's card is the class of deals his information set at his
  first decision position tells apart, a label the class of positions his
  information sets tell apart within one deal, and every (card, label) pair
  is one information set, different pairs different ones (so what each player
  knows, and his perfect recall, are those of the rules);
* every player decides somewhere (his card is read from his information
  sets);
* every leaf pays what an :class:`~exactpoker.core.game.Outcome` pays for
  every deal (contributions, who is still in, showdown to the highest card
  with ties split, or the pot shared).

The names of deals, information sets and actions are arbitrary: which card a
deal gives each player is read from the structure (which classes never meet
in a deal without replacement are one card; cards are ranked by how often
their holder wins a contested pot), then checked by rebuilding every leaf's
payoff from the recovered rules, exactly.  Anything that does not match gives
``None`` (the tree is then solved as a general tree).  A game whose payoffs
cannot tell two cards apart and whose deal cannot either (with replacement)
may be missed: ``None`` is always safe.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

from exactpoker.core.compiled import TreeLayout
from exactpoker.core.compiler import compile_layouts
from exactpoker.core.game import BettingGame, Deck, Decision, Node, Outcome
from exactpoker.core.profile import BehaviourProfile
from exactpoker.core.tree import Chance, GameTree, Move, Terminal, TreeNode, paused_gc
from exactpoker.errors import InvalidGameError

__all__ = ["DetectedGame", "TreeLayouts", "detect_betting_game"]


@dataclass(frozen=True)
class TreeLayouts:
    """A tree's players and sequence layouts without its payoffs: what a result's tables read.

    The layouts are those :func:`~exactpoker.core.tree.compile_tree` gives
    the tree (information sets in first-visit order), so strategies laid out
    by a front end's tables read the same as the general path's.
    """

    game: GameTree
    layouts: tuple[TreeLayout, ...]

    @property
    def player_names(self) -> tuple[str, ...]:
        return self.game.player_names

    @property
    def num_players(self) -> int:
        return len(self.layouts)


@dataclass(frozen=True)
class DetectedGame:
    """A tree recognised as a one-card betting game.

    Attributes
    ----------
    rules : BettingGame
        The recovered rules; they compile to the tree's sequence form up to
        the names of information sets.
    tree : TreeLayouts
        The tree's own layouts (information-set keys and action names as the
        tree gives them).
    infosets : tuple of dict
        Per player, each tree information-set key -> ``(card, label)``, the
        card ``1..n`` and the label of the rules' decision.
    leaves : int
        The number of leaves of the tree.
    source : str
        Where the rules were read from: ``"game tree"`` (:func:`detect_betting_game`)
        or ``"poker rules"`` (:func:`~exactpoker.solve.structure.poker_structure.detect_poker_game`).
    """

    rules: BettingGame
    tree: TreeLayouts
    infosets: tuple[dict[str, tuple[int, str]], ...]
    leaves: int
    source: str = "game tree"

    def tree_profile(self, profile: BehaviourProfile) -> BehaviourProfile:
        """``profile`` (a behaviour profile of :attr:`rules`) as a profile of the tree."""
        strategies = []
        for p, (layout, rules_layout) in enumerate(zip(self.tree.layouts, compile_layouts(self.rules))):
            labels = {label: index for index, label in enumerate(rules_layout.labels)}
            rows = []
            for name in layout.names:
                card, label = self.infosets[p][name]
                rows.append(tuple(profile.strategies[p][rules_layout.infoset(card, labels[label])]))
            strategies.append(tuple(rows))
        return BehaviourProfile(tuple(strategies))


@dataclass
class _Shape:
    """The betting tree below the first deal, by preorder position.

    ``moves[i]`` is ``(player, action names)`` for a decision position and
    ``None`` for a leaf; ``children[i]`` the positions its actions lead to;
    ``history[i]`` the action names on the way from the deal to it.
    """

    moves: list[tuple[int, tuple[str, ...]] | None]
    children: list[list[int]]
    history: list[tuple[str, ...]]

    @classmethod
    def of(cls, node: TreeNode) -> "_Shape | None":
        shape = cls([], [], [])
        stack: list[tuple[TreeNode, int, str]] = [(node, -1, "")]
        while stack:
            current, parent, action = stack.pop()
            position = len(shape.moves)
            shape.history.append(shape.history[parent] + (action,) if parent >= 0 else ())
            shape.children.append([])
            if parent >= 0:
                shape.children[parent].append(position)
            if isinstance(current, Terminal):
                shape.moves.append(None)
            elif isinstance(current, Move):
                shape.moves.append((current.player, current.action_names))
                stack.extend((child, position, name) for name, child in reversed(current.actions))
            else:
                return None
        return shape

    def positions(self, player: int) -> list[int]:
        return [i for i, move in enumerate(self.moves) if move is not None and move[0] == player]

    def read(self, node: TreeNode) -> tuple[list[str], list[tuple[Fraction, ...]]] | None:
        """The information-set keys and leaf payoffs below one deal, by position; ``None`` if the shape differs."""
        keys: list[str] = []
        payoffs: list[tuple[Fraction, ...]] = []
        stack = [node]
        position = 0
        moves = self.moves
        while stack:
            current = stack.pop()
            if position >= len(moves):
                return None
            expected = moves[position]
            position += 1
            kind = type(current)
            if expected is None:
                if kind is not Terminal:
                    return None
                payoffs.append(current.payoffs)  # type: ignore[union-attr]
            elif kind is Move and current.player == expected[0]:  # type: ignore[union-attr]
                names, children = zip(*current.actions)
                if names != expected[1]:
                    return None
                keys.append(current.infoset)
                stack.extend(reversed(children))
            else:
                return None
        return (keys, payoffs) if position == len(moves) else None


@dataclass
class _Payoffs:
    """The leaves' exact payoffs by leaf position and deal, each distinct payoff vector numbered once.

    ``columns[leaf][deal]`` is the number of the vector ``vectors[number]``;
    the checks then compare integers.  Vectors are keyed by their entries'
    integer ratios (hashing those is far cheaper than hashing fractions).
    """

    columns: list[list[int]]
    vectors: list[tuple[Fraction, ...]]
    index: dict[tuple[tuple[int, int], ...], int]

    @classmethod
    def of(cls, rows: list[list[tuple[Fraction, ...]]]) -> "_Payoffs":
        index: dict[tuple[tuple[int, int], ...], int] = {}
        ratio = Fraction.as_integer_ratio
        columns = [[index.setdefault(tuple(map(ratio, row[leaf])), len(index)) for row in rows]
                   for leaf in range(len(rows[0]))]
        return cls(columns, [tuple(Fraction(a, b) for a, b in key) for key in index], index)

    def number(self, vector: tuple[Fraction, ...]) -> int:
        """The number of ``vector``, or -1 when no leaf pays it."""
        return self.index.get(tuple(map(Fraction.as_integer_ratio, vector)), -1)

    def distinct(self, leaf: int) -> list[tuple[Fraction, ...]]:
        """The payoff vectors one leaf position pays over the deals."""
        return [self.vectors[i] for i in sorted(set(self.columns[leaf]))]


def _deals(root: TreeNode) -> list[TreeNode] | None:
    """The subtrees below the leading chance nodes, in the tree's order; ``None`` unless every deal is equally likely."""
    found: list[tuple[Fraction, TreeNode]] = []
    stack: list[tuple[TreeNode, Fraction | None]] = [(root, None)]  # None: probability one
    while stack:
        node, probability = stack.pop()
        if isinstance(node, Chance):
            stack.extend((child, p if probability is None else probability * p) for _, p, child in reversed(node.outcomes))
        else:
            found.append((Fraction(1) if probability is None else probability, node))
    each = Fraction(1, len(found))
    if any(p != each for p, _ in found):
        return None
    return [node for _, node in found]


def detect_betting_game(tree: GameTree, *, accept: Callable[[BettingGame], bool] | None = None
                        ) -> DetectedGame | None:
    """The one-card betting game ``tree`` is (module docstring), or ``None``.

    Parameters
    ----------
    tree : GameTree
    accept : callable, optional
        Asked about a draft of the rules before the deals are read: the deck
        their number implies, the first deal's betting tree and labels, every
        outcome a placeholder (nobody puts anything in).  ``False`` gives
        ``None`` at once: a caller that wants only some kinds of game (e.g.
        :func:`~exactpoker.solve.engine.structured.has_structure`) does not pay for
        reading a tree of another kind.

    Returns
    -------
    DetectedGame or None
        The recovered rules and how the tree's information sets map to them;
        ``None`` when any part of the tree does not match exactly.
    """
    with paused_gc():  # millions of small acyclic lists and tuples: the collector's passes would dominate
        return _detect(tree, accept)


def _detect(tree: GameTree, accept: Callable[[BettingGame], bool] | None) -> DetectedGame | None:
    """:func:`detect_betting_game`, with the collector paused."""
    k = tree.num_players
    deals = _deals(tree.root) if k >= 2 else None
    shape = _Shape.of(deals[0]) if deals else None
    deck = None if shape is None else _deck(len(deals), k)  # type: ignore[arg-type]
    if deck is None or (accept is not None and not _accepted(tree, deck, shape, deals[0], accept)):  # type: ignore
        return None
    read = [shape.read(deal) for deal in deals]  # type: ignore[union-attr]
    if any(r is None for r in read):
        return None
    keys = [r[0] for r in read]  # type: ignore[index]
    payoffs = _Payoffs.of([r[1] for r in read])  # type: ignore[index]
    information = _information(shape, keys, k)
    if information is None or any(len(vector) != k for vector in payoffs.vectors):
        return None
    classes, labels = information
    cards = _cards(classes, payoffs, k)
    if cards is None:
        return None
    n, replacement, dealt = cards
    outcomes = [_outcome(payoffs.distinct(leaf), k) for leaf in range(len(payoffs.columns))]
    if any(outcome is None for outcome in outcomes) or not _pays(outcomes, dealt, payoffs):  # type: ignore[arg-type]
        return None
    try:
        rules = BettingGame(tree.name, Deck(n, replacement), _rules_tree(shape, labels, outcomes),  # type: ignore[arg-type]
                            tree.player_names, tree.parameters)
        compile_layouts(rules)  # the rules' own checks: actions per label, perfect recall
    except InvalidGameError:
        return None
    return _detected(tree, rules, shape, keys, dealt, labels)


def _deck(deals: int, k: int) -> Deck | None:
    """The deck that deals ``k`` cards in ``deals`` ways: ``n**k`` with replacement, ``n!/(n-k)!`` without."""
    n = round(deals ** (1 / k))
    for m in (n - 1, n, n + 1):
        if m >= 1 and m**k == deals:
            return Deck(m, True)
    m = k
    while math.perm(m, k) < deals:
        m += 1
    return Deck(m, False) if math.perm(m, k) == deals else None


def _accepted(tree: GameTree, deck: Deck, shape: _Shape, deal: TreeNode, accept: Callable[[BettingGame], bool]
              ) -> bool:
    """``accept`` of the draft rules (see :func:`detect_betting_game`); ``False`` when there is no draft."""
    read = shape.read(deal)
    information = None if read is None else _information(shape, [read[0]], tree.num_players)
    if information is None:
        return False
    nothing = Outcome((Fraction(0),) * tree.num_players, tuple(range(tree.num_players)))
    leaves = sum(1 for move in shape.moves if move is None)
    try:
        draft = BettingGame(tree.name, deck, _rules_tree(shape, information[1], [nothing] * leaves), tree.player_names)
    except InvalidGameError:
        return False
    return accept(draft)


def _information(shape: _Shape, keys: list[list[str]], k: int
                 ) -> tuple[list[list[int]], dict[int, str]] | None:
    """Per player, each deal's card class; each decision position's label; ``None`` unless the partition is
    exactly "own card x label".

    A class is the number of the player's information set at his first
    position (first-appearance order); a label is named by the actions
    leading to the first position of its class within the first deal (made
    unique with the position's number if action names hold ``/``).
    """
    columns = {position: column for column, position in
               enumerate(i for i, move in enumerate(shape.moves) if move is not None)}
    classes: list[list[int]] = []
    labels: dict[int, str] = {}
    for p in range(k):
        positions = shape.positions(p)
        if not positions:
            return None
        index = [columns[i] for i in positions]
        first: dict[str, int] = {}
        classes.append([first.setdefault(row[index[0]], len(first)) for row in keys])
        named: dict[str, str] = {}
        label_of = {}
        for i, column in zip(positions, index):
            if keys[0][column] not in named:
                name = "/".join(shape.history[i]) or "start"
                named[keys[0][column]] = name if name not in named.values() else f"{name} #{i}"
            label_of[column] = labels[i] = named[keys[0][column]]
        pairs: dict[str, tuple[int, str]] = {}
        seen: set[tuple[int, str]] = set()
        for row, card in zip(keys, classes[p]):
            for column in index:
                pair = (card, label_of[column])
                if pairs.setdefault(row[column], pair) != pair:
                    return None
        for pair in pairs.values():
            if pair in seen:
                return None
            seen.add(pair)
    return classes, labels


def _cards(classes: list[list[int]], payoffs: "_Payoffs", k: int
           ) -> tuple[int, bool, list[tuple[int, ...]]] | None:
    """``(n, replacement, each deal's cards)`` from the players' card classes, or ``None``.

    Without replacement, player ``p``'s class ``b`` is player 0's class ``a``
    when no deal has both; with replacement each player's classes are his own.
    Cards are then ranked by the number of contested pots their holders win
    alone (a higher card wins at least as often, deal by deal, seed 000's
    showdown rule), ties by first appearance; the payoffs check decides.
    """
    deals = len(classes[0])
    n = 1 + max(classes[0])
    if any(1 + max(c) != n for c in classes):
        return None
    replacement = deals == n**k
    if not replacement and deals != math.perm(n, k):
        return None
    same = [list(range(n))] + [_matching(classes[0], c, n) for c in classes[1:]] if not replacement else None
    if same is not None and any(m is None for m in same):
        return None
    ranks = _wins(classes, payoffs, n, k)
    if same is not None:  # one card, one score: the sum over the players holding it
        total = [sum(ranks[p][same[p].index(a)] for p in range(k)) for a in range(n)]  # type: ignore[union-attr]
        order = sorted(range(n), key=lambda a: total[a])
        card = {a: order.index(a) + 1 for a in range(n)}
        of_class = [[card[same[p][b]] for b in range(n)] for p in range(k)]  # type: ignore[index]
    else:
        of_class = [[sorted(range(n), key=lambda b: ranks[p][b]).index(b) + 1 for b in range(n)] for p in range(k)]
    dealt = [tuple(of_class[p][classes[p][d]] for p in range(k)) for d in range(deals)]
    expected = deals if replacement else sum(1 for cards in dealt if len(set(cards)) == k)
    return (n, replacement, dealt) if len(set(dealt)) == deals == expected else None


def _matching(first: list[int], other: list[int], n: int) -> list[int] | None:
    """``same[b]``: player 0's class that never meets ``other``'s class ``b`` in a deal (one each), or ``None``."""
    met = [set() for _ in range(n)]
    for a, b in zip(first, other):
        met[b].add(a)
    same = []
    for b in range(n):
        missing = set(range(n)) - met[b]
        if len(missing) != 1:
            return None
        same.append(missing.pop())
    return same if len(set(same)) == n else None


def _wins(classes: list[list[int]], payoffs: "_Payoffs", n: int, k: int) -> list[list[int]]:
    """Per player and card class, at how many (deal, leaf) the player gets the most the leaf ever pays him,
    counting only leaves whose payoff to him varies with the deal."""
    wins = [[0] * n for _ in range(k)]
    for leaf, column in enumerate(payoffs.columns):
        distinct = {i: payoffs.vectors[i] for i in set(column)}
        for p in range(k):
            best = max(vector[p] for vector in distinct.values())
            won = {i for i, vector in distinct.items() if vector[p] == best}
            if len(won) == len(distinct):
                continue
            for (card, i), count in Counter(zip(classes[p], column)).items():
                if i in won:
                    wins[p][card] += count
    return wins


def _outcome(column: Sequence[tuple[Fraction, ...]], k: int) -> Outcome | None:
    """The :class:`Outcome` a leaf's payoffs over all deals come from, or ``None`` (checked deal by deal later).

    Payoffs that vary with the deal: a showdown among the players whose
    payoff varies, each having put in what he loses at worst.  Constant
    payoffs (zero-sum): the pot shared by the players paid the most, the
    others having put in what they lose.
    """
    first = column[0]
    varying = tuple(p for p in range(k) if any(pay[p] != first[p] for pay in column))
    if varying:
        contributions = tuple(-min(pay[p] for pay in column) for p in range(k))
        return Outcome(contributions, varying, True)
    if sum(first) != 0:
        return None
    top = max(first)
    active = tuple(p for p in range(k) if first[p] == top)
    return Outcome(tuple(Fraction(0) if p in active else -first[p] for p in range(k)), active, False)


def _pays(outcomes: list[Outcome], dealt: list[tuple[int, ...]], payoffs: "_Payoffs") -> bool:
    """Whether every leaf pays its outcome's payoffs at every deal (each outcome evaluated once per winner set)."""
    winners_by_active: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for outcome, column in zip(outcomes, payoffs.columns):
        active = outcome.active if outcome.showdown else ()
        winners = winners_by_active.get(active)
        if winners is None:
            winners = winners_by_active[active] = _winners(dealt, active)
        first = {}
        for cards, who in zip(dealt, winners):
            first.setdefault(who, cards)
        expected = {who: payoffs.number(outcome.payoffs(cards)) for who, cards in first.items()}
        if [expected[who] for who in winners] != column:
            return False
    return True


def _winners(dealt: list[tuple[int, ...]], active: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Per deal, the players of ``active`` holding its highest card (two players, the common case, inline)."""
    if len(active) == 2:
        a, b = active
        return [(a,) if c[a] > c[b] else (b,) if c[b] > c[a] else active for c in dealt]
    tops = [max((cards[p] for p in active), default=0) for cards in dealt]
    return [tuple(p for p in active if cards[p] == top) for cards, top in zip(dealt, tops)]


def _rules_tree(shape: _Shape, labels: dict[int, str], outcomes: list[Outcome]) -> Node:
    """The betting tree of the rules: the shape's decisions with their labels, its leaves with their outcomes."""
    leaf_number = {i: n for n, i in enumerate(i for i, move in enumerate(shape.moves) if move is None)}

    def build(i: int) -> Node:
        move = shape.moves[i]
        if move is None:
            return outcomes[leaf_number[i]]
        return Decision(move[0], labels[i], tuple(zip(move[1], (build(c) for c in shape.children[i]))))

    return build(0)


def _detected(tree: GameTree, rules: BettingGame, shape: _Shape, keys: list[list[str]],
              dealt: list[tuple[int, ...]], labels: dict[int, str]) -> DetectedGame:
    """The tree's layouts in :func:`~exactpoker.core.tree.compile_tree`'s order and its keys' (card, label)."""
    k = tree.num_players
    decisions = [i for i, move in enumerate(shape.moves) if move is not None]
    parents = _own_parents(shape, decisions)
    names: list[list[str]] = [[] for _ in range(k)]
    actions: list[list[tuple[str, ...]]] = [[] for _ in range(k)]
    up: list[list[int]] = [[] for _ in range(k)]
    firsts: list[dict[str, int]] = [{} for _ in range(k)]
    sequence = [1] * k
    infosets: list[dict[str, tuple[int, str]]] = [{} for _ in range(k)]
    for row, cards in zip(keys, dealt):
        for column, i in enumerate(decisions):
            p, acts = shape.moves[i]  # type: ignore[misc]
            key = row[column]
            if key in firsts[p]:
                continue
            last = parents[column]
            up[p].append(0 if last is None else firsts[p][row[last[0]]] + last[1])
            firsts[p][key] = sequence[p]
            sequence[p] += len(acts)
            names[p].append(key)
            actions[p].append(acts)
            infosets[p][key] = (cards[p], labels[i])
    layouts = tuple(TreeLayout(tuple(names[p]), tuple(actions[p]), tuple(up[p])) for p in range(k))
    leaves = len(keys) * sum(1 for move in shape.moves if move is None)
    return DetectedGame(rules, TreeLayouts(tree, layouts), tuple(infosets), leaves)


def _own_parents(shape: _Shape, decisions: list[int]) -> list[tuple[int, int] | None]:
    """Per decision (by column), the player's own last decision (its column) and action before it, or ``None``."""
    column_of = {i: c for c, i in enumerate(decisions)}
    parent: dict[int, tuple[int, int]] = {}
    for i in decisions:
        for a, child in enumerate(shape.children[i]):
            parent[child] = (i, a)
    result: list[tuple[int, int] | None] = []
    for i in decisions:
        player, node, found = shape.moves[i][0], i, None  # type: ignore[index]
        while node in parent:
            node, action = parent[node]
            if shape.moves[node][0] == player:  # type: ignore[index]
                found = (column_of[node], action)
                break
        result.append(found)
    return result
