# Equity (included by _core.pyx).

EQ_UNITS = SE_EQ_UNITS
EQ_CHUNK_SAMPLES = SE_EQ_CHUNK_SAMPLES

#: The integer sums of an equity call (see se_equity_counts): the deals counted or
#: sampled, whether they share a community card, and per-player tuples.
EquitySums = _record(
    "EquitySums",
    "deals community share share_sq high_win high_tie low_win low_tie scoop low_share",
)
#: How many deals a spot has, and whether they share a community card.
DealCount = _record("DealCount", "deals community")


@cython.auto_pickle(False)
cdef class EquityProgress:
    """How far an exact equity call is, shared with the core while it runs; ``stop()``
    makes the call raise :class:`~studeval.errors.StoppedError` early. One per call.

    >>> p = EquityProgress()
    >>> p.fraction(), p.stopped
    (0.0, False)
    >>> p.stop(); p.stopped
    True
    """

    cdef se_progress state

    def fraction(self) -> float:
        """The fraction of the call's work done, 0.0 before it has started."""
        cdef size_t total = self.state.total
        cdef size_t done = self.state.done
        return min(<double>done / <double>total, 1.0) if total else 0.0

    def stop(self) -> None:
        """Ask the running call to stop (it checks often: within milliseconds)."""
        self.state.stop = 1

    @property
    def stopped(self) -> bool:
        """Whether ``stop()`` was called."""
        return self.state.stop != 0


cdef se_progress *_progress_of(EquityProgress progress):
    return NULL if progress is None else &progress.state


cdef int _equity_spot(int game, object hands, object dead, se_equity_spot *spot) except -1:
    """Fill a spot from the game's core id, per-player lists of codes and dead codes
    (None for a dead card not known).

    The Python layer (studeval.equity) has validated everything; this only copies."""
    cdef int i, j
    memset(spot, 0, sizeof(se_equity_spot))
    if not SE_GAME_STUD <= game <= SE_GAME_STUD_HILO_NOQ:
        raise CoreCallError(f"no game has the core id {game}")
    spot.game = <se_game>game
    spot.players = len(hands)
    if not 2 <= spot.players <= SE_EQ_MAX_PLAYERS or len(dead) > 52:
        raise CoreCallError("an equity spot needs 2..8 players and at most 52 dead cards")
    for i, cards in enumerate(hands):
        if len(cards) > 7:
            raise HandSizeError(len(cards), "0 to 7 known cards", seat=i)
        spot.known[i] = len(cards)
        for j, code in enumerate(cards):
            spot.cards[i][j] = <uint8_t>code
    for code in dead:
        if code is None:
            spot.dead_unknown += 1
        else:
            spot.dead[spot.dead_count] = <uint8_t>code
            spot.dead_count += 1
    return 0


cdef object _equity_sums(se_status status, se_equity_counts *c, int players, str what):
    check_status(status, what)
    return EquitySums(
        c.deals, bool(c.community),
        tuple([c.share[i] for i in range(players)]),
        tuple([c.share_sq[i] for i in range(players)]),
        tuple([c.high_win[i] for i in range(players)]),
        tuple([c.high_tie[i] for i in range(players)]),
        tuple([c.low_win[i] for i in range(players)]),
        tuple([c.low_tie[i] for i in range(players)]),
        tuple([c.scoop[i] for i in range(players)]),
        tuple([c.low_share[i] for i in range(players)]),
    )


def equity_deals(int game, hands, dead):
    """The number of deals of a spot and whether a community card is dealt.

    >>> equity_deals(0, [[51, 47, 43, 39, 35, 31], [0, 1, 2, 3, 4, 5]], [])
    DealCount(deals=1560.0, community=False)
    """
    cdef se_equity_spot spot
    cdef int community = 0
    cdef double deals = 0
    _equity_spot(game, hands, dead, &spot)
    check_status(se_equity_deals(&spot, &deals, &community), "equity")
    return DealCount(deals, bool(community))


def equity_sample(int game, hands, dead, uint64_t seed, uint64_t first_chunk, uint64_t chunks,
                  int threads):
    """Monte Carlo sums over chunks of EQ_CHUNK_SAMPLES deals, the GIL released.

    Returns the ``EquitySums``. Use :func:`studeval.equity`.

    >>> equity_sample(2, [[48, 1], [44, 45]], [], 1, 0, 1, 1).deals
    4096
    """
    cdef se_equity_spot spot
    cdef se_equity_counts counts
    cdef se_status status
    _equity_spot(game, hands, dead, &spot)
    with nogil:
        status = se_equity_sample(&spot, seed, first_chunk, chunks, threads, &counts)
    return _equity_sums(status, &counts, spot.players, "equity by sampling")


