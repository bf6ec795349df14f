"""Stud's statistics, each defined once here in SQL over the stored actions, cards and
results (``docs/stats.md`` says each in words, with a worked example).

A statistic is a *chance* (a seat in a hand where the player could do the thing)
and what was *done* with it; its value is the hands done over the hands with a
chance. :func:`facts_sql` computes every statistic's chance and deed a seat and hand
in one query; the database keeps them in ``seat_stats`` (filled as hands are
imported) and shows each statistic as a view of its own, ``stat_<name>``.

>>> [x.name for x in STATISTICS][:4]
['vpip', 'complete', 'raise', 'steal']
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass

from studeval.db._schema import stored_time
from studeval.errors import OptionError, UnknownGameError
from studeval.games import get_game

__all__ = [
    "FILTERS",
    "STATISTICS",
    "Statistic",
    "bit",
    "checked_filters",
    "facts_sql",
    "seat_stats_table",
    "stats_source",
    "stats_sql",
    "unstored_values_sql",
    "views_sql",
]


@dataclass(frozen=True)
class Statistic:
    """``chance`` and ``done``: SQL conditions over a row of ``d`` (one decision of
    the seat, with what it faced) or, where ``of_seat``, over the seat's row ``s``.
    A seat has the chance in a hand when any of its rows meets ``chance``; it did
    it when one of those rows meets ``done`` too, or, where ``first``, when its
    first row that meets ``chance`` is the action ``done``. Where ``every_hand``,
    every seat dealt in has the chance, even one that never decided."""

    name: str
    chance: str
    done: str
    of_seat: bool = False
    first: bool = False
    every_hand: bool = False


_WAGER = "d.action IN ('call', 'complete', 'bet', 'raise')"
_FACING = "d.decision AND d.level >= 1"  # a decision facing a bet (or a completion)

#: Every statistic, in the order of ``stats()``'s columns (and of its bits in
#: ``seat_stats``).
STATISTICS: tuple[Statistic, ...] = (
    Statistic("vpip", "TRUE", f"d.street = 3 AND {_WAGER}", every_hand=True),
    # The bring-in's post is a chance too: it may complete instead.
    Statistic("complete", "d.street = 3 AND (d.decision OR d.action = 'bring_in') "
              "AND d.level = 0", "d.action IN ('complete', 'bet')"),
    # One bet and three raises a round, unless the cap is lifted with two seats left.
    Statistic("raise", "d.street = 3 AND d.decision AND d.level >= 1 AND (d.level < 4 OR "
              "(d.cap_lifted AND d.live = 2))", "d.action = 'raise'"),
    # Completing, or opening where nobody brought in (the bring-in all in for the ante).
    Statistic("steal", "d.steal_spot", "d.action IN ('complete', 'bet')"),
    Statistic("fold_to_steal_bring_in",
              "d.facing_steal AND d.seat IS NOT DISTINCT FROM d.bring_in_seat",
              "d.action = 'fold'"),
    Statistic("fold_to_steal_later", "d.facing_steal AND d.seat IS DISTINCT FROM d.bring_in_seat",
              "d.action = 'fold'"),
    Statistic("re_steal", "d.facing_steal", "d.action = 'raise'"),
    Statistic("fourth_street_bet", "d.street = 4 AND d.decision AND d.level = 0",
              "d.action = 'bet'"),
    Statistic("fourth_street_fold", f"d.street = 4 AND {_FACING}", "fold", first=True),
    Statistic("open_pair_bet", "d.street = 4 AND d.decision AND d.level = 0 AND d.open_pair",
              "d.action = 'bet'"),
    Statistic("fold_to_open_pair", f"d.street = 4 AND {_FACING} AND d.opener_open_pair",
              "fold", first=True),
    Statistic("fifth_street_fold", f"d.street = 5 AND {_FACING}", "fold", first=True),
    Statistic("went_to_showdown", "s.saw_fourth", "s.showdown", of_seat=True),
    Statistic("won_at_showdown", "s.showdown", "s.showdown_won > 0", of_seat=True),
    Statistic("won_seeing_fourth", "s.saw_fourth", "s.collected > 0", of_seat=True),
    Statistic("scoop", "s.game = 'stud8' AND s.showdown", "s.scooped", of_seat=True),
)  # fmt: skip


def bit(name: str) -> int:
    """The bit of statistic ``name`` in ``seat_stats.chances`` and ``seat_stats.done``.

    >>> bit("vpip"), bit("steal")
    (1, 8)
    """
    return 1 << [x.name for x in STATISTICS].index(name)


# A card's rank, 2 to 14 (ace), from its text.
_RANK = "(instr('23456789TJQKA', {card}[1]) + 1)"
# A door card's strength for a steal: its rank; in razz, where low is good, the
# reverse (the ace best, the king worst).
_STRENGTH = f"""CASE WHEN h.game = 'razz'
    THEN CASE WHEN {_RANK.format(card="c.card")} = 14 THEN 14
              ELSE 15 - {_RANK.format(card="c.card")} END
    ELSE {_RANK.format(card="c.card")} END"""


def _base(where: str) -> str:
    """The CTEs every statistic reads, over the hands ``where`` selects (SQL over
    ``hand_key``)."""
    return f"""
