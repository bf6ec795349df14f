# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, freethreading_compatible=True
"""The compiled layer: converts Python values to C arrays and calls the C core.

No poker rules live here, and no typed Python module is imported: only the error
classes, which every topic below raises through the one status mapper. The
topics are textual includes of one extension (one module, one set of C
declarations in ``_core.pxd``), each file holding one part of ``studeval.h``.
"""

cimport cython
from cpython.buffer cimport PyBUF_FORMAT, PyBUF_STRIDES, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.object cimport PyObject
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memset
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from collections import namedtuple
from functools import partial

# The core's records name this module: namedtuple would guess the caller's module
# from a frame, which compiled code lacks (pickle could not find the type).
_record = partial(namedtuple, module="studeval._core")

from studeval.errors import (
    BatchOutputError,
    BatchShapeError,
    CoreCallError,
    DuplicateCardError,
    HandSizeError,
    IllegalActionError,
    InvalidCardError,
    InvalidRankError,
    NoDealError,
    StoppedError,
    TooBigError,
)

#: The core's version (SE_VERSION in studeval.h), the same as the package's.
CORE_VERSION = SE_VERSION.decode()

# Every se_status to its exception: check_status(), raise_for_status().
include "_status.pxi"
# One hand at a time, numpy batches, classes, the batch kernel and its threads.
include "_rank.pxi"
# Hand text in (se_parse_lines), text rows out (se_format_rows), random hands.
include "_text.pxi"
# Equity: Monte Carlo, enumeration and heads-up counting, with progress and stop.
include "_equity.pxi"
# Queries (PQL): trials dealt, or given, run through a program of operations.
include "_query.pxi"
# Solving a heads-up street: CFR+ over whole ranges, best responses.
include "_solve.pxi"
# The fixed-limit engine's state machine (se_hand).
include "_engine.pxi"
# Card-room hand histories read by templates and replayed on the engine.
include "_history.pxi"
# Many tables stepped together in C, for agents.
include "_tables.pxi"
# Finished hands' logs as a database's rows.
include "_hand_rows.pxi"
