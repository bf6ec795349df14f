"""Type stub of the compiled layer (src/studeval/_core.pyx)."""

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

NO_LOW: int
HIGH_CLASSES: int
LOW_CLASSES: int
LOW8_CLASSES: int

Hand = str | Iterable[str | int]

def high_rank(hand: Hand) -> int: ...
def low_rank(hand: Hand) -> int: ...
def low8_rank(hand: Hand) -> int | None: ...
def up_high_rank(cards: Hand) -> int: ...
def up_low_rank(cards: Hand) -> int: ...
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
