# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, freethreading_compatible=True
"""The compiled layer: converts Python input to card codes and calls the C core.

No poker rules live here. Single-hand calls take a fast path for tuples and
lists of int codes (the common case in tight loops) and hand anything else to
:func:`studeval.cards.to_codes`.
"""

cimport cython
from cpython.buffer cimport PyBUF_FORMAT, PyBUF_STRIDES, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.object cimport PyObject
from libc.stdlib cimport free, malloc
from libc.string cimport memset
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from studeval._cardtext import RANK_OF as _RANK_OF_TEXT
from studeval._cardtext import SUIT_OF as _SUIT_OF_TEXT
from studeval.cards import to_codes
from studeval.errors import (
    BatchOutputError,
    BatchShapeError,
    DuplicateCardError,
    HandSizeError,
    InvalidCardError,
    InvalidRankError,
    StudevalError,
)

NO_LOW = SE_NO_LOW
MAX_THREADS = SE_MAX_THREADS
HIGH_CLASSES = SE_HIGH_CLASSES
LOW_CLASSES = SE_LOW_CLASSES
LOW8_CLASSES = SE_LOW8_CLASSES

ctypedef int (*rank_fn)(const uint8_t *cards, int n) noexcept nogil

cdef extern from "Python.h":
    long PyLong_AsLongAndOverflow(object value, int *overflow) noexcept


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


# ASCII rank and suit letters (either case) to rank 0..12 / suit 0..3, else -1.
cdef signed char _RANK_OF_ASCII[128]
cdef signed char _SUIT_OF_ASCII[128]
for _i in range(128):
    _RANK_OF_ASCII[_i] = -1
    _SUIT_OF_ASCII[_i] = -1
# From the package's one card-text table; "10" is handled in the loop below.
for _text, _i in _RANK_OF_TEXT.items():
    if len(_text) == 1:
        _RANK_OF_ASCII[ord(_text)] = _i
for _text, _i in _SUIT_OF_TEXT.items():
    if ord(_text) < 128:
        _SUIT_OF_ASCII[ord(_text)] = _i


cdef Py_ssize_t _fast_fill_text(str text, uint8_t *buf, Py_ssize_t max_n) noexcept:
    """Fills buf from plain ASCII card text ("As Kd,7h" or "AsKd7h"); -1 sends the
    caller to the slow path, which handles everything else and words the errors."""
    cdef Py_ssize_t n = 0, i = 0, length = len(text)
    cdef Py_UCS4 ch
    cdef int rank, suit
    while i < length:
        ch = text[i]
        if ch == u' ' or ch == u',' or ch == u'\t' or ch == u'\n' or ch == u'\r':
            i += 1
            continue
        if ch >= 128 or n >= max_n:
            return -1
        if ch == u'1' and i + 1 < length and text[i + 1] == u'0':
            rank = 8
            i += 2
        else:
            rank = _RANK_OF_ASCII[ch]
            i += 1
        if rank < 0 or i >= length:
            return -1
        ch = text[i]
        if ch >= 128:
            return -1
        suit = _SUIT_OF_ASCII[ch]
        if suit < 0:
            return -1
        i += 1
        buf[n] = <uint8_t>(rank * 4 + suit)
        n += 1
    return n


cdef extern from "Python.h":
    # Valid for exact tuples and lists alike (the caller checks the type first).
    Py_ssize_t PySequence_Fast_GET_SIZE(object sequence)
    PyObject *PySequence_Fast_GET_ITEM(object sequence, Py_ssize_t i)


cdef inline Py_ssize_t _fast_fill(object hand, uint8_t *buf, Py_ssize_t max_n) noexcept:
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


cdef int _raise_for_status(int status, const uint8_t *buf, Py_ssize_t n, str expected) except -1:
    """The one place that turns a C status into an exception."""
    cdef Py_ssize_t i, j
    if status == SE_BAD_SIZE:
        raise HandSizeError(n, expected)
    if status == SE_INVALID_CARD:
        for i in range(n):
            if buf[i] >= 52:
                raise InvalidCardError(buf[i], detail="codes are 0..51")
    if status == SE_DUPLICATE_CARD:
        for i in range(n):
            for j in range(i):
                if buf[i] == buf[j]:
                    raise DuplicateCardError(buf[i])
    raise StudevalError(se_status_text(status).decode())


