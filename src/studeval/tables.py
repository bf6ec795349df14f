"""Many tables stepped together in C: self-play, simulation and reinforcement learning.

:class:`Tables` plays ``n`` tables of one game, stakes and starting stacks in the
core (``se_tables.c``), each hand after hand on the same state machine as
:class:`~studeval.StudHand`, dealt from the table's own seeded shuffle. Every table
always has a seat to act; :meth:`Tables.step` plays one discrete action on each
(numpy in, the GIL released, threads for many tables) and the state is read from
numpy arrays that the core rewrites in place: no copies.

>>> import numpy as np
>>> from studeval import Stakes
>>> tables = Tables(3, "stud", Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10),
...                 [100, 100], seed=7)
>>> tables.legal[0].tolist()  # 3rd street: the bring-in seat brings in or completes
[False, False, True, True, False]
>>> tables.step(np.full(3, Tables.BRING_IN))
>>> tables.pot.tolist(), tables.to_call.tolist()
([4, 4, 4], [2, 2, 2])
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from studeval import _core
from studeval._seats import chip_count, seat_list
from studeval._tablerules import core_table_rules, settle_flags
from studeval.batch import threads_arg
from studeval.betting import EVENT_KINDS, Event, Stakes
from studeval.engine import StudHand
from studeval.errors import ChipError, IllegalActionError, OptionError, SeatError
from studeval.games import get_game
from studeval.houserules import HouseRules, house_rules

if TYPE_CHECKING:  # numpy is imported when tables are made: `import studeval` stays light
    import numpy as np
    import numpy.typing as npt

__all__ = ["ACTIONS", "Observation", "TableArrays", "Tables"]

#: The discrete actions, by number.
ACTIONS = ("fold", "check_call", "bring_in", "small", "big")


class TableArrays:
    """The arrays every table shows (a row a table), as :class:`Tables` and
    :class:`Observation` hold them; see :class:`Tables`."""

    actor: npt.NDArray[np.int8]
    legal: npt.NDArray[np.bool_]
    totals: npt.NDArray[np.int64]
    street: npt.NDArray[np.int8]
    pot: npt.NDArray[np.int64]
    to_call: npt.NDArray[np.int64]
    stacks: npt.NDArray[np.int64]
    bets: npt.NDArray[np.int64]
    folded: npt.NDArray[np.bool_]
    cards: npt.NDArray[np.uint8]
    up: npt.NDArray[np.bool_]
    history: npt.NDArray[np.uint8]


class Observation(TableArrays):
    """What one seat may know at every table (:meth:`Tables.observe`), or each table's
    acting seat at its table (:meth:`Tables.observe_actor`): copies of the tables'
    arrays, with the other seats' down cards unknown (255). ``seat``: the seat, or
    (``observe_actor``) an array of each table's seat."""

    seat: int | npt.NDArray[np.int8]

    def __init__(self, seat: int | npt.NDArray[np.int8], arrays: dict[str, object]) -> None:
        self.seat = seat
        for name, array in arrays.items():
            setattr(self, name, array)

    def __repr__(self) -> str:
        seat = "actor" if not isinstance(self.seat, int) else self.seat
        return f"Observation(seat={seat}, tables={len(self.actor)})"


