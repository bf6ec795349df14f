# Hand text in, text rows out, random hands (included by _core.pyx).

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
        check_status(status, "random_hands_into")
    finally:
        PyBuffer_Release(&view)


PARSE_ROW = SE_PARSE_ROW
#: What parse_lines_into returns: the lines read and how many have each status.
ParsedLines = _record("ParsedLines", "lines counts")
LINE_BLANK = SE_LINE_BLANK
LINE_OTHER = SE_LINE_OTHER


def parse_lines_into(const uint8_t[::1] text, object cards, object status):
    """Read hand text, one hand per line, into writable C-contiguous uint8 arrays
    ``cards`` (lines, PARSE_ROW) and ``status`` (lines,) (se_parse_lines: a line's
    card count 5..7, LINE_BLANK (0) for a blank line, LINE_OTHER for a line left to
    the caller).
    Returns a ``ParsedLines``: the number of lines, and the count of each status (a
    tuple indexed by it).

    >>> import numpy as np
    >>> cards, status = np.empty((3, 7), dtype=np.uint8), np.empty(3, dtype=np.uint8)
    >>> parse_lines_into(b"As Kd 7h 2c 3s\\n\\nxx", cards, status)
    ParsedLines(lines=3, counts=(1, 0, 0, 0, 0, 1, 0, 0, 1))
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
            check_status(result, f"parse_lines_into: room for {room} lines")
            return ParsedLines(lines, tuple([counts[i] for i in range(SE_LINE_OTHER + 1)]))
        finally:
            PyBuffer_Release(&status_view)
    finally:
        PyBuffer_Release(&card_view)


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
        raise CoreCallError(f"format_rows takes 1 to {SE_MAX_TEXT_FIELDS} fields; got {n}")
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
                raise CoreCallError(f"field {i}: offsets must be a uint32 array of 2 or more")
            if iv.ndim != 1 or iv.shape[0] != rows or iv.format == NULL or (
                    iv.itemsize not in (1, 2)) or iv.format[0] not in (b"B", b"H"):
                raise CoreCallError(f"field {i}: the index must be {rows} uint8 or uint16")
            if iv.strides[0] < 0:
                raise CoreCallError(f"field {i}: the index has a negative stride")
            offsets = <const uint32_t *>ov.buf
            cfields[i].count = <uint32_t>(ov.len // 4 - 1)
            longest = 0
            for j in range(cfields[i].count):
                if offsets[j + 1] < offsets[j] or offsets[j + 1] > <size_t>tv.len:
                    raise CoreCallError(f"field {i}: offsets fall or pass the text's end")
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
            check_status(status, f"row {bad}: an index is outside its text table"
                         if status == SE_INVALID_ROW else "format_rows")
            return PyBytes_FromStringAndSize(buffer, <Py_ssize_t>written)
        finally:
            free(buffer)
    finally:
        for i in range(held):
            PyBuffer_Release(&views[i])