cdef int _rank_one(object hand, rank_fn fn, int min_n, int max_n, str expected) except -1:
    cdef uint8_t buf[7]
    cdef Py_ssize_t i
    cdef Py_ssize_t n = _fast_fill(hand, buf, max_n)
    cdef int result
    if n < 0:
        codes = to_codes(hand)
        n = len(codes)
        if n < min_n or n > max_n:
            raise HandSizeError(n, expected)
        for i in range(n):
            buf[i] = <uint8_t>codes[i]
    result = fn(buf, <int>n)
    if result < 0:
        _raise_for_status(result, buf, n, expected)
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
    if status != SE_OK:
        raise StudevalError(se_status_text(status).decode())
    return -1


cdef inline bint _strides_ok(Py_ssize_t row_stride, Py_ssize_t col_stride, Py_ssize_t k):
    """What se_rank_batch_strided reads as it lies (anything else is copied first)."""
    return row_stride >= 1 and col_stride >= 1 and (col_stride > 1 or row_stride >= k)


def rank_fresh(object cards, object empty, bint high, bint low, bint low8, int threads,
               bint check):
    """The quick path: rank a uint8 (N, 5..7) array the core reads as it lies (positive
    strides: C or Fortran order, or a strided view) into new outputs.

    ``empty(n)`` makes each output (numpy.empty of uint16). Returns None when the
    cards are not such an array (the caller converts them), else (first_bad_row,
    high, low, low8): -1 when every row was valid.

    >>> import numpy as np
    >>> rank_fresh(np.array([[48, 45, 42, 39, 32]], dtype=np.uint8),
    ...            lambda n: np.empty(n, dtype=np.uint16), True, False, False, 1, True)[:2]
    (-1, array([1600], dtype=uint16))
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
                results[i] = empty(rows)
                PyObject_GetBuffer(results[i], &outs[got], PyBUF_WRITABLE)
                ptrs[i] = <uint16_t *>outs[got].buf
                got += 1
        status = SE_OK
        if rows > 0:
            with nogil:
                status = se_rank_batch_strided(<const uint8_t *>view.buf, <size_t>rows,
                                               <size_t>view.strides[0],
                                               <size_t>view.strides[1], <int>k, ptrs[0],
                                               ptrs[1], ptrs[2], threads, check, &first_bad)
        if status != SE_OK and status != SE_INVALID_ROW:
            raise StudevalError(se_status_text(status).decode())
        bad = <Py_ssize_t>first_bad if status == SE_INVALID_ROW else -1
        return (bad, results[0], results[1], results[2])
    finally:
        for i in range(got):
            PyBuffer_Release(&outs[i])
        PyBuffer_Release(&view)


def random_hands_into(object out, uint64_t seed):
    """Fill a writable C-contiguous uint8 (N, size) array with random hands of
    distinct cards (se_random_hands: Floyd's subset sampling, seeded).

    >>> import numpy as np
    >>> hands = np.empty((2, 7), dtype=np.uint8); random_hands_into(hands, 1)
    >>> all(len(set(row)) == 7 and max(row) <= 51 for row in hands.tolist())
    True
    """
    cdef Py_buffer view
    cdef se_status status
    PyObject_GetBuffer(out, &view, PyBUF_WRITABLE | PyBUF_STRIDES | PyBUF_FORMAT)
    try:
        if (view.ndim != 2 or view.format == NULL or view.format[0] != b"B"
                or view.format[1] != 0 or view.strides[1] != 1
                or view.strides[0] < view.shape[1] or not 1 <= view.shape[1] <= 52):
            raise BatchShapeError((view.shape[0], view.shape[1]) if view.ndim == 2 else None)
        with nogil:
            status = se_random_hands(seed, <size_t>view.shape[0], <int>view.shape[1],
                                     <uint8_t *>view.buf, <size_t>view.strides[0])
        if status != SE_OK:
            raise StudevalError(se_status_text(status).decode())
    finally:
        PyBuffer_Release(&view)


# ---- hand text ---------------------------------------------------------------------

PARSE_ROW = SE_PARSE_ROW
LINE_BLANK = SE_LINE_BLANK
LINE_OTHER = SE_LINE_OTHER


def parse_lines_into(const uint8_t[::1] text, object cards, object status):
    """Read hand text, one hand per line, into writable C-contiguous uint8 arrays
    ``cards`` (lines, PARSE_ROW) and ``status`` (lines,) (se_parse_lines: a line's
    card count 5..7, LINE_BLANK (0) for a blank line, LINE_OTHER for a line left to
    the caller).
    Returns the number of lines and the count of each status (a tuple indexed by it).

    >>> import numpy as np
    >>> cards, status = np.empty((3, 7), dtype=np.uint8), np.empty(3, dtype=np.uint8)
    >>> parse_lines_into(b"As Kd 7h 2c 3s\\n\\nxx", cards, status)
    (3, (1, 0, 0, 0, 0, 1, 0, 0, 1))
    >>> cards[0].tolist(), status.tolist()
    ([51, 45, 22, 0, 7, 255, 255], [5, 0, 8])
    """
    cdef Py_buffer card_view, status_view
    cdef size_t lines = 0, room
    cdef size_t counts[SE_LINE_OTHER + 1]
    cdef se_status result
    cdef const uint8_t *start = &text[0] if text.shape[0] else NULL
    PyObject_GetBuffer(cards, &card_view, PyBUF_WRITABLE | PyBUF_STRIDES | PyBUF_FORMAT)
    try:
        PyObject_GetBuffer(status, &status_view, PyBUF_WRITABLE | PyBUF_STRIDES | PyBUF_FORMAT)
        try:
            if (card_view.ndim != 2 or card_view.shape[1] != SE_PARSE_ROW
                    or card_view.strides[0] != SE_PARSE_ROW or card_view.strides[1] != 1
                    or card_view.format == NULL or card_view.format[0] != b"B"
                    or card_view.format[1] != 0):
                raise BatchShapeError((card_view.shape[0], card_view.shape[1])
                                      if card_view.ndim == 2 else None)
            if (status_view.ndim != 1 or status_view.strides[0] != 1
                    or status_view.format == NULL or status_view.format[0] != b"B"
                    or status_view.format[1] != 0):
                raise BatchShapeError(None)
            # The core reads the text while it writes both outputs.
            if (_spans_overlap(<const char *>start, <size_t>text.shape[0],
                               <const char *>card_view.buf, <size_t>card_view.len)
                    or _spans_overlap(<const char *>start, <size_t>text.shape[0],
                                      <const char *>status_view.buf, <size_t>status_view.len)
                    or _spans_overlap(<const char *>card_view.buf, <size_t>card_view.len,
                                      <const char *>status_view.buf, <size_t>status_view.len)):
                raise BatchOutputError("the text, the cards and the status must not share memory")
            room = <size_t>min(card_view.shape[0], status_view.shape[0])
            with nogil:
                result = se_parse_lines(start, <size_t>text.shape[0], <uint8_t *>card_view.buf,
                                        <uint8_t *>status_view.buf, room, &lines, counts)
            if result == SE_NO_MEMORY:
                raise BatchOutputError(f"parse_lines_into: the outputs have room for {room}"
                                       " lines; the text has more")
            if result != SE_OK:
                raise StudevalError(f"parse_lines_into: {se_status_text(result).decode()}")
            return lines, tuple([counts[i] for i in range(SE_LINE_OTHER + 1)])
        finally:
            PyBuffer_Release(&status_view)
    finally:
        PyBuffer_Release(&card_view)


# ---- text rows ---------------------------------------------------------------------

MAX_TEXT_FIELDS = SE_MAX_TEXT_FIELDS
# Slack past the output's end for the core's fixed-size copies of short texts.
cdef size_t _TEXT_SLACK = 64


def format_rows(fields, Py_ssize_t rows):
    """Concatenate, row by row, each field's text for the row's index (se_format_rows).

    ``fields``: (text, offsets, index) triples: ``text`` bytes, ``offsets`` a
    contiguous uint32 array (entry i is text[offsets[i]:offsets[i + 1]]), ``index``
    a 1-D uint8 or uint16 array of ``rows`` entries (any stride). Returns the bytes;
    an index outside its table raises, naming the row.

    >>> import numpy as np
    >>> names = (b"ab", np.array([0, 1, 2], dtype=np.uint32), np.array([1, 0], dtype=np.uint8))
    >>> ends = (b";\\n", np.array([0, 2], dtype=np.uint32), np.zeros(2, dtype=np.uint8))
    >>> format_rows([names, ends], 2)
    b'b;\\na;\\n'
    """
    cdef se_text_field cfields[16]
    cdef Py_buffer views[48]
    cdef int held = 0, n = len(fields), i
    cdef size_t room = 0, written = 0, bad = 0, longest
    cdef se_status status
    cdef const uint32_t *offsets
    cdef uint32_t j
    cdef Py_buffer *tv
    cdef Py_buffer *ov
    cdef Py_buffer *iv
    cdef char *buffer
    if not 1 <= n <= SE_MAX_TEXT_FIELDS:
        raise StudevalError(f"format_rows takes 1 to {SE_MAX_TEXT_FIELDS} fields; got {n}")
    try:
        for i, (text, offset_array, index) in enumerate(fields):
            for obj, flags in ((text, PyBUF_FORMAT), (offset_array, PyBUF_FORMAT),
                               (index, PyBUF_STRIDES | PyBUF_FORMAT)):
                PyObject_GetBuffer(obj, &views[held], flags)
                held += 1
            tv = &views[held - 3]
            ov = &views[held - 2]
            iv = &views[held - 1]
            if ov.format == NULL or ov.format[0] != b"I" or ov.len < 8 or ov.len % 4:
                raise StudevalError(f"field {i}: offsets must be a uint32 array of 2 or more")
            if iv.ndim != 1 or iv.shape[0] != rows or iv.format == NULL or (
                    iv.itemsize not in (1, 2)) or iv.format[0] not in (b"B", b"H"):
                raise StudevalError(f"field {i}: the index must be {rows} uint8 or uint16")
            if iv.strides[0] < 0:
                raise StudevalError(f"field {i}: the index has a negative stride")
            offsets = <const uint32_t *>ov.buf
            cfields[i].count = <uint32_t>(ov.len // 4 - 1)
            longest = 0
            for j in range(cfields[i].count):
                if offsets[j + 1] < offsets[j] or offsets[j + 1] > <size_t>tv.len:
                    raise StudevalError(f"field {i}: offsets fall or pass the text's end")
                if offsets[j + 1] - offsets[j] > longest:
                    longest = offsets[j + 1] - offsets[j]
            cfields[i].text = <const char *>tv.buf
            cfields[i].text_size = <size_t>tv.len
            cfields[i].offsets = offsets
            cfields[i].index = iv.buf
            cfields[i].index_stride = <size_t>iv.strides[0]
            cfields[i].index_bytes = <int>iv.itemsize
            room += longest
        room *= <size_t>rows
        # Uninitialised memory (no zero fill), then one copy into the bytes.
        buffer = <char *>malloc(room + _TEXT_SLACK)
        if buffer == NULL:
            raise MemoryError(f"no memory for {room:,} bytes of text")
        try:
            with nogil:
                status = se_format_rows(cfields, n, <size_t>rows, buffer, room + _TEXT_SLACK,
                                        &written, &bad)
            if status == SE_INVALID_ROW:
                raise StudevalError(f"row {bad}: an index is outside its text table")
            if status != SE_OK:
                raise StudevalError(se_status_text(status).decode())
            return PyBytes_FromStringAndSize(buffer, <Py_ssize_t>written)
        finally:
            free(buffer)
    finally:
        for i in range(held):
            PyBuffer_Release(&views[i])


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
    (0, (12, 11, 10, 9, 8))
    """
    cdef int ranks[5]
    cdef int category = se_high_class(_rank_arg(rank, "high", SE_HIGH_CLASSES), ranks)
    if category < 0:
        raise InvalidRankError(rank, "high", SE_HIGH_CLASSES)
    return category, (ranks[0], ranks[1], ranks[2], ranks[3], ranks[4])


def low_class(object rank):
    """The shape (0 = no pair .. 5 = quads) and the five ranks of an A-5 low rank, grouped
    ranks first, from the top; ace (12) plays low.

    >>> low_class(1)
    (0, (3, 2, 1, 0, 12))
    """
    cdef int ranks[5]
    cdef int shape = se_low_class(_rank_arg(rank, "low", SE_LOW_CLASSES), ranks)
    if shape < 0:
        raise InvalidRankError(rank, "low", SE_LOW_CLASSES)
    return shape, (ranks[0], ranks[1], ranks[2], ranks[3], ranks[4])


def _set_batch_min_rows_per_thread(size_t rows):
    """Set the least rows per thread of a batch (tests run small batches threaded).

    >>> old = _batch_min_rows_per_thread(); _set_batch_min_rows_per_thread(old)
    """
    se_set_batch_min_rows_per_thread(rows)


def _batch_min_rows_per_thread():
    """The least rows per thread a batch needs before it starts threads (32768).

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


def batch_kernel():
    """The batch kernel this process uses: ``"avx512"`` (AVX-512 F, BW and VBMI, found
    at run time) or ``"scalar"``; ``STUDEVAL_KERNEL=scalar`` keeps the scalar one.

    >>> batch_kernel() in ("avx512", "scalar")
    True
    """
    return se_batch_kernel().decode()


def cpu_count():
    """Number of online CPUs, the default thread count of batch calls.

    >>> cpu_count() >= 1
    True
    """
    return se_cpu_count()


# ---- equity ----------------------------------------------------------------------

EQ_UNITS = SE_EQ_UNITS
EQ_CHUNK_SAMPLES = SE_EQ_CHUNK_SAMPLES

# The statuses of an equity call that the Python layer turns into answers or errors.
EQ_TOO_BIG = SE_TOO_BIG
EQ_NO_DEAL = SE_NO_DEAL
EQ_STOPPED = SE_STOPPED


@cython.auto_pickle(False)
cdef class EquityProgress:
    """How far an exact equity call is, shared with the core while it runs; ``stop()``
    makes the call return ``EQ_STOPPED`` early. One per call.

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
    """Fill a spot from the game number, per-player lists of codes and dead codes.

    The Python layer (studeval.equity) has validated everything; this only copies."""
    cdef int i, j
    memset(spot, 0, sizeof(se_equity_spot))
    spot.game = game
    spot.players = len(hands)
    if not 2 <= spot.players <= SE_EQ_MAX_PLAYERS or len(dead) > 52:
        raise StudevalError("an equity spot needs 2..8 players and at most 52 dead cards")
    for i, cards in enumerate(hands):
        if len(cards) > 7:
            raise HandSizeError(len(cards), "0 to 7 known cards", seat=i)
        spot.known[i] = len(cards)
        for j, code in enumerate(cards):
            spot.cards[i][j] = <uint8_t>code
    spot.dead_count = len(dead)
    for j, code in enumerate(dead):
        spot.dead[j] = <uint8_t>code
    return 0


cdef tuple _equity_result(se_status status, se_equity_counts *c, int players):
    if status != SE_OK:
        return (status,)
    return (
        0, c.deals, bool(c.community),
        [c.share[i] for i in range(players)],
        [c.share_sq[i] for i in range(players)],
        [c.high_win[i] for i in range(players)],
        [c.high_tie[i] for i in range(players)],
        [c.low_win[i] for i in range(players)],
        [c.low_tie[i] for i in range(players)],
        [c.scoop[i] for i in range(players)],
    )


def equity_deals(int game, hands, dead):
    """The number of deals of a spot and whether a community card is dealt.

    >>> equity_deals(0, [[51, 47, 43, 39, 35, 31], [0, 1, 2, 3, 4, 5]], [])
    (1560.0, False)
    """
    cdef se_equity_spot spot
    cdef int community = 0
    _equity_spot(game, hands, dead, &spot)
    deals = se_equity_deals(&spot, &community)
    return deals, bool(community)


def equity_sample(int game, hands, dead, uint64_t seed, uint64_t first_chunk, uint64_t chunks,
                  int threads):
    """Monte Carlo sums over chunks of EQ_CHUNK_SAMPLES deals, the GIL released.

    Returns (status,) on an error status, else (0, deals, community, share, share_sq,
    high_win, high_tie, low_win, low_tie, scoop). Use :func:`studeval.equity`.

    >>> equity_sample(2, [[48, 1], [44, 45]], [], 1, 0, 1, 1)[1]
    4096
    """
    cdef se_equity_spot spot
    cdef se_equity_counts counts
    cdef se_status status
    _equity_spot(game, hands, dead, &spot)
    with nogil:
        status = se_equity_sample(&spot, seed, first_chunk, chunks, threads, &counts)
    return _equity_result(status, &counts, spot.players)


def equity_enumerate(int game, hands, dead, int threads, EquityProgress progress=None):
    """Exact sums over every deal, walked (split over threads), the GIL released.

    >>> equity_enumerate(0, [[51, 47, 43, 39, 35, 31, 27], [0, 1, 2, 3, 4, 5, 6]], [], 1)[1]
    1
    """
    cdef se_equity_spot spot
    cdef se_equity_counts counts
    cdef se_status status
    cdef se_progress *state = _progress_of(progress)
    _equity_spot(game, hands, dead, &spot)
    with nogil:
        status = se_equity_enumerate(&spot, threads, state, &counts)
    return _equity_result(status, &counts, spot.players)


def equity_count_heads_up(int game, hands, dead, size_t max_records, int threads,
                          EquityProgress progress=None):
    """Exact heads-up sums by counting (no community card), the GIL released.

    >>> equity_count_heads_up(0, [[51, 47, 43], [0, 1, 2]], [], 1 << 24, 1)[1]
    18265297050
    """
    cdef se_equity_spot spot
    cdef se_equity_counts counts
    cdef se_status status
    cdef se_progress *state = _progress_of(progress)
    _equity_spot(game, hands, dead, &spot)
    with nogil:
        status = se_equity_count_heads_up(&spot, max_records, threads, state, &counts)
    return _equity_result(status, &counts, spot.players)


# ---- the fixed-limit engine ------------------------------------------------------

ENGINE_MAX_CHIPS = SE_ENGINE_MAX_CHIPS
# The statuses of an engine call that the Python layer turns into errors.
ENGINE_OK = SE_OK
ENGINE_ILLEGAL = SE_ILLEGAL
ENGINE_BAD_SIZE = SE_BAD_SIZE
ENGINE_INVALID_CARD = SE_INVALID_CARD
ENGINE_DUPLICATE_CARD = SE_DUPLICATE_CARD
ENGINE_NO_MEMORY = SE_NO_MEMORY
ENGINE_NO_DEAL = SE_NO_DEAL


cdef inline object _card_or_none(uint8_t code):
    return None if code == SE_UNKNOWN_CARD else code


cdef tuple _totals(const int64_t *totals, int count):
    if count == 0:
        return ()
    if count == 1:
        return (totals[0],)
    return (totals[0], totals[1])


cdef int _codes_in(object codes, uint8_t *out, int room) except -1:
    """Copy a list of card codes (None: unknown) the Python layer has checked."""
    cdef int i
    if len(codes) > room:
        raise HandSizeError(len(codes), f"at most {room} cards")
    for i, code in enumerate(codes):
        out[i] = SE_UNKNOWN_CARD if code is None else <uint8_t>code
    return len(codes)


@cython.auto_pickle(False)
@cython.final
cdef class TableHand:
    """One hand's state in the core's engine (``se_hand``). :class:`studeval.StudHand`
    checks everything and calls these; each mutating call returns a status
    (``ENGINE_OK`` or the reason it changed nothing).

    >>> t = TableHand(2, 1, 2, 5, 10, 0, 0, 0, 0, 1, 0, 0, [50, 50])
    >>> t.stacks(), t.contributions(), t.events_count
    ([49, 49], [1, 1], 2)
    >>> t.deal(0, [None, None, 51]) == t.deal(1, [None, None, 0]) == ENGINE_OK
    True
    >>> t.actor, t.legal()
    (1, (False, False, None, 2, (5,), (), ()))
    """

    cdef se_hand hand
    cdef bint ready

    def __cinit__(self, int seats, int64_t ante, int64_t bring_in, int64_t small_bet,
                  int64_t big_bet, int64_t rake, bint bring_in_highest, bint ace_low,
                  bint board_low, bint open_pair, bint bring_in_tie_position,
                  bint action_tie_suit, stacks):
        cdef se_table_rules rules
        cdef int64_t chips[8]
        cdef int i
        cdef se_status status
        if not 2 <= seats <= SE_ENGINE_MAX_SEATS or len(stacks) != seats:
            raise StudevalError(f"a table has 2 to 8 seats and a stack for each; got {seats}")
        for i in range(seats):
            chips[i] = stacks[i]
        rules.seats = seats
        rules.ante = ante
        rules.bring_in = bring_in
        rules.small_bet = small_bet
        rules.big_bet = big_bet
        rules.rake = rake
        rules.bring_in_highest = bring_in_highest
        rules.ace_low = ace_low
        rules.board_low = board_low
        rules.open_pair = open_pair
        rules.bring_in_tie_position = bring_in_tie_position
        rules.action_tie_suit = action_tie_suit
        status = se_hand_init(&self.hand, &rules, chips)
        if status == SE_NO_MEMORY:
            raise MemoryError("no memory for a hand's event log")
        if status != SE_OK:
            raise StudevalError(f"the engine refused the table: {se_status_text(status).decode()}")
        self.ready = True

    def __dealloc__(self):
        if self.ready:
            se_hand_free(&self.hand)

    @cython.critical_section
    def copy(self) -> TableHand:
        """An independent copy of the hand's whole state."""
        cdef se_table_rules *r = &self.hand.rules
        cdef TableHand other = TableHand(
            r.seats, r.ante, r.bring_in, r.small_bet, r.big_bet, r.rake, r.bring_in_highest,
            r.ace_low, r.board_low, r.open_pair, r.bring_in_tie_position, r.action_tie_suit,
            [0] * r.seats,
        )
        cdef se_hand fresh
        if se_hand_copy(&fresh, &self.hand) != SE_OK:
            raise MemoryError("no memory to copy a hand's event log")
        se_hand_free(&other.hand)
        other.hand = fresh
        return other

    def deck(self) -> list:
        """The cards deal_random deals next, in order (None before its first shuffle)."""
        if self.hand.deck_count < 0:
            return None
        return [self.hand.deck[i] for i in range(self.hand.deck_count)]

    @cython.critical_section
    def set_deck(self, codes) -> int:
        cdef uint8_t cards[52]
        cdef int count = _codes_in(codes, cards, 52)
        return se_hand_set_deck(&self.hand, cards, count)

    @property
    def actor(self) -> int:
        """The seat to act or to show, -1 when none."""
        return self.hand.actor

    @property
    def street(self) -> int:
        return self.hand.street

    @property
    def showdown(self) -> bool:
        return self.hand.showdown != 0

    @property
    def over(self) -> bool:
        return self.hand.over != 0

    @property
    def settle_due(self) -> bool:
        return self.hand.settle_due != 0

    @property
    def community(self) -> int:
        """The community card, -1 when none."""
        return self.hand.community

    @property
    def rake_taken(self) -> int:
        return self.hand.rake_taken

    @property
    def events_count(self) -> int:
        return self.hand.events_count

    def stacks(self) -> list:
        return [self.hand.stacks[i] for i in range(self.hand.rules.seats)]

    def contributions(self) -> list:
        return [self.hand.contributions[i] for i in range(self.hand.rules.seats)]

    def payouts(self) -> list:
        return [self.hand.payouts[i] for i in range(self.hand.rules.seats)]

    def folded(self) -> list:
        return [self.hand.folded[i] != 0 for i in range(self.hand.rules.seats)]

    def dealt(self) -> list:
        """Seats dealt this street's cards."""
        return [self.hand.dealt[i] != 0 for i in range(self.hand.rules.seats)]

    def out(self) -> list:
        """Seats folded or mucked."""
        return [self.hand.out[i] != 0 for i in range(self.hand.rules.seats)]

    def cards(self, int seat) -> list:
        """A seat's cards in deal order (None where unknown)."""
        if not 0 <= seat < self.hand.rules.seats:
            raise IndexError(seat)
        return [_card_or_none(self.hand.cards[seat][i]) for i in range(self.hand.card_count[seat])]

    def up_cards(self, int seat) -> list:
        if not 0 <= seat < self.hand.rules.seats:
            raise IndexError(seat)
        return [self.hand.up[seat][i] for i in range(self.hand.up_count[seat])]

    def is_known(self, int card) -> bool:
        """Whether a card code has been dealt face up or is known."""
        return 0 <= card < 52 and (self.hand.known >> card) & 1 == 1

    @cython.critical_section
    def legal(self) -> tuple:
        """(fold, check, call, bring_in, complete_to, bet_to, raise_to) of the seat to act."""
        cdef se_legal legal
        se_hand_legal(&self.hand, &legal)
        return (
            legal.fold != 0,
            legal.check != 0,
            None if legal.call < 0 else legal.call,
            None if legal.bring_in < 0 else legal.bring_in,
            _totals(legal.complete_to, legal.complete_count),
            _totals(legal.bet_to, legal.bet_count),
            _totals(legal.raise_to, legal.raise_count),
        )

    @cython.critical_section
    def act(self, int kind, int64_t to) -> int:
        """Act for the seat to act (kind: 0 fold .. 6 raise; to < 0: the smallest total)."""
        if not 0 <= kind <= 6:
            return SE_BAD_ARGUMENT
        return se_hand_act(&self.hand, <se_action>kind, to)

    @cython.critical_section
    def deal(self, int seat, codes) -> int:
        cdef uint8_t cards[7]
        cdef int count = _codes_in(codes, cards, 7)
        return se_hand_deal(&self.hand, seat, cards, count)

    @cython.critical_section
    def deal_community(self, int card) -> int:
        return se_hand_deal_community(&self.hand, card)

    @cython.critical_section
    def deal_random(self, uint64_t seed) -> int:
        return se_hand_deal_random(&self.hand, seed)

    @cython.critical_section
    def show(self, codes=None) -> int:
        cdef uint8_t cards[7]
        cdef int count
        if codes is None:
            return se_hand_show(&self.hand, NULL, 0)
        count = _codes_in(codes, cards, 7)
        return se_hand_show(&self.hand, cards, count)

    @cython.critical_section
    def muck(self) -> int:
        return se_hand_muck(&self.hand)

    @cython.critical_section
    def pay(self, payouts, int64_t rake) -> int:
        cdef int64_t chips[8]
        cdef int i
        if len(payouts) != self.hand.rules.seats:
            return SE_BAD_ARGUMENT
        for i in range(self.hand.rules.seats):
            chips[i] = payouts[i]
        return se_hand_pay(&self.hand, chips, rake)

    @cython.critical_section
    def events(self, size_t start=0) -> list:
        """The event log from ``start``: (kind, seat, amount, to, cards, street) tuples,
        kind 0..6 an action, 7 ante, 8 deal, 9 community, 10 show, 11 muck."""
        cdef size_t i
        cdef se_event *e
        out = []
        for i in range(start, self.hand.events_count):
            e = &self.hand.events[i]
            out.append((
                e.kind, e.seat, e.amount, e.to,
                tuple([_card_or_none(e.cards[j]) for j in range(e.card_count)]), e.street,
            ))
        return out
