"""atheris harness over the Python API: any input is an answer or a StudevalError.

Each run picks one entry point and feeds it data built from the fuzzer's bytes:
card text for ``parse_cards``, whole blocks of lines for the stream parser,
lists for ``parse_hands``, tables for ``settle``/``award_pot``, PHH text for
``phh.read``, door cards and boards for ``bring_in``/``first_to_act``, and output
arrays that may overlap the cards for the batch calls. Beyond "no other exception", the oracles are:

- the stream parser and ``parse_cards`` agree on every line both accept;
- ``settle`` pays out exactly the chips put in, and never to a folded seat;
- a batch whose outputs overlap the cards or each other is refused, and one
  whose outputs are separate matches the single-hand calls;
- a hand of the engine, driven by any actions, keeps every chip, and its PHH
  record replays to the same stacks.

Run: ``python tests/fuzz/fuzz_api.py -max_total_time=60`` (tools/fuzz.py does).
"""

from __future__ import annotations

import contextlib
import sys

import atheris
import numpy as np  # not instrumented: coverage of numpy's own code is no guide here

with atheris.instrument_imports():
    import studeval
    from studeval import phh
    from studeval.errors import BatchOutputError, RangeError, StudevalError
    from studeval.ranges import Range
    from studeval.stream import parse_block

GAMES = [*studeval.GAME_NAMES, "F7S", "F7S/8", "FR", "stud_hilo", "holdem"]
CARD_TEXT = "23456789TJQKAtjqka10cdhsCDHS ,\t\n\r?x\u2660\u2665\ufeff"


def _text(fdp: atheris.FuzzedDataProvider, length: int) -> str:
    if fdp.ConsumeBool():
        return fdp.ConsumeUnicodeNoSurrogates(length)
    return "".join(CARD_TEXT[fdp.ConsumeIntInRange(0, len(CARD_TEXT) - 1)] for _ in range(length))


def _seat(fdp: atheris.FuzzedDataProvider, cards: int) -> object:
    choice = fdp.ConsumeIntInRange(0, 4)
    if choice == 0:
        return None
    if choice == 1:
        return [fdp.ConsumeIntInRange(-2, 55) for _ in range(cards)]
    if choice == 2:
        return _text(fdp, 3 * cards)
    deck = list(range(52))
    return [deck.pop(fdp.ConsumeIntInRange(0, len(deck) - 1)) for _ in range(cards)]


def parse_cards(fdp: atheris.FuzzedDataProvider) -> None:
    studeval.parse_cards(_text(fdp, fdp.ConsumeIntInRange(0, 40)))


def stream_parser(fdp: atheris.FuzzedDataProvider) -> None:
    block = _text(fdp, fdp.ConsumeIntInRange(0, 400)).encode("utf-8", "surrogatepass")
    skip = fdp.ConsumeBool()
    chunk = parse_block(block, skip_invalid=skip)
    lines = block.split(b"\n")
    numbers = (
        list(range(chunk.first_line, chunk.first_line + len(chunk)))
        if chunk.lines is None
        else chunk.lines.tolist()
    )
    for row, line in enumerate(numbers):
        text = lines[line - 1].decode("utf-8")
        size = chunk.cards.shape[1] if chunk.sizes is None else int(chunk.sizes[row])
        got = chunk.cards[row, :size].tolist()
        want = studeval.parse_cards(text)
        assert got == want, (text, got, want)


def parse_hands(fdp: atheris.FuzzedDataProvider) -> None:
    n = fdp.ConsumeIntInRange(0, 6)
    size = fdp.ConsumeIntInRange(4, 8)
    studeval.parse_hands([_seat(fdp, size) or "" for _ in range(n)])


def settle(fdp: atheris.FuzzedDataProvider) -> None:
    n = fdp.ConsumeIntInRange(1, 8)
    hands = [_seat(fdp, 7) for _ in range(n)]
    contributions = [
        fdp.ConsumeIntInRange(-1, 500) for _ in range(n + fdp.ConsumeIntInRange(-1, 1))
    ]
    game = GAMES[fdp.ConsumeIntInRange(0, len(GAMES) - 1)]
    rules = ["robert", "wsop", None, "tda"][fdp.ConsumeIntInRange(0, 3)]
    result = studeval.settle(hands, contributions, game, rules=rules)
    assert sum(result.payouts) == sum(contributions), (result.payouts, contributions)
    for seat, hand in enumerate(hands):
        if hand is None:
            assert result.payouts[seat] == result.returned[seat]


