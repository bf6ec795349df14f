# Finished hands' logs as columns of a database's rows (included by _core.pyx).


cdef struct _Column:
    char *data
    size_t width  # bytes a value


cdef bint _grow(_Column *column, size_t rows) except False:
    cdef char *data = <char *>realloc(column.data, rows * column.width)
    if data == NULL:
        raise MemoryError()
    column.data = data
    return True


# The columns, in the order of HAND_ROWS_COLUMNS; each a table's.
cdef enum:
    _A_HAND, _A_SEQ, _A_STREET, _A_SEAT, _A_KIND, _A_CHIPS, _A_TO, _A_FACING, _A_CALLERS, _A_LIVE
    _C_HAND, _C_SEAT, _C_POSITION, _C_CARD, _C_UP
    _S_HAND, _S_SEAT, _S_STACK, _S_PAID, _S_PAYOUT, _S_FOLDED, _S_SHOWN, _S_RETURNED
    _S_SHOWDOWN, _S_SHOWDOWN_WON, _S_SCOOPED
    _COLUMNS

#: The columns HandRows.take gives: (table, column, numpy dtype), in order.
HAND_ROWS_COLUMNS = (
    ("actions", "hand", "<i8"), ("actions", "seq", "<i4"), ("actions", "street", "i1"),
    ("actions", "seat", "i1"), ("actions", "kind", "i1"), ("actions", "chips", "<i8"),
    ("actions", "to", "<i8"), ("actions", "facing", "i1"), ("actions", "callers", "i1"),
    ("actions", "live", "i1"),
    ("cards", "hand", "<i8"), ("cards", "seat", "i1"), ("cards", "position", "i1"),
    ("cards", "card", "i1"), ("cards", "up", "i1"),
    ("seats", "hand", "<i8"), ("seats", "seat", "i1"), ("seats", "stack", "<i8"),
    ("seats", "paid", "<i8"), ("seats", "payout", "<i8"), ("seats", "folded", "i1"),
    ("seats", "shown", "i1"), ("seats", "returned", "<i8"), ("seats", "showdown", "i1"),
    ("seats", "showdown_won", "<i8"), ("seats", "scooped", "i1"),
)


