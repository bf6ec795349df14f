# Many tables stepped together (included by _core.pyx): se_tables over the caller's arrays.

#: The arrays of a se_tables_view, in its order: (name, dtype, values per table; 0:
#: one per seat, -1: seats x 7, -2: 5 x SE_TABLE_HISTORY).
TABLES_ARRAYS = (
    ("actor", "int8", 1), ("legal", "bool", 5), ("totals", "int64", 5), ("street", "int8", 1),
    ("pot", "int64", 1), ("to_call", "int64", 1), ("stacks", "int64", 0), ("bets", "int64", 0),
    ("folded", "bool", 0), ("cards", "uint8", -1), ("up", "bool", -1), ("history", "uint8", -2),
    ("rewards", "int64", 0), ("done", "bool", 1), ("hands_played", "uint64", 1),
)
TABLES_HISTORY = SE_TABLE_HISTORY


@cython.auto_pickle(False)
@cython.final
cdef class CoreTables:
    """``n`` tables (``se_tables``) writing their state into ``arrays``: flat,
    C-contiguous, one a name of ``TABLES_ARRAYS`` in its order and length (the
    Python layer makes them and shows them shaped). ``rules`` a ``TableRules``;
    ``game`` and ``flags`` the settlement's (see ``settle_payouts``)."""

    cdef se_tables tables
    cdef bint ready
    cdef object arrays
    cdef readonly int workers

    def __cinit__(self, size_t n, rules, int game, tuple flags, stacks, uint64_t seed,
                  tuple arrays):
        cdef se_table_rules table
        cdef se_settle_rules settle
        cdef se_tables_view view
        cdef int64_t chips[8]
        cdef int seats = rules.seats, s
        cdef int8_t[::1] actor, street
        cdef uint8_t[::1] legal, folded, cards, up, history, done
        cdef int64_t[::1] totals, pot, to_call, stacks_out, bets, rewards
        cdef uint64_t[::1] played
        if not 2 <= seats <= 8 or len(stacks) != seats or len(arrays) != len(TABLES_ARRAYS):
            raise CoreCallError(f"tables of 2 to 8 seats, a stack each and "
                                f"{len(TABLES_ARRAYS)} arrays; got {seats}")
        for (name, _, per), array in zip(TABLES_ARRAYS, arrays):
            size = n * (per if per > 0 else seats if per == 0 else seats * 7 if per == -1
                        else 5 * SE_TABLE_HISTORY)
            if len(array) != size:
                raise CoreCallError(f"the {name} array holds {len(array)} values, not {size}")
        actor, legal, totals, street, pot, to_call, stacks_out, bets = arrays[:8]
        folded, cards, up, history, rewards, done, played = arrays[8:]
        view.actor = &actor[0]
        view.legal = &legal[0]
        view.totals = &totals[0]
        view.street = &street[0]
        view.pot = &pot[0]
        view.to_call = &to_call[0]
        view.stacks = &stacks_out[0]
        view.bets = &bets[0]
        view.folded = &folded[0]
        view.cards = &cards[0]
        view.up = &up[0]
        view.history = &history[0]
        view.rewards = &rewards[0]
        view.done = &done[0]
        view.hands_played = &played[0]
        _table_rules_of(rules, &table)
        _settle_rules_of(game, 1, rules.rake, True, flags, &settle)
        for s in range(seats):
            chips[s] = stacks[s]
        check_status(se_tables_init(&self.tables, n, &table, &settle, seed, &view), "the tables")
        self.ready = True
        self.arrays = arrays
        check_status(se_tables_start(&self.tables, chips), "the tables' first hands")

    def __dealloc__(self):
        if self.ready:
            se_tables_free(&self.tables)

    @cython.critical_section
    def step(self, const int64_t[::1] actions not None, int threads) -> int:
        """Plays ``actions`` (one a table): -1, or the first table whose action is not
        allowed (then nothing changed). ``workers``: the threads that ran."""
        cdef size_t bad = 0
        cdef int workers = 0
        cdef se_status status
        if <size_t>actions.shape[0] != self.tables.n:
            raise CoreCallError(f"{actions.shape[0]} actions for {self.tables.n} tables")
        with nogil:
            status = se_tables_step(&self.tables, &actions[0], threads, &workers, &bad)
        self.workers = workers
        if status == SE_ILLEGAL:
            return bad
        check_status(status, f"table {bad}")
        return -1

    @cython.critical_section
    def reset(self, uint64_t seed) -> None:
        """Every table's hand dealt afresh from ``seed``, as new tables with that seed
        would deal it (tables that fail here are freed: every later call refuses)."""
        cdef se_status status = se_tables_reset(&self.tables, seed)
        if status != SE_OK and self.ready:
            se_tables_free(&self.tables)
            self.ready = False
        check_status(status, "the tables' new hands")

    @cython.critical_section
    def last_events(self, size_t i):
        """Table ``i``'s last finished hand as ``CoreEvent`` records (None before one)."""
        cdef const se_hand *hand = NULL
        check_status(se_tables_last(&self.tables, i, &hand), f"table {i}")
        return None if hand == NULL else _events_of(hand, 0)
