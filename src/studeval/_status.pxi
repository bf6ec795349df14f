# The one place that turns a core status into an exception (included by _core.pyx).

cdef object _status_error(int status, str what, const uint8_t *cards, Py_ssize_t n,
                          str expected):
    """The exception for a status other than SE_OK. ``what`` names the call and its
    input; ``cards``/``n`` (n >= 0 when given) are the hand it read, so that a card
    error can name the card and the hand's size."""
    cdef Py_ssize_t i, j
    words = se_status_text(status).decode()
    if n >= 0 and status == SE_BAD_SIZE:
        return HandSizeError(n, expected)
    if n >= 0 and status == SE_INVALID_CARD:
        for i in range(n):
            if cards[i] >= 52:
                return InvalidCardError(cards[i], detail="codes are 0..51")
    if n >= 0 and status == SE_DUPLICATE_CARD:
        for i in range(n):
            for j in range(i):
                if cards[i] == cards[j]:
                    return DuplicateCardError(cards[i])
    if status == SE_NO_DEAL:
        return NoDealError(f"{what}: too few unseen cards are left to deal (when seventh "
                           "street runs out, one community card is dealt to every seat)")
    if status == SE_ILLEGAL:
        return IllegalActionError(f"{what} is not allowed now")
    if status == SE_NO_MEMORY:
        return MemoryError(f"{what}: {words}")
    if status == SE_NO_ROOM:
        return BatchOutputError(f"{what}: {words}")
    if status == SE_STOPPED:
        return StoppedError(f"{what}: stopped before the count was done")
    if status == SE_TOO_BIG:
        return TooBigError(f"{what}: {words}")
    # SE_BAD_ARGUMENT, SE_INVALID_ROW, a card status without the hand, and any status
    # this layer does not know: the public functions check their input first, so
    # only direct callers of this module see these.
    return CoreCallError(f"{what}: {words}", words)


cdef inline int check_status(int status, str what, const uint8_t *cards=NULL,
                             Py_ssize_t n=-1, str expected="") except -1:
    """Raise the exception of a status other than SE_OK; SE_OK returns 0."""
    if status == SE_OK:
        return 0
    raise _status_error(status, what, cards, n, expected)


def raise_for_status(int status, str what) -> None:
    """Raise the exception of a core status (nothing for 0, ``SE_OK``), for the Python
    layer's calls that return a status (the engine's).

    >>> raise_for_status(0, "deal")
    >>> raise_for_status(-10, "seat 1 raise")
    Traceback (most recent call last):
    ...
    studeval.errors.IllegalActionError: seat 1 raise is not allowed now
    """
    check_status(status, what)
