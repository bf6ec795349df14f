"""The peer evaluators: how to call each, feed it the benchmark hands, read its scores."""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from studeval._bench.agreement import keys_comparable, keys_higher_better, keys_lower_better
from studeval._cardtext import TEXT_OF_CODE

__all__ = [
    "PEERS",
    "PEER_NAMES",
    "PeerCall",
    "hand_texts",
    "peer_calls",
    "select_peers",
    "version_of",
]

#: The peers measured, in the order the table lists them (import names).
PEER_NAMES = ("pkrbot", "eval7", "phevaluator", "treys", "pokerkit", "poker_equity")


def hand_texts(hands: np.ndarray) -> list[list[str]]:
    """Each hand as a list of two-character card texts."""
    return [[TEXT_OF_CODE[c] for c in row] for row in hands.tolist()]


@dataclass(frozen=True)
class PeerCall:
    """One peer's per-hand call, with how to build its inputs and read its scores.

    ``build(hands)`` imports the peer, converts ``hands`` (uint8, shape (n, 7)) into
    the inputs it expects, once, and returns a runner: a callable that ranks all of
    them with one Python call per hand (``[f(x) for x in inputs]``, the way a user
    writes it) and returns the results. ``order_keys(results)`` maps those results to
    numbers where lower wins, to compare with studeval's ranks.
    """

    key: str
    module: str
    call: str
    ranking: str
    max_hands: int
    exact: bool
    make_runner: Callable[[ModuleType, np.ndarray], Callable[[], list[Any]]]
    keys: Callable[[list[Any]], np.ndarray]
    style: str = "single"  # "single": a Python loop of one call per hand; "batch": one call

    def available(self) -> bool:
        """Whether the peer is installed (without importing it)."""
        return importlib.util.find_spec(self.module) is not None

    def build(self, hands: np.ndarray) -> Callable[[], list[Any]]:
        """Import the peer and return a runner over pre-built inputs for ``hands``."""
        with warnings.catch_warnings():
            # Some peers warn on import about their own dependencies (eval7: pyparsing
            # deprecations); that is not ours to report, nor to fail a strict run.
            warnings.simplefilter("ignore")
            module = importlib.import_module(self.module)
        return self.make_runner(module, hands)

    def order_keys(self, results: list[Any]) -> np.ndarray:
        """The runner's results as numbers where lower wins."""
        return self.keys(results)

    @property
    def version(self) -> str:
        """The installed version of the peer, or "?"."""
        return version_of(self.module)


def _pkrbot_runner(mod: ModuleType, hands: np.ndarray) -> Callable[[], list[Any]]:
    card = mod.Card
    inputs = [[card(t) for t in hand] for hand in hand_texts(hands)]
    evaluate = mod.evaluate
    return lambda: [evaluate(c) for c in inputs]


def _eval7_runner(mod: ModuleType, hands: np.ndarray) -> Callable[[], list[Any]]:
    card = mod.Card
    inputs = [[card(t) for t in hand] for hand in hand_texts(hands)]
    evaluate = mod.evaluate
    return lambda: [evaluate(c) for c in inputs]


def _phe_cards_runner(mod: ModuleType, hands: np.ndarray) -> Callable[[], list[Any]]:
    # phevaluator's card ids are rank * 4 + suit with clubs, diamonds, hearts, spades:
    # studeval's codes, so the ints go in unchanged.
    inputs = [tuple(h) for h in hands.tolist()]
    evaluate = mod.evaluate_cards
    return lambda: [evaluate(*h) for h in inputs]


def _phe_7cards_runner(mod: ModuleType, hands: np.ndarray) -> Callable[[], list[Any]]:
    inputs = [tuple(h) for h in hands.tolist()]
    evaluate = mod.evaluate_7cards
    return lambda: [evaluate(*h) for h in inputs]


def _treys_runner(mod: ModuleType, hands: np.ndarray) -> Callable[[], list[Any]]:
    new = mod.Card.new
    # treys scores hole cards plus a board; any 2 + 5 split of the 7 cards is the same.
    inputs = [
        ([new(t) for t in hand[:2]], [new(t) for t in hand[2:]]) for hand in hand_texts(hands)
    ]
    evaluate = mod.Evaluator().evaluate
    return lambda: [evaluate(h, b) for h, b in inputs]


def _pokerkit_inputs(mod: ModuleType, hands: np.ndarray) -> list[tuple[Any, ...]]:
    parse = mod.Card.parse
    return [tuple(parse("".join(hand))) for hand in hand_texts(hands)]


def _pokerkit_high_runner(mod: ModuleType, hands: np.ndarray) -> Callable[[], list[Any]]:
    inputs = _pokerkit_inputs(mod, hands)
    from_game = mod.StandardHighHand.from_game
    return lambda: [from_game(c) for c in inputs]


