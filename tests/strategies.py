"""Hypothesis strategies shared by the tests, and the small LPs built from them."""

from fractions import Fraction

from hypothesis import assume
from hypothesis import strategies as st

from exactpoker.core import Betting, CardDeck, Deal, PokerGame, View, pairs_then_high_card
from exactpoker.core.poker_size import tree_size
from exactpoker.core.tree import Chance, GameTree, Move, Terminal
from exactpoker.solve.lp.sequence_form import StandardLP

bets = st.fractions(min_value=Fraction(1, 10), max_value=Fraction(12), max_denominator=12)
probabilities = st.fractions(min_value=0, max_value=1, max_denominator=9)


def forgetful(s):
    """A view that forgets the earlier rounds: perfect recall breaks."""
    return "".join(c.rank_name for c in s.hands[s.player]) + "|" + s.history[-1]


def _board_blind(s):
    return "".join(c.name for c in s.hands[s.player]) + "|" + "/".join(s.history)


def _showdown_points(s):
    # an explicit payoff reading the cards, the board and the betting: not zero-sum
    return tuple(Fraction(sum(c.rank for c in s.hands[p]) + len(s.board), 1 + len(s.history)) - s.contributions[p]
                 for p in range(len(s.hands)))


def _betting(draw, players):
    sizes = draw(st.lists(st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(2)]), min_size=1, max_size=2,
                          unique=True))
    bettors = draw(st.none() | st.lists(st.integers(0, players - 1), min_size=1, max_size=players, unique=True))
    return Betting(sizes=sizes, max_bets=draw(st.integers(0, 2)), first=draw(st.integers(0, players - 1)),
                   bettors=bettors)


@st.composite
def poker_games(draw):
    """A random small :class:`~exactpoker.core.poker.PokerGame` (at most 4000 tree nodes): two or three players,
    deals and betting rounds in any order, antes, views (some breaking perfect recall), rankings, rake or payoff."""
    players = draw(st.integers(2, 3))
    deck = CardDeck("JQKA"[:draw(st.integers(2, 4))], suits=draw(st.integers(1, 2)), copies=draw(st.integers(1, 2)))
    steps = []
    # mostly a deal then a round; sometimes a round before any card, or two deals in a row
    for kinds in draw(st.lists(st.sampled_from(["deal, bet"] * 4 + ["bet", "deal"]), min_size=1, max_size=2)):
        for kind in kinds.split(", "):
            if kind == "deal":
                hole, board = draw(st.sampled_from([(1, 0), (0, 1), (1, 1), (2, 0)]))
                steps.append(Deal(hole=hole, board=board, replacement=draw(st.booleans())))
            else:
                steps.append(_betting(draw, players))
    if not any(isinstance(step, Betting) for step in steps):
        steps.append(_betting(draw, players))
    ante = draw(st.sampled_from([1, 0, Fraction(1, 2)]) | st.lists(st.sampled_from([Fraction(1, 2), 1, 2]),
                                                                    min_size=players, max_size=players))
    view = draw(st.sampled_from([View(), View(suits=False), View(key=_board_blind), View(key=forgetful)]))
    rules = draw(st.sampled_from(["high", "pairs", "rake", "payoff"]))
    kept = sum(players * s.hole + s.board for s in steps if isinstance(s, Deal) and not s.replacement)
    assume(kept + any(isinstance(s, Deal) and s.replacement for s in steps) <= deck.size)
    game = PokerGame("random", players, deck, steps, ante=ante, view=view,
                     ranking=pairs_then_high_card if rules == "pairs" else None,
                     rake=Fraction(1, 10) if rules == "rake" else 0,
                     payoff=_showdown_points if rules == "payoff" else None, parameters=(("rules", rules),))
    assume(tree_size(game).nodes <= 4000)
    return game


# Names with the characters that need care in a Gambit string (no digits and no "t": a name cannot
# spell a terminal node's line, which test_numbers_spelled_every_way rewrites).
NAMES = st.text(alphabet=st.sampled_from(list('ab "\\,{}é:#\n')), max_size=5)
PAYOFFS = st.fractions(min_value=-50, max_value=50, max_denominator=40)


@st.composite
def trees(draw, names=NAMES):
    """A random game with perfect recall (each information set keyed by its player's own history and a
    signal): 1-3 players, chance nodes anywhere (probabilities may be 0), rational payoffs."""
    players = draw(st.integers(1, 3))
    player_names = draw(st.lists(names.filter(bool), min_size=players, max_size=players, unique=True))
    infosets: dict[tuple, tuple[str, list[str]]] = {}

    def node(depth: int, history: tuple) -> object:
        kind = "t" if depth >= 4 else draw(st.sampled_from("tcmm"))
        if kind == "t":
            return Terminal(tuple(draw(PAYOFFS) for _ in range(players)))
        if kind == "c":
            weights = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3).filter(any))
            labels = draw(st.lists(names, min_size=len(weights), max_size=len(weights), unique=True))
            return Chance(tuple((label, Fraction(w, sum(weights)), node(depth + 1, history))
                                for label, w in zip(labels, weights)), "chance")
        player = draw(st.integers(0, players - 1))
        key = (player, history[player], draw(st.integers(0, 1)))
        if key not in infosets:
            actions = draw(st.lists(names, min_size=1, max_size=3, unique=True))
            infosets[key] = (f"{draw(names)} {len(infosets)}", actions)
        name, actions = infosets[key]

        def after(action: str) -> tuple:  # the players' own histories after this move
            return history[:player] + (history[player] + ((name, action),),) + history[player + 1:]

        return Move(player, name, tuple((action, node(depth + 1, after(action))) for action in actions))

    return GameTree(draw(names.filter(bool)), tuple(player_names), node(0, ((),) * players))


#: ``(rows, cost)`` of a small LP ``max cost . x`` s.t. ``rows x <= b``, ``x >= 0``: 1-4 rows of 1-4 variables.
small_lps = st.integers(1, 4).flatmap(
    lambda n: st.tuples(
        st.lists(st.lists(st.integers(0, 4), min_size=n, max_size=n), min_size=1, max_size=4),
        st.lists(st.integers(-3, 5), min_size=n, max_size=n),
    )
)


def standard_lp_of(rows: list[list[int]], rhs: list[int], cost: list[int], equalities: int = 0,
                   free: int = 0) -> StandardLP:
    """``max cost . x`` s.t. the first rows ``<=``, the last ``equalities`` rows ``=``; the last ``free`` variables
    free, the others ``>= 0``."""
    columns = tuple({i: row[j] for i, row in enumerate(rows) if row[j]} for j in range(len(cost)))
    return StandardLP(columns, tuple(rhs), {j: c for j, c in enumerate(cost) if c}, len(rows) - equalities,
                      len(cost) - free)