class Tables(TableArrays):
    """``n`` tables of ``game`` with ``stakes``, every hand starting from ``stacks``
    (one per seat, 2-8 seats, each above the ante); see the module text and
    ``docs/tables.md``.

    Arrays (read-only views the core rewrites at every step; ``n`` rows):
    ``actor`` the seat to act; ``legal`` (n, 5) the allowed actions; ``totals`` (n,
    5) the actor's street total after each (-1 where not allowed); ``street`` 3..7;
    ``pot`` every chip put in this hand; ``to_call`` what a call costs; ``stacks``,
    ``bets`` (this street) and ``folded`` (n, seats); ``cards`` (n, seats, 7) in deal
    order, 255 where not dealt; ``up`` (n, seats, 7) dealt face up; ``history`` (n,
    5, 48) each street's actions, ``1 + seat * 5 + action``, 0 after the last;
    ``rewards`` (n, seats) chips won less chips put in by a hand that ended at the
    last step (0 otherwise); ``done`` (n,) a hand ended at the last step;
    ``hands_played`` (n,).

    ``cards`` shows every seat's down cards (full information): a seat's policy
    reads :meth:`observe_actor` or :meth:`observe`, which hide the others' down cards.

    ``rules``: :class:`~studeval.HouseRules` (Robert's by default). ``seed``: an int
    from 0 to 2**64 - 1 (each table's shuffles follow from it and the table's
    number), random when ``None``. ``threads``: at most this many threads a step
    (``None``: as many as the tables pay for, one per 1,024); the worker threads are
    started once and kept from step to step (see the docs' Threads section). ``n``
    tables whose arrays would not fit in memory are refused (``OptionError``).
    """

    FOLD, CHECK_CALL, BRING_IN, SMALL, BIG = range(5)

    rewards: npt.NDArray[np.int64]
    done: npt.NDArray[np.bool_]
    hands_played: npt.NDArray[np.uint64]

    def __init__(
        self,
        n: int,
        game: str,
        stakes: Stakes,
        stacks: Sequence[int],
        *,
        rules: HouseRules | str | None = None,
        seed: int | None = None,
        threads: int | None = None,
    ) -> None:
        import numpy as np

        self.n = _count(n, "n", least=1)
        self.game = get_game(game).name
        if not isinstance(stakes, Stakes):
            raise ChipError(f"stakes must be a Stakes; got {stakes!r}")
        self.stakes = stakes
        listed = seat_list(stacks, "stacks")
        if not 2 <= len(listed) <= 8:
            raise SeatError(f"a stud table has 2 to 8 seats; got {len(listed)}")
        self.starting_stacks = [chip_count(v, f"stacks[{i}]") for i, v in enumerate(listed)]
        for i, stack in enumerate(self.starting_stacks):
            if stack <= stakes.ante:
                raise ChipError(f"stacks[{i}] is {stack}; every stack is above the ante "
                                f"({stakes.ante}), so that every hand has a decision")  # fmt: skip
        if max(sum(self.starting_stacks), stakes.ante, stakes.big_bet) >= _core.ENGINE_MAX_CHIPS:
            raise ChipError("a table's chips (the stacks, each stake) stay below 2**60")
        self.seats = len(self.starting_stacks)
        need = self.n * _bytes_a_table(self.seats)
        if need > (memory := _memory()):
            need_text, memory_text = _size(need), _size(memory)
            raise OptionError(f"n={self.n}: that many tables need at least {need_text} for "
                              f"their arrays, more than this machine's {memory_text}")  # fmt: skip
        self.rules = house_rules(rules)
        self.threads = threads_arg(threads)
        self.seed = _seed(seed)
        arrays: dict[str, npt.NDArray[Any]] = {}
        flat = []
        shapes = {1: (self.n,), 0: (self.n, self.seats), -1: (self.n, self.seats, 7),
                  -2: (self.n, 5, _core.TABLES_HISTORY)}  # fmt: skip
        r, s = self.rules, stakes
        core_rules = core_table_rules(self.game, r, self.seats, s.ante, s.bring_in,
                                      s.small_bet, s.big_bet, 0)  # fmt: skip
        try:
            for name, dtype, per in _core.TABLES_ARRAYS:
                array: npt.NDArray[Any] = np.zeros(shapes.get(per, (self.n, per)), dtype)
                arrays[name] = array
                flat.append((array.view(np.uint8) if dtype == "bool" else array).reshape(-1))
            self._core = _core.CoreTables(self.n, core_rules, get_game(self.game).core_id,
                                          settle_flags(r), self.starting_stacks, self.seed,
                                          tuple(flat))  # fmt: skip
        except MemoryError:
            raise OptionError(f"n={self.n}: out of memory for that many tables (their arrays "
                              f"alone need {_size(need)})") from None  # fmt: skip
        for name, array in arrays.items():
            shown = array.view()
            shown.flags.writeable = False
            setattr(self, name, shown)

    def reset(self, seed: int | None = None) -> None:
        """Every table's hand dealt afresh from ``seed`` (random when ``None``), as
        ``Tables(...)`` with that seed deals it, in the arrays the tables have: no hand
        played, no last hand, and ``rewards``, ``done`` and ``history`` cleared (an
        environment's reset, without making the tables again).

        >>> from studeval import Stakes
        >>> t = Tables(2, "stud", Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10),
        ...            [100, 100], seed=7)
        >>> first = t.cards.copy(); t.step(t.legal.argmax(axis=1)); t.reset(seed=7)
        >>> bool((t.cards == first).all()), t.hands_played.tolist()
        (True, [0, 0])
        """
        chosen = _seed(seed)
        self._core.reset(chosen)
        self.seed = chosen

    @property
    def threads_used(self) -> int:
        """The threads the last step ran on."""
        return self._core.workers

    def step(self, actions: npt.ArrayLike) -> None:
        """Play ``actions[i]`` (0..4: :data:`ACTIONS`) at every table ``i``. An action
        a table does not allow raises :class:`~studeval.errors.IllegalActionError`
        naming the table, and no table changes."""
        import numpy as np

        given = np.asarray(actions)
        if given.shape != (self.n,) or not (given.dtype.kind in "iu" or given.size == 0):
            raise OptionError(f"actions must be {self.n} integers (one a table, 0..4); got "
                              f"shape {given.shape} of {given.dtype}")  # fmt: skip
        # A copy of our own: the core writes the tables' arrays while it reads these.
        chosen = np.array(given, dtype=np.int64)
        bad = self._core.step(chosen, self.threads)
        if bad >= 0:
            action = int(given[bad])
            name = ACTIONS[action] if 0 <= action < len(ACTIONS) else "no such action"
            allowed = [ACTIONS[a] for a in range(len(ACTIONS)) if self.legal[bad, a]]
            raise IllegalActionError(f"table {bad}: seat {self.actor[bad]} cannot {name} "
                                     f"({action}); allowed: {', '.join(allowed)}")  # fmt: skip

    def observe(self, seat: int) -> Observation:
        """What ``seat`` may know at every table: its own cards, every up card, and
        the rest of the state (copies)."""
        seat = _count(seat, "seat", least=0)
        if seat >= self.seats:
            raise SeatError(f"seat {seat}: these tables have {self.seats} seats")
        return Observation(seat, self._shown(seat))

    def observe_actor(self) -> Observation:
        """What each table's seat to act may know (the seat a policy decides for):
        row ``i`` is row ``i`` of ``observe(actor[i])``, its own cards, every up card
        and the rest of the state (copies); ``seat`` is ``actor``. A table always has
        a seat to act: where a hand ended at the last step (``done``), the row is the
        next hand's first actor's view, and the hand that ended is ``hand(i)``.

        >>> from studeval import Stakes
        >>> tables = Tables(2, "stud", Stakes(1, 2, 5, 10), [50, 50, 50], seed=3)
        >>> seen = tables.observe_actor()
        >>> seen.seat.tolist(), seen.cards[0, :, :3].tolist()  # the others' down cards: 255
        ([2, 2], [[255, 255, 51], [255, 255, 34], [33, 22, 15]])
        """
        return Observation(self.actor.copy(), self._shown(self.actor))

    def _shown(self, seat: int | npt.NDArray[np.int8]) -> dict[str, object]:
        """Copies of the arrays, with the down cards of every seat but ``seat`` (one
        for all tables, or one a table) unknown."""
        import numpy as np

        cards = self.cards.copy()
        hidden = ~self.up
        hidden[np.arange(self.n), seat, :] = False
        cards[hidden] = 255
        shown: dict[str, object] = {
            name: getattr(self, name).copy() for name in TableArrays.__annotations__
        }
        shown["cards"] = cards
        return shown

    def __reduce_ex__(self, protocol: object) -> Any:
        raise OptionError("Tables cannot be pickled or copied: their state is the C core's; "
                          "new Tables with the same seed deal the same cards")  # fmt: skip

    def hand(self, i: int) -> StudHand | None:
        """Table ``i``'s last finished hand, played again through
        :class:`~studeval.StudHand` (for PHH logs and replays); ``None`` before one."""
        i = _count(i, "table", least=0)
        if i >= self.n:
            raise OptionError(f"table {i}: there are {self.n} tables")
        logged = self._core.last_events(i)
        if logged is None:
            return None
        events = [Event(EVENT_KINDS[e.kind], None if e.seat < 0 else e.seat, e.amount,
                        None if e.to < 0 else e.to, e.cards, e.street) for e in logged]  # fmt: skip
        return StudHand.from_events(self.game, self.stakes, self.starting_stacks, events,
                                    rules=self.rules)  # fmt: skip


