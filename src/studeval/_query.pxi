# Queries (PQL for stud): the binding converts and dispatches; studeval.query compiles
# the text to the operations and aggregates what comes back.

#: The players a query deals to (seven cards each from one deck), and its limits.
QUERY_MAX_PLAYERS = SE_QUERY_MAX_PLAYERS
QUERY_MAX_OPS = SE_QUERY_MAX_OPS
QUERY_MAX_OUTPUTS = SE_QUERY_MAX_OUTPUTS
#: A street equity's runouts: every one where they are at most QUERY_EXACT_RUNOUTS,
#: else QUERY_RUNOUTS drawn in each trial.
QUERY_EXACT_RUNOUTS = SE_QUERY_EXACT_RUNOUTS
QUERY_RUNOUTS = SE_QUERY_RUNOUTS
#: The operations of a query's program by name (se_query_code in studeval.h).
QUERY_CODES = {
    "const": SE_Q_CONST,
    "add": SE_Q_ADD,
    "sub": SE_Q_SUB,
    "mul": SE_Q_MUL,
    "div": SE_Q_DIV,
    "neg": SE_Q_NEG,
    "lt": SE_Q_LT,
    "le": SE_Q_LE,
    "gt": SE_Q_GT,
    "ge": SE_Q_GE,
    "eq": SE_Q_EQ,
    "ne": SE_Q_NE,
    "and": SE_Q_AND,
    "or": SE_Q_OR,
    "not": SE_Q_NOT,
    "hi_rating": SE_Q_HI_RATING,
    "lo_rating": SE_Q_LO_RATING,
    "hand_type": SE_Q_HAND_TYPE,
    "best_hi": SE_Q_BEST_HI,
    "best_lo": SE_Q_BEST_LO,
    "equity": SE_Q_EQUITY,
    "wins_hi": SE_Q_WINS_HI,
    "ties_hi": SE_Q_TIES_HI,
    "wins_lo": SE_Q_WINS_LO,
    "ties_lo": SE_Q_TIES_LO,
    "scoops": SE_Q_SCOOPS,
    "winning_type": SE_Q_WINNING_TYPE,
    "up_type": SE_Q_UP_TYPE,
    "low_type": SE_Q_LOW_TYPE,
    "nut_hi": SE_Q_NUT_HI,
    "nut_lo": SE_Q_NUT_LO,
    "outs": SE_Q_OUTS,
    "hvh_equity": SE_Q_HVH_EQUITY,
    "street_equity": SE_Q_STREET_EQUITY,
    "up_in": SE_Q_UP_IN,
}


cdef int _query_program(ops, outputs, se_query_program *program) except -1:
    """``ops`` (code, a, b, player, street, value) and ``outputs`` into ``program``,
    its arrays malloc'ed (the caller frees them)."""
    cdef int i, n = len(ops), m = len(outputs)
    cdef se_query_op *c_ops
    cdef int *c_outputs
    if not 1 <= n <= SE_QUERY_MAX_OPS or not 1 <= m <= SE_QUERY_MAX_OUTPUTS:
        raise CoreCallError(f"a query program of {n} operations and {m} outputs")
    c_ops = <se_query_op *>malloc(n * sizeof(se_query_op))
    c_outputs = <int *>malloc(m * sizeof(int))
    if c_ops == NULL or c_outputs == NULL:
        free(c_ops)
        free(c_outputs)
        raise MemoryError()
    for i, (code, a, b, player, street, value) in enumerate(ops):
        c_ops[i].code = code
        c_ops[i].a = a
        c_ops[i].b = b
        c_ops[i].player = player
        c_ops[i].street = street
        c_ops[i].value = value
    for i, k in enumerate(outputs):
        c_outputs[i] = k
    program.n_ops = n
    program.ops = c_ops
    program.n_outputs = m
    program.outputs = c_outputs
    return 0


