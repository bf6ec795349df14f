# Hand histories' fast path (included by _core.pyx): se_hist_read and its replay.

#: A template's role by name, each the core's se_hist_role.
HISTORY_ROLES = {
    "ante": SE_HIST_ANTE, "deal": SE_HIST_DEAL, "bring_in": SE_HIST_BRING_IN,
    "complete": SE_HIST_COMPLETE, "bet": SE_HIST_BET, "raise": SE_HIST_RAISE,
    "call": SE_HIST_CALL, "check": SE_HIST_CHECK, "fold": SE_HIST_FOLD, "all_in": SE_HIST_ALL_IN,
    "return": SE_HIST_RETURN, "show": SE_HIST_SHOW, "muck": SE_HIST_MUCK,
    "collect": SE_HIST_COLLECT, "street": SE_HIST_STREET, "seat": SE_HIST_SEAT,
    "reveal": SE_HIST_REVEAL, "total": SE_HIST_TOTAL, "strict": SE_HIST_STRICT,
    "won": SE_HIST_WON, "name": SE_HIST_NAME,
}
#: HistoryReader's flags (se_hist_grammar.flags): the total pot written after the rake,
#: no line for an uncalled bet, an uncalled bet written as won, no 3rd-street marker,
#: deal lines that list all the cards so far, no rake written, a card a deal line, no
#: line between streets, the hero marked on its seat line.
HISTORY_POT_AFTER_RAKE = SE_HIST_POT_AFTER_RAKE
HISTORY_RETURNS_UNWRITTEN = SE_HIST_RETURNS_UNWRITTEN
HISTORY_COLLECTS_RETURNS = SE_HIST_COLLECTS_RETURNS
HISTORY_FIRST_STREET_3 = SE_HIST_FIRST_STREET_3
HISTORY_DEALS_REPEAT_ALL = SE_HIST_DEALS_REPEAT_ALL
HISTORY_RAKE_UNWRITTEN = SE_HIST_RAKE_UNWRITTEN
HISTORY_CARD_BY_CARD = SE_HIST_CARD_BY_CARD
HISTORY_STREETS_BY_DEALS = SE_HIST_STREETS_BY_DEALS
HISTORY_HERO_MARKED = SE_HIST_HERO_MARKED
#: HistoryTable.signs: the bit of each currency sign the hand's amounts were written with.
HISTORY_SIGNS = {"$": SE_HIST_SIGN_DOLLAR, "€": SE_HIST_SIGN_EURO, "£": SE_HIST_SIGN_POUND}
#: What ``HistoryReader.play`` returns: the hand over, or at its showdown to settle
#: (anything else: not sure, read it the general way).
HISTORY_OVER = SE_OK
HISTORY_SETTLE = SE_HIST_SETTLE

#: A hand's chip and table as ``HistoryReader.prepare`` found them: ``places`` the
#: decimals of the chip, the limits in chips, ``hero`` a name or None, ``players``
#: ``(seat, name, stack)`` in dealing order, ``signs`` the currency signs its amounts
#: were written with (``HISTORY_SIGNS``' bits, or-ed), ``stack_signs`` those of the
#: seat lines' stacks.
HistoryTable = _record(
    "HistoryTable",
    "places ante bring_in small_bet big_bet rake hero players signs stack_signs")


def history_stamp(bytes text, bytes prefix):
    """Where the hand id and the time are in ``text``'s first line (``se_hist_stamp_of``):
    ``(id_at, id_end, rest_at, time_at, time_end, zone_at, zone_end, again_at,
    again_end, year, month, day, hour, minute, second)``, offsets in bytes (-1: not
    written), or None where the line is not ``prefix``, digits, ":" and a rest with a
    time, or is longer than 1 MiB, or holds a byte of 0x80 or more or a control byte
    other than ASCII white space.

    >>> line = b"Room Hand #42: Razz - 2026/12/02 9:05:00 CET [2026/12/02 3:05:00 ET]"
    >>> stamp = history_stamp(line, b"Room Hand #")
    >>> line[stamp[0]:stamp[1]], line[stamp[3]:stamp[4]], line[stamp[7]:stamp[8]]
    (b'42', b'2026/12/02 9:05:00 CET', b'2026/12/02 3:05:00 ET')
    >>> stamp[9:], history_stamp(b"Room Hand #42: Razz", b"Room Hand #")
    ((2026, 12, 2, 9, 5, 0), None)
    """
    cdef se_hist_stamp out
    if se_hist_stamp_of(text, len(text), prefix, &out) != SE_OK:
        return None
    return (out.id_at, out.id_end, out.rest_at, out.time_at, out.time_end, out.zone_at,
            out.zone_end, out.again_at, out.again_end, out.clock[0], out.clock[1],
            out.clock[2], out.clock[3], out.clock[4], out.clock[5])


