"""Process settings that only the ``studeval`` console script makes.

Both change the whole process (its allocator, its children's environment), so
:func:`studeval.cli.console_main` makes them, in a process that is the command,
and :func:`studeval.cli.main` called from a host program never does.

>>> keep_freed_memory()  # glibc keeps freed blocks of up to 32 MiB for reuse
"""

from __future__ import annotations

import os
import sys

__all__ = ["keep_freed_memory", "one_blas_thread"]


def keep_freed_memory() -> None:
    """Ask glibc to keep freed chunk buffers for reuse instead of unmapping them.

    Each chunk of ``studeval rank`` allocates a few MiB of temporaries. By default
    glibc returns such blocks to the kernel when they are freed, and the next
    chunk's pages fault in afresh: that was a fifth of the run time of the command
    on a large file (system time 0.4 s of 2.1 s for 10 million hands). Memory stays
    flat either way, since every chunk needs the same amount. Elsewhere (musl,
    macOS, Windows) this does nothing.
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, TypeError):
        return
    m_trim_threshold, m_mmap_threshold = -1, -3  # from glibc's malloc.h
    mallopt(m_mmap_threshold, 32 << 20)  # glibc's largest allowed value on 64-bit
    mallopt(m_trim_threshold, 128 << 20)


def one_blas_thread() -> None:
    """Keep numpy's OpenBLAS to the calling thread, unless the user says otherwise.

    No command does linear algebra, yet importing numpy starts OpenBLAS's thread
    pool, whose threads spin while they wait: that was a third of the CPU time of
    ``studeval rank`` on 4 million lines (0.70 s against 0.42 s with one thread).
    The setting must be made before numpy is imported, and child processes
    inherit it.
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
