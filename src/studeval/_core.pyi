"""Type stub of the compiled layer (src/studeval/_core.pyx)."""

from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple, final

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

CORE_VERSION: str

def raise_for_status(status: int, what: str) -> None: ...
def set_card_reader(reader: Callable[[Any], list[int]]) -> None: ...

NO_LOW: int
MAX_THREADS: int
HIGH_CLASSES: int
LOW_CLASSES: int
LOW8_CLASSES: int

def high_rank(hand: str | Iterable[object]) -> int: ...
def low_rank(hand: str | Iterable[object]) -> int: ...
def low8_rank(hand: str | Iterable[object]) -> int | None: ...
def up_high_rank(cards: str | Iterable[object]) -> int: ...
def up_low_rank(cards: str | Iterable[object]) -> int: ...

@final
class FreshRanks:
    @property
    def first_bad(self) -> int: ...
    @property
    def high(self) -> npt.NDArray[np.uint16] | None: ...
    @property
    def low(self) -> npt.NDArray[np.uint16] | None: ...
    @property
    def low8(self) -> npt.NDArray[np.uint16] | None: ...

@final
class RankClass:
    @property
    def category(self) -> int: ...
    @property
    def ranks(self) -> tuple[int, int, int, int, int]: ...

def rank_fresh(
    cards: object,
    empty: Callable[[int, np.dtype[np.uint16]], npt.NDArray[np.uint16]],
    dtype: np.dtype[np.uint16],
    high: bool,
    low: bool,
    low8: bool,
    threads: int,
    check: bool,
) -> FreshRanks | None: ...
def rank_batch(
    cards: npt.NDArray[np.uint8],
    high: npt.NDArray[np.uint16] | None,
    low: npt.NDArray[np.uint16] | None,
    low8: npt.NDArray[np.uint16] | None,
    threads: int,
    check: bool,
) -> int: ...
def high_class(rank: int) -> RankClass: ...
def low_class(rank: int) -> RankClass: ...
def batch_kernel(explain: bool = False) -> str: ...
def batch_kernels() -> tuple[str, ...]: ...
def cpu_count() -> int: ...
def _set_batch_min_rows_per_thread(rows: int) -> None: ...
def _batch_min_rows_per_thread() -> int: ...
def _threads_started() -> int: ...

EQ_UNITS: int
EQ_CHUNK_SAMPLES: int

class EquitySums(NamedTuple):
    deals: int
    community: bool
    share: tuple[int, ...]
    share_sq: tuple[int, ...]
    high_win: tuple[int, ...]
    high_tie: tuple[int, ...]
    low_win: tuple[int, ...]
    low_tie: tuple[int, ...]
    scoop: tuple[int, ...]
    low_share: tuple[int, ...]

class DealCount(NamedTuple):
    deals: float
    community: bool

@disjoint_base
class EquityProgress:
    def fraction(self) -> float: ...
    def stop(self) -> None: ...
    @property
    def stopped(self) -> bool: ...

def equity_deals(game: int, hands: list[list[int]], dead: list[int | None]) -> DealCount: ...
def equity_sample(
    game: int,
    hands: list[list[int]],
    dead: list[int | None],
    seed: int,
    first_chunk: int,
    chunks: int,
    threads: int,
) -> EquitySums: ...
def equity_sample_part(
    game: int,
    hands: list[list[int]],
    dead: list[int | None],
    seed: int,
    chunk: int,
    samples: int,
) -> EquitySums: ...
def equity_sample_steps(
    game: int,
    hands: list[list[int]],
    dead: list[int | None],
    seed: int,
    step: int,
    most: int,
    target_se: float,
) -> EquitySums: ...
def equity_enumerate(
    game: int,
    hands: list[list[int]],
    dead: list[int | None],
    threads: int,
    progress: EquityProgress | None = None,
) -> EquitySums: ...
def equity_count_heads_up(
    game: int,
    hands: list[list[int]],
    dead: list[int | None],
    max_records: int,
    threads: int,
    progress: EquityProgress | None = None,
) -> EquitySums: ...
def equity_sample_ranges(
    game: int,
    hands: list[list[int]],
    dead: list[int | None],
    ranges: list[tuple[int, int, npt.NDArray[np.uint8], npt.NDArray[np.float64] | None]],
    seed: int,
    first_chunk: int,
    chunks: int,
    threads: int,
) -> EquitySums: ...