def query_sample(int game, players, const uint8_t[::1] dead, ops, outputs, uint64_t seed,
                 uint64_t first_trial, int threads, double[:, ::1] out):
    """Trials dealt (trial ``first_trial`` on, a multiple of 4096), one a row of
    ``out`` (float64, C order, a column an output), and run through the program.
    ``players`` holds ``(up, width, combos, weights)`` a player: up card codes, and
    a range of hidden cards (``combos`` a contiguous uint8 buffer of count * width
    codes, ``weights`` float64 or None), or width 0 and None for cards dealt. Use
    :func:`studeval.query`.

    >>> import numpy as np
    >>> ops = [(20, -1, -1, 0, 7, 0.0)]  # the first player's showdown share (SE_Q_EQUITY)
    >>> aces = np.array([48, 49], dtype=np.uint8)  # Ac Ad down, the Ah up
    >>> out = np.empty((4096, 1))
    >>> players = [([50], 2, aces, None), ([], 0, None, None)]
    >>> query_sample(0, players, b"", ops, [0], 1, 0, 1, out)
    >>> bool(0.9 < out.mean() < 0.96)  # rolled-up aces heads-up
    True
    """
    cdef se_query_spot spot
    cdef se_query_program program
    cdef const uint8_t[::1] combo_codes
    cdef const double[::1] weight_values
    cdef se_status status
    cdef size_t trials = out.shape[0]
    cdef int p
    kept = []
    memset(&spot, 0, sizeof(spot))
    if not 1 <= len(players) <= SE_QUERY_MAX_PLAYERS:
        raise CoreCallError(f"a query of {len(players)} players")
    spot.game = <se_game>game
    spot.players = len(players)
    spot.n_dead = len(dead)
    spot.dead = &dead[0] if len(dead) else NULL
    for p, (up, width, combos, weights) in enumerate(players):
        if len(up) > 4:
            raise CoreCallError(f"player {p}: {len(up)} up cards")
        spot.player[p].n_up = len(up)
        for i, card in enumerate(up):
            spot.player[p].up[i] = card
        spot.player[p].width = width
        if width:
            combo_codes = combos
            if len(combo_codes) == 0 or len(combo_codes) % width:
                raise CoreCallError(f"player {p}: {len(combo_codes)} codes in combinations of {width}")
            kept.append(combo_codes)
            spot.player[p].count = len(combo_codes) // width
            spot.player[p].combos = &combo_codes[0]
            if weights is not None:
                weight_values = weights
                if len(weight_values) != spot.player[p].count:
                    raise CoreCallError(f"player {p}: {len(weight_values)} weights")
                kept.append(weight_values)
                spot.player[p].weights = &weight_values[0]
    if out.shape[1] != len(outputs):
        raise CoreCallError(f"{out.shape[1]} output columns for {len(outputs)} outputs")
    _query_program(ops, outputs, &program)
    try:
        with nogil:
            status = se_query_sample(&spot, &program, seed, first_trial, trials, threads,
                                     &out[0, 0] if trials else NULL)
    finally:
        free(<void *>program.ops)
        free(<void *>program.outputs)
    check_status(status, "a query's trials")


def query_eval(int game, ops, outputs, const uint8_t[::1] dead,
               const uint8_t[:, :, ::1] cards, int threads, double[:, ::1] out):
    """The program run on the trials ``cards`` give (uint8 (trials, players, 7), each
    player's cards in dealing order; ``dead`` the cards out of play), one a row of
    ``out``. Use :func:`studeval.query`.

    >>> import numpy as np
    >>> hands = np.array([[[48, 49, 50, 51, 44, 45, 46], [0, 1, 2, 3, 4, 5, 6]]], dtype=np.uint8)
    >>> out = np.empty((1, 1))
    >>> query_eval(0, [(20, -1, -1, 0, 7, 0.0)], [0], b"", hands, 1, out)  # quads, a full house
    >>> out
    array([[1.]])
    """
    cdef se_query_program program
    cdef se_status status
    cdef size_t trials = cards.shape[0]
    cdef int players = cards.shape[1]
    if cards.shape[2] != 7 or out.shape[0] != trials or out.shape[1] != len(outputs):
        raise CoreCallError(f"trials of shape {tuple(cards.shape)[:3]} into an output of "
                            f"{tuple(out.shape)[:2]} for {len(outputs)} outputs")
    _query_program(ops, outputs, &program)
    try:
        with nogil:
            status = se_query_eval(game, players, &program,
                                   &dead[0] if len(dead) else NULL, len(dead),
                                   &cards[0, 0, 0] if trials else NULL, trials, threads,
                                   &out[0, 0] if trials else NULL)
    finally:
        free(<void *>program.ops)
        free(<void *>program.outputs)
    check_status(status, "a query's given trials")