def _bytes_a_table(seats: int) -> int:
    """The bytes of one table's arrays, for ``seats`` seats."""
    import numpy as np

    per_seat = {1: 1, 0: seats, -1: seats * 7, -2: 5 * _core.TABLES_HISTORY}
    return sum(np.dtype(dtype).itemsize * per_seat.get(per, per)
               for _, dtype, per in _core.TABLES_ARRAYS)  # fmt: skip


def _memory() -> int:
    """This machine's memory in bytes (2**63 where the system does not say)."""
    import os

    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return 1 << 63


def _size(size: int) -> str:
    return f"{size / 2**30:.3g} GiB"


def _seed(seed: object) -> int:
    """A tables' seed, 0 to 2**64 - 1 (random for ``None``)."""
    if seed is None:
        return random.getrandbits(64)
    chosen = _count(seed, "seed", least=0)
    if chosen >= 1 << 64:
        raise OptionError(f"seed must be less than 2**64; got {chosen}")
    return chosen


def _count(value: object, what: str, *, least: int | None) -> int:
    """An int option (bool refused), at least ``least``."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise OptionError(f"{what} must be an int; got {value!r}")
    number = operator.index(value)  # type: ignore[arg-type]
    if least is not None and number < least:
        raise OptionError(f"{what} must be at least {least}; got {number}")
    return number