#: The most heads ``line_starts`` takes (``SE_HIST_MAX_HEADS``).
HISTORY_MAX_HEADS = SE_HIST_MAX_HEADS


def line_starts(bytes text, Py_ssize_t at, tuple heads, int64_t first_line):
    """The lines of ``text`` from offset ``at`` on that start with one of ``heads``
    (non-empty bytes; ``se_hist_line_starts``): their offsets, and their numbers (the
    line that holds ``at`` is ``first_line``), as two lists.

    >>> line_starts(b"PokerStars Hand #1\\nx\\nPokerStars Hand #2\\n", 0, (b"Poker",), 1)
    ([0, 21], [1, 3])
    """
    cdef Py_ssize_t count = len(heads), h
    cdef int64_t found
    cdef int64_t[::1] starts_view, numbers_view
    if not 0 <= at <= len(text):
        raise CoreCallError("line_starts: at falls outside the text")
    if count > SE_HIST_MAX_HEADS:
        raise CoreCallError(f"line_starts: more than {SE_HIST_MAX_HEADS} heads")
    # (A line's number stays an int64: the text has at most len(text) + 1 lines.)
    if not 0 <= first_line <= (1 << 62) - len(text):
        raise CoreCallError("line_starts: first_line is below 0 or too large")
    for head in heads:
        if not isinstance(head, bytes) or not head:
            raise CoreCallError("line_starts: each head is non-empty bytes")
    cdef const char **pointers = <const char **>malloc((count + 1) * sizeof(char *))
    cdef size_t *sizes = <size_t *>malloc((count + 1) * sizeof(size_t))
    if pointers == NULL or sizes == NULL:
        free(pointers)
        free(sizes)
        raise MemoryError()
    try:
        for h in range(count):
            pointers[h] = <const char *>(<bytes>heads[h])
            sizes[h] = len(<bytes>heads[h])
        # Room for a line in 256 bytes (a hand is a kilobyte or more), and where that
        # is too little, the text read again with room for all it found.
        import numpy
        room = (len(text) - at) // 256 + 16
        while True:
            starts = numpy.empty(room, numpy.int64)
            numbers = numpy.empty(room, numpy.int64)
            starts_view = starts
            numbers_view = numbers
            found = se_hist_line_starts(text, len(text), at, pointers, sizes, <int>count,
                                        first_line, &starts_view[0], &numbers_view[0],
                                        <size_t>room)
            if found < 0:
                raise CoreCallError("line_starts: a bad argument")
            if found <= room:
                break
            room = found
    finally:
        free(pointers)
        free(sizes)
    return starts[:found].tolist(), numbers[:found].tolist()