# Queries (PQL): trials dealt or given, run through a program of operations.
QUERY_MAX_PLAYERS: int
QUERY_MAX_OPS: int
QUERY_MAX_OUTPUTS: int
QUERY_EXACT_RUNOUTS: int
QUERY_RUNOUTS: int
QUERY_CODES: dict[str, int]

def query_sample(
    game: int,
    players: list[
        tuple[tuple[int, ...], int, npt.NDArray[np.uint8] | None, npt.NDArray[np.float64] | None]
    ],
    dead: bytes,
    ops: list[tuple[int, int, int, int, int, float]],
    outputs: list[int],
    seed: int,
    first_trial: int,
    threads: int,
    out: npt.NDArray[np.float64],
) -> None: ...
def query_eval(
    game: int,
    ops: list[tuple[int, int, int, int, int, float]],
    outputs: list[int],
    dead: bytes,
    cards: npt.NDArray[np.uint8],
    threads: int,
    out: npt.NDArray[np.float64],
) -> None: ...

# Solving a heads-up street: CFR+ over whole ranges, best responses.
SOLVE_MAX_NODES: int
SOLVE_MAX_COMBOS: int
SOLVE_MAX_BOARDS: int
SOLVE_MAX_CHIPS: int
# A solved spot's seats (each seat's hidden cards, weights, groups) and tree nodes.
_SolveHidden = list[npt.NDArray[np.uint8]]
_SolveWeights = list[npt.NDArray[np.float64] | None]
_SolveGroups = list[tuple[npt.NDArray[np.int32], int] | None]
_SolveNodes = list[tuple[int, int, int, int, int, float, float]]

@final
class SolverCore:
    def __new__(
        cls,
        game: int,
        pot: float,
        rake: tuple[float, float],
        up: list[list[int]],
        hidden: _SolveHidden,
        weights: _SolveWeights,
        groups: _SolveGroups,
        nodes: _SolveNodes,
        boards: npt.NDArray[np.uint8] | None = None,
    ) -> SolverCore: ...
    def run(
        self, iterations: int, threads: int, progress: EquityProgress | None = None
    ) -> None: ...
    @property
    def iterations(self) -> int: ...
    def strategy(self, node: int, out: npt.NDArray[np.float64]) -> None: ...
    def values(
        self,
        ev0: npt.NDArray[np.float64] | None = None,
        ev1: npt.NDArray[np.float64] | None = None,
        met0: npt.NDArray[np.float64] | None = None,
        met1: npt.NDArray[np.float64] | None = None,
    ) -> tuple[float, float]: ...

def solve_best_response(
    game: int,
    pot: float,
    rake: tuple[float, float],
    up: list[list[int]],
    hidden: _SolveHidden,
    weights: _SolveWeights,
    groups: _SolveGroups,
    nodes: _SolveNodes,
    boards: npt.NDArray[np.uint8] | None,
    strategy: npt.NDArray[np.float64],
) -> tuple[float, float]: ...

TUPLE_FIELDS: tuple[str, ...]

def equity_tuples(
    game: int,
    hands: list[list[int]],
    dead: list[int | None],
    seats: list[int],
    widths: list[int],
    tuple_cards: npt.NDArray[np.uint8],
    out: npt.NDArray[np.uint64],
    max_records: int,
    threads: int,
    progress: EquityProgress | None = None,
) -> None: ...

ENGINE_MAX_CHIPS: int

class TableChoices(NamedTuple):
    allowed: tuple[bool, ...]
    totals: tuple[int, ...]
    kinds: tuple[int, ...]

