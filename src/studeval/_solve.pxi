# Solving a heads-up street: the binding converts the spot and the tree, and
# dispatches; studeval.solve builds the tree from the rules and reads the answers.

SOLVE_MAX_NODES = SE_SOLVE_MAX_NODES
SOLVE_MAX_COMBOS = SE_SOLVE_MAX_COMBOS
SOLVE_MAX_BOARDS = SE_SOLVE_MAX_BOARDS
SOLVE_MAX_CHIPS = SE_SOLVE_MAX_CHIPS


cdef int _solve_spot(int game, double pot, rake, up, hidden, weights, groups, nodes, boards,
                     se_solve_spot *spot, se_solve_node **c_nodes, list kept) except -1:
    """The spot's fields into ``spot``; its nodes malloc'ed into ``*c_nodes`` (the
    caller frees them). ``kept`` holds the buffers the spot points into."""
    cdef const uint8_t[::1] codes
    cdef const uint8_t[:, ::1] dealt
    cdef const double[::1] w
    cdef const int[::1] g
    cdef int p, i
    memset(spot, 0, sizeof(se_solve_spot))
    spot.game = <se_game>game
    spot.pot = pot
    spot.rake_rate, spot.rake_cap = rake
    if len(up) != 2 or len(hidden) != 2 or len(weights) != 2 or len(groups) != 2:
        raise CoreCallError("a solved spot has two seats")
    for p in range(2):
        if len(up[p]) != 4:
            raise CoreCallError(f"seat {p}: {len(up[p])} up cards (four on seventh street)")
        for i in range(4):
            spot.up[p][i] = up[p][i]
        codes = hidden[p]
        if len(codes) == 0 or len(codes) % 3:
            raise CoreCallError(f"seat {p}: {len(codes)} codes in combinations of 3")
        kept.append(codes)
        spot.count[p] = len(codes) // 3
        spot.hidden[p] = &codes[0]
        if weights[p] is not None:
            w = weights[p]
            if len(w) != spot.count[p]:
                raise CoreCallError(f"seat {p}: {len(w)} weights")
            kept.append(w)
            spot.weights[p] = &w[0]
        if groups[p] is not None:
            g, n_groups = groups[p]
            if len(g) != spot.count[p]:
                raise CoreCallError(f"seat {p}: {len(g)} groups")
            kept.append(g)
            spot.group[p] = &g[0]
            spot.n_groups[p] = n_groups
    if boards is not None:
        dealt = boards
        if dealt.shape[0] < 1 or dealt.shape[0] > SE_SOLVE_MAX_BOARDS or dealt.shape[1] != 8:
            raise CoreCallError(f"boards of shape {tuple(boards.shape)}: (1 .. "
                                f"{SE_SOLVE_MAX_BOARDS}, 8) up cards")
        kept.append(dealt)
        spot.n_boards = dealt.shape[0]
        spot.boards = &dealt[0, 0]
    if not 1 <= len(nodes) <= SE_SOLVE_MAX_NODES:
        raise CoreCallError(f"a tree of {len(nodes)} nodes")
    c_nodes[0] = <se_solve_node *>malloc(len(nodes) * sizeof(se_solve_node))
    if c_nodes[0] == NULL:
        raise MemoryError()
    for i, (kind, seat, first, n_children, tied, put0, put1) in enumerate(nodes):
        c_nodes[0][i].kind = kind
        c_nodes[0][i].tied = tied
        c_nodes[0][i].seat = seat
        c_nodes[0][i].first_child = first
        c_nodes[0][i].n_children = n_children
        c_nodes[0][i].put[0] = put0
        c_nodes[0][i].put[1] = put1
    spot.n_nodes = len(nodes)
    spot.nodes = c_nodes[0]
    return 0


cdef _check_sizes(se_status status, str what):
    """check_status, with the solver's own words for an array of the wrong length."""
    if status == SE_BAD_SIZE:
        raise CoreCallError(f"{what}: an array of the wrong length for the spot")
    check_status(status, what)


