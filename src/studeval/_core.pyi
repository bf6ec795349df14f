"""Type stub of the compiled layer (src/studeval/_core.pyx)."""

from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

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
def rank_batch(
    cards: npt.NDArray[np.uint8],
    high: npt.NDArray[np.uint16] | None,
    low: npt.NDArray[np.uint16] | None,
    low8: npt.NDArray[np.uint16] | None,
    threads: int,
    check: bool,
) -> int: ...
def high_class(rank: int) -> tuple[int, tuple[int, int, int, int, int]]: ...
def low_class(rank: int) -> tuple[int, tuple[int, int, int, int, int]]: ...
def cpu_count() -> int: ...
def _set_batch_min_rows_per_thread(rows: int) -> None: ...
def _batch_min_rows_per_thread() -> int: ...
def _threads_started() -> int: ...

EQ_UNITS: int
EQ_CHUNK_SAMPLES: int
EQ_TOO_BIG: int
EQ_NO_DEAL: int
EQ_STOPPED: int

@disjoint_base
class EquityProgress:
    def fraction(self) -> float: ...
    def stop(self) -> None: ...
    @property
    def stopped(self) -> bool: ...

def equity_deals(game: int, hands: list[list[int]], dead: list[int]) -> tuple[float, bool]: ...
def equity_sample(
    game: int,
    hands: list[list[int]],
    dead: list[int],
    seed: int,
    first_chunk: int,
    chunks: int,
    threads: int,
) -> tuple[Any, ...]: ...
def equity_enumerate(
    game: int,
    hands: list[list[int]],
    dead: list[int],
    threads: int,
    progress: EquityProgress | None = None,
) -> tuple[Any, ...]: ...
def equity_count_heads_up(
    game: int,
    hands: list[list[int]],
    dead: list[int],
    max_records: int,
    threads: int,
    progress: EquityProgress | None = None,
) -> tuple[Any, ...]: ...