class Settlement(NamedTuple):
    payouts: list[int]
    returned: list[int]
    rake: int

class TableRules(NamedTuple):
    seats: int
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    rake: int
    bring_in_highest: bool
    ace_low: bool
    board_low: bool
    open_pair: bool
    bring_in_tie_position: bool
    action_tie_suit: bool
    short_all_in_full_bet: bool
    bring_in_passes_left: bool
    cap_heads_up: bool
    deck_reuses_muck: bool
    short_bring_in_opens: bool
    cap_skips_all_in: bool = ...

@final
class LegalTotals:
    @property
    def fold(self) -> bool: ...
    @property
    def check(self) -> bool: ...
    @property
    def call(self) -> int | None: ...
    @property
    def bring_in(self) -> int | None: ...
    @property
    def complete_to(self) -> tuple[int, ...]: ...
    @property
    def bet_to(self) -> tuple[int, ...]: ...
    @property
    def raise_to(self) -> tuple[int, ...]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class CoreEvent:
    @property
    def kind(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def amount(self) -> int: ...
    @property
    def to(self) -> int: ...
    @property
    def cards(self) -> tuple[int | None, ...]: ...
    @property
    def street(self) -> int: ...

HAND_ROWS_COLUMNS: tuple[tuple[str, str, str], ...]

@final
class HandRows:
    def __new__(cls) -> HandRows: ...
    @property
    def counts(self) -> tuple[int, int, int]: ...
    def add(self, table: TableHand, hand: int, scoops: bool) -> bool: ...
    def drop_to(self, actions: int, cards: int, seats: int) -> None: ...
    def take(self) -> dict[tuple[str, str], bytes]: ...

@final
class TableHand:
    def __new__(cls, rules: TableRules, stacks: Sequence[int]) -> TableHand: ...
    @property
    def rules(self) -> TableRules: ...
    def copy(self) -> TableHand: ...
    def deck(self) -> list[int] | None: ...
    def set_deck(self, codes: Sequence[int]) -> int: ...
    @property
    def actor(self) -> int: ...
    @property
    def street(self) -> int: ...
    @property
    def showdown(self) -> bool: ...
    @property
    def over(self) -> bool: ...
    @property
    def settle_due(self) -> bool: ...
    @property
    def community(self) -> int: ...
    @property
    def rake_taken(self) -> int: ...
    @property
    def events_count(self) -> int: ...
    def stacks(self) -> list[int]: ...
    def contributions(self) -> list[int]: ...
    def payouts(self) -> list[int]: ...
    def folded(self) -> list[bool]: ...
    def shown(self) -> list[bool]: ...
    def dealt(self) -> list[bool]: ...
    def out(self) -> list[bool]: ...
    def cards(self, seat: int) -> list[int | None]: ...
    def up_cards(self, seat: int) -> list[int]: ...
    def card_free(self, card: int, count: int) -> bool: ...
    def is_known(self, card: int) -> bool: ...
    def legal(self) -> LegalTotals: ...
    def table_choices(self) -> TableChoices: ...
    def act(self, kind: int, to: int) -> int: ...
    def deal(self, seat: int, codes: Sequence[int | None]) -> int: ...
    def deal_community(self, card: int) -> int: ...
    def deal_random(self, seed: int) -> int: ...
    def show(self, codes: Sequence[int] | None = None) -> int: ...
    def muck(self) -> int: ...
    def settle(
        self, game: int, chip: int, flags: tuple[bool, bool, bool, bool, bool]
    ) -> list[int] | None: ...
    def pay(self, payouts: Sequence[int], rake: int) -> int: ...
    def events(self, start: int = 0) -> list[CoreEvent]: ...

def random_hands_into(out: npt.NDArray[np.uint8], seed: int) -> None: ...
def settle_payouts(
    game: int,
    hands: Sequence[Sequence[int] | None],
    community: int,
    contributions: Sequence[int],
    rake: int,
    rake_at_most: bool,
    chip: int,
    odd_chip_played: bool,
    odd_chip_low_high_card: bool,
    odd_chips_first_seat: bool,
    odd_chip_half_low: bool,
    split_pots_merged: bool,
) -> Settlement: ...

TABLES_ARRAYS: tuple[tuple[str, str, int], ...]
TABLES_HISTORY: int

@final
class CoreTables:
    def __new__(
        cls,
        n: int,
        rules: TableRules,
        game: int,
        flags: tuple[bool, bool, bool, bool, bool],
        stacks: Sequence[int],
        seed: int,
        arrays: tuple[npt.NDArray[Any], ...],
    ) -> CoreTables: ...
    @property
    def workers(self) -> int: ...
    def reset(self, seed: int) -> None: ...
    def encode(self, i: int, me: int, total: float, out: npt.NDArray[np.float32]) -> None: ...
    def step(self, actions: npt.NDArray[np.int64], threads: int) -> int: ...
    def last_events(self, i: int) -> list[CoreEvent] | None: ...

HISTORY_ROLES: dict[str, int]
HISTORY_OVER: int
HISTORY_POT_AFTER_RAKE: int
HISTORY_RETURNS_UNWRITTEN: int
HISTORY_COLLECTS_RETURNS: int
HISTORY_FIRST_STREET_3: int
HISTORY_DEALS_REPEAT_ALL: int
HISTORY_RAKE_UNWRITTEN: int
HISTORY_CARD_BY_CARD: int
HISTORY_STREETS_BY_DEALS: int
HISTORY_HERO_MARKED: int
HISTORY_SETTLE: int
HISTORY_SIGNS: dict[str, int]

class HistoryTable(NamedTuple):
    places: int
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    rake: int
    hero: str | None
    players: list[tuple[int, str, int]]
    signs: int
    stack_signs: int

def history_stamp(text: bytes, prefix: bytes) -> tuple[int, ...] | None: ...

HISTORY_MAX_HEADS: int

def line_starts(
    text: bytes, at: int, heads: tuple[bytes, ...], first_line: int
) -> tuple[list[int], list[int]]: ...

@final
class HistoryReader:
    def __new__(
        cls, templates: Iterable[tuple[str, int, str]], flags: int = 0
    ) -> HistoryReader: ...
    @property
    def unsure_at(self) -> int: ...
    @property
    def seats(self) -> int: ...
    def read(self, text: bytes) -> int: ...
    def read_ipoker(self, game: bytes, hero: bytes | None, tournament: bool) -> bool: ...
    def read_merge(self, game: bytes, tournament: bool) -> bool: ...
    def prepare(self, small_bet: bytes, big_bet: bytes) -> HistoryTable | None: ...
    def play(self, table: TableHand) -> int: ...
    def unwritten_rake(self, returned: Sequence[int] | None = None) -> int: ...
    def check_end(self, returned: Sequence[int] | None = None) -> list[int] | None: ...
    def read_hands(
        self,
        data: bytes,
        bounds: npt.NDArray[np.int64],
        header_of: Callable[[int, bytes], tuple[bytes, bytes, int] | None],
        rules_of: Callable[..., tuple[object, ...] | None],
        rows: HandRows | None = None,
        all_in_of: Callable[[int, TableHand, list[int]], bool] | None = None,
        ends: npt.NDArray[np.int64] | None = None,
    ) -> dict[str, Any]: ...

PARSE_ROW: int
LINE_BLANK: int
LINE_OTHER: int

class ParsedLines(NamedTuple):
    lines: int
    counts: tuple[int, ...]

def parse_lines_into(
    text: bytes | bytearray | memoryview,
    cards: npt.NDArray[np.uint8],
    status: npt.NDArray[np.uint8],
) -> ParsedLines: ...

MAX_TEXT_FIELDS: int

def format_rows(
    fields: Sequence[tuple[bytes, npt.NDArray[np.uint32], npt.NDArray[Any]]], rows: int
) -> bytes: ...