@cython.auto_pickle(False)
@cython.final
cdef class SolverCore:
    """CFR+ on a heads-up end of a hand: ``game`` a core id, ``up`` each seat's four up
    card codes, ``rake`` (rate, cap): the house's cut of every pot won, ``hidden`` each
    seat's combinations (uint8, three codes each),
    ``weights`` each seat's float64 weights or None, ``groups`` each seat's (int32
    group of each combination, number of groups) or None, ``nodes`` the tree as tuples
    (kind, seat, first_child, n_children, tied, put0, put1), ``boards`` None (``up`` is
    the board) or a (boards, 8) uint8 array of the deals to come, each whole board
    (seat 0's up cards, then seat 1's), split by the chance nodes in order. Use
    :func:`studeval.solve`.

    >>> import numpy as np
    >>> up = [[48, 44, 40, 36], [0, 4, 8, 12]]  # aces-kings-queens-jacks up; 2-3-4-5
    >>> hidden = [np.array([16, 20, 24], np.uint8), np.array([17, 21, 25], np.uint8)]
    >>> s = SolverCore(0, 10.0, (0.0, 0.0), up, hidden, [None, None], [None, None],
    ...                [(2, 0, 0, 0, 0, 0.0, 0.0)])
    >>> s.run(1, 1)
    >>> s.values()  # a club flush against an eight-high straight, the pot 10
    (10.0, 0.0)
    """

    cdef se_solver *solver

    def __cinit__(self, int game, double pot, rake, up, hidden, weights, groups, nodes,
                  boards=None):
        cdef se_solve_spot spot
        cdef se_solve_node *c_nodes = NULL
        cdef se_status status
        kept = []
        try:
            _solve_spot(game, pot, rake, up, hidden, weights, groups, nodes, boards, &spot,
                        &c_nodes, kept)
            status = se_solve_new(&spot, &self.solver)
        finally:
            free(c_nodes)
        check_status(status, "a solved spot")

    def __dealloc__(self):
        se_solve_free(self.solver)

    def run(self, int iterations, int threads, EquityProgress progress=None) -> None:
        """``iterations`` more iterations (GIL released)."""
        cdef se_status status
        cdef se_progress *state = _progress_of(progress)
        with nogil:
            status = se_solve_run(self.solver, iterations, threads, state)
        check_status(status, "a solve")

    @property
    def iterations(self) -> int:
        return se_solve_iterations(self.solver)

    def strategy(self, int node, double[:, ::1] out) -> None:
        """The average strategy at action node ``node`` into ``out`` (a row a
        combination of the acting seat, or a group at a tied node; a column an action)."""
        cdef size_t size = out.shape[0] * out.shape[1]
        cdef double nothing = 0.0
        _check_sizes(se_solve_strategy(self.solver, node, &out[0, 0] if size else &nothing, size),
                     "a node's strategy")

    def values(self, double[::1] ev0=None, double[::1] ev1=None, double[::1] met0=None,
               double[::1] met1=None) -> tuple[float, float]:
        """Each seat's value under the average strategies; each combination's value and
        the weight it is dealt with into the arrays given (a seat's two of one length,
        its combinations' count)."""
        cdef double value[2]
        cdef size_t size[2]
        cdef se_status status
        cdef int p
        for p, (ev, met) in enumerate(((ev0, met0), (ev1, met1))):
            if ev is not None and met is not None and len(ev) != len(met):
                raise CoreCallError(f"seat {p}: values for {len(ev)} and weights for {len(met)} "
                                    "combinations")
            size[p] = len(ev if ev is not None else met if met is not None else ())
        # An empty array is passed as one (a pointer to nothing): the core refuses its size.
        cdef double nothing = 0.0
        cdef double *e0 = (&ev0[0] if size[0] else &nothing) if ev0 is not None else NULL
        cdef double *e1 = (&ev1[0] if size[1] else &nothing) if ev1 is not None else NULL
        cdef double *m0 = (&met0[0] if size[0] else &nothing) if met0 is not None else NULL
        cdef double *m1 = (&met1[0] if size[1] else &nothing) if met1 is not None else NULL
        with nogil:
            status = se_solve_values(self.solver, value, e0, e1, m0, m1, size)
        _check_sizes(status, "a solve's values")
        return value[0], value[1]


def solve_best_response(int game, double pot, rake, up, hidden, weights, groups, nodes,
                        boards, const double[::1] strategy) -> tuple[float, float]:
    """Each seat's best value against the other's ``strategy`` (every action node's
    rows, node after node), by code apart from the solver's. Use :func:`studeval.solve`."""
    cdef se_solve_spot spot
    cdef se_solve_node *c_nodes = NULL
    cdef double value[2]
    cdef se_status status
    cdef size_t size
    cdef const double *given
    cdef double nothing = 0.0
    kept = []
    try:
        _solve_spot(game, pot, rake, up, hidden, weights, groups, nodes, boards, &spot, &c_nodes,
                    kept)
        size = strategy.shape[0]
        given = &strategy[0] if size else &nothing
        with nogil:
            status = se_solve_best_response(&spot, given, size, value)
    finally:
        free(c_nodes)
    _check_sizes(status, "a best response")
    return value[0], value[1]
