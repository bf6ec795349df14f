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
    def encode(self, size_t i, int me, double total, float[::1] out) -> None:
        """Table ``i`` as seat ``me`` observes it, into ``out`` (float32, all of it
        written): the PettingZoo environment's vector (``studeval.envs.pettingzoo``
        says its parts), each seat's rows from ``me`` on round the table, chips over
        ``total``. A conversion of the arrays the core writes; one call, not a dozen
        numpy ones a step."""
        cdef const se_tables_view *v = &self.tables.view
        cdef int n = self.tables.rules.seats, r, s, k, at
        cdef size_t row, size = 52 + 52 * n + 5 + 3 * n + 2
        cdef uint8_t card
        if not self.ready or i >= self.tables.n or not 0 <= me < n or <size_t>out.shape[0] != size:
            raise CoreCallError(f"table {i}, seat {me}: an observation of {size} values")
        memset(&out[0], 0, size * sizeof(float))
        for k in range(7):  # its own cards, down and up
            card = v.cards[(i * n + me) * 7 + k]
            if card < 52:
                out[card] = 1.0
        at = 52 + 52 * n
        for r in range(n):  # each seat's up cards and chips, from its own seat on
            s = (me + r) % n
            row = i * n + s
            for k in range(7):
                if v.up[row * 7 + k] and v.cards[row * 7 + k] < 52:
                    out[52 + 52 * r + v.cards[row * 7 + k]] = 1.0
            out[at + 5 + r] = <float>(v.stacks[row] / total)
            out[at + 5 + n + r] = <float>(v.bets[row] / total)
            out[at + 5 + 2 * n + r] = 1.0 if v.folded[row] else 0.0
        out[at + v.street[i] - 3] = 1.0
        out[at + 5 + 3 * n] = <float>(v.pot[i] / total)
        out[at + 5 + 3 * n + 1] = <float>(v.to_call[i] / total)

    @cython.critical_section
    def last_events(self, size_t i):
        """Table ``i``'s last finished hand as ``CoreEvent`` records (None before one)."""
        cdef const se_hand *hand = NULL
        check_status(se_tables_last(&self.tables, i, &hand), f"table {i}")
        return None if hand == NULL else _events_of(hand, 0)