def award_pot(fdp: atheris.FuzzedDataProvider) -> None:
    n = fdp.ConsumeIntInRange(1, 8)
    hands = [_seat(fdp, 7) for _ in range(n)]
    amount = fdp.ConsumeIntInRange(-1, 10_000)
    game = GAMES[fdp.ConsumeIntInRange(0, len(GAMES) - 1)]
    pot = studeval.award_pot(hands, amount, game)
    assert sum(pot.shares) == amount


def action_rules(fdp: atheris.FuzzedDataProvider) -> None:
    n = fdp.ConsumeIntInRange(1, 8)
    game = GAMES[fdp.ConsumeIntInRange(0, len(GAMES) - 1)]
    if fdp.ConsumeBool():
        studeval.bring_in([_seat(fdp, 1) for _ in range(n)], game)
        return
    cards = fdp.ConsumeIntInRange(0, 5)
    boards = [_seat(fdp, cards) for _ in range(n)]
    all_in = [fdp.ConsumeIntInRange(-1, n) for _ in range(fdp.ConsumeIntInRange(0, 3))]
    seat = studeval.first_to_act(boards, game, all_in=all_in)
    assert seat is None or (boards[seat] is not None and seat not in all_in)


def batch_aliasing(fdp: atheris.FuzzedDataProvider) -> None:
    rows = fdp.ConsumeIntInRange(1, 64)
    k = fdp.ConsumeIntInRange(5, 7)
    # One buffer holds the cards (valid hands) and room for outputs anywhere in it.
    buffer = np.zeros(rows * k + 8 * rows + 16, dtype=np.uint8)
    for row in range(rows):
        deck = list(range(52))
        buffer[row * k : (row + 1) * k] = [
            deck.pop(fdp.ConsumeIntInRange(0, len(deck) - 1)) for _ in range(k)
        ]
    cards = buffer[: rows * k].reshape(rows, k).copy() if fdp.ConsumeBool() else None
    if cards is None:
        cards = buffer[: rows * k].reshape(rows, k)
    starts = [fdp.ConsumeIntInRange(0, len(buffer) - 2 * rows) // 2 * 2 for _ in range(3)]
    outs = [buffer[s : s + 2 * rows].view(np.uint16) for s in starts]
    spans = [(s, s + 2 * rows) for s in starts]
    on_cards = cards.base is not None and any(a < rows * k for a, _ in spans)
    overlap = on_cards or any(
        a1 < b2 and a2 < b1 for i, (a1, b1) in enumerate(spans) for a2, b2 in spans[:i]
    )
    want = [studeval.high_rank(hand) for hand in cards.tolist()]
    try:
        got = studeval.all_ranks(
            cards, out=studeval.Ranks(*outs), threads=fdp.ConsumeIntInRange(1, 4)
        )
    except BatchOutputError:
        assert overlap, spans
        return
    assert not overlap, spans
    assert got.high.tolist() == want


KINDS = ["fold", "check", "call", "bring_in", "complete", "bet", "raise", "shout"]


def engine(fdp: atheris.FuzzedDataProvider) -> None:
    """A hand driven by the fuzzer, legal moves or not: only StudevalErrors, and the
    chips are all somewhere at every step; a PHH record of it reads back the same."""
    n = fdp.ConsumeIntInRange(2, 8)
    stacks = [fdp.ConsumeIntInRange(0, 60) for _ in range(n)]
    game = studeval.GAME_NAMES[fdp.ConsumeIntInRange(0, len(studeval.GAME_NAMES) - 1)]
    hand = studeval.StudHand(game, studeval.Stakes(1, 2, 5, 10), stacks)
    seed = fdp.ConsumeIntInRange(0, 1000)
    for _ in range(fdp.ConsumeIntInRange(0, 120)):
        if hand.over:
            break
        with contextlib.suppress(StudevalError):
            if hand.showdown:
                hand.show() if fdp.ConsumeBool() else hand.muck()
            elif hand.actor is None:
                hand.deal_random(seed)
            else:
                kind = KINDS[fdp.ConsumeIntInRange(0, len(KINDS) - 1)]
                to = fdp.ConsumeIntInRange(-1, 80) if fdp.ConsumeBool() else None
                hand.act(kind, to)
        if not hand.over:
            assert sum(hand.stacks) + sum(hand.contributions) == sum(stacks)
    if hand.over:
        assert hand.result is not None and sum(hand.stacks) == sum(stacks)
    if game != "stud_hilo_noq":
        assert phh.loads(phh.dumps(hand)).stacks == hand.stacks


#: Lines of a PHH record, whole and in pieces: the fuzzer mixes them with its own
#: bytes, so that most inputs get past the TOML syntax into the fields and actions.
PHH_PIECES = [
    'variant = "F7S"\n', 'variant = "FR"\n', 'variant = ["F7S"]\n', "antes = [1, 1]\n",
    "antes = [1]\n", "bring_in = 2\n", "small_bet = 5\n", "big_bet = 10\n",
    "starting_stacks = [100, 100]\n", 'starting_stacks = ["a", 1]\n', "_rake = 3\n",
    "_chip = 2\n", '_house_rules = "wsop"\n', "finishing_stacks = [99, 101]\n",
    'players = ["a", "b"]\n', 'actions = ["d dh p1 ????Kc", "d dh p2 ????2d", "p2 pb"',
    ', "p1 cbr 5"', ', "p1 f"', ', "p1 cc"', ', "p2 cbr 10"', ', "d db As"', ', "p1 sm AsKd"',
    "]\n", "[1]\n", "[2]\n",
]  # fmt: skip


def phh_reader(fdp: atheris.FuzzedDataProvider) -> None:
    """Any text: a hand, a PHHError, never another exception."""
    parts = []
    for _ in range(fdp.ConsumeIntInRange(0, 24)):
        if fdp.ConsumeBool():
            parts.append(PHH_PIECES[fdp.ConsumeIntInRange(0, len(PHH_PIECES) - 1)])
        else:
            parts.append(fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 12)))
    text = "".join(parts)
    try:
        hands = phh.read(text)
    except phh.PHHError:
        return
    for hand in hands:  # what was read writes back, and reads back the same
        assert phh.loads(phh.dumps(hand)).stacks == hand.stacks