def equity_sample_part(int game, hands, dead, uint64_t seed, uint64_t chunk, int samples):
    """Monte Carlo sums of the first ``samples`` (1..EQ_CHUNK_SAMPLES) deals of chunk
    ``chunk`` (the deals :func:`equity_sample`'s chunk starts with), on this thread.

    >>> part = equity_sample_part(2, [[48, 1], [44, 45]], [], 1, 0, 100)
    >>> whole = equity_sample(2, [[48, 1], [44, 45]], [], 1, 0, 1, 1)
    >>> part.deals, part.share[0] <= whole.share[0]
    (100, True)
    """
    cdef se_equity_spot spot
    cdef se_equity_counts counts
    cdef se_status status
    _equity_spot(game, hands, dead, &spot)
    with nogil:
        status = se_equity_sample_part(&spot, seed, chunk, samples, &counts)
    return _equity_sums(status, &counts, spot.players, "equity by sampling")


def equity_sample_steps(int game, hands, dead, uint64_t seed, int step, uint64_t most,
                        double target_se):
    """Monte Carlo sums to a precision, on this thread: the first ``step``
    (1..EQ_CHUNK_SAMPLES) deals of chunk 0, of chunk 1, ... (the last cut to ``most``)
    until every share's standard error is at most ``target_se``, or ``most`` deals.

    >>> eight = [[4 * rank] for rank in range(8)]
    >>> equity_sample_steps(0, eight, [], 1, 625, 2500, 0.01).deals
    1875
    """
    cdef se_equity_spot spot
    cdef se_equity_counts counts
    cdef se_status status
    _equity_spot(game, hands, dead, &spot)
    with nogil:
        status = se_equity_sample_steps(&spot, seed, step, most, target_se, &counts)
    return _equity_sums(status, &counts, spot.players, "equity by sampling")


def equity_enumerate(int game, hands, dead, int threads, EquityProgress progress=None):
    """Exact sums over every deal, walked (split over threads), the GIL released.

    >>> equity_enumerate(0, [[51, 47, 43, 39, 35, 31, 27], [0, 1, 2, 3, 4, 5, 6]], [], 1).deals
    1
    """
    cdef se_equity_spot spot
    cdef se_equity_counts counts
    cdef se_status status
    cdef se_progress *state = _progress_of(progress)
    _equity_spot(game, hands, dead, &spot)
    with nogil:
        status = se_equity_enumerate(&spot, threads, state, &counts)
    return _equity_sums(status, &counts, spot.players, "equity by walking every deal")


def equity_count_heads_up(int game, hands, dead, size_t max_records, int threads,
                          EquityProgress progress=None):
    """Exact heads-up sums by counting (no community card), the GIL released;
    :class:`~studeval.errors.TooBigError` when counting would take too long.

    >>> equity_count_heads_up(0, [[51, 47, 43], [0, 1, 2]], [], 1 << 24, 1).deals
    18265297050
    """
    cdef se_equity_spot spot
    cdef se_equity_counts counts
    cdef se_status status
    cdef se_progress *state = _progress_of(progress)
    _equity_spot(game, hands, dead, &spot)
    with nogil:
        status = se_equity_count_heads_up(&spot, max_records, threads, state, &counts)
    return _equity_sums(status, &counts, spot.players, "equity by counting")


def equity_sample_ranges(int game, hands, dead, ranges, uint64_t seed, uint64_t first_chunk,
                         uint64_t chunks, int threads):
    """Monte Carlo sums as :func:`equity_sample`, with ranged seats: ``ranges`` holds
    ``(seat, width, cards, weights)`` per ranged seat, ``cards`` a C-contiguous uint8
    buffer of ``count * width`` codes, ``weights`` a float64 buffer of ``count`` or
    None. The hands hold each ranged seat's up cards. Use :func:`studeval.equity`.

    >>> import numpy as np
    >>> combos = np.array([[48, 49], [44, 45]], dtype=np.uint8)  # Ac Ad or Kc Kd
    >>> equity_sample_ranges(0, [[0, 1, 2], [51]], [], [(1, 2, combos, None)], 1, 0, 1, 1).deals
    4096
    """
    cdef se_equity_spot spot
    cdef se_equity_counts counts
    cdef se_status status
    cdef se_equity_range *c_ranges = NULL
    cdef const uint8_t[::1] cards
    cdef const double[::1] weights
    cdef int k, n = len(ranges)
    kept = []
    _equity_spot(game, hands, dead, &spot)
    if not 1 <= n <= spot.players:
        raise CoreCallError(f"{n} ranges for {spot.players} players")
    c_ranges = <se_equity_range *>malloc(n * sizeof(se_equity_range))
    if c_ranges == NULL:
        raise MemoryError()
    try:
        for k, (seat, width, range_cards, range_weights) in enumerate(ranges):
            cards = range_cards.reshape(-1)
            if width < 1 or len(cards) % width:
                raise CoreCallError(f"range {k}: {len(cards)} codes are not combinations of {width}")
            c_ranges[k].seat = seat
            c_ranges[k].width = width
            c_ranges[k].count = len(cards) // width
            c_ranges[k].cards = &cards[0] if len(cards) else NULL
            c_ranges[k].weights = NULL
            kept.append(cards)
            if range_weights is not None:
                weights = range_weights
                if len(weights) != c_ranges[k].count:
                    raise CoreCallError(f"range {k}: {len(weights)} weights for "
                                        f"{c_ranges[k].count} combinations")
                c_ranges[k].weights = &weights[0]
                kept.append(weights)
        with nogil:
            status = se_equity_sample_ranges(&spot, c_ranges, n, seed, first_chunk, chunks,
                                             threads, &counts)
    finally:
        free(c_ranges)
    return _equity_sums(status, &counts, spot.players, "equity against ranges by sampling")


