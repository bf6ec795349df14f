# Ranking: one hand at a time, numpy batches, classes (included by _core.pyx).

NO_LOW = SE_NO_LOW
MAX_THREADS = SE_MAX_THREADS
HIGH_CLASSES = SE_HIGH_CLASSES
LOW_CLASSES = SE_LOW_CLASSES
LOW8_CLASSES = SE_LOW8_CLASSES


# Records returned once a call on hot paths (a one-row batch, a rank in words) are
# compiled classes, made without a Python call; the rarer ones are named tuples.


@cython.auto_pickle(False)
@cython.final
cdef class FreshRanks:
    """What rank_fresh returns: ``first_bad``, the first invalid row (-1: none), and
    the new outputs ``high``, ``low`` and ``low8`` (None where not asked for)."""

    cdef readonly Py_ssize_t first_bad
    cdef readonly object high, low, low8

    def __repr__(self) -> str:
        return (f"FreshRanks(first_bad={self.first_bad}, high={self.high!r}, "
                f"low={self.low!r}, low8={self.low8!r})")


cdef FreshRanks _fresh_ranks(Py_ssize_t first_bad, list results):
    cdef FreshRanks out = FreshRanks.__new__(FreshRanks)
    out.first_bad = first_bad
    out.high, out.low, out.low8 = results
    return out


@cython.auto_pickle(False)
@cython.final
cdef class RankClass:
    """A rank's class: the ``category`` (the low shape for a low rank) and its five
    ``ranks`` (0 = deuce .. 12 = ace), most significant first."""

    cdef readonly int category
    cdef readonly tuple ranks

    def __repr__(self) -> str:
        return f"RankClass(category={self.category}, ranks={self.ranks})"


cdef RankClass _rank_class(int category, const int *ranks):
    cdef RankClass out = RankClass.__new__(RankClass)
    out.category = category
    out.ranks = (ranks[0], ranks[1], ranks[2], ranks[3], ranks[4])
    return out

ctypedef int (*rank_fn)(const uint8_t *cards, int n) noexcept nogil

cdef extern from "Python.h":
    long PyLong_AsLongAndOverflow(object value, int *overflow) noexcept
    const char *PyUnicode_AsUTF8AndSize(object text, Py_ssize_t *size) except NULL


# The package's card grammar (studeval.cards.to_codes), for every hand the quick
# paths below do not read: other libraries' card objects, numpy ints, odd spacing.
# studeval.cards hands it over when it is imported, which `import studeval` does
# before any call can reach here; the compiled layer imports no typed module.
cdef object _card_reader = None


def set_card_reader(reader) -> None:
    """Set the function that turns any hand into a list of codes (or raises), for
    single-hand calls given something other than int codes or plain card text.

    >>> from studeval.cards import to_codes; set_card_reader(to_codes)
    """
    global _card_reader
    _card_reader = reader


cdef inline int _fast_code(object item) noexcept:
    """The code of an exact int in 0..51, else -1."""
    cdef int overflow = 0
    cdef long value
    if type(item) is not int:
        return -1
    value = PyLong_AsLongAndOverflow(item, &overflow)
    if overflow or value < 0 or value > 51:
        return -1
    return <int>value



cdef Py_ssize_t _fast_fill_text(str text, uint8_t *buf, Py_ssize_t max_n) except -2:
    """Fills buf from card text the core reads (se_parse_cards); -1 sends the caller
    to the slow path, which reads everything else and words the errors."""
    cdef Py_ssize_t size
    cdef const char *utf8
    try:
        utf8 = PyUnicode_AsUTF8AndSize(text, &size)
    except UnicodeEncodeError:  # a lone surrogate: the slow path words it
        return -1
    cdef int n = se_parse_cards(<const uint8_t *>utf8, <size_t>size, buf, <int>max_n)
    return n if n >= 0 else -1


cdef extern from "Python.h":
    # Valid for exact tuples and lists alike (the caller checks the type first).
    Py_ssize_t PySequence_Fast_GET_SIZE(object sequence)
    PyObject *PySequence_Fast_GET_ITEM(object sequence, Py_ssize_t i)


cdef inline Py_ssize_t _fast_fill(object hand, uint8_t *buf, Py_ssize_t max_n) except -2:
    """Fills buf from a tuple or list of valid int codes, or from plain card text;
    -1 sends the caller to the slow path."""
    cdef Py_ssize_t n, i
    cdef int code
    if type(hand) is str:
        return _fast_fill_text(<str>hand, buf, max_n)
    if type(hand) is not tuple and type(hand) is not list:
        return -1
    n = PySequence_Fast_GET_SIZE(hand)
    if n > max_n:
        return -1
    for i in range(n):
        code = _fast_code(<object>PySequence_Fast_GET_ITEM(hand, i))
        if code < 0:
            return -1
        buf[i] = <uint8_t>code
    return n


