"""The hands read so far, by room and hand id: a later copy of a hand is a
duplicate (exports overlap), or another hand where it was dealt to other players,
or in other money, another game, with other results or other stacks (``_facts``).

>>> seen = SeenHands()
>>> seen.once("PokerStars", "9", "a.txt", 1, ["Ann", "Bob"]), seen.once("KingsClub", "9",
...                                                                      "a.txt", 40)
(None, None)
>>> other = seen.once("PokerStars", "9", "b.txt", 1, ["Ann", "Cy"])
>>> other.status, other.first
('refused', 'a.txt line 1')
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from studeval.handinfo import HandInfo
from studeval.histories._facts import Facts, differs, hand_facts
from studeval.histories._record import (
    ConflictingHandError,
    DuplicateHandError,
    History,
    HistoryError,
    Transcript,
    where_read,
)
from studeval.histories._replay import replay
from studeval.histories._text import named_currency

if TYPE_CHECKING:
    from studeval.engine import StudHand

__all__ = ["Found", "SeenHands", "hand_facts_of", "hand_key_of", "history_facts"]

#: A hand found in a text: read in C, transcribed for the replay, or refused.
Found = History | Transcript | HistoryError


class SeenHands:
    """The hands read so far, by room and hand id, and where each was first read:
    one shared by several :func:`read` calls (``duplicates=seen``) counts a hand once
    across them all.

    >>> from studeval.histories import EXAMPLE, read
    >>> seen = SeenHands()
    >>> [len(list(read(EXAMPLE, duplicates=seen, errors="collect"))) for _ in "ab"]
    [1, 1]
    >>> len(seen), seen.dropped
    (1, 1)
    """

    def __init__(self) -> None:
        # By room and hand id: where the hand was first read (its source and first
        # line: made a text only for a copy's report), its players (dealt in; None
        # where not known before its replay) and its facts (None where not known).
        self._first: dict[
            tuple[str | None, str],
            tuple[str | None, int | None, Sequence[str] | None, Facts | None],
        ] = {}
        self.dropped = 0

    def __len__(self) -> int:
        return len(self._first)

    def check(self, found: Found) -> Found:
        """``found``, or a :class:`DuplicateHandError` when its room and hand id were
        read before (the first copy is kept, the later ones reported), or a
        :class:`ConflictingHandError` when the first was another hand (dealt to
        other players, or with other facts). (A later copy transcribed, not read in
        C, is replayed to know who was dealt in: a copy is rare; one that cannot be
        replayed is refused, for its own reason: no copy of the hand read.)"""
        if isinstance(found, HistoryError) and found.status in (
                "refused", "not stud", "not a history"):  # fmt: skip
            # A hand refused as it was read, or of another game: reported for what it
            # is, first copy or later (a later copy had been a "duplicate", its fault
            # never said), and no copy of the hand: a stud hand under its number is
            # read as the first (the database stores no other game's hand either; a
            # hold'em hand first had made it a "duplicate", lost).
            return found
        players: list[str] | None = None
        facts: Facts | None = None
        if isinstance(found, History):
            players, facts = [p.name for p in found.players], history_facts(found)
        elif isinstance(found, Transcript) and self._compares(found.site, found.hand_id):
            try:
                replayed = replay(found)
            except HistoryError as err:
                return err
            players, facts = [p.name for p in replayed.players], history_facts(replayed)
        copy = self.once(found.site, found.hand_id, found.source, found.line, players, facts)
        return found if copy is None else copy

    def learn(self, hand: History) -> None:
        """Keeps the players of a hand let through before its replay (a transcript):
        the later copies are compared with them."""
        first = self._first.get((hand.site, hand.hand_id))
        if first is not None and first[2] is None:
            self._first[hand.site, hand.hand_id] = (*first[:2], [p.name for p in hand.players],
                                                    history_facts(hand))  # fmt: skip

    def _compares(self, site: str | None, hand_id: str | None) -> bool:
        """Whether a copy of this hand would be compared: one was read, players known."""
        first = self._first.get((site, hand_id)) if site and hand_id else None
        return first is not None and first[2] is not None

    def forget(self, found: Found) -> None:
        """Takes back a hand :meth:`check` let through (its copy was refused): the
        next copy is read as the first."""
        site, hand_id = getattr(found, "site", None), getattr(found, "hand_id", None)
        if site and hand_id:
            self._first.pop((site, hand_id), None)

    def all_first(self, site: str, hand_ids: Sequence[str], source: str | None,
                  lines: Sequence[int], players: Sequence[Sequence[str]],
                  facts: Sequence[Facts | None] | None = None) -> bool:  # fmt: skip
        """Whether none of these hands of ``site`` was seen and no two are one hand: if
        so, each is recorded as :meth:`once` records a first copy; if not, none is
        (:meth:`once` then tells them apart, one at a time).

        >>> seen = SeenHands()
        >>> seen.all_first("PokerStars", ["1", "2"], "a.txt", [1, 9], [["A", "B"], ["A"]])
        True
        >>> seen.all_first("PokerStars", ["3", "2"], "b.txt", [1, 9], [["C"], ["A"]]), len(seen)
        (False, 2)
        """
        keys = [(site, hand_id) for hand_id in hand_ids]
        first = self._first
        if (not site or not all(hand_ids) or len(set(hand_ids)) < len(keys)
                or not first.keys().isdisjoint(keys)):  # fmt: skip
            return False
        known = [None] * len(keys) if facts is None else facts
        first.update(zip(keys, zip([source] * len(keys), lines, players, known, strict=True),
                         strict=True))  # fmt: skip
        return True

    def once(self, site: str | None, hand_id: str | None, source: str | None,
             line: int | None, players: Sequence[str] | None = None,
             facts: Facts | None = None,
             ) -> DuplicateHandError | ConflictingHandError | None:  # fmt: skip
        """``None`` the first time a hand (any record of it: a PHH record's too) is
        seen, and its :class:`DuplicateHandError` after; its
        :class:`ConflictingHandError` where both it and the first hand name the
        players dealt in (``players``), and they differ, or both know the hand's
        ``facts`` (:mod:`~studeval.histories._facts`), and they differ: another hand.

        >>> seen = SeenHands()
        >>> seen.once("PokerStars", "9", "a.txt", 1, ["Ann", "Bob"]) is None
        True
        >>> type(seen.once("PokerStars", "9", "b.txt", 5, ["Bob", "Ann"])).__name__
        'DuplicateHandError'
        >>> type(seen.once("PokerStars", "9", "c.txt", 9, ["Ann", "Zed"])).__name__
        'ConflictingHandError'
        """
        if not hand_id:  # (no site: a hand no room numbered, by hand_key_of's digest)
            return None
        first = self._first.get((site, hand_id))
        if first is None:
            self._first[site, hand_id] = (source, line, players, facts)  # sorted only for a copy
            return None
        where = where_read(first[0], first[1])
        first_players = first[2]
        if (players is not None and first_players is not None
                and sorted(players) != sorted(first_players)):  # fmt: skip
            return ConflictingHandError(where, site=site, hand_id=hand_id, line=line,
                                        source=source)  # fmt: skip
        how = differs(facts, first[3])
        if how is not None:
            return ConflictingHandError(where, site=site, hand_id=hand_id, line=line,
                                        source=source, how=how)  # fmt: skip
        self.dropped += 1
        return DuplicateHandError(where, site=site, hand_id=hand_id, line=line, source=source)


def history_facts(found: History) -> Facts:
    """A room's hand's facts."""
    return hand_facts_of(found.hand, HandInfo.of(found))


def hand_facts_of(hand: StudHand, info: HandInfo) -> Facts:
    """A finished hand's facts from its record's ``info`` (a PHH record's currency as
    written, "usd" or "$", taken as the rooms' code; its players ``Seat 0``... where
    it does not name them all, as the database names them)."""
    starts = hand.starting_stacks
    nets = [end - start for end, start in zip(hand.stacks, starts, strict=True)]
    currency = named_currency(info.currency) if info.currency else None
    return hand_facts(currency, info.tournament is None, hand.game, info.unit,
                      info.seat_names(hand.seats), starts, nets)  # fmt: skip


def hand_key_of(found: History | StudHand) -> tuple[str | None, str]:
    """The room and hand id a hand is known by (in the database, and where copies are
    told apart). A hand no room numbered (one played here, or a PHH record without
    ``venue`` and ``hand``) is named by a digest of its players, stakes and log, so
    that a copy of it is found too.

    >>> from studeval.play import random_hand
    >>> hand_key_of(random_hand("stud", 2, seed=1)) == hand_key_of(random_hand("stud", 2, seed=1))
    True
    """
    if isinstance(found, History):
        return found.site, found.hand_id
    info = HandInfo.of(found)
    if info.venue is not None and info.hand_id is not None:
        return info.venue, info.hand_id
    log = repr((found.game, found.stakes, found.starting_stacks, info.players,
                [(e.kind, e.seat, e.amount, e.cards) for e in found.events]))  # fmt: skip
    return info.venue, "sha1:" + hashlib.sha1(log.encode()).hexdigest()
