"""The line grammar rooms' text histories share, and the reader that applies it.

A room's module describes its text as a :class:`Grammar`: how a hand's first line
reads (its header), the seat lines, the street markers, and one pattern a kind of
line (antes, deals, actions, uncalled bets, pots collected, cards shown). The
reader (:func:`read_hand`) is written once: it walks a hand's lines, hands the
header to the room's own function, and makes each line it recognises a
:class:`~studeval.histories._record.Step`. Lines that move no chips and show no
cards (chat, players joining or timing out) are passed over; a line that starts
with a player's name but says nothing the grammar knows is an error where the
room's format makes that unambiguous (``strict_prefix``).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from studeval.histories._checks import Checks, cards_in, shown_twice
from studeval.histories._record import HistoryError, NotStudError, Step, Transcript
from studeval.histories._summary import check_won, summary_says
from studeval.histories._text import currency_of, money
from studeval.histories._wording import Compiled, Wording, unnamed
from studeval.houserules import HouseRules

__all__ = ["SUMMARY", "Grammar", "Header", "cards_in", "read_hand", "section_lines"]

# No room writes a longer line (theirs are under 300 characters): a hand holding one is
# refused unread, as patterns take time in the square of a line's length on some lines.
_LONGEST_LINE = 4096


@dataclass
class Header:
    """What a hand's first lines say about it."""

    hand_id: str
    game: str | None  # None: a game that is not seven-card stud (named in `game_text`)
    game_text: str
    small_bet: Decimal
    big_bet: Decimal
    ante: Decimal | None = None
    bring_in: Decimal | None = None
    table: str | None = None
    tournament: str | None = None
    played_at: object = None
    currency: str | None = None
    # Why a seven-card hand of a game studeval does not play is another game's (2-7
    # razz): reported as not stud, with this reason.
    refused: str | None = None

    def of_hand(self, hand_id: str, played_at: object, **more: object) -> Header:
        """This header (a table's, read once) for one hand of the table: a copy with
        its id and time (and ``more`` fields), made faster than dataclasses.replace.

        >>> Header("", "razz", "Razz", Decimal(2), Decimal(4)).of_hand("7", None).hand_id
        '7'
        """
        # A plain instance whose fields are this one's: copy.copy's reduce protocol
        # took as long as reading the hand's moves in C.
        fields = self.__dict__.copy()  # (a copy, then two keys set: half update's time)
        fields["hand_id"], fields["played_at"] = hand_id, played_at
        if more:
            fields.update(more)
        header = object.__new__(Header)
        header.__dict__ = fields
        return header


