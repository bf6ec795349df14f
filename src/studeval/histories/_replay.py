"""A transcript played through :class:`~studeval.StudHand`, every amount checked.

The replay is the proof that a history was read right: each card dealt goes to the
engine, each action must be one the rules allow at that moment with the amount the
text says, and at the end the uncalled bets, the chips each player collected, the
total pot and the rake must be the engine's own. A disagreement is a
:class:`~studeval.histories._record.HistoryError` naming the line; nothing is
repaired.

Money becomes chips of the smallest unit any amount of the hand uses (cents for
``$0.04/$0.08``): exact, with :class:`~decimal.Decimal`.
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal

from studeval._cardtext import CODE_OF_TEXT
from studeval.betting import Stakes
from studeval.cards import card_str
from studeval.engine import StudHand
from studeval.errors import StudevalError
from studeval.histories._limits import chip_unit, limits, most_unwritten_rake
from studeval.histories._record import History, HistoryError, Player, Step, Transcript
from studeval.houserules import HouseRules

__all__ = ["replay"]

#: Card text to code, for the cards the rooms' text gives ("As" -> 51).
_CODES = {card_str(code): code for code in range(52)}
_WAGERS = ("bring_in", "complete", "bet", "raise", "call", "check", "fold", "all_in")


class _Replay:
    def __init__(self, t: Transcript, rules: HouseRules | None, rake: int | None = None) -> None:
        self.t = t
        self.unit = chip_unit(t)
        in_hand = {s.name for s in t.steps if s.name is not None}
        seated = sorted((seat for seat in t.seats if seat[1] in in_hand), key=lambda s: s[0])
        if not t.steps:
            raise self.error("the text ends before a card is dealt", t.line)
        if len(seated) < 2:
            raise self.error("fewer than two players were dealt in", t.line)
        self.players = [Player(no, name, self.chips(stack, t.line)) for no, name, stack in seated]
        self.seat_of = {p.name: i for i, p in enumerate(self.players)}
        self.stakes = self._stakes()
        if rake is not None:
            self.rake = rake
        elif t.rake is not None:
            self.rake = self.chips(t.rake, t.line)
        else:
            self.rake = self._unwritten_rake()
        try:
            self.hand = StudHand(t.game, self.stakes, [p.stack for p in self.players],
                                 rules=rules, rake=self.rake)  # fmt: skip
        except StudevalError as err:
            raise self.error(f"the table cannot be set: {err}", t.line) from None
        self.dealt: dict[tuple[int, int], Step] = {}  # each seat's deal line a street
        self.streets_dealt = [0] * len(self.players)  # the last street dealt to each seat
        self.street_start: tuple[int, list[int]] = (0, [])  # a street, what each had in
        # Up cards from every deal line of the hand (3rd street's is the last of its
        # cards), so a card shown at the end is known to be down or up from the start.
        self.ups: dict[str, set[str | None]] = {p.name: set() for p in self.players}
        for s in t.steps:
            if s.kind == "deal" and s.name in self.ups and s.cards and 3 <= s.street <= 6:
                self.ups[s.name].add(s.cards[-1])
        # The community card, where a street marker deals one.
        self.community = next((s.cards[0] for s in t.steps if s.kind == "street" and s.cards),
                              None)  # fmt: skip

    # ---- money ------------------------------------------------------------------------

    def error(self, message: str, line: int, *names: str, guess: bool = False) -> HistoryError:
        """A refusal at ``line``; ``names``: the players ``message`` names, in order
        (its kind, :func:`~studeval.histories._record.reason_kind`, leaves them out;
        ``guess``: a message from elsewhere, whose leading name is guessed)."""
        t = self.t
        return HistoryError(message, site=t.site, hand_id=t.hand_id, line=line, source=t.source,
                            names=None if guess else names)  # fmt: skip

    def chips(self, amount: Decimal, line: int) -> int:
        count = amount / self.unit
        if count != count.to_integral_value() or count < 0:
            raise self.error(f"{amount} is not a whole number of {self.unit}", line)
        return int(count)

    def money(self, chips: int) -> str:
        return str(chips * self.unit)  # Decimal keeps the unit's places: 0.40, not 0.4

    def _unwritten_rake(self) -> int:
        """A total pot written without its rake (Bovada, now and then): the rake is
        the total less what was collected."""
        t = self.t
        if t.total_pot is None or t.collects_returns or t.pot_after_rake:
            return 0
        taken = sum(s.amount for s in t.steps if s.kind == "collect" and s.amount is not None)
        pot = self.chips(t.total_pot, t.line)
        if pot and not taken:
            end = t.line + t.text.count("\n")  # the text's last line
            raise self.error(_NO_WINNER.format(pot=self.money(pot)), end)
        return max(pot - self.chips(Decimal(taken), t.line), 0)

    def _stakes(self) -> Stakes:
        t = self.t
        antes = [self.chips(s.amount, s.line) for s in t.steps if s.kind == "ante" and s.amount]
        ante = self.chips(t.ante, t.line) if t.ante is not None else max(antes, default=0)
        small_bet, big_bet = (t.small_bet, t.big_bet) if t.small_bet else limits(t.steps)
        small, big = self.chips(small_bet, t.line), self.chips(big_bet, t.line)
        bring_in = self._bring_in(small)
        try:
            return Stakes(ante=ante, bring_in=min(bring_in, small), small_bet=small, big_bet=big)
        except StudevalError as err:
            raise self.error(f"the stakes cannot be: {err}", t.line) from None

    def _bring_in(self, small: int) -> int:
        """The bring-in: the header's, else the first bring-in line's (all in or not:
        an all-in bring-in is a bring-in of what it put in). With neither, a first
        seat that checks or folds plays a game without one (0); a first seat that
        completes (or bets: some rooms call a completion a bet) hides it, and it is
        half the small bet, below what that seat put in when it went all in for less
        (half of that), so that the completion stays one."""
        t = self.t
        if t.bring_in is not None:
            return self.chips(t.bring_in, t.line)
        first = next((s for s in t.steps if s.kind == "bring_in" and s.amount is not None), None)
        if first is not None and first.amount is not None:
            return self.chips(first.amount, first.line)
        opening = next((s for s in t.steps if s.kind in _WAGERS and s.street == 3), None)
        if opening is not None and opening.kind in ("check", "fold"):
            return 0  # a bring-in seat can neither check nor fold
        bring_in = max(1, small // 2)
        if opening is not None and (opening.to or opening.amount) is not None:
            total = self.chips(opening.to or opening.amount, opening.line)  # type: ignore[arg-type]
            if total <= bring_in:  # all in for a completion of less than the guess
                bring_in = total // 2
        return bring_in

    # ---- cards ------------------------------------------------------------------------

    def _downs(self, seat: int) -> list[str]:
        """The seat's down cards the text reveals anywhere, in the order shown: what
        it shows less its up cards (every street's deal lines) and the community card."""
        name = self.players[seat].name
        shown = self.t.revealed.get(name, ())
        return [c for c in shown if c not in self.ups[name] and c != self.community]

    def deal_street(self, line: int) -> int:
        """Deal the street the hand waits for, from what the text showed; how many
        deals that made."""
        hand = self.hand
        street = hand.street
        if self.community is not None and street == 7:
            try:
                hand.deal_community(self.community)
            except StudevalError as err:
                raise self.error(f"the community card: {err}", line) from None
            return 1
        deals = 0
        folded = hand.folded
        for seat in range(hand.seats):
            if folded[seat] or self.streets_dealt[seat] >= street:
                continue
            deal = self.dealt.get((seat, street))
            shown = deal.cards if deal is not None else ()
            downs = self._downs(seat)
            if street == 3:
                if len(shown) == 3:
                    cards: list[str | None] = list(shown)
                elif len(shown) == 1:
                    cards = [*[*downs[:2], None, None][:2], shown[0]]
                else:
                    raise self._no_up_card(seat, street, line)
            elif street == 7:
                known = shown[0] if shown else None
                cards = [known if known is not None else (downs[2] if len(downs) > 2 else None)]
            else:
                if len(shown) != 1:
                    raise self._no_up_card(seat, street, line)
                cards = list(shown)
            try:
                # Codes where the text is a card ("As"): text that is none is left
                # for the engine to refuse with its reason.
                hand.deal(seat, [_CODES.get(c, c) if c is not None else None for c in cards])
            except StudevalError as err:
                name = self.players[seat].name
                # A word of the deal line that is no card: that line is named.
                if deal is not None and any(c is not None and c not in CODE_OF_TEXT
                                            for c in shown):  # fmt: skip
                    line = deal.line
                raise self.error(f"dealing {name}: {err}", line, name) from None
            self.streets_dealt[seat] = street
            deals += 1
        return deals

    def _no_up_card(self, seat: int, street: int, line: int) -> HistoryError:
        """Why ``seat`` cannot be dealt ``street``: the text shows no other player's up
        cards (Everleaf's files before August 2011), it ends before the street, or
        that player's line is missing."""
        t, name = self.t, self.players[seat].name
        if not any(s.kind == "deal" and s.name != t.hero and any(s.cards) for s in t.steps):
            return self.error(f"{t.site} shows no other player's up cards: the bring-in and "
                              "the order of play cannot be replayed", t.line)  # fmt: skip
        if all(s.street < street for s in t.steps):  # a text cut in a street's marker line
            return self.error("the text ends before the hand does", line)
        ordinal = {3: "3rd", 4: "4th", 5: "5th", 6: "6th"}[street]
        return self.error(f"{name} has no up card on {ordinal} street", line, name)

    # ---- actions ----------------------------------------------------------------------

    def ready(self, line: int, before: int = 8) -> None:
        """Deal what is due before an action or the showdown (streets before
        ``before`` only: a street marker deals the streets nobody acted on)."""
        hand = self.hand
        while hand.actor is None and not hand.over and not hand.showdown and hand.street < before:
            if not self.deal_street(line):
                raise self.error("the hand waits for cards the text does not deal", line)

    def act(self, step: Step) -> None:
        hand = self.hand
        self.ready(step.line)
        if self.street_start[0] != hand.street:  # the street's first action
            self.street_start = (hand.street, hand.contributions)  # antes and all
        name = step.name or ""
        seat = self.seat_of[name]
        if hand.over or hand.showdown:
            raise self.error(f"{name} {step.kind}s after the betting is over", step.line, name)
        if hand.actor != seat:
            actor = [self.players[hand.actor].name] if hand.actor is not None else []
            raise self.error(f"{name} {step.kind}s, but {(actor or ['nobody'])[0]} is to act",
                             step.line, name, *actor)  # fmt: skip
        legal = hand.legal()
        kind, to = step.kind, None
        if kind == "all_in":  # every chip left: a call when that is all it costs
            stack, mine = hand.stacks[seat], self._street_total(seat)
            paid = self.chips(step.amount, step.line) if step.amount is not None else stack
            if paid not in (stack, mine + stack):
                raise self.error(f"{name} goes all in for {self.money(paid)} with "
                                 f"{self.money(stack)} left", step.line, name)  # fmt: skip
            if legal.call is not None and legal.call == stack:
                kind = "call"
            else:
                kind, step = "raise", dataclasses.replace(step, to=None, amount=None)
                to = mine + stack
        if kind in ("fold", "check"):
            pass
        elif kind in ("call", "bring_in"):
            due = legal.call if kind == "call" else legal.bring_in
            given = self.chips(step.amount, step.line) if step.amount is not None else due
            if kind == "call" and step.amount is None and step.to is not None:
                given = self.chips(step.to, step.line) - self._street_total(seat)  # "calls to"
            if due is None or given != due:
                what = "calls" if kind == "call" else "brings in for"
                raise self.error(f"{name} {what} {self.money(given or 0)}; the "
                                 f"{'call' if kind == 'call' else 'bring-in'} is "
                                 f"{self.money(due or 0)}", step.line, name)  # fmt: skip
        else:
            if step.to is not None:
                to = self.chips(step.to, step.line)
            elif step.amount is not None:
                to = self._street_total(seat) + self.chips(step.amount, step.line)
            if to is None:
                raise self.error(f"{name} {kind}s without an amount", step.line, name)
            if step.amount is not None and step.to is not None:  # "raises X to Y"
                level = max(map(self._street_total, range(hand.seats)))
                if self.chips(step.amount, step.line) != to - level:
                    raise self.error(f"{name} {kind}s {step.amount} to {step.to}; the "
                                     f"bet to call was {self.money(level)}", step.line,
                                     name)  # fmt: skip
            # Rooms name a wager differently ("raises" for a completion, "bets" for
            # one): the kind is the one whose legal totals hold the amount.
            kinds = [k for k in (kind, "complete", "bet", "raise") if to in (legal.totals(k) or ())]
            if not kinds:
                raise self.error(
                    f"{name} {kind}s to {self.money(to)}; legal: "
                    + ", ".join(f"{k} {'/'.join(map(self.money, legal.totals(k) or ()))}".strip()
                                for k in legal.kinds()), step.line, name)  # fmt: skip
            kind = kinds[0]
        try:
            hand.act(kind, to)
        except StudevalError as err:
            raise self.error(f"{name}: {err}", step.line, name) from None
        if step.all_in and hand.stacks[seat]:
            raise self.error(f"{name} is all in with {self.money(hand.stacks[seat])} left",
                             step.line, name)  # fmt: skip

    def _street_total(self, seat: int) -> int:
        """What ``seat`` has put in this street (its last wager's total): what it has
        put in less what it had before the street's first action."""
        return self.hand.contributions[seat] - self.street_start[1][seat]

    # ---- the end ----------------------------------------------------------------------

    def showdown(self, line: int) -> None:
        hand = self.hand
        shows = {s.name for s in self.t.steps if s.kind == "show"} | set(self.t.revealed)
        shows -= {s.name for s in self.t.steps if s.kind == "muck"} - {
            s.name for s in self.t.steps if s.kind == "show"}  # fmt: skip
        while hand.showdown:
            seat = hand.actor
            assert seat is not None
            name = self.players[seat].name
            try:
                if name in shows:
                    downs = self._downs(seat)
                    dealt = hand.cards[seat]
                    places = [i for i in range(len(dealt)) if i < 2 or i == 6]
                    known = [dealt[i] for i in places if dealt[i] is not None]
                    rest = list(dict.fromkeys(c for c in downs
                                              if CODE_OF_TEXT.get(c, -1) not in known))  # fmt: skip
                    if len(rest) > len(places) - len(known):
                        # A card shown down that the deal lines did not deal (the hero's
                        # own, say): the text contradicts itself.
                        raise self._shown_otherwise(seat, downs, [dealt[i] for i in places])
                    if len(known) < len(places):
                        cards = iter(rest)
                        hand.show([dealt[i] if dealt[i] is not None else next(cards)
                                   for i in places])  # fmt: skip
                    else:
                        hand.show()
                else:
                    hand.muck()
            except StopIteration:
                raise self.error(f"{name} shows fewer down cards than were dealt", line,
                                 name) from None  # fmt: skip
            except HistoryError:
                raise
            except StudevalError as err:
                raise self.error(f"{name} at the showdown: {err}", line, name) from None

    def _shown_otherwise(self, seat: int, downs: list[str],
                         dealt: list[int | None]) -> HistoryError:  # fmt: skip
        """The refusal of a seat whose shown down cards are not those its deal lines
        dealt, on the line that shows them."""
        name = self.players[seat].name
        line = next((s.line for s in self.t.steps if s.kind == "show" and s.name == name),
                    self.t.line)  # fmt: skip
        given = " ".join(card_str(c) if c is not None else "?" for c in dealt)
        return self.error(f"{name} shows {' '.join(downs)} down, where the deal lines dealt "
                          f"{given}", line, name)  # fmt: skip

    def _taken(self, kind: str) -> dict[str, int]:
        """Chips each player took by ``kind`` lines ("collect" or "return")."""
        taken = {p.name: 0 for p in self.players}
        for s in self.t.steps:
            if s.kind == kind and s.name is not None and s.amount is not None:
                taken[s.name] += self.chips(s.amount, s.line)
        return taken

    def check_end(self, end_line: int) -> None:
        """Check what the text says of the end against the finished hand (``_play``
        has refused a text that ends before the hand does)."""
        hand, t = self.hand, self.t
        result = hand.result
        assert result is not None
        for seat, player in enumerate(self.players):
            put_in = (t.contributed or {}).get(player.name)
            # A room that writes the uncalled bet given back apart counts it out of
            # what the player put in.
            paid = hand.contributions[seat] - (0 if t.collects_returns else result.returned[seat])
            if put_in is not None and self.chips(put_in, end_line) != paid:
                raise self.error(f"{player.name} bet {put_in}; the replay puts in "
                                 f"{self.money(paid)}", end_line, player.name)  # fmt: skip
        returned, collected = self._taken("return"), self._taken("collect")
        pot = sum(result.payouts) - sum(result.returned)
        if pot and not any(collected.values()):  # a text cut before its winners' lines
            raise self.error(_NO_WINNER.format(pot=self.money(pot)), end_line)
        if t.writes_total and t.total_pot is None:  # cut before its summary's total pot
            raise self.error("no total pot: the text ends before the hand does", end_line)
        for seat, player in enumerate(self.players):
            got, back = collected[player.name], returned[player.name]
            if t.collects_returns:  # what was won includes the uncalled bet given back
                if got != result.payouts[seat]:
                    raise self.error(f"{player.name} collected {self.money(got)}; the replay "
                                     f"pays {self.money(result.payouts[seat])}, an uncalled "
                                     "bet included", end_line, player.name)  # fmt: skip
                continue
            if back != result.returned[seat] and not t.returns_unwritten:
                raise self.error(f"{player.name} got back {self.money(back)} uncalled; the "
                                 f"replay returns {self.money(result.returned[seat])}",
                                 end_line, player.name)  # fmt: skip
            won = result.payouts[seat] - result.returned[seat]
            if got != won:
                raise self.error(f"{player.name} collected {self.money(got)}; "
                                 f"the replay pays {self.money(won)}", end_line,
                                 player.name)  # fmt: skip
        # The total as the room writes it: with or without the uncalled bets, before
        # or after the rake.
        pot = sum(result.payouts) - (0 if t.collects_returns else sum(result.returned))
        pot += 0 if t.pot_after_rake else result.rake
        if t.total_pot is not None:
            total = self.chips(t.total_pot, end_line)
            if total != pot:
                raise self.error(f"the total pot is {self.money(total)}; the replay's is "
                                 f"{self.money(pot)}", end_line)  # fmt: skip
        if result.rake != self.rake:
            raise self.error(f"the rake is {self.money(self.rake)}; the replay takes "
                             f"{self.money(result.rake)}", end_line)  # fmt: skip


def replay(t: Transcript, rules: HouseRules | None = None) -> History:
    """Play ``t`` through the engine and check every amount; the finished History.

    >>> from studeval.histories._grammar import read_hand
    >>> from studeval.histories import EXAMPLE
    >>> from studeval.histories.rooms.pokerstars import GRAMMAR
    >>> replay(read_hand(GRAMMAR, EXAMPLE.splitlines(), 1, None)).stakes
    Stakes(ante=1, bring_in=2, small_bet=4, big_bet=8)
    """
    rules = rules if rules is not None else t.rules
    r = _play(t, rules)
    end = t.line + t.text.count("\n")
    if t.rake_unwritten and t.rake is None and t.total_pot is None:
        # A rake taken but not written is what the pots paid less what the players
        # collected: play the hand again taking it, and check the rest against that.
        result = r.hand.result
        assert result is not None
        collected = sum(r._taken("collect").values())
        pot = sum(result.payouts) - sum(result.returned)
        if pot and not collected:
            raise r.error(_NO_WINNER.format(pot=r.money(pot)), end)
        rake = pot - collected
        if rake > most_unwritten_rake(pot):
            raise r.error(_NO_RAKE.format(collected=r.money(collected), pot=r.money(pot),
                                          rake=r.money(rake)), end)  # fmt: skip
        if rake > 0:
            r = _play(t, rules, rake)
    r.check_end(end)
    hand = r.hand
    history = History(
        site=t.site, hand_id=t.hand_id, table=t.table, tournament=t.tournament,
        played_at=t.played_at, currency=t.currency, game=t.game, stakes=r.stakes,
        unit=r.unit, players=r.players, hero=t.hero, hand=hand,
        collected=r._taken("collect"),
        rake=r.rake, text=t.text, source=t.source, line=t.line,
    )  # fmt: skip
    hand.info = history.info  # one record a hand, the History's (not made again for it)
    return history


#: A text that writes no rake and no player collecting (a file read while the room was
#: still writing it, or a line lost): the rake would be the whole pot, which no room
#: takes.
_NO_WINNER = "no player collects the pot of {pot}: the text ends before the hand does"


#: A text that writes no rake, whose winners collect less of the pot than any rake
#: leaves them (histories._limits.most_unwritten_rake).
_NO_RAKE = (
    "the winners collect {collected} of the pot of {pot}: {rake} left is more than "
    "any room's rake (a winner's amount edited or lost)"
)


def _play(t: Transcript, rules: HouseRules | None, rake: int | None = None) -> _Replay:
    """Every line of ``t`` played, to the end of the hand (not yet checked)."""
    r = _Replay(t, rules, rake)
    hand = r.hand
    pending = sorted(t.contradictions)
    for s in t.steps:
        if pending and pending[0][0] <= s.line:  # a line the reader found contradicting
            raise r.error(pending[0][1], pending[0][0], guess=True)
        if s.kind == "ante":
            seat = r.seat_of[s.name or ""]
            posted = hand.contributions[seat]
            if s.amount is not None and r.chips(s.amount, s.line) != posted:
                raise r.error(f"{s.name} posts {s.amount} of ante; the replay posts "
                              f"{r.money(posted)}", s.line, s.name or "")  # fmt: skip
            if s.all_in and hand.stacks[seat]:
                raise r.error(f"{s.name} is all in with {r.money(hand.stacks[seat])} left",
                              s.line, s.name or "")  # fmt: skip
        elif s.kind == "street":
            if not hand.over:
                r.ready(s.line, before=s.street)  # streets nobody acted on
        elif s.kind == "deal":
            seat = r.seat_of[s.name or ""]
            r.dealt[(seat, s.street)] = s
        elif s.kind in _WAGERS:
            r.act(s)
    if pending:
        raise r.error(pending[0][1], pending[0][0], guess=True)
    end = t.line + t.text.count("\n")
    if not hand.over:
        r.ready(end)
        r.showdown(end)
    if not hand.over:
        raise r.error("the text ends before the hand does", end)
    return r