RANGE_PIECES = [
    "KK",
    "AxKx",
    "RR",
    "*",
    "[A-5]",
    "[2-8]s",
    ",",
    ":",
    "!",
    "(",
    ")",
    "@0.5",
    "+",
    "buried",
    "split",
    "rolled",
    "low3-8",
    "two-pair+",
    "three-flush",
    " ",
]


def range_text(fdp: atheris.FuzzedDataProvider) -> None:
    """Any range text on any street: a Range of live combinations with positive
    weights, or a RangeError that points inside the text, never another exception."""
    parts = []
    for _ in range(fdp.ConsumeIntInRange(1, 8)):
        if fdp.ConsumeBool():
            parts.append(RANGE_PIECES[fdp.ConsumeIntInRange(0, len(RANGE_PIECES) - 1)])
        else:
            parts.append(fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 6)))
    text = "".join(parts)
    deck = list(range(52))
    up = [deck.pop(fdp.ConsumeIntInRange(0, len(deck) - 1))
          for _ in range(fdp.ConsumeIntInRange(0, 4))]  # fmt: skip
    try:
        r = Range(text, up=up, street=7 if len(up) == 4 and fdp.ConsumeBool() else None)
    except RangeError as err:
        assert err.position is None or 0 <= err.position <= len(text), (text, err.position)
        return
    assert len(r) > 0 and (r.weights > 0).all()
    assert not (set(r.hidden.ravel().tolist()) & set(up))


TARGETS = [parse_cards, stream_parser, parse_hands, settle, award_pot, action_rules,
           batch_aliasing, engine, phh_reader, range_text]  # fmt: skip


def one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    target = TARGETS[fdp.ConsumeIntInRange(0, len(TARGETS) - 1)]
    # A clear error naming the input is the right answer to bad input.
    with contextlib.suppress(StudevalError):
        target(fdp)


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