@dataclass(frozen=True)
class Grammar:
    """One room's text format.

    ``start`` matches a hand's first line. ``header`` reads the lines before the
    first seat line. ``words`` is every other kind of line, written once in the
    slot notation of :mod:`~studeval.histories._wording` (seat lines, street
    markers, one template or more a kind of step, cards shown, the summary's total
    pot, rake and winnings, lines to pass over); the reader's patterns, the C
    reader's templates and the writer's phrases are made from it. The other fields
    are the room's quirks, each a way the lines say what the replay needs.
    A summary line says what a player won (``{won}``) and put in (``{bet}``): what
    was won is taken from there only when no line before the summary says it.
    """

    site: str
    start: re.Pattern[str]
    header: Callable[[list[str]], Header]
    words: Wording
    # The header read from its bytes (the lines before the first seat line, each with
    # its "\n"), faster hand after hand: it must return what ``header`` returns for
    # their text, and raise ValueError or IndexError where ``header`` does; None:
    # ``header`` reads them (the bulk reader, studeval.histories._bulk).
    header_bytes: Callable[[bytes], Header] | None = None
    strict_prefix: str | None = None  # "name: " lines must be known ones
    # No line between streets (Bovada): a street begins where the deals begin again.
    streets_by_deals: bool = False
    # A mark the room writes after the hero's name ("Seat+3 [ME]"): the seat line
    # holding it is the hero's (the name pattern leaves the mark out of the name).
    hero_mark: str | None = None
    pot_after_rake: bool = False  # the total pot written is what was left after the rake
    collects_returns: bool = False  # an uncalled bet is written as part of what was won
    # Everleaf: an uncalled bet given back has no line, and the rake is not written
    # (it is what the pots held less what was collected).
    returns_unwritten: bool = False
    rake_unwritten: bool = False
    # The street of the lines before the first street marker (a room that marks
    # no 3rd street: 3), and whether each card dealt has a line of its own.
    first_street: int = 0
    card_by_card: bool = False
    # Absolute: each deal line lists all the player's cards so far, the new ones last
    # (the hero's again on every street, after folding too): the cards past those
    # the earlier lines gave are the deal, and a line with none is passed over.
    deals_repeat_all: bool = False
    # The house rules the room plays by, where they differ from Robert's.
    rules: HouseRules | None = None
    # Why every stud hand of a room known but not replayable is refused.
    refused: str | None = None
    # A hand's last section: a regular expression for the line that starts it (its
    # first line of that shape), and one for the starts of the lines it holds
    # (PokerStars' summary: the pot, the seats, the community card; see
    # section_lines). The first line after it that is none of them ends the hand:
    # text of no hand (notes pasted between hands, a next hand's start that lost
    # its first character, the NUL bytes a crash leaves) is reported from there to
    # the next start, never read as part of the hand.
    last_section: str | None = None
    last_section_lines: str = ""
    # A regular expression for the lines a room writes before a hand's first line
    # (PartyPoker's "Game #1 starts." and "#Game No : 1"): the hand's, not text
    # outside every hand, before a file's first hand.
    preamble: str | None = None
    # Whether a hand without its last section ends at its first blank line (a room
    # that writes none inside a hand: the text after it is no part of the hand).
    blank_line_ends: bool = False

    @functools.cached_property
    def last_section_start(self) -> re.Pattern[str]:
        """The line that starts ``last_section``, with the line end before it."""
        return re.compile(rf"\n(?:{self.last_section})[ \t]*(?:\n|$)")

    @functools.cached_property
    def last_section_end(self) -> re.Pattern[str]:
        """The end of the line after which ``last_section`` holds no more lines."""
        return re.compile(rf"\n(?!{self.last_section_lines})")

    @functools.cached_property
    def patterns(self) -> Compiled:
        """The general reader's patterns, compiled from ``words`` once."""
        return self.words.patterns()

    @functools.cached_property
    def in_c(self) -> bool:
        """Whether the C reader reads this format's hands: it knows every quirk above
        (a first street of 0 or 3), but not a room refused, nor a seat, total or
        summary line the notation cannot say (a pattern)."""
        words = self.words
        said = [*words.seat, *words.summary, *words.totals]
        return (self.first_street in (0, 3) and self.refused is None
                and all(isinstance(t, str) for t in said))  # fmt: skip

    @functools.cached_property
    def templates(self) -> tuple[tuple[str, int, str], ...]:
        """The C reader's templates (studeval.h, "Hand histories"), () where it does
        not read the format: a hand whose every line they match is read and replayed
        in C; any other hand by the patterns."""
        return self.words.c_templates(self.strict_prefix) if self.in_c else ()

    @functools.cached_property
    def reveal_hint(self) -> re.Pattern[str]:
        """Finds a word every line that shows cards holds."""
        return re.compile("|".join(map(re.escape, self.patterns.reveal_hints)))

    def seat(self, line: str) -> re.Match[str] | None:
        """The line read as a seat line (``seat``, ``name``, ``stack``), or None."""
        return _first_match(self.patterns.seat, line)

    @functools.cached_property
    def _any_street(self) -> re.Pattern[str]:
        """Matches a line any street marker's pattern matches (one test for the many
        lines that are none)."""
        marks = "|".join(f"(?:{unnamed(p.pattern)})" for _, p in self.patterns.streets)
        flags = self.patterns.streets[0][1].flags if self.patterns.streets else 0
        return re.compile(marks or "(?!)", flags)

    def street(self, line: str) -> tuple[int, re.Match[str]] | None:
        """The street a marker line begins, and its match (``cards``: a community
        card), or None."""
        if not self._any_street.match(line):
            return None
        for street, pattern in self.patterns.streets:
            found = pattern.match(line)
            if found:
                return street, found
        return None

    def totals(self, line: str) -> re.Match[str] | None:
        """The line read as the summary's total pot or rake, or None."""
        return _first_match(self.patterns.totals, line)

    def ends_with(self, line: str) -> bool:
        """Whether the reader reads ``line`` where a hand ends, after its last section:
        a line it passes over (a player leaving the table), a reveal, the totals or a
        summary line."""
        p = self.patterns
        patterns = (*p.ignore, *p.reveals, *p.totals, *p.summary)
        return len(line) <= _LONGEST_LINE and any(x.match(line) for x in patterns)