@cython.auto_pickle(False)
@cython.final
cdef class HistoryReader:
    """A room's line templates (``se_hist_grammar``) and one hand at a time read by
    them (``se_hist_hand``). Each call returns ``None`` or -1 where the C reader is
    not sure of the hand (``unsure_at`` says where it gave up): the caller then reads
    it the general way.

    >>> r = HistoryReader([("seat", 0, "Seat {seat}: {name} ({amount} in chips)"),
    ...                    ("street", 9, "*** SUMMARY ***"),
    ...                    ("total", 0, "Total pot {amount} | Rake {to}"),
    ...                    ("ante", 0, "{name}: posts the ante {amount}")])
    >>> r.read(b"Hand 1\\nSeat 1: Ann (10 in chips)\\nSeat 2: Bob (5 in chips)\\n"
    ...        b"Ann: posts the ante 1\\nBob: posts the ante 1\\n*** SUMMARY ***\\n"
    ...        b"Total pot 2 | Rake 0")
    7
    >>> r.prepare(b"2", b"4").players
    [(1, 'Ann', 10), (2, 'Bob', 5)]
    """

    cdef se_hist_grammar grammar
    cdef se_hist_template *templates
    cdef se_hist_hand *hand
    cdef list texts  # the templates' bytes, alive as long as the grammar
    cdef bytes data  # the hand's text, alive while it is read
    cdef bytes hero_name  # read_ipoker's hero, alive while the hand is read
    cdef readonly int seats  # the players of the last hand prepared

    def __cinit__(self, templates, int flags=0):
        cdef int i
        templates = list(templates)
        self.texts = [str(text).encode() for _, _, text in templates]
        self.templates = <se_hist_template *>malloc(max(1, len(templates)) * sizeof(se_hist_template))
        self.hand = <se_hist_hand *>malloc(sizeof(se_hist_hand))
        if self.templates == NULL or self.hand == NULL:
            raise MemoryError()
        for i, (role, value, _) in enumerate(templates):
            if role not in HISTORY_ROLES:
                raise CoreCallError(f"unknown template role {role!r}; known: {', '.join(HISTORY_ROLES)}")
            self.templates[i].role = HISTORY_ROLES[role]
            self.templates[i].value = value
            self.templates[i].text = <const char *>(<bytes>self.texts[i])
        self.grammar.templates = self.templates
        self.grammar.count = len(templates)
        self.grammar.flags = flags
        if se_hist_compile(&self.grammar) != SE_OK:
            raise CoreCallError(f"a template holds a slot the reader does not know, or there are "
                                f"more than 128: {[text for _, _, text in templates]}")
        memset(self.hand, 0, sizeof(se_hist_hand))

    def __dealloc__(self):
        free(self.templates)
        free(self.hand)

    @property
    def unsure_at(self) -> int:
        """Where the reader last gave up (0 when it did not): the line of se_history.c,
        or 10000 + that of se_history_replay.c."""
        return self.hand.unsure_at

    @cython.critical_section
    def read(self, bytes text) -> int:
        """Reads one hand's UTF-8 text: the byte offset where its seat lines start
        (the header is before it), or -1."""
        self.data = text
        self.seats = 0
        if se_hist_read(&self.grammar, text, len(text), self.hand) != SE_OK:
            return -1
        return self.hand.header_end

    @cython.critical_section
    def read_ipoker(self, bytes game, hero, bint tournament) -> bool:
        """Reads one iPoker ``<game>`` element's UTF-8 text (``hero``: the session's
        nickname as bytes, or None): whether it was read (``prepare`` is next)."""
        cdef const char *named = NULL
        cdef Py_ssize_t named_len = 0
        self.data = game
        self.seats = 0
        if hero is not None:
            self.hero_name = hero
            named = self.hero_name
            named_len = len(self.hero_name)
        return se_hist_read_ipoker(game, len(game), named, <int>named_len, tournament,
                                   self.hand) == SE_OK

    @cython.critical_section
    def read_merge(self, bytes game, bint tournament) -> bool:
        """Reads one Merge ``<game>`` element's UTF-8 text: whether it was read
        (``prepare`` is next)."""
        self.data = game
        self.seats = 0
        return se_hist_read_merge(game, len(game), tournament, self.hand) == SE_OK

    @cython.critical_section
    def prepare(self, bytes small_bet, bytes big_bet):
        """The chip and the table (a ``HistoryTable``) from the limits the header
        names, as written; ``None`` when not sure."""
        cdef se_hist_hand *h = self.hand
        cdef int p, at
        if self.data is None or se_hist_prepare(h, small_bet, len(small_bet), big_bet,
                                                len(big_bet)) != SE_OK:
            return None
        data = self.data
        players = []
        for p in range(h.players):
            at = h.player[p]
            name = data[h.name_at[at]:h.name_at[at] + h.name_len[at]].decode()
            players.append((h.seat_number[at], name, h.stacks[p]))
        self.seats = h.players
        hero = None
        if h.hero >= 0:
            hero = data[h.name_at[h.hero]:h.name_at[h.hero] + h.name_len[h.hero]].decode()
        return HistoryTable(h.places, h.ante, h.bring_in, h.small_bet, h.big_bet, h.rake, hero,
                            players, h.signs, h.stack_signs)

    @cython.critical_section
    def play(self, TableHand table) -> int:
        """Plays the hand's steps on ``table`` (just made for the prepared players):
        ``HISTORY_OVER``, ``HISTORY_SETTLE`` (its showdown to settle), else not sure."""
        if self.seats == 0:
            return SE_HIST_UNSURE
        return se_hist_play(self.hand, &table.hand)

    @cython.critical_section
    def read_hands(self, bytes data, const int64_t[:] bounds, header_of, rules_of,
                   HandRows rows=None, all_in_of=None, const int64_t[:] ends=None):
        """Reads, prepares, plays and checks many hands of ``data`` in one call, as
        ``read``, ``prepare`` and ``play`` (a table made for the hand, its showdown settled,
        its end checked) do one at a time: hand ``i`` is
        ``data[bounds[i]:bounds[i + 1]]``, or where ``ends`` is given (as long as
        ``bounds``: the hands need not follow one another) ``data[bounds[i]:ends[i]]``.
        Per hand, ``header_of(i, header)`` (its
        header's bytes) gives ``(small_bet, big_bet, signs)``: the limits as written
        and the currency signs its amounts may have (``HISTORY_SIGNS``' bits), or
        None; then, once it is prepared, ``rules_of(i, seats, places, ante, bring_in,
        small_bet, big_bet, rake)`` gives ``(TableRules, core game, settle flags,
        scoops, tag)`` (scoops: a hi/lo game, for ``rows``), or None. Where ``rows``
        is given, each hand read (status 0) is added to it (``HandRows.add``),
        numbered ``i``. Where ``all_in_of`` is given, a hand whose result may need an
        equity is read too (status 0) where ``all_in_of(i, table, stacks)`` (the
        finished hand's ``TableHand``, lent for the call alone, and each seat's
        chips before it) is true.

        Returns a dict of numpy arrays: by hand ``status`` (0 read; 1 not sure: read
        it the general way; 2 a seat put its whole stack in and two or more were in
        to the end: its result may need an equity), ``seats``, ``places``,
        ``stack_signs``, ``hero_at``, ``hero_len`` (-1: no hero), ``showdown``,
        ``rake``; by seat (hand ``i``'s seat ``p`` at ``8 * i + p``) ``name_at``,
        ``name_len`` (offsets in ``data``), ``seat_number``, ``stack``, ``paid``,
        ``payout``; and ``tags``, a list: each hand's ``rules_of`` tag (None where
        not read).
        """
        cdef Py_ssize_t count = bounds.shape[0] - (1 if ends is None else 0), i
        cdef const char *base = data
        cdef se_hist_hand *h = self.hand
        cdef int64_t start, size, total
        cdef int p, at, status, seats, live
        cdef int64_t back[8]
        cdef int64_t *returned
        cdef se_table_rules table_rules
        cdef se_settle_rules settle_rules
        cdef TableHand table = None
        cdef object last_rules = None
        cdef const char *small_text
        cdef const char *big_text
        import numpy
        if ends is None:
            if count < 0 or bounds[0] < 0 or bounds[count] > len(data):
                raise CoreCallError("read_hands: the bounds fall outside the text")
            for i in range(count):
                if bounds[i + 1] < bounds[i]:
                    raise CoreCallError("read_hands: the bounds go backwards")
        else:
            if ends.shape[0] != count:
                raise CoreCallError("read_hands: the ends are not as many as the bounds")
            for i in range(count):
                if bounds[i] < 0 or ends[i] > len(data):
                    raise CoreCallError("read_hands: the bounds fall outside the text")
                if ends[i] < bounds[i]:
                    raise CoreCallError("read_hands: the bounds go backwards")
        out = {name: numpy.zeros(count, dtype) for name, dtype in (
            ("status", numpy.int8), ("seats", numpy.int8), ("places", numpy.int8),
            ("stack_signs", numpy.int8), ("hero_at", numpy.int64), ("hero_len", numpy.int32),
            ("showdown", numpy.int8), ("rake", numpy.int64))}
        out.update({name: numpy.zeros(8 * count, dtype) for name, dtype in (
            ("name_at", numpy.int64), ("name_len", numpy.int32), ("seat_number", numpy.int32),
            ("stack", numpy.int64), ("paid", numpy.int64), ("payout", numpy.int64))})
        cdef int8_t[:] o_status = out["status"], o_seats = out["seats"]
        cdef int8_t[:] o_places = out["places"], o_stack_signs = out["stack_signs"]
        cdef int8_t[:] o_showdown = out["showdown"]
        cdef int32_t[:] o_seat_number = out["seat_number"]
        cdef int64_t[:] o_hero_at = out["hero_at"], o_rake = out["rake"]
        cdef int32_t[:] o_hero_len = out["hero_len"], o_name_len = out["name_len"]
        cdef int64_t[:] o_name_at = out["name_at"], o_stack = out["stack"]
        cdef int64_t[:] o_paid = out["paid"], o_payout = out["payout"]
        tags = out["tags"] = [None] * count
        self.data = None  # prepare() reads no hand of these
        self.seats = 0
        for i in range(count):
            o_status[i] = 1
            start = bounds[i]
            size = (bounds[i + 1] if ends is None else ends[i]) - start
            if se_hist_read(&self.grammar, base + start, <size_t>size, h) != SE_OK:
                continue
            head = header_of(i, data[start:start + h.header_end])
            if head is None:
                continue
            small, big, signs = head
            small_text, big_text = small, big
            if se_hist_prepare(h, small_text, len(small), big_text, len(big)) != SE_OK:
                continue
            if h.signs & ~<int>signs:
                continue
            seats = h.players
            total = 0  # (se_hist_prepare's stacks are whole chips, none below 0)
            for p in range(seats):
                total += h.stacks[p]
            if total >= SE_ENGINE_MAX_CHIPS:
                continue
            found = rules_of(i, seats, h.places, h.ante, h.bring_in, h.small_bet, h.big_bet,
                             h.rake)
            if found is None:
                continue
            rules, core_game, flags, scoops, tag = found
            # The StudHand's bound: a table's chips stay below SE_ENGINE_MAX_CHIPS.
            if max(rules.ante, rules.big_bet, rules.rake) >= SE_ENGINE_MAX_CHIPS:
                continue
            if rules is not last_rules:
                _table_rules_of(rules, &table_rules)
                _settle_rules_of(core_game, 1, rules.rake, True, flags, &settle_rules)
                last_rules = rules
            if table is None:
                try:
                    table = TableHand(rules, [h.stacks[p] for p in range(seats)])
                except CoreCallError:  # rules the core refuses: read the general way
                    continue
            elif se_hand_restart(&table.hand, &table_rules, h.stacks) != SE_OK:
                continue
            table.rules = rules
            status = se_hist_play(h, &table.hand)
            returned = NULL
            if status == SE_HIST_SETTLE:
                if not table.hand.settle_due or not _settle_due(&table.hand, &settle_rules, back):
                    continue
                returned = back
            elif status != SE_OK:
                continue
            if se_hist_check_end(h, returned) != SE_OK:
                continue
            # A seat's whole stack in, and two seats or more in to the end: the
            # betting may have ended all in, and the result needs an equity (won by
            # folds, it is the payouts, as a hand with no stack all in).
            o_status[i] = 0
            live = 0
            for p in range(seats):
                live += not table.hand.folded[p]
            for p in range(seats):
                if table.hand.contributions[p] >= h.stacks[p] and live >= 2:
                    o_status[i] = 2
            if o_status[i] == 2:
                if all_in_of is None or not all_in_of(i, table,
                                                      [h.stacks[p] for p in range(seats)]):
                    continue
                o_status[i] = 0
            tags[i] = tag
            o_seats[i] = seats
            o_places[i] = h.places
            o_stack_signs[i] = h.stack_signs
            o_hero_at[i] = start + h.name_at[h.hero] if h.hero >= 0 else -1
            o_hero_len[i] = h.name_len[h.hero] if h.hero >= 0 else -1
            o_rake[i] = table.hand.rake_taken
            o_showdown[i] = 0
            for p in range(seats):
                at = h.player[p]
                o_name_at[8 * i + p] = start + h.name_at[at]
                o_name_len[8 * i + p] = h.name_len[at]
                o_seat_number[8 * i + p] = h.seat_number[at]
                o_stack[8 * i + p] = h.stacks[p]
                o_paid[8 * i + p] = table.hand.contributions[p]
                o_payout[8 * i + p] = table.hand.payouts[p]
                if table.hand.shown[p] or (table.hand.out[p] and not table.hand.folded[p]):
                    o_showdown[i] = 1
            if rows is not None:
                rows.add(table, i, scoops)
        return out

    cdef int _returned(self, returned, int64_t *back) except -1:
        """``returned`` into ``back``: 1, or 0 for none (won by folds), 2 for a wrong
        count."""
        cdef int p
        if returned is None:
            return 0
        if len(returned) != self.seats:
            return 2
        for p in range(self.seats):
            back[p] = returned[p]
        return 1

    @cython.critical_section
    def unwritten_rake(self, returned=None) -> int:
        """For a room that writes no rake (``HISTORY_RAKE_UNWRITTEN``), once the hand is
        played and settled: the rake it took (what the pots paid less what was
        collected), when more than it was played with; the caller plays it again on a
        table taking it. Else 0."""
        cdef int64_t back[8]
        if self.seats == 0:
            return 0
        given = self._returned(returned, back)
        if given == 2:
            return 0
        return se_hist_unwritten_rake(self.hand, back if given else NULL)

    @cython.critical_section
    def check_end(self, returned=None):
        """The chips each player collected, when the uncalled bets, the collections,
        the total pot and the rake agree with the finished table; else ``None``."""
        cdef int64_t back[8]
        cdef int p
        cdef int seats = self.seats
        if seats == 0:
            return None
        given = self._returned(returned, back)
        if given == 2 or se_hist_check_end(self.hand, back if given else NULL) != SE_OK:
            return None
        return [self.hand.collected[p] for p in range(seats)]