cdef int _rank_one(object hand, rank_fn fn, int min_n, int max_n, str expected) except -1:
    cdef uint8_t buf[7]
    cdef Py_ssize_t i
    cdef Py_ssize_t n = _fast_fill(hand, buf, max_n)
    cdef int result
    if n < 0:
        if _card_reader is None:
            raise InvalidCardError(hand, detail="give int codes 0..51 or card text")
        codes = _card_reader(hand)
        n = len(codes)
        if n < min_n or n > max_n:
            raise HandSizeError(n, expected)
        for i in range(n):
            buf[i] = <uint8_t>codes[i]
    result = fn(buf, <int>n)
    if result < 0:
        check_status(result, "a hand", buf, n, expected)
    return result


def high_rank(hand):
    """Rank the best high hand of 5, 6 or 7 cards: 1 (royal flush) .. 7462 (7-5-4-3-2).

    >>> high_rank("As Ks Qs Js Ts 2c 3d"), high_rank((20, 13, 10, 7, 0))
    (1, 7462)
    >>> high_rank("As Ks Qs Js")
    Traceback (most recent call last):
    ...
    studeval.errors.HandSizeError: a hand of 4 cards; expected 5..7 cards
    """
    return _rank_one(hand, se_high_rank, 5, 7, "5..7 cards")


def low_rank(hand):
    """Rank the best ace-to-five low of 5, 6 or 7 cards: 1 (5-4-3-2-A) .. 6175 (K-K-K-K-Q).

    >>> low_rank("Ac 2d 3h 4s 5c Kd Kh"), low_rank("Kc Kd Kh Ks Qc")
    (1, 6175)
    >>> low_rank("Ac Ac 3h 4s 5c")
    Traceback (most recent call last):
    ...
    studeval.errors.DuplicateCardError: duplicate card Ac
    """
    return _rank_one(hand, se_low_rank, 5, 7, "5..7 cards")


def low8_rank(hand):
    """Rank the best 8-or-better low of 5, 6 or 7 cards: 1..56, or None when none qualifies.

    >>> low8_rank("8c 7d 6h 5s 4c Kd Kh"), low8_rank("9c 7d 6h 5s 4c Kd Kh")
    (56, None)
    """
    cdef int result = _rank_one(hand, se_low8_rank, 5, 7, "5..7 cards")
    return None if result == SE_NO_LOW else result


def up_high_rank(cards):
    """Rank 1..4 up cards for the high action rules (pairs and better count,
    straights and flushes never); 1 = best among hands of the same size.

    >>> up_high_rank("Ac Ad"), up_high_rank("Kc Kd"), up_high_rank("As Kd")
    (1, 2, 14)
    """
    return _rank_one(cards, se_up_high_rank, 1, 4, "1..4 up cards")


def up_low_rank(cards):
    """Rank 1..4 up cards in ace-to-five order; 1 = best among hands of the same size.

    >>> up_low_rank("2c Ad"), up_low_rank("3c Ad"), up_low_rank("Ac Ad")
    (1, 2, 79)
    """
    return _rank_one(cards, se_up_low_rank, 1, 4, "1..4 up cards")


cdef int _check_output(Py_ssize_t length, Py_ssize_t rows) except -1:
    if length != rows:
        raise BatchOutputError(f"an output has {length} entries for {rows} rows")
    return 0


cdef inline bint _spans_overlap(const char *a, size_t a_len, const char *b, size_t b_len):
    return a_len > 0 and b_len > 0 and a < b + b_len and b < a + a_len