#: The line most rooms start their summary with, as ``Grammar.last_section``.
SUMMARY = re.escape("*** SUMMARY ***")


def section_lines(*starts: str) -> str:
    r"""A last section's lines (``Grammar.last_section_lines``) where blank lines do
    not end it: lines that start as one of ``starts`` (regular expressions) does, a
    board (``Board [..]``: the community card, or a hold'em hand's in a file of
    many games) and blank lines (some exports put one between every two lines).

    >>> ends = re.compile(rf"\n(?!{section_lines('Seat ', 'Total pot ')})")
    >>> hand = "*** SUMMARY ***\nTotal pot 5\n\nSeat 1: Ann won 5\n\nmy note"
    >>> hand[ends.search(hand).start() :]
    '\nmy note'
    """
    return "|".join((r"[ \t]*(?:\n|$)", r"Board\b", *starts))


def _first_match(patterns: tuple[re.Pattern[str], ...], line: str) -> re.Match[str] | None:
    for pattern in patterns:
        found = pattern.match(line)
        if found:
            return found
    return None


def read_hand(
    grammar: Grammar, lines: list[str], first_line: int, source: str | None
) -> Transcript:
    """One hand's lines (the first is ``grammar.start``'s) as a :class:`Transcript`.

    >>> from studeval.histories import EXAMPLE
    >>> from studeval.histories.rooms.pokerstars import GRAMMAR
    >>> said = read_hand(GRAMMAR, EXAMPLE.splitlines(), 1, None)
    >>> said.hand_id, len(said.seats), said.steps[0].kind, said.steps[0].name
    ('20261202017', 5, 'ante', 'alba_k')
    >>> GRAMMAR.street("*** RIVER *** [Kd]")[0], GRAMMAR.seat("Seat 3: Ann ($5 in chips)")["stack"]
    (7, '$5')
    """
    for long in (i for i, line in enumerate(lines) if len(line) > _LONGEST_LINE):
        raise HistoryError(f"a line of {len(lines[long]):,} characters, longer than any "
                           "room writes", site=grammar.site, line=first_line + long,
                           source=source)  # fmt: skip
    seat_at = next((i for i, line in enumerate(lines) if grammar.seat(line)), None)
    if seat_at is None:
        raise HistoryError("no seat lines", site=grammar.site, line=first_line, source=source)
    try:
        header = grammar.header(lines[:seat_at])
    except (ValueError, IndexError) as err:
        raise HistoryError(f"the header cannot be read: {err}", site=grammar.site,
                           line=first_line, source=source) from None  # fmt: skip

    def error(message: str, index: int) -> HistoryError:
        return HistoryError(message, site=grammar.site, hand_id=header.hand_id,
                            line=first_line + index, source=source)  # fmt: skip

    if header.refused is not None:  # a seven-card game studeval does not play: another game
        raise NotStudError(header.game_text, site=grammar.site, hand_id=header.hand_id,
                           line=first_line, source=source, why=header.refused)  # fmt: skip
    if header.game is None:
        raise NotStudError(header.game_text, site=grammar.site, hand_id=header.hand_id,
                           line=first_line, source=source)  # fmt: skip
    if grammar.refused is not None:
        raise error(grammar.refused, 0)
    seats: list[tuple[int, str, Decimal]] = []
    marked, currency = None, header.currency
    checks = Checks(header.currency, grammar.card_by_card)
    index = seat_at
    while index < len(lines):
        found = grammar.seat(lines[index])
        if not found:
            if not lines[index].strip():  # some rooms write a blank line after each line
                index += 1
                continue
            break
        if checks.foreign(found["stack"]):
            raise error(f"{checks.foreign(found['stack'])}: {lines[index]!r}", index)
        # A player sitting out stays listed: tournaments deal them in (and fold them).
        seats.append((int(found["seat"]), found["name"], money(found["stack"])))
        if grammar.hero_mark is not None and grammar.hero_mark in lines[index]:
            marked = found["name"]
        if currency is None and header.tournament is None:  # a cash game's header naming
            currency = currency_of(found["stack"])  # none (Bovada): its stacks' sign
        index += 1
    names = {name for _, name, _ in seats}
    prefixes = sorted(names, key=len, reverse=True)
    transcript = Transcript(
        site=grammar.site, hand_id=header.hand_id, game=header.game,
        small_bet=header.small_bet, big_bet=header.big_bet, seats=seats, table=header.table,
        tournament=header.tournament, played_at=header.played_at,  # type: ignore[arg-type]
        currency=currency, ante=header.ante, bring_in=header.bring_in,
        text="\n".join(lines), line=first_line, source=source,
        pot_after_rake=grammar.pot_after_rake, collects_returns=grammar.collects_returns,
        returns_unwritten=grammar.returns_unwritten, rake_unwritten=grammar.rake_unwritten,
        rules=grammar.rules,
        writes_total=any("pot" in p.groupindex for p in grammar.patterns.totals),
    )  # fmt: skip
    street = grammar.first_street
    won: list[Step] = []  # the summary's "won" lines
    dealt_now: set[str | None] = set()  # streets_by_deals: who has had this street's cards
    revealed_at: dict[str, int] = {}  # the line each player's shown cards were read from
    held: dict[str | None, int] = {}  # deals_repeat_all: the cards each player's lines gave
    for index in range(index, len(lines)):  # noqa: B020 - on from the last seat line
        line = lines[index].rstrip()
        if not line:
            continue
        marker = grammar.street(line)
        if marker and _is_players_line(grammar, line, street, names):
            marker = None  # a player named like a marker ("*** SUMMARY ***")
        if marker:
            street = marker[0]
            dealt_now = set()
            community = cards_in(marker[1].groupdict().get("cards") or "")
            if street <= 7:
                transcript.steps.append(Step(first_line + index, "street", street=street,
                                             cards=community[-1:]))  # fmt: skip
            continue
        for pattern in grammar.patterns.reveals if grammar.reveal_hint.search(line) else ():
            shown = pattern.match(line)
            if shown and shown["name"] in names and shown["name"] not in transcript.revealed:
                known = tuple(c for c in cards_in(shown["cards"]) if c is not None)
                transcript.revealed[shown["name"]] = known
                revealed_at[shown["name"]] = index
        if street == 9:
            totals = grammar.totals(line)
            if totals:  # the pot and the rake, on one line or on two
                said = totals.groupdict()
                problem = next(filter(None, map(checks.foreign, filter(None, said.values()))), None)
                if problem:
                    transcript.contradictions.append((first_line + index, f"{problem}: {line!r}"))
                if said.get("pot"):
                    transcript.total_pot = money(said["pot"])
                if said.get("pot_part"):  # one of many pots, each on its own line
                    transcript.total_pot = (transcript.total_pot or 0) + money(said["pot_part"])
                if said.get("rake") or said.get("fee"):
                    transcript.rake = money(said.get("rake") or "0") + money(said.get("fee") or "0")
            for pattern in grammar.patterns.summary:
                for said_of in pattern.finditer(line):  # a line may name many winners
                    if said_of["name"] not in names:  # a name the pattern split wrongly
                        said_of = _named(pattern, line, prefixes) or said_of
                    else:  # "Ann" read where "Ann B" sits ("Player Ann B does not show")
                        said_of = _longest_named(pattern, line, said_of, prefixes)
                    if said_of["name"] in names:
                        summary_says(transcript, said_of, first_line + index, won)
            continue
        read_as = _step(grammar, line, first_line + index, street, names)
        step = read_as[0] if read_as else None
        if read_as is not None and step is not None and step.kind == "deal" and (
                grammar.deals_repeat_all):  # fmt: skip
            had = held.get(step.name, 0)
            if len(step.cards) <= had:
                continue  # the player's cards again, none new
            held[step.name] = len(step.cards)
            step = dataclasses.replace(step, cards=step.cards[had:])
            read_as = (step, read_as[1])
        if step is not None and grammar.streets_by_deals and step.kind == "deal" and street >= 3:
            before = transcript.steps[-1].kind if transcript.steps else "street"
            if before not in ("deal", "street") or step.name in dealt_now:
                street += 1
                dealt_now = set()
                transcript.steps.append(Step(first_line + index, "street", street=street))
                read_as = _step(grammar, line, first_line + index, street, names)
            assert read_as is not None
            step = read_as[0]
            dealt_now.add(step.name)
        if read_as is not None and step is not None:
            if step.name not in names:
                raise error(f"{step.name!r} is not seated in this hand", index)
            problem = checks.step(step, read_as[1])
            if problem:
                transcript.contradictions.append((first_line + index, f"{problem}: {line!r}"))
            if step.kind == "deal" and grammar.card_by_card:
                _add_card(transcript.steps, step)
            else:
                transcript.steps.append(step)
        elif grammar.strict_prefix and not any(p.match(line) for p in grammar.patterns.ignore):
            for name in prefixes:
                if line.startswith(name + grammar.strict_prefix):
                    raise error(f"a line this reader does not know: {line!r}", index)
    contradicted = shown_twice(transcript.steps, transcript.revealed)
    if contradicted is not None:  # the replay takes down cards from them from the start
        raise error(contradicted[1], revealed_at[contradicted[0]])
    if not any(s.kind == "collect" for s in transcript.steps):
        transcript.steps += won
    else:  # the summary says again what each winner collected: the same, or refused
        check_won(transcript, won)
    if grammar.hero_mark is not None:
        transcript.hero = marked
    else:  # the player whose three cards on 3rd street are all written
        transcript.hero = next((s.name for s in transcript.steps if s.kind == "deal"
                                and s.street == 3 and len(s.cards) == 3
                                and None not in s.cards), None)  # fmt: skip
    return transcript