#: The fields of each tuple's row in :func:`equity_tuples`' output, in order: deals,
#: then one column per player for each of the rest.
TUPLE_FIELDS = ("deals", "share", "share_sq", "high_win", "high_tie", "low_win", "low_tie",
                "scoop", "low_share")


def equity_tuples(int game, hands, dead, seats, widths, tuple_cards, uint64_t[:, ::1] out,
                  size_t max_records, int threads, EquityProgress progress=None):
    """Exact counts per tuple of hidden cards: tuple ``t`` gives seat ``seats[k]`` the
    next ``widths[k]`` codes of row ``t`` of ``tuple_cards`` (uint8, C-contiguous).
    Row ``t`` of ``out`` (uint64, tuples x (1 + 8 * players)) gets its counts, laid out
    as :data:`TUPLE_FIELDS`. The GIL is released. Use :func:`studeval.equity`.

    >>> import numpy as np
    >>> out = np.zeros((2, 17), dtype=np.uint64)
    >>> cards = np.array([[48, 49, 50], [44, 45, 46]], dtype=np.uint8)
    >>> equity_tuples(0, [[0, 1, 2, 3, 4, 5, 6], [51, 47, 43, 39]], [], [1], [3], cards,
    ...               out, 1 << 20, 1)
    >>> out[:, 0].tolist(), out[:, 2].tolist()  # one deal each; player 1's share
    ([1, 1], [1680, 1680])
    """
    cdef se_equity_spot spot
    cdef se_equity_counts *counts = NULL
    cdef se_status status
    cdef int c_seats[8]
    cdef int c_widths[8]
    cdef const uint8_t[::1] flat = tuple_cards.reshape(-1)
    cdef size_t tuples = out.shape[0]
    cdef size_t t
    cdef int i, players, n_seats = len(seats), width = 0
    cdef se_progress *state = _progress_of(progress)
    _equity_spot(game, hands, dead, &spot)
    players = spot.players
    if not 1 <= n_seats <= players or len(widths) != n_seats:
        raise CoreCallError(f"{n_seats} ranged seats for {players} players")
    for i in range(n_seats):
        c_seats[i] = seats[i]
        c_widths[i] = widths[i]
        width += widths[i]
    if <size_t>len(flat) != tuples * <size_t>width or out.shape[1] != 1 + 8 * players:
        raise CoreCallError("the tuples' cards or the output have the wrong shape")
    if tuples == 0:
        return
    counts = <se_equity_counts *>malloc(tuples * sizeof(se_equity_counts))
    if counts == NULL:
        raise MemoryError()
    try:
        with nogil:
            status = se_equity_tuples(&spot, c_seats, c_widths, n_seats, &flat[0], tuples,
                                      max_records, threads, state, counts)
        check_status(status, "equity against ranges, exact")
        for t in range(tuples):
            out[t, 0] = counts[t].deals
            for i in range(players):
                out[t, 1 + i] = counts[t].share[i]
                out[t, 1 + players + i] = counts[t].share_sq[i]
                out[t, 1 + 2 * players + i] = counts[t].high_win[i]
                out[t, 1 + 3 * players + i] = counts[t].high_tie[i]
                out[t, 1 + 4 * players + i] = counts[t].low_win[i]
                out[t, 1 + 5 * players + i] = counts[t].low_tie[i]
                out[t, 1 + 6 * players + i] = counts[t].scoop[i]
                out[t, 1 + 7 * players + i] = counts[t].low_share[i]
    finally:
        free(counts)