def rank_batch(const uint8_t[:, :] cards not None, uint16_t[::1] high, uint16_t[::1] low,
               uint16_t[::1] low8, int threads, bint check):
    """Rank every row of a uint8 (N, k) view with positive strides (rows and columns
    anywhere in memory: C order, Fortran order or a strided view).

    Fills the given outputs (None skips one) with the GIL released. Returns -1,
    or the first invalid row when ``check`` is true. Use
    :func:`studeval.high_ranks` and friends, which validate and convert input.
    """
    cdef Py_ssize_t rows = cards.shape[0]
    cdef Py_ssize_t k = cards.shape[1]
    cdef Py_ssize_t row_stride = cards.strides[0]
    cdef Py_ssize_t col_stride = cards.strides[1]
    cdef size_t first_bad = 0
    cdef se_status status
    cdef uint16_t *high_ptr = NULL
    cdef uint16_t *low_ptr = NULL
    cdef uint16_t *low8_ptr = NULL
    cdef const uint8_t *data
    if k < 5 or k > 7:
        raise HandSizeError(k, "5..7 cards per row")
    if rows == 0:
        return -1
    if not _strides_ok(row_stride, col_stride, k):
        raise BatchShapeError((rows, k))  # strides positive; contiguous rows k bytes apart
    if high is not None:
        _check_output(high.shape[0], rows)
        high_ptr = &high[0]
    if low is not None:
        _check_output(low.shape[0], rows)
        low_ptr = &low[0]
    if low8 is not None:
        _check_output(low8.shape[0], rows)
        low8_ptr = &low8[0]
    data = &cards[0, 0]
    # The outputs are written while threads read the cards: refuse any overlap
    # (the Python layer does too; this guards direct callers of this function).
    cdef const char *cards_end = (<const char *>data + (rows - 1) * row_stride
                                  + (k - 1) * col_stride + 1)
    cdef const char *starts[3]
    cdef int n_out = 0, i, j
    for ptr in (<size_t>high_ptr, <size_t>low_ptr, <size_t>low8_ptr):
        if ptr:
            starts[n_out] = <const char *>ptr
            n_out += 1
    for i in range(n_out):
        if _spans_overlap(starts[i], 2 * rows, <const char *>data,
                          <size_t>(cards_end - <const char *>data)):
            raise BatchOutputError("an output shares memory with the cards")
        for j in range(i):
            if _spans_overlap(starts[i], 2 * rows, starts[j], 2 * rows):
                raise BatchOutputError("two outputs share memory")
    with nogil:
        status = se_rank_batch_strided(data, <size_t>rows, <size_t>row_stride,
                                       <size_t>col_stride, <int>k, high_ptr, low_ptr,
                                       low8_ptr, threads, check, &first_bad)
    if status == SE_INVALID_ROW:
        return <Py_ssize_t>first_bad
    check_status(status, "rank_batch")
    return -1


cdef inline bint _strides_ok(Py_ssize_t row_stride, Py_ssize_t col_stride, Py_ssize_t k):
    """What se_rank_batch_strided reads as it lies (anything else is copied first)."""
    return row_stride >= 1 and col_stride >= 1 and (col_stride > 1 or row_stride >= k)


#: Below this many rows a batch keeps the GIL: releasing and taking it again costs
#: more than ranking them.
DEF _NOGIL_ROWS = 512


def rank_fresh(object cards, object empty, object dtype, bint high, bint low, bint low8,
               int threads, bint check):
    """The quick path: rank a uint8 (N, 5..7) array the core reads as it lies (positive
    strides: C or Fortran order, or a strided view) into new outputs.

    ``empty(n, dtype)`` makes each output (numpy.empty, numpy's uint16). Returns None
    when the cards are not such an array (the caller converts them), else a
    ``FreshRanks``: ``first_bad`` is -1 when every row was valid, and the three
    outputs (None where not wanted).

    >>> import numpy as np
    >>> done = rank_fresh(np.array([[48, 45, 42, 39, 32]], dtype=np.uint8), np.empty,
    ...                   np.dtype(np.uint16), True, False, False, 1, True)
    >>> done.first_bad, done.high, done.low
    (-1, array([1600], dtype=uint16), None)
    """
    cdef Py_buffer view
    cdef Py_buffer outs[3]
    cdef uint16_t *ptrs[3]
    cdef bint wanted[3]
    cdef int got = 0, i
    cdef size_t first_bad = 0
    cdef se_status status
    cdef Py_ssize_t rows, k
    if PyObject_GetBuffer(cards, &view, PyBUF_STRIDES | PyBUF_FORMAT) != 0:
        return None
    try:
        if (view.ndim != 2 or view.format == NULL or view.format[0] != b"B"
                or view.format[1] != 0 or not 5 <= view.shape[1] <= 7
                or not _strides_ok(view.strides[0], view.strides[1], view.shape[1])):
            return None
        rows = view.shape[0]
        k = view.shape[1]
        wanted[0] = high
        wanted[1] = low
        wanted[2] = low8
        results = [None, None, None]
        for i in range(3):
            ptrs[i] = NULL
            if wanted[i]:
                results[i] = empty(rows, dtype)
                PyObject_GetBuffer(results[i], &outs[got], PyBUF_WRITABLE)
                ptrs[i] = <uint16_t *>outs[got].buf
                got += 1
        status = SE_OK
        if rows >= _NOGIL_ROWS:
            with nogil:
                status = se_rank_batch_strided(<const uint8_t *>view.buf, <size_t>rows,
                                               <size_t>view.strides[0],
                                               <size_t>view.strides[1], <int>k, ptrs[0],
                                               ptrs[1], ptrs[2], threads, check, &first_bad)
        elif rows > 0:
            status = se_rank_batch_strided(<const uint8_t *>view.buf, <size_t>rows,
                                           <size_t>view.strides[0], <size_t>view.strides[1],
                                           <int>k, ptrs[0], ptrs[1], ptrs[2], threads, check,
                                           &first_bad)
        if status == SE_INVALID_ROW:
            return _fresh_ranks(<Py_ssize_t>first_bad, results)
        check_status(status, "rank_fresh")
        return _fresh_ranks(-1, results)
    finally:
        for i in range(got):
            PyBuffer_Release(&outs[i])
        PyBuffer_Release(&view)