@cython.auto_pickle(False)
@cython.final
cdef class HandRows:
    """Finished hands' logs as columns: ``add`` copies one hand's actions (every
    event but the deals, each with what it faced: the completions, bets and raises
    before it on its street, the calls of the last of them or of the bring-in, and
    the seats not folded), its cards (in deal order, -1 where unknown; the community
    card as seat -1) and each seat's stack before the hand, chips paid and won,
    whether it folded or showed, and its summary (``se_hand_summary``: unmatched chips
    returned, the showdown reached, chips won from pots contested there, a scoop: -1
    where not counted); ``take`` gives the columns as bytes (little-endian,
    :data:`HAND_ROWS_COLUMNS`'s types) and starts again.

    >>> rules = TableRules(seats=2, ante=1, bring_in=2, small_bet=5, big_bet=10, rake=0,
    ...     bring_in_highest=False, ace_low=False, board_low=False, open_pair=True,
    ...     bring_in_tie_position=False, action_tie_suit=False, short_all_in_full_bet=False,
    ...     bring_in_passes_left=False, cap_heads_up=False, deck_reuses_muck=False,
    ...     short_bring_in_opens=False)
    >>> t = TableHand(rules, [100, 100])
    >>> t.deal(0, [0, 1, 8]), t.deal(1, [2, 3, 20])
    (0, 0)
    >>> t.act(3, 2), t.act(0, 0)  # seat 0 brings in, seat 1 folds
    (0, 0)
    >>> rows = HandRows(); rows.add(t, 7, False), rows.counts  # nobody all in
    (False, (4, 6, 2))
    >>> taken = rows.take(); list(taken["actions", "kind"])  # antes, the bring-in, a fold
    [7, 7, 3, 0]
    >>> int.from_bytes(taken["seats", "payout"][:8], "little"), rows.counts
    (4, (0, 0, 0))
    >>> rows.add(t, 8, False); rows.drop_to(0, 0, 0); rows.counts  # its adding stopped
    False
    (0, 0, 0)
    """

    cdef _Column columns[_COLUMNS]
    cdef size_t actions, cards, seats  # rows held
    cdef size_t capacity[3]

    def __cinit__(self):
        cdef int c
        for c in range(_COLUMNS):
            self.columns[c].data = NULL
            self.columns[c].width = int(HAND_ROWS_COLUMNS[c][2][-1])

    def __dealloc__(self):
        cdef int c
        for c in range(_COLUMNS):
            free(self.columns[c].data)

    @property
    def counts(self) -> tuple:
        """The rows held: actions, cards, seats."""
        return (self.actions, self.cards, self.seats)

    cdef bint _room(self, int table, size_t rows) except False:
        """Room for ``rows`` more rows of ``table`` (0 actions, 1 cards, 2 seats)."""
        cdef size_t held = (self.actions, self.cards, self.seats)[table]
        cdef size_t want = held + rows, capacity
        cdef int first = (_A_HAND, _C_HAND, _S_HAND)[table]
        cdef int last = (_C_HAND, _S_HAND, _COLUMNS)[table]
        cdef int c
        if want <= self.capacity[table]:
            return True
        capacity = max(want, 2 * self.capacity[table], <size_t>1024)
        for c in range(first, last):
            _grow(&self.columns[c], capacity)
        self.capacity[table] = capacity
        return True

    def add(self, TableHand table, int64_t hand, bint scoops) -> bool:
        """Copies a finished hand's rows, numbered ``hand`` (``scoops``: a hi/lo game,
        whose showdowns' scoops are counted); whether a seat put its whole stack in."""
        cdef const se_hand *h = &table.hand
        cdef se_seat_summary summary[8]  # SE_ENGINE_MAX_SEATS
        cdef int whole_stack
        cdef int seats = h.rules.seats, s, p
        cdef size_t i, n = 0, at
        cdef const se_event *e
        cdef int street = 0, facing = 0, callers = 0, live = seats
        if not h.over:
            raise CoreCallError("HandRows.add takes a finished hand")
        for i in range(h.events_count):
            n += h.events[i].kind not in (SE_EVENT_DEAL, SE_EVENT_COMMUNITY)
        self._room(0, n)
        at = self.actions
        for i in range(h.events_count):
            e = &h.events[i]
            if e.kind == SE_EVENT_DEAL or e.kind == SE_EVENT_COMMUNITY:
                continue
            if e.street != street:
                street, facing, callers = e.street, 0, 0
            (<int64_t *>self.columns[_A_HAND].data)[at] = hand
            (<int32_t *>self.columns[_A_SEQ].data)[at] = <int32_t>i
            (<int8_t *>self.columns[_A_STREET].data)[at] = <int8_t>e.street
            (<int8_t *>self.columns[_A_SEAT].data)[at] = e.seat
            (<int8_t *>self.columns[_A_KIND].data)[at] = <int8_t>e.kind
            (<int64_t *>self.columns[_A_CHIPS].data)[at] = e.amount
            (<int64_t *>self.columns[_A_TO].data)[at] = e.to
            (<int8_t *>self.columns[_A_FACING].data)[at] = <int8_t>min(facing, 127)
            (<int8_t *>self.columns[_A_CALLERS].data)[at] = <int8_t>min(callers, 127)
            (<int8_t *>self.columns[_A_LIVE].data)[at] = <int8_t>live
            if e.kind == SE_EVENT_COMPLETE or e.kind == SE_EVENT_BET or e.kind == SE_EVENT_RAISE:
                facing += 1
                callers = 0
            elif e.kind == SE_EVENT_CALL:
                callers += 1
            elif e.kind == SE_EVENT_FOLD:
                live -= 1
            at += 1
        self.actions = at
        n = 1 if h.community >= 0 else 0
        for s in range(seats):
            n += h.card_count[s]
        self._room(1, n)
        at = self.cards
        for s in range(seats):
            for p in range(h.card_count[s]):
                (<int64_t *>self.columns[_C_HAND].data)[at] = hand
                (<int8_t *>self.columns[_C_SEAT].data)[at] = <int8_t>s
                (<int8_t *>self.columns[_C_POSITION].data)[at] = <int8_t>p
                (<int8_t *>self.columns[_C_CARD].data)[at] = (
                    -1 if h.cards[s][p] == SE_UNKNOWN_CARD else <int8_t>h.cards[s][p])
                # Stud's up cards: the third to the sixth a seat is dealt.
                (<int8_t *>self.columns[_C_UP].data)[at] = 2 <= p <= 5
                at += 1
        if h.community >= 0:  # the community card: seat -1, the seventh card, up
            (<int64_t *>self.columns[_C_HAND].data)[at] = hand
            (<int8_t *>self.columns[_C_SEAT].data)[at] = -1
            (<int8_t *>self.columns[_C_POSITION].data)[at] = 6
            (<int8_t *>self.columns[_C_CARD].data)[at] = <int8_t>h.community
            (<int8_t *>self.columns[_C_UP].data)[at] = 1
            at += 1
        self.cards = at
        whole_stack = se_hand_summary(h, scoops, summary)
        self._room(2, seats)
        at = self.seats
        for s in range(seats):
            (<int64_t *>self.columns[_S_HAND].data)[at] = hand
            (<int8_t *>self.columns[_S_SEAT].data)[at] = s
            (<int64_t *>self.columns[_S_STACK].data)[at] = (
                h.stacks[s] + h.contributions[s] - h.payouts[s])
            (<int64_t *>self.columns[_S_PAID].data)[at] = h.contributions[s]
            (<int64_t *>self.columns[_S_PAYOUT].data)[at] = h.payouts[s]
            (<int8_t *>self.columns[_S_FOLDED].data)[at] = h.folded[s] != 0
            (<int8_t *>self.columns[_S_SHOWN].data)[at] = h.shown[s] != 0
            (<int64_t *>self.columns[_S_RETURNED].data)[at] = summary[s].returned
            (<int8_t *>self.columns[_S_SHOWDOWN].data)[at] = summary[s].showdown
            (<int64_t *>self.columns[_S_SHOWDOWN_WON].data)[at] = summary[s].showdown_won
            (<int8_t *>self.columns[_S_SCOOPED].data)[at] = summary[s].scooped
            at += 1
        self.seats = at
        return whole_stack != 0

    def drop_to(self, size_t actions, size_t cards, size_t seats) -> None:
        """Forgets the rows past these counts (those of a hand whose adding was
        stopped part way): at most the rows held."""
        if actions > self.actions or cards > self.cards or seats > self.seats:
            raise CoreCallError(f"drop_to({actions}, {cards}, {seats}) keeps more rows than "
                                f"the {self.counts} held")
        self.actions, self.cards, self.seats = actions, cards, seats

    def take(self) -> dict:
        """The columns held, as ``{(table, column): bytes}``; none are held after."""
        cdef int c
        cdef size_t rows
        out = {}
        for c in range(_COLUMNS):
            table, name, _ = HAND_ROWS_COLUMNS[c]
            rows = self.actions if c < _C_HAND else self.cards if c < _S_HAND else self.seats
            out[table, name] = PyBytes_FromStringAndSize(
                self.columns[c].data if rows else NULL, rows * self.columns[c].width)
        self.actions = self.cards = self.seats = 0
        return out
