"""Many played hands as a tracker keeps them: a row a hand and player, in the hand's
own money, and a report of every hand and file that was not analysed.

:func:`analyze_many` reads card rooms' histories and PHH files (on a Dask cluster
when they are large) or takes hands, and gives a pandas DataFrame with the columns
:data:`COLUMNS`. Money is never mixed: each row carries its ``currency`` (``None``
for chips) and ``tournament`` (``None`` for a cash game), and :func:`money_of` names
the unit a total of rows may be given in. A hand is analysed once however many
files hold it or however often it is given (by room and hand id), and what was not
analysed is in
``frame.attrs["refused"]``, with a reason a row.

>>> from studeval.play import random_hand
>>> frame = analyze_many([random_hand("stud", 2, seed=s, stack=20) for s in range(3)])
>>> list(frame.columns[3:6]), len(frame), round(float(frame["luck"].sum()), 9)
(['player', 'seat', 'net'], 6, 0.0)
>>> len(frame.attrs["refused"])
0
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Iterable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from studeval._collection import collection_paused
from studeval._copies import FACTS, HANDS, KEY, LINE, Rows, first_error, once, report
from studeval.analysis import analyzed_seats
from studeval.errors import OptionError, install_hint
from studeval.handinfo import HandInfo

if TYPE_CHECKING:
    import pandas

    from studeval.engine import StudHand
    from studeval.histories._bulk import CompactHands
    from studeval.histories._record import History

__all__ = ["COLUMNS", "LARGE_INPUT", "REFUSED_COLUMNS", "analyze_many", "hand_rows", "money_of"]

#: The columns of :func:`analyze_many`'s frame. ``net``, ``expected_net`` and
#: ``luck`` are in the hand's money (chips times ``unit``), whose currency is
#: ``currency`` (``None``: chips); ``tournament`` is the tournament's id (``None``:
#: a cash game); ``played_at`` when the room says.
COLUMNS = (
    "source", "site", "hand_id", "player", "seat", "net", "expected_net", "luck", "all_in",
    "showdown", "exact", "unit", "currency", "tournament", "played_at",
)  # fmt: skip
#: The columns of ``frame.attrs["refused"]``: a row a hand or file not analysed,
#: its ``status`` (``"refused"``, ``"not stud"``, ``"duplicate"``, ``"not a
#: history"``) and the ``reason``.
REFUSED_COLUMNS = ("source", "line", "site", "hand_id", "status", "reason")
#: Files more than this many bytes in all are analysed on a local Dask cluster
#: when no client is given.
LARGE_INPUT = 64 * 1024 * 1024


def money_of(row: dict[str, Any]) -> str:
    """The unit a row's money is in: ``"tournament chips"`` in a tournament (whatever
    the buy-in's currency), else its currency, else ``"<room> chips"``: the chips of
    a cash game whose room's text names no currency (play money, or money the text
    does not name), never added to another room's; ``"chips"`` for a hand no room
    played. Rows of different units are never added together.

    >>> money_of({"currency": "USD", "tournament": None})
    'USD'
    >>> money_of({"currency": "USD", "tournament": "74"}), money_of({"currency": None})
    ('tournament chips', 'chips')
    >>> money_of({"currency": None, "tournament": None, "site": "KingsClub"})
    'KingsClub chips'
    """
    currency, tournament, site = row.get("currency"), row.get("tournament"), row.get("site")
    if isinstance(tournament, str) and tournament:  # a frame's row holds NaN for None
        return "tournament chips"  # whatever currency the buy-in was in
    if isinstance(currency, str) and currency:
        return currency
    return f"{site} chips" if isinstance(site, str) and site else "chips"


def hand_rows(hand: StudHand | History, where: str = "", player: str | None = None,
              method: str = "auto", seed: int | None = None) -> list[dict[str, Any]]:  # fmt: skip
    """:func:`analyze_many`'s rows for one hand: one a player (only ``player``'s when
    given; none when ``player`` did not play it).

    >>> from studeval.play import random_hand
    >>> [(r["player"], r["luck"]) for r in hand_rows(random_hand("stud", 2, seed=1))]
    [('Seat 0', 0.0), ('Seat 1', 0.0)]
    """
    return _rows_and_players(hand, where, player, method, seed)[0]


def _rows_and_players(hand: StudHand | History, where: str, player: str | None, method: str,
                      seed: int | None) -> tuple[list[dict[str, Any]], list[str]]:  # fmt: skip
    """:func:`hand_rows`, and the players dealt in (every seat's name)."""
    _, names, found = analyzed_seats(hand, method, seed)
    if player is not None and player not in names:
        return [], names
    from studeval.histories._text import named_currency  # a PHH record's "usd", "$": USD

    info = HandInfo.of(hand)  # a PHH record's venue and hand: the same as the room's text
    unit, site, hand_id = info.unit, info.venue, info.hand_id
    tournament, played_at = info.tournament, info.played_at
    currency = named_currency(info.currency) if info.currency else None
    rows = []
    unit_text = str(unit)
    in_chips = unit == 1  # the same floats, without the Decimal arithmetic
    for seat, name in enumerate(names):
        if player is not None and name != player:
            continue
        net, expected_net, luck = found.net[seat], found.expected_net[seat], found.luck[seat]
        net_money = float(net) if in_chips else float(net * unit)
        rows.append({
            "source": where, "site": site, "hand_id": hand_id,
            "player": name, "seat": seat, "net": net_money,
            # The same floats as Decimal(repr(x)) * unit, without it where it is plain.
            "expected_net": expected_net if in_chips else net_money if expected_net == net
            else _times(expected_net, unit),
            "luck": luck if in_chips or luck == 0 else _times(luck, unit),
            "all_in": found.all_in, "showdown": found.showdown, "exact": found.exact,
            "unit": unit_text, "currency": currency, "tournament": tournament,
            "played_at": played_at,
        })  # fmt: skip
    return rows, names


def _times(chips: float, unit: Decimal) -> float:
    """``chips`` (as written) times ``unit``, as a float."""
    return float(Decimal(repr(chips)) * unit)


def _columns(rows: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """Rows (dicts) as columns."""
    return {name: [row[name] for row in rows] for name in COLUMNS}


@collection_paused()  # (on a Dask worker too)
def _file_rows(path: str, player: str | None, method: str, seed: int | None,
               errors: str = "collect") -> Rows:  # fmt: skip
    """One file's rows, and its reports (hands and the file not analysed). Hands
    repeated within the file count once; across files, :func:`analyze_many` sees to
    it."""
    # The readers load when files are read: ``import studeval`` stays light.
    from studeval.histories._seen import hand_facts_of, hand_key_of
    from studeval.histories._sources import SeenHands, load_file

    columns: dict[str, list[Any]] = {name: [] for name in (*COLUMNS, LINE, FACTS, KEY)}
    hands: list[tuple[object, ...]] = []  # (HANDS: the file's hands, where one player's rows)
    reports: list[dict[str, Any]] = []
    for loaded in load_file(path, SeenHands(), compact=True):
        if loaded.error is not None:
            # errors="raise": kept whole, raised by analyze_many once the copies
            # across files are known (one of them may come first); the rest of the
            # file is not read.
            reports.append(report(loaded.error, path, keep=errors == "raise"))
            if errors == "raise" and loaded.error.status != "duplicate":
                break
        elif loaded.compact is not None:
            for name, values in _batch_columns(loaded.compact, path, player).items():
                columns[name] += values
            columns[KEY] += [None] * (len(columns["site"]) - len(columns[KEY]))  # (rooms')
            if player is not None:
                batch = loaded.compact
                hands += [(site, hand_id, path, line, tuple(sorted(dealt)), facts, hand_id)
                          for (site, hand_id, line, dealt), facts
                          in zip(batch.keys(), batch.facts(), strict=True)]  # fmt: skip
        else:
            rows, names = _rows_and_players(loaded.found, path, player, method, seed)
            for name, values in _columns(rows).items():
                columns[name] += values
            history = loaded.history
            line = None if history is None else history.line
            columns[LINE] += [line] * len(rows)
            assert loaded.hand is not None  # (a room's hand's, or a PHH record's)
            info = HandInfo.of(loaded.found)
            facts = hand_facts_of(loaded.hand, info)
            columns[FACTS] += [facts] * len(rows)
            key = hand_key_of(loaded.found)  # (a PHH record no room numbered: a digest)
            columns[KEY] += [None if key == (info.venue, info.hand_id) else key] * len(rows)
            if player is not None:
                hands.append((*key, path, line, tuple(sorted(names)), facts, info.hand_id))
    if player is not None:
        columns[HANDS] = hands
    return columns, reports


def _batch_columns(batch: CompactHands, where: str, player: str | None) -> dict[str, list[Any]]:
    """:func:`hand_rows`' rows of a batch of hands read in C where no seat put its
    whole stack in, or the others folded to it: the analysis of such a hand is its
    payouts (no all-in, no equity: expected net is net, luck 0, exact), computed
    here for all at once: for every player, the rows of all the batches of its
    read, made once (a batch runs from one all-in to the next), each batch's taken
    from them."""
    import numpy as np  # (the command line's --version loads no numpy)

    from studeval.histories._bulk import CompactHands

    span = batch.span() if player is None else None
    if span is None:
        return _compact_columns(batch, where, player)
    read = batch.read
    key = ("analyze_many rows", where)
    whole = read.derived.get(key)
    if whole is None:
        every = CompactHands(read, np.flatnonzero(read.arrays["status"] == 0))
        whole = read.derived[key] = _compact_columns(every, where, None)
    start, end = span
    return {name: values[start:end] for name, values in whole.items()}  # type: ignore[attr-defined]


def _compact_columns(batch: CompactHands, where: str, player: str | None) -> dict[str, list[Any]]:
    """:func:`_batch_columns` for the hands of ``batch``."""
    import numpy as np

    from studeval.histories._bulk import UNIT_TEXTS

    rows = batch.seat_rows()
    hands = np.repeat(batch.hands, batch.arrays["seats"][batch.hands])
    names = batch.seat_names
    if player is not None:
        mine = [n == player for n in names]
        rows, hands = rows[mine], hands[mine]
        names = [n for n in names if n == player]
    arrays = batch.arrays
    chips = arrays["payout"][rows] - arrays["paid"][rows]
    places = arrays["places"][hands]
    # Chips times a unit of 10**-places, as float(chips * unit) rounds it: one
    # correctly rounded division where both are exact floats. The expected net is
    # the analysis's float of the chips (hand_rows' rounding of it where that float
    # is not the chips).
    net = chips / np.power(10.0, places)
    if (np.abs(chips) < 2**53).all():
        money = expected = net.tolist()
    else:
        money, expected = [], []
        for c, h in zip(chips.tolist(), hands.tolist(), strict=True):
            money.append(float(c * batch.unit(h)))
            expected.append(money[-1] if float(c) == c else _times(float(c), batch.unit(h)))
    by_hand: dict[int, tuple[object, ...]] = {}
    headers = batch.headers
    unit_texts = [UNIT_TEXTS[p] for p in arrays["places"][batch.hands].tolist()]
    for hand, currency, unit in zip(batch.hands.tolist(), batch.currencies(), unit_texts,
                                    strict=True):  # fmt: skip
        header = headers[hand]
        assert header is not None
        by_hand[hand] = (header.hand_id, currency, header.tournament, header.played_at, unit)
    facts = [by_hand[h] for h in hands.tolist()]
    by_facts = dict(zip(batch.hands.tolist(), batch.facts(), strict=True))
    count = len(names)
    return {
        "source": [where] * count, "site": [batch.site] * count,
        "hand_id": [f[0] for f in facts], "player": names,
        "seat": (rows - 8 * hands).tolist(), "net": money, "expected_net": expected,
        "luck": [0.0] * count, "all_in": [None] * count,
        "showdown": arrays["showdown"][hands].astype(bool).tolist(), "exact": [True] * count,
        "unit": [f[4] for f in facts], "currency": [f[1] for f in facts],
        "tournament": [f[2] for f in facts], "played_at": [f[3] for f in facts],
        LINE: [batch.read.lines[h] for h in hands.tolist()],
        FACTS: [by_facts[h] for h in hands.tolist()],
    }  # fmt: skip


def _frames(columns: dict[str, list[Any]], reports: list[dict[str, Any]]) -> pandas.DataFrame:
    import numpy as np
    import pandas

    names = [c for c in COLUMNS if c != "played_at"]
    # Columns always of ints, floats or bools: as arrays, read a tenth of the time.
    typed = {name: np.array(columns[name], dtype) for name, dtype in (
        ("seat", "int64"), ("net", "float64"), ("expected_net", "float64"),
        ("luck", "float64"), ("showdown", "bool"), ("exact", "bool"))}  # fmt: skip
    # No rows: the columns of no records (object), as pandas reads an empty list.
    frame = pandas.DataFrame({name: typed.get(name, columns[name]) for name in names}
                             if columns["seat"] else [], columns=names)  # fmt: skip
    # A hand's rows share its time object: pandas reads each distinct object once
    # (by identity: equal instants in two zones are not one time), which halves the
    # frame's making, into the dtype reading every row would give (the same values).
    place_of: dict[int, int] = {}
    times: list[object] = []
    places: list[int] = []
    for time in columns["played_at"]:
        if (place := place_of.get(id(time))) is None:
            place = place_of[id(time)] = len(times)
            times.append(time)
        places.append(place)
    by_row = _times_column(times).take(places).reset_index(drop=True)
    frame.insert(COLUMNS.index("played_at"), "played_at", by_row)
    frame.attrs["refused"] = pandas.DataFrame(reports, columns=list(REFUSED_COLUMNS))
    return frame


def _times_column(times: list[object]) -> pandas.Series:
    """``times`` as a column, as pandas reads the objects (the dtype it infers). Where
    each is a datetime of one zone (the same tzinfo, or none), made from their
    microseconds since 1970: a third of the time pandas takes to read them."""
    zone = getattr(times[0], "tzinfo", None) if times else None
    if times and all(type(t) is datetime.datetime and t.tzinfo is zone for t in times):
        import numpy as np
        import pandas

        epoch = _EPOCH if zone is not None else _EPOCH.replace(tzinfo=None)
        try:
            micros = [(t - epoch) // _MICROSECOND for t in times]  # type: ignore[operator]
            dtype = _inferred_times(times[:1]).dtype  # the unit and zone pandas takes
            if dtype.kind != "M":  # (pandas 2 keeps a year it cannot hold as objects)
                return _inferred_times(times)
            column = pandas.Series(np.array(micros, "datetime64[us]"))
            if zone is not None:
                column = column.dt.tz_localize("UTC").dt.tz_convert(zone)
            return column.astype(dtype)
        except (TypeError, ValueError, OverflowError):  # an offset of None, a far year
            pass
    return _inferred_times(times)


_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_MICROSECOND = datetime.timedelta(microseconds=1)


def _inferred_times(times: list[object]) -> pandas.Series:
    """``times`` as a column as pandas reads the objects."""
    import pandas

    return pandas.DataFrame({"played_at": times}, dtype=None if times else object)["played_at"]


def _paths(source: object) -> list[str] | None:
    """The files ``source`` names (a path, or a list of paths; directories read
    whole), or None when it holds hands."""
    if isinstance(source, (str, os.PathLike)):
        names: list[object] = [source]
    elif isinstance(source, (list, tuple)) and source and all(
            isinstance(x, (str, os.PathLike)) for x in source):  # fmt: skip
        names = list(source)
    else:
        return None
    from studeval.histories._files import files_in, first_missing

    if (missing := first_missing(names)) is not None:
        raise OptionError(f"no such file or directory: {missing}")
    return files_in([str(name) for name in names])


def _checked(method: str, errors: str, client: object) -> None:
    """The options' own errors, found before any hand needs them."""
    if errors not in ("raise", "collect"):
        raise OptionError(f"errors must be 'raise' or 'collect'; got {errors!r}")
    if method not in ("auto", "exact", "mc"):
        raise OptionError(f"method must be 'auto', 'exact' or 'mc'; got {method!r}")
    if client not in (None, False) and not hasattr(client, "map"):
        raise OptionError(f"client must be a distributed.Client; got {type(client).__name__}")


def analyze_many(
    histories: object,
    *,
    player: str | None = None,
    client: object = None,
    method: str = "auto",
    seed: int | None = None,
    errors: str = "collect",
) -> pandas.DataFrame:
    """:func:`~studeval.analyze` over many hands, as a pandas DataFrame: one row a
    hand and player (only ``player``'s hands and rows when given), with the columns
    :data:`COLUMNS`: the money columns (``net``, ``expected_net``, ``luck``) in the
    hand's money (chips times ``unit``), named by ``currency`` and ``tournament``.
    Add them up by :func:`money_of` (or by those two columns), never across.

    ``histories`` is hands (:class:`~studeval.StudHand` or
    :class:`~studeval.histories.History` objects, analysed here), or files: a path, a
    directory or a list of them, card rooms' histories or PHH. Files are analysed on
    a Dask cluster, one task a file, when ``client`` is a ``distributed.Client``, and
    on a ``LocalCluster`` of this machine's cores when no client is given and the
    files hold more than :data:`LARGE_INPUT` bytes (``client=False``: in this process
    always).

    Every hand and file not analysed is reported in ``frame.attrs["refused"]``, a
    DataFrame with the columns :data:`REFUSED_COLUMNS`: hands refused with the
    reason, hands of other games in mixed-game files, later copies of a hand, and
    files that hold no hand history or cannot be read. ``errors="raise"`` raises the
    first of them instead, in the order of the files and their lines (a later copy
    in another file that is another hand too; a duplicate is only reported). Needs pandas
    (``pip install 'studeval[dask]'``).

    >>> import pathlib, tempfile
    >>> from studeval.histories import EXAMPLE
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "stars.txt").write_text(EXAMPLE)
    >>> _ = (folder / "README.txt").write_text("My exports")
    >>> frame = analyze_many(folder, player="DarioZ")
    >>> frame[["hand_id", "net", "currency"]].values.tolist()
    [['20261202017', 0.24, 'USD']]
    >>> frame.attrs["refused"][["status", "reason"]].values.tolist()[0][0]
    'not a history'
    """
    try:
        import pandas  # noqa: F401
    except ImportError:
        raise OptionError(f"analyze_many needs pandas: {install_hint('dask')}") from None
    _checked(method, errors, client)
    files = _paths(histories)
    if files is None:
        if not isinstance(histories, Iterable):
            raise OptionError(f"analyze_many takes hands or paths; got {type(histories).__name__}")
        from studeval.histories._seen import hand_facts_of, hand_key_of

        # Each hand as a file of its own: a later copy (by room and hand id) is
        # reported, as a later file's is, not counted twice.
        parts: list[Rows] = []
        from studeval.engine import StudHand
        from studeval.histories._record import History

        for number, hand in enumerate(histories):
            if not isinstance(hand, (StudHand, History)):  # (a path among hands, say)
                raise OptionError(f"analyze_many takes hands (StudHand or History objects), or "
                                  f"paths alone; item {number} is a {type(hand).__name__}: "
                                  f"{hand!r:.80}")  # fmt: skip
            rows, names = _rows_and_players(hand, f"hand {number}", player, method, seed)
            columns = _columns(rows)
            stud = hand.hand if isinstance(hand, History) else hand
            info = HandInfo.of(hand)
            key = hand_key_of(hand)  # (a hand played here: a digest of its play)
            columns[KEY] = [None if key == (info.venue, info.hand_id) else key] * len(rows)
            columns[HANDS] = [(*key, f"hand {number}", None, tuple(sorted(names)),
                               hand_facts_of(stud, info), info.hand_id)]  # fmt: skip
            parts.append((columns, []))
        return _frames(*_raised(once(parts, COLUMNS), errors))
    own_cluster = None
    if client is False:  # this process, however large
        client = None
    elif client is None and sum(_size(f) for f in files) > LARGE_INPUT:
        from distributed import Client, LocalCluster

        own_cluster = LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1,
                                   processes=True, dashboard_address=None)  # fmt: skip
        client = Client(own_cluster)
    try:
        if client is None:
            read = []
            with collection_paused():
                for name in files:
                    read.append(_file_rows(name, player, method, seed, errors))
                    if errors == "raise" and first_error(read[-1][1]) is not None:
                        break  # (a later file holds nothing that comes before it)
                return _frames(*_raised(once(read, COLUMNS), errors))
        futures = client.map(_file_rows, files, player=player, method=method,  # type: ignore[attr-defined]
                             seed=seed, errors=errors, pure=False)  # fmt: skip
        results = []
        for future in futures:  # one file's rows at a time, in order
            results.append(future.result())
            future.release()
        return _frames(*_raised(once(results, COLUMNS), errors))
    finally:
        if own_cluster is not None:
            client.close()  # type: ignore[attr-defined]
            own_cluster.close()


def _raised(rows: Rows, errors: str) -> Rows:
    """``rows``; with ``errors="raise"``, the first hand or file not analysed (a
    file's own refusal or a copy across files that is another hand, in the order of
    the files and their lines) raised instead."""
    if errors == "raise" and (error := first_error(rows[1])) is not None:
        raise error
    return rows


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0  # reported when it is read