cdef int _rank_arg(object rank, str ranking, int last) except? -1:
    """A rank as a C int; anything that is not an int in range is an InvalidRankError."""
    if isinstance(rank, bool) or not hasattr(rank, "__index__"):
        raise InvalidRankError(rank, ranking, last)
    value = rank.__index__()
    if not 1 <= value <= last:
        raise InvalidRankError(rank, ranking, last)
    return value


def high_class(object rank):
    """The category (0 = straight flush .. 8 = high card) and the five ranks (0 = deuce ..
    12 = ace) of a high rank, most significant first.

    >>> high_class(1)
    RankClass(category=0, ranks=(12, 11, 10, 9, 8))
    """
    cdef int ranks[5]
    cdef int category = se_high_class(_rank_arg(rank, "high", SE_HIGH_CLASSES), ranks)
    if category < 0:
        raise InvalidRankError(rank, "high", SE_HIGH_CLASSES)
    return _rank_class(category, ranks)


def low_class(object rank):
    """The shape (0 = no pair .. 5 = quads) and the five ranks of an A-5 low rank, grouped
    ranks first, from the top; ace (12) plays low.

    >>> low_class(1)
    RankClass(category=0, ranks=(3, 2, 1, 0, 12))
    """
    cdef int ranks[5]
    cdef int shape = se_low_class(_rank_arg(rank, "low", SE_LOW_CLASSES), ranks)
    if shape < 0:
        raise InvalidRankError(rank, "low", SE_LOW_CLASSES)
    return _rank_class(shape, ranks)


def _set_batch_min_rows_per_thread(size_t rows):
    """Set the least rows per thread of a batch (tests run small batches threaded).

    >>> old = _batch_min_rows_per_thread(); _set_batch_min_rows_per_thread(old)
    """
    se_set_batch_min_rows_per_thread(rows)


def _batch_min_rows_per_thread():
    """The least rows per thread a batch needs before it starts threads (65536).

    >>> _batch_min_rows_per_thread() >= 1
    True
    """
    return se_batch_min_rows_per_thread()


def _threads_started():
    """How many worker threads the C core has started in this process.

    >>> _threads_started() >= 0
    True
    """
    return se_threads_started()


def batch_kernel(bint explain=False):
    """The batch kernel this process uses: ``"avx512"`` (AVX-512 F, BW, VBMI and
    BITALG, its tables read by gathers), ``"avx512_loads"`` (the same, its tables read
    by scalar loads, for CPUs whose gathers are slow), ``"avx2"`` or ``"scalar"``,
    chosen once at the first batch among those the CPU runs (:func:`batch_kernels`),
    calls for the high rank alone apart from calls with a low (``"high/lows"`` when
    the two differ, ``"scalar/avx2"`` say).

    By default ("auto") each kernel ranks the same 16,384 random hands, once untimed
    to bring its tables into cache and once timed in the thread's CPU time, kernels in
    turn, best of 5 rounds; the fastest vector kernel is taken only when it is 20%
    faster than the scalar loop, since a busy machine can make the scalar loop look
    slower than it runs (and ``avx512_loads`` over ``avx512`` only when 30% faster:
    hands in cache favour the loads, a batch of millions the gathers). This costs a
    few milliseconds at the first batch call.
    ``STUDEVAL_KERNEL=scalar``, ``avx2``, ``avx512`` or ``avx512_loads`` takes that
    kernel (the scalar one where it is not run here);
    ``STUDEVAL_KERNELS=scalar,avx2`` keeps only the kernels named (the scalar loop
    always), to imitate a CPU with fewer. ``explain=True``: why, as one line: the
    timing's cost, hands and rounds, the rule, then each kernel's ns a hand and the
    pick, for the high rank alone and for all three (or the setting that chose it).

    >>> batch_kernel() in ("avx512", "avx512_loads", "avx2", "scalar") or "/" in batch_kernel()
    True
    >>> batch_kernel(explain=True).startswith(("auto", "STUDEVAL_KERNEL"))
    True
    """
    return (se_batch_kernel_why() if explain else se_batch_kernel()).decode()


def batch_kernels():
    """The batch kernels this CPU runs, the scalar loop first.

    >>> batch_kernels()[0]
    'scalar'
    """
    return tuple(se_batch_kernels().decode().split())


def cpu_count():
    """Number of online CPUs, the default thread count of batch calls.

    >>> cpu_count() >= 1
    True
    """
    return se_cpu_count()