def _pokerkit_low_runner(mod: ModuleType, hands: np.ndarray) -> Callable[[], list[Any]]:
    inputs = _pokerkit_inputs(mod, hands)
    from_game = mod.RegularLowHand.from_game
    return lambda: [from_game(c) for c in inputs]


def _pokerkit_low8_runner(mod: ModuleType, hands: np.ndarray) -> Callable[[], list[Any]]:
    inputs = _pokerkit_inputs(mod, hands)
    # from_game raises when no low qualifies; from_game_or_none returns None instead.
    from_game = mod.EightOrBetterLowHand.from_game_or_none
    return lambda: [from_game(c) for c in inputs]


def _poker_equity_runner(
    kernel: str,
) -> Callable[[ModuleType, np.ndarray], Callable[[], list[Any]]]:
    # poker-equity's batch call takes each hand as concatenated text ("AhKhQsQd2c7d9s").
    def make(mod: ModuleType, hands: np.ndarray) -> Callable[[], list[Any]]:
        texts = ["".join(hand) for hand in hand_texts(hands)]
        score = mod.score_batch
        return lambda: list(score(kernel, texts))

    return make


#: The peers' calls that the benchmarks time, fastest peer first.
PEERS: tuple[PeerCall, ...] = (
    PeerCall(
        "pkrbot.evaluate",
        "pkrbot",
        "pkrbot.evaluate(list of 7 Card)",
        "high",
        200_000,
        False,
        _pkrbot_runner,
        keys_higher_better,
    ),
    PeerCall(
        "eval7.evaluate",
        "eval7",
        "eval7.evaluate(list of 7 Card)",
        "high",
        200_000,
        False,
        _eval7_runner,
        keys_higher_better,
    ),
    PeerCall(
        "phevaluator.evaluate_7cards",
        "phevaluator",
        "phevaluator.evaluate_7cards(*ids)",
        "high",
        200_000,
        True,
        _phe_7cards_runner,
        keys_lower_better,
    ),
    PeerCall(
        "phevaluator.evaluate_cards",
        "phevaluator",
        "phevaluator.evaluate_cards(*ids)",
        "high",
        200_000,
        True,
        _phe_cards_runner,
        keys_lower_better,
    ),
    PeerCall(
        "treys.evaluate",
        "treys",
        "treys Evaluator.evaluate(hole, board)",
        "high",
        20_000,
        True,
        _treys_runner,
        keys_lower_better,
    ),
    PeerCall(
        "pokerkit.StandardHighHand",
        "pokerkit",
        "pokerkit StandardHighHand.from_game",
        "high",
        1_000,
        False,
        _pokerkit_high_runner,
        keys_comparable,
    ),
    PeerCall(
        "pokerkit.RegularLowHand",
        "pokerkit",
        "pokerkit RegularLowHand.from_game",
        "low",
        1_000,
        False,
        _pokerkit_low_runner,
        keys_comparable,
    ),
    PeerCall(
        "pokerkit.EightOrBetterLowHand",
        "pokerkit",
        "pokerkit EightOrBetterLowHand.from_game_or_none",
        "low8",
        1_000,
        False,
        _pokerkit_low8_runner,
        keys_comparable,
    ),
    PeerCall(
        "poker_equity.score_batch/high",
        "poker_equity",
        "poker_equity.score_batch('high', texts)",
        "high",
        200_000,
        False,
        _poker_equity_runner("high"),
        keys_lower_better,
        style="batch",
    ),
    PeerCall(
        "poker_equity.score_batch/low_a5",
        "poker_equity",
        "poker_equity.score_batch('low_a5', texts)",
        "low",
        200_000,
        False,
        _poker_equity_runner("low_a5"),
        keys_lower_better,
        style="batch",
    ),
)


def peer_calls() -> list[PeerCall]:
    """The peers' per-hand calls that the benchmarks time, fastest peer first.

    Sample sizes are capped per peer so that one pass takes a fraction of a second:
    pokerkit needs about 0.3 ms a hand, treys about 13 us, the rest under 1 us.

    >>> [p.key for p in peer_calls()][:2]
    ['pkrbot.evaluate', 'eval7.evaluate']
    """
    return list(PEERS)


def version_of(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def select_peers(peers: Iterable[str] | None) -> list[PeerCall]:
    calls = peer_calls()
    if peers is None:
        return [p for p in calls if p.available()]
    wanted = list(peers)
    unknown = [name for name in wanted if name not in PEER_NAMES]
    if unknown:
        raise ValueError(f"unknown peer {unknown[0]!r}; known peers: {', '.join(PEER_NAMES)}")
    return [p for p in calls if p.module in wanted and p.available()]
