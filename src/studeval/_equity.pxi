# Equity (included by _core.pyx).

EQ_UNITS = SE_EQ_UNITS
EQ_CHUNK_SAMPLES = SE_EQ_CHUNK_SAMPLES

#: The integer sums of an equity call (see se_equity_counts): the deals counted or
#: sampled, whether they share a community card, and per-player tuples.
EquitySums = namedtuple(
    "EquitySums", "deals community share share_sq high_win high_tie low_win low_tie scoop"
)
#: How many deals a spot has, and whether they share a community card.
DealCount = namedtuple("DealCount", "deals community")


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