h AS (SELECT hand_key, site, game, money, stakes, cash, played_at, big_bet, cap_lifted
      FROM hands WHERE {where}),
-- Each seat's up cards of third and fourth street: its door card's strength, an open
-- pair, and whether it saw fourth street.
up AS (
    SELECT c.hand_key, c.seat,
        max({_STRENGTH}) FILTER (WHERE c.position = 2 AND c.card IS NOT NULL) AS strength,
        min(c.card[1]) = max(c.card[1]) AND count(c.card) = 2 AS open_pair,
        bool_or(c.position = 3) AS saw_fourth
    FROM (SELECT * FROM cards WHERE {where} AND seat IS NOT NULL AND position IN (2, 3)) c
    JOIN h USING (hand_key) GROUP BY ALL),
w AS (
    -- The statistics read the decisions of third to fifth street, each with the
    -- bets it faced (level), the calls of the last of them and the seats still in.
    SELECT a.hand_key, a.seq, a.street, a.seat, a.action, a.facing AS level, a.callers,
        a.live, h.cap_lifted, a.action <> 'bring_in' AS decision
    FROM (SELECT * FROM actions WHERE {where} AND street <= 5
          AND action NOT IN ('ante', 'show', 'muck')) a JOIN h USING (hand_key)),
fold3 AS (SELECT hand_key, seat, min(seq) AS seq FROM w
          WHERE street = 3 AND action = 'fold' GROUP BY ALL),
spots AS (
    SELECT w.hand_key, w.seq FROM w JOIN up me USING (hand_key, seat)
    WHERE w.street = 3 AND w.decision AND w.level = 0 AND w.callers = 0
      AND me.strength > (SELECT max(o.strength) FROM up o
                         LEFT JOIN fold3 f ON f.hand_key = o.hand_key AND f.seat = o.seat
                         WHERE o.hand_key = w.hand_key AND o.seat <> w.seat
                           AND (f.seq IS NULL OR f.seq > w.seq))),
-- Each hand's bring-in, first steal and fourth street's opener.
hand AS (
    SELECT w.hand_key,
        any_value(w.seat) FILTER (WHERE w.action = 'bring_in') AS bring_in_seat,
        min(w.seq) FILTER (WHERE spots.seq IS NOT NULL AND w.action IN ('complete', 'bet'))
            AS steal_seq,
        arg_min(w.seat, w.seq) FILTER (WHERE w.street = 4 AND w.action = 'bet') AS opener
    FROM w LEFT JOIN spots USING (hand_key, seq) GROUP BY ALL),