def _add_card(steps: list[Step], step: Step) -> None:
    """A card dealt on a line of its own, joined to the player's other cards of the
    street (a line that names no card deals one face down)."""
    cards = step.cards or (None,)
    for at in range(len(steps) - 1, -1, -1):
        earlier = steps[at]
        if earlier.kind == "street":
            break
        if earlier.kind == "deal" and earlier.name == step.name and earlier.street == step.street:
            steps[at] = dataclasses.replace(earlier, cards=earlier.cards + cards)
            return
    steps.append(dataclasses.replace(step, cards=cards))


@functools.lru_cache(maxsize=1024)
def _with_name(pattern: re.Pattern[str], name: str) -> re.Pattern[str]:
    return re.compile(pattern.pattern.replace("(?P<name>.+?)", f"(?P<name>{re.escape(name)})"))


def _named(pattern: re.Pattern[str], line: str, longest_first: list[str]) -> re.Match[str] | None:
    """``pattern`` matched with a seated player's name in its name's place: for a name
    that holds the words the pattern splits on ("PC [Mittel]" before its cards)."""
    for name in longest_first:
        if name in line:
            again = _with_name(pattern, name).search(line)
            if again:
                return again
    return None


def _longest_named(pattern: re.Pattern[str], line: str, said: re.Match[str],
                   longest_first: list[str]) -> re.Match[str]:  # fmt: skip
    """``said`` read again with the longest seated name that starts where its name
    does and that the pattern reads there: a pattern whose name is followed by free
    text reads any seated name that is the start of another ("Ann" of "Ann B")."""
    at, short = said.start("name"), said["name"]
    for name in longest_first:
        if len(name) <= len(short):
            break
        if line.startswith(name, at):
            again = _with_name(pattern, name).match(line, said.start())
            if again:
                return again
    return said


