"""studeval: fast Seven Card Stud hand ranking and stud rules.

Every ranking is a rank: 1 is the best hand, a lower rank always wins and equal
ranks tie.

>>> import studeval
>>> studeval.high_rank("As Ks Qs Js Ts 2c 3d")
1
>>> studeval.describe_high(studeval.high_rank("Kc Kd 5h 5s 9c 2d 3h"))
'Two Pair, Kings and Fives'
>>> studeval.low8_rank("Ac 2d 3h 4s 5c Kd Kh"), studeval.low8_rank("9c Td Jh Qs Kc 2d 2h")
(1, None)
"""

from typing import TYPE_CHECKING

from studeval._core import (
    cpu_count,
    high_rank,
    low8_rank,
    low_rank,
    up_high_rank,
    up_low_rank,
)
from studeval._version import __version__
from studeval.analysis import HandAnalysis, StreetEquity, analyze
from studeval.batch import (
    NO_LOW,
    Ranks,
    all_ranks,
    high_ranks,
    low8_ranks,
    low_ranks,
)
from studeval.betting import Event, Legal, Stakes
from studeval.cards import card_str, cards_str, parse_card, parse_cards
from studeval.classes import (
    HighCategory,
    LowCategory,
    best_five,
    describe_high,
    describe_low,
    high_categories,
    high_category,
    low_category,
)
from studeval.engine import StudHand
from studeval.equity_calculator import Equity, EquityCounts, PlayerEquity, equity, range_equity
from studeval.errors import (
    BatchDtypeError,
    BatchOutputError,
    BatchShapeError,
    ChipError,
    DuplicateCardError,
    HandSizeError,
    IllegalActionError,
    InvalidCardError,
    InvalidLineError,
    InvalidRankError,
    NoDealError,
    OptionError,
    QueryError,
    QueryWarning,
    RangeError,
    RangeWarning,
    RulesError,
    SeatError,
    SolveError,
    StudevalError,
    StudevalWarning,
    UnknownGameError,
    UnknownRankingError,
)
from studeval.games import GAME_NAMES, check_game
from studeval.hand import Hand
from studeval.pots import Pot, Settlement
from studeval.rules import HouseRules, bring_in, first_to_act, open_pair
from studeval.showdown import award_pot, settle
from studeval.tables import Tables
from studeval.tracker import analyze_many

if TYPE_CHECKING:
    from studeval import histories as histories
    from studeval import phh as phh
    from studeval.parsing import parse_hands
    from studeval.queries import QueryResult, query
    from studeval.ranges import Range
    from studeval.solving import Solution, Spot, solve


# Submodules the docs use as ``studeval.phh.dumps`` after a bare ``import studeval``;
# imported on first use, as parse_hands is, so that ``import studeval`` stays quick.
_LAZY_MODULES = ("histories", "phh")


def __getattr__(name: str) -> object:
    # parse_hands lives with the numpy parsers; importing it only when asked for
    # keeps `import studeval` free of numpy (about 100 ms of start-up).
    if name == "parse_hands":
        from studeval.parsing import parse_hands

        return parse_hands
    if name == "Range":  # numpy underneath, like parse_hands
        from studeval.ranges import Range

        return Range
    if name in ("query", "QueryResult"):  # numpy underneath too
        from studeval import queries

        return getattr(queries, name)
    if name in ("solve", "Spot", "Solution"):  # numpy underneath too
        from studeval import solving

        return getattr(solving, name)
    if name in _LAZY_MODULES:
        import importlib

        return importlib.import_module(f"studeval.{name}")
    raise AttributeError(f"module 'studeval' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), "parse_hands", "Range", "query", "QueryResult", "solve", "Spot",
                   "Solution", *_LAZY_MODULES})  # fmt: skip


__all__ = [
    "GAME_NAMES",
    "NO_LOW",
    "BatchDtypeError",
    "BatchOutputError",
    "BatchShapeError",
    "ChipError",
    "DuplicateCardError",
    "Equity",
    "EquityCounts",
    "Event",
    "Hand",
    "HandAnalysis",
    "HandSizeError",
    "HighCategory",
    "HouseRules",
    "IllegalActionError",
    "InvalidCardError",
    "InvalidLineError",
    "InvalidRankError",
    "Legal",
    "LowCategory",
    "NoDealError",
    "OptionError",
    "PlayerEquity",
    "Pot",
    "QueryError",
    "QueryResult",
    "QueryWarning",
    "Range",
    "RangeError",
    "RangeWarning",
    "Ranks",
    "RulesError",
    "SeatError",
    "Settlement",
    "Solution",
    "SolveError",
    "Spot",
    "Stakes",
    "StreetEquity",
    "StudHand",
    "StudevalError",
    "StudevalWarning",
    "Tables",
    "UnknownGameError",
    "UnknownRankingError",
    "__version__",
    "all_ranks",
    "analyze",
    "analyze_many",
    "award_pot",
    "best_five",
    "bring_in",
    "card_str",
    "cards_str",
    "check_game",
    "cpu_count",
    "describe_high",
    "describe_low",
    "equity",
    "first_to_act",
    "high_categories",
    "high_category",
    "high_rank",
    "high_ranks",
    "low8_rank",
    "low8_ranks",
    "low_category",
    "low_rank",
    "low_ranks",
    "open_pair",
    "parse_card",
    "parse_cards",
    "parse_hands",
    "query",
    "range_equity",
    "settle",
    "solve",
    "up_high_rank",
    "up_low_rank",
]