-- Each hand's seats with an open pair, as bits (1 << seat): joined a hand at a time,
-- not a decision at a time (a third of the statistics' time).
opened AS (
    SELECT hand.*, coalesce(p.pairs, 0) AS pairs FROM hand LEFT JOIN (
        SELECT hand_key, bit_or(1::INTEGER << seat) FILTER (WHERE open_pair) AS pairs
        FROM up GROUP BY ALL) p USING (hand_key)),
d AS (
    SELECT w.*, hand.bring_in_seat,
        spots.seq IS NOT NULL AS steal_spot,
        (w.street = 3 AND w.decision AND w.seq > hand.steal_seq AND w.level = 1
         AND w.callers = 0) IS TRUE AS facing_steal,
        (hand.pairs >> w.seat) & 1 = 1 AS open_pair,
        -- (the bettor itself, raised, faces no open pair's bet: its own)
        w.seat IS DISTINCT FROM hand.opener
            AND coalesce((hand.pairs >> hand.opener) & 1 = 1, FALSE) AS opener_open_pair
    FROM w
    JOIN opened hand USING (hand_key)
    LEFT JOIN spots USING (hand_key, seq)),
s AS (
    SELECT st.hand_key, st.seat, st.player, h.site, h.game, h.money AS currency, h.stakes,
        h.cash, h.played_at, h.big_bet, r.net_chips, r.expected_net_chips, r.net,
        r.expected_net, r.showdown, r.showdown_won, r.scooped,
        r.payout - r.returned AS collected, coalesce(up.saw_fourth, FALSE) AS saw_fourth
    FROM (SELECT * FROM seats WHERE {where}) st JOIN h USING (hand_key)
    JOIN (SELECT * FROM results WHERE {where}) r USING (hand_key, seat)
    LEFT JOIN up USING (hand_key, seat))"""


def _bits(parts: dict[str, str]) -> str:
    """The bitmask (INTEGER) of the statistics whose conditions hold."""
    return " | ".join(f"(CASE WHEN {cond} THEN {bit(name)} ELSE 0 END)"
                      for name, cond in parts.items()) or "0"  # fmt: skip


def facts_sql(where: str = "TRUE") -> str:
    """One row a seat and hand (of the hands ``where`` selects): the hand's and
    seat's columns that ``stats()`` filters and sums, and two bitmasks: the
    statistics the seat had the chance of (``chances``) and did (``done``), bit
    :func:`bit` each. A decision's bits are ORed over the seat's decisions; a
    ``first`` statistic's deed is the action of the first decision with the chance.
    (The decisions are grouped by one number a seat, ``hand_key * 8 + seat``: 6%
    faster than by the two columns.)"""
    by_action = [x for x in STATISTICS if not x.of_seat]
    by_seat = [x for x in STATISTICS if x.of_seat]
    row_chances = _bits({x.name: x.chance for x in by_action})
    row_done = _bits({x.name: f"({x.chance}) AND {x.done}" for x in by_action if not x.first})
    firsts = "".join(f", arg_min(d.action, d.seq) FILTER (WHERE {x.chance}) = '{x.done}' "
                     f"AS {x.name}_first" for x in by_action if x.first)  # fmt: skip
    always = sum(bit(x.name) for x in STATISTICS if x.every_hand)
    chances = _bits({x.name: x.chance for x in by_seat})
    done = _bits({x.name: f"({x.chance}) AND {x.done}" for x in by_seat}
                 | {x.name: f"acts.{x.name}_first" for x in by_action if x.first})  # fmt: skip
    return f"""
WITH {_base(where)},
acts AS (SELECT d.hand_key * 8 + d.seat AS seat_key, bit_or({row_chances}) AS chances,
             bit_or({row_done}) AS done {firsts}
         FROM d GROUP BY seat_key)
SELECT s.hand_key, s.seat, s.player, s.site, s.game, s.currency, s.stakes, s.cash,
    s.played_at, s.big_bet, s.net_chips, s.expected_net_chips, s.net, s.expected_net,
    coalesce(acts.chances, 0) | {always} | {chances} AS chances,
    coalesce(acts.done, 0) | {done} AS done
FROM s LEFT JOIN acts ON acts.seat_key = s.hand_key * 8 + s.seat
"""


def seat_stats_table() -> str:
    """The table ``facts_sql`` fills."""
    return """CREATE TABLE IF NOT EXISTS seat_stats (
    hand_key BIGINT, seat TINYINT, player VARCHAR, site VARCHAR, game VARCHAR,
    currency VARCHAR, stakes VARCHAR, cash BOOLEAN, played_at TIMESTAMP, big_bet BIGINT,
    net_chips BIGINT, expected_net_chips DOUBLE, net DECIMAL(38, 18), expected_net DOUBLE,
    chances INTEGER, done INTEGER);"""


def views_sql() -> str:
    """A view a statistic, ``stat_<name>``: a row a seat and hand where the player
    had the chance, and whether it was done."""
    return "\n".join(
        f"CREATE OR REPLACE VIEW stat_{x.name} AS SELECT hand_key, seat, player, "
        f"done & {bit(x.name)} <> 0 AS done FROM seat_stats WHERE chances & {bit(x.name)} <> 0;"
        for x in STATISTICS
    )


#: The filters of ``stats()`` that keep the values given: each a ``seat_stats`` column.
FILTERS = ("player", "game", "currency", "stakes", "site")


def checked_filters(**given: object) -> dict[str, object]:
    """``stats()``'s filters, checked: each of FILTERS None, or a text or texts made a
    list (a game by its name, "Razz" refused as no game's: the names are "stud",
    "stud8", "razz" and "stud_hilo_noq"), ``cash`` None or a bool, ``since`` and
    ``until`` None, a date, a datetime or an ISO 8601 text (as the columns hold it: UTC
    where it names a zone); an OptionError names the one that is not.

    >>> checked_filters(player="Ann", game=["stud8"], cash=None, since="2026-12-01",
    ...                 until=None)["since"]
    datetime.datetime(2026, 12, 1, 0, 0)
    >>> checked_filters(cash="no")
    Traceback (most recent call last):
    ...
    studeval.errors.OptionError: cash must be True (cash hands), False ... got 'no'
    """
    filters: dict[str, object] = {}
    for name in FILTERS:
        value = given.get(name)
        if value is None:
            filters[name] = None
            continue
        values = [value] if isinstance(value, str) else value
        if not isinstance(values, (list, tuple, set, frozenset)) or not values or not all(
                isinstance(v, str) for v in values):  # fmt: skip
            raise OptionError(f"{name} must be a text or a list of texts (or None); got "
                              f"{value!r}")  # fmt: skip
        filters[name] = [_game_name(v) for v in values] if name == "game" else list(values)
    cash = given.get("cash")
    if cash is not None and not isinstance(cash, bool):
        raise OptionError(f"cash must be True (cash hands), False (tournaments) or None; "
                          f"got {cash!r}")  # fmt: skip
    filters["cash"] = cash
    for name in ("since", "until"):
        moment = given.get(name)
        if isinstance(moment, str):
            try:
                moment = datetime.datetime.fromisoformat(moment)
            except ValueError:
                raise OptionError(
                    f"{name} must be a date, a datetime or an ISO 8601 text "
                    f"(2026-12-01, 2026-12-01T18:30); got {moment!r}"
                ) from None
        elif isinstance(moment, datetime.date) and not isinstance(moment, datetime.datetime):
            moment = datetime.datetime.combine(moment, datetime.time())
        elif moment is not None and not isinstance(moment, datetime.datetime):
            raise OptionError(f"{name} must be a date, a datetime or an ISO 8601 text; got "
                              f"{moment!r}")  # fmt: skip
        filters[name] = stored_time(moment)
    return filters


def _game_name(text: str) -> str:
    """A game filter's game, by its name or PHH code; an OptionError names one that
    is no game's (as every other filter's error does).

    >>> _game_name("F7S/8")
    'stud8'
    >>> _game_name("Razz")
    Traceback (most recent call last):
    ...
    studeval.errors.OptionError: game='Razz': unknown game 'Razz'; expected one of ...
    """
    try:
        return get_game(text).name
    except UnknownGameError as err:
        raise OptionError(f"game={text!r}: {err}") from None


def stats_source(missing: str | None = None) -> str:
    """What ``stats()`` reads: ``seat_stats``, and the facts of hands stored without
    them (``missing``: the SQL condition that selects them), computed here."""
    if missing:
        return f"(SELECT * FROM seat_stats UNION ALL BY NAME ({facts_sql(missing)}))"
    return "seat_stats"


def unstored_values_sql(name: str, values: list[str], source: str) -> tuple[str, list[object]]:
    """A query of those of a filter's ``values`` that no hand in ``source`` holds
    (rooms, currencies and stakes are matched as stored: "PokerStars", "USD").

    >>> unstored_values_sql("site", ["PokerStars"], "seat_stats")[0]
    'SELECT v FROM (SELECT unnest(?::VARCHAR[]) AS v) EXCEPT SELECT site FROM seat_stats'
    """
    assert name in FILTERS
    # EXCEPT, not NOT IN: a hand stored without a room (import_hands) holds a NULL,
    # and "v NOT IN (..., NULL)" is never true.
    return (f"SELECT v FROM (SELECT unnest(?::VARCHAR[]) AS v) EXCEPT SELECT {name} FROM "
            f"{source}", [values])  # fmt: skip


def stats_sql(filters: Mapping[str, object], counts: bool,
              missing: str | None = None) -> tuple[str, list[object]]:  # fmt: skip
    """The query of ``stats()`` and its parameters: a row a player, room and currency, each
    statistic the hands done over the hands with a chance (NULL with no chance),
    net and all-in adjusted net per 100 hands in big bets, and in money. The facts
    of hands stored without them (``missing``: the SQL condition that selects
    them) are computed in the query."""
    where: list[str] = []
    params: list[object] = []
    for name in FILTERS:
        values = filters.get(name)  # a list (checked_filters), or None
        if not isinstance(values, list):
            continue
        where.append(f"{name} IN ({', '.join('?' * len(values))})")
        params += values
    if filters.get("cash") is not None:
        where.append("cash = ?")
        params.append(bool(filters["cash"]))
    for name, test in (("since", ">="), ("until", "<")):
        if filters.get(name) is not None:
            where.append(f"played_at {test} ?")
            params.append(filters[name])
    columns = []
    for x in STATISTICS:
        had = f"count(*) FILTER (WHERE chances & {bit(x.name)} <> 0)"
        did = f"count(*) FILTER (WHERE done & {bit(x.name)} <> 0)"
        columns.append(f"{did} / nullif({had}, 0) AS {x.name}")
        if counts:
            columns += [f"{had} AS {x.name}_chances", f"{did} AS {x.name}_done"]
    # A player is a name in a room: "Ann" of two rooms is two players, as trackers
    # key them (a hand stored without a room, by import_hands, has a NULL site).
    sql = f"""SELECT player, site, currency, count(*) AS hands, {", ".join(columns)},
    -- Big bets to a millionth; the adjusted net (from equities) to a billionth. The
    -- exact net is made a double here: DuckDB's own cast gives the nearest double
    -- (pandas' conversion of a DECIMAL(38, 18) made 13700 13699.999999999998).
    -- (+ 0.0: a sum of nothing but rounding, -0.0, is 0.0, as a break-even player reads)
    round(100 * avg(net_chips / big_bet), 6) + 0.0 AS net_bb100,
    round(100 * avg(expected_net_chips / big_bet), 6) + 0.0 AS adjusted_bb100,
    -- The adjusted net of the hands no all-in changed is their exact net: summed as
    -- such, so that a player with no all-in has an adjusted net equal to the net
    -- (40,000 doubles of cents had summed to -4400.000000002 beside -4400).
    CAST(sum(net) AS DOUBLE) AS net,
    round(coalesce(CAST(sum(net) FILTER (WHERE expected_net_chips = net_chips) AS DOUBLE), 0)
          + coalesce(sum(expected_net) FILTER (WHERE expected_net_chips <> net_chips), 0), 9)
        + 0.0 AS adjusted_net
FROM {stats_source(missing)} {"WHERE " + " AND ".join(where) if where else ""}
GROUP BY player, site, currency ORDER BY player, site, currency"""
    return sql, params