def _step(grammar: Grammar, line: str, line_no: int, street: int,
          names: set[str]) -> tuple[Step, re.Match[str]] | None:  # fmt: skip
    """The line as a step, and the match it was read by: the first pattern that reads
    a seated player's name in it (a name may hold another line's words: "Dealt to",
    "bets 5"), else the first that matches at all (its name then refused)."""
    first: tuple[Step, re.Match[str]] | None = None
    for kind, hint, pattern in grammar.patterns.lines:
        if hint.__class__ is str:
            if hint not in line:
                continue
        else:  # a choice of words: any of them
            for word in hint:
                if word in line:
                    break
            else:
                continue
        found = pattern.match(line)
        if not found:
            continue
        if "name" in pattern.groupindex and found["name"] not in names:
            found = _named(pattern, line, sorted(names, key=len, reverse=True)) or found
        groups = found.groupdict()
        amount = money(groups["amount"]) if groups.get("amount") else None
        to = money(groups["to"]) if groups.get("to") else None
        cards: tuple[str | None, ...] = ()
        if groups.get("cards") is not None:
            cards = cards_in(groups["cards"], last_group_only=kind == "deal" and street > 3)
        step = Step(line_no, kind, groups.get("name"), amount, to, cards, street,
                    bool(groups.get("all_in")))  # fmt: skip
        if "name" not in pattern.groupindex or step.name in names:
            return step, found
        first = first or (step, found)
    return first


def _is_players_line(grammar: Grammar, line: str, street: int, names: set[str]) -> bool:
    """Whether ``line``, which reads as a street marker, is a line of a player whose
    name starts like one ("*** SUMMARY ***: checks")."""
    if not any(line.startswith(name) for name in names):
        return False
    found = _step(grammar, line, 0, street, names)
    return found is not None and found[0].name in names
