# The fixed-limit engine (included by _core.pyx).

ENGINE_MAX_CHIPS = SE_ENGINE_MAX_CHIPS

#: A table's rules as the core takes them (se_table_rules): the seats, the stakes,
#: the rake, and the game's and the house's action rules as flags.
TableRules = _record(
    "TableRules",
    "seats ante bring_in small_bet big_bet rake bring_in_highest ace_low board_low "
    "open_pair bring_in_tie_position action_tie_suit short_all_in_full_bet "
    "bring_in_passes_left cap_heads_up deck_reuses_muck short_bring_in_opens "
    "cap_skips_all_in",
    defaults=(False,),
)

#: The five table actions of a seat to act (``se_hand_table_choices``): whether each
#: is allowed, the total it bets to, and the engine action it is.
TableChoices = _record("TableChoices", "allowed totals kinds")
#: A showdown settled by the core (``se_settle``): each seat's payout, the chips
#: each got back unmatched, and the rake taken.
Settlement = _record("Settlement", "payouts returned rake")


cdef inline object _card_or_none(uint8_t code):
    return None if code == SE_UNKNOWN_CARD else code


cdef tuple _totals(const int64_t *totals, int count):
    if count == 0:
        return ()
    if count == 1:
        return (totals[0],)
    return (totals[0], totals[1])


@cython.auto_pickle(False)
@cython.final
cdef class CoreEvent:
    """One logged event (``se_event``): ``kind`` 0..6 an action (fold .. raise), 7 ante,
    8 deal, 9 community, 10 show, 11 muck; ``seat`` and ``to`` -1 when none; ``cards``
    with None for an unknown card; ``street`` 3..7."""

    cdef readonly int kind, seat, street
    cdef readonly int64_t amount, to
    cdef readonly tuple cards

    def __repr__(self) -> str:
        return (f"CoreEvent(kind={self.kind}, seat={self.seat}, amount={self.amount}, "
                f"to={self.to}, cards={self.cards}, street={self.street})")


@cython.auto_pickle(False)
@cython.final
cdef class LegalTotals:
    """What the seat to act may do (``se_legal``): ``fold`` and ``check`` allowed or
    not, the chips a ``call`` or the ``bring_in`` costs (None when not offered), and
    every legal street total of a completion, bet or raise. Two are equal, and hash
    alike, when their contents are, so that the Python layer can keep what it
    builds from one (a table sees few distinct ones), and making one costs no Python
    call: it is read once an action.
    """

    cdef se_legal legal

    @property
    def fold(self) -> bool:
        return self.legal.fold != 0

    @property
    def check(self) -> bool:
        return self.legal.check != 0

    @property
    def call(self):
        return None if self.legal.call < 0 else self.legal.call

    @property
    def bring_in(self):
        return None if self.legal.bring_in < 0 else self.legal.bring_in

    @property
    def complete_to(self) -> tuple:
        return _totals(self.legal.complete_to, self.legal.complete_count)

    @property
    def bet_to(self) -> tuple:
        return _totals(self.legal.bet_to, self.legal.bet_count)

    @property
    def raise_to(self) -> tuple:
        return _totals(self.legal.raise_to, self.legal.raise_count)

    def __eq__(self, other):
        if type(other) is not LegalTotals:
            return NotImplemented
        # se_hand_legal clears the whole struct first: padding and unused slots are 0.
        return memcmp(&self.legal, &(<LegalTotals>other).legal, sizeof(se_legal)) == 0

    def __hash__(self):
        cdef const uint8_t *byte = <const uint8_t *>&self.legal
        cdef uint64_t h = 14695981039346656037ULL  # FNV-1a 64 over the struct's bytes
        cdef size_t i
        for i in range(sizeof(se_legal)):
            h = (h ^ byte[i]) * 1099511628211ULL
        return <Py_hash_t>(h >> 2)

    def __repr__(self) -> str:
        return (f"LegalTotals(fold={self.fold}, check={self.check}, call={self.call}, "
                f"bring_in={self.bring_in}, complete_to={self.complete_to}, "
                f"bet_to={self.bet_to}, raise_to={self.raise_to})")


cdef int _codes_in(object codes, uint8_t *out, int room) except -1:
    """Copy a list of card codes (None: unknown) the Python layer has checked."""
    cdef int i
    if len(codes) > room:
        raise HandSizeError(len(codes), f"at most {room} cards")
    for i, code in enumerate(codes):
        out[i] = SE_UNKNOWN_CARD if code is None else <uint8_t>code
    return len(codes)


cdef void _table_rules_of(object rules, se_table_rules *table) except *:
    """A TableRules record as the core's se_table_rules."""
    table.seats = rules.seats
    table.ante = rules.ante
    table.bring_in = rules.bring_in
    table.small_bet = rules.small_bet
    table.big_bet = rules.big_bet
    table.rake = rules.rake
    table.bring_in_highest = rules.bring_in_highest
    table.ace_low = rules.ace_low
    table.board_low = rules.board_low
    table.open_pair = rules.open_pair
    table.bring_in_tie_position = rules.bring_in_tie_position
    table.action_tie_suit = rules.action_tie_suit
    table.short_all_in_full_bet = rules.short_all_in_full_bet
    table.bring_in_passes_left = rules.bring_in_passes_left
    table.cap_heads_up = rules.cap_heads_up
    table.deck_reuses_muck = rules.deck_reuses_muck
    table.short_bring_in_opens = rules.short_bring_in_opens
    table.cap_skips_all_in = rules.cap_skips_all_in


cdef list _events_of(const se_hand *hand, size_t start):
    """A hand's event log from ``start``, as ``CoreEvent`` records."""
    cdef size_t i
    cdef const se_event *e
    cdef CoreEvent event
    out = []
    for i in range(start, hand.events_count):
        e = &hand.events[i]
        event = CoreEvent.__new__(CoreEvent)
        event.kind = <int>e.kind
        event.seat = e.seat
        event.amount = e.amount
        event.to = e.to
        event.street = e.street
        event.cards = tuple([_card_or_none(e.cards[j]) for j in range(e.card_count)])
        out.append(event)
    return out


@cython.auto_pickle(False)
@cython.final
cdef class TableHand:
    """One hand's state in the core's engine (``se_hand``). :class:`studeval.StudHand`
    checks everything and calls these; each mutating call returns a status (0, or
    the reason it changed nothing, for :func:`raise_for_status`).

    >>> rules = TableRules(seats=2, ante=1, bring_in=2, small_bet=5, big_bet=10, rake=0,
    ...     bring_in_highest=False, ace_low=False, board_low=False, open_pair=True,
    ...     bring_in_tie_position=False, action_tie_suit=False, short_all_in_full_bet=False,
    ...     bring_in_passes_left=False, cap_heads_up=False, deck_reuses_muck=False,
    ...     short_bring_in_opens=False)
    >>> t = TableHand(rules, [50, 50])
    >>> t.stacks(), t.contributions(), t.events_count
    ([49, 49], [1, 1], 2)
    >>> t.deal(0, [None, None, 51]) == t.deal(1, [None, None, 0]) == 0
    True
    >>> t.actor, t.legal().bring_in, t.legal().complete_to
    (1, 2, (5,))
    """

    cdef se_hand hand
    cdef bint ready
    cdef readonly object rules

    def __cinit__(self, rules, stacks):
        cdef se_table_rules table
        cdef int64_t chips[8]
        cdef int i
        cdef int seats = rules.seats
        if not 2 <= seats <= SE_ENGINE_MAX_SEATS or len(stacks) != seats:
            raise CoreCallError(f"a table has 2 to 8 seats and a stack for each; got {seats}")
        for i in range(seats):
            chips[i] = stacks[i]
        _table_rules_of(rules, &table)
        check_status(se_hand_init(&self.hand, &table, chips), "the table")
        self.rules = rules
        self.ready = True

    def __dealloc__(self):
        if self.ready:
            se_hand_free(&self.hand)

    @cython.critical_section
    def copy(self) -> TableHand:
        """An independent copy of the hand's whole state."""
        cdef TableHand other = TableHand(self.rules, [0] * self.hand.rules.seats)
        cdef se_hand fresh
        check_status(se_hand_copy(&fresh, &self.hand), "a copy of the hand")
        se_hand_free(&other.hand)
        other.hand = fresh
        return other

    @cython.critical_section
    def deck(self) -> list:
        """The cards deal_random deals next, in order (None before its first shuffle)."""
        if self.hand.deck_count < 0:
            return None
        se_hand_fix_deck(&self.hand)  # the rest of the shuffle, done as dealing would
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

    def shown(self) -> list:
        """Seats that showed at the showdown."""
        return [self.hand.shown[i] != 0 for i in range(self.hand.rules.seats)]

    def cards(self, int seat) -> list:
        """A seat's cards in deal order (None where unknown)."""
        if not 0 <= seat < self.hand.rules.seats:
            raise IndexError(seat)
        return [_card_or_none(self.hand.cards[seat][i]) for i in range(self.hand.card_count[seat])]

    def up_cards(self, int seat) -> list:
        if not 0 <= seat < self.hand.rules.seats:
            raise IndexError(seat)
        return [self.hand.up[seat][i] for i in range(self.hand.up_count[seat])]

    def card_free(self, int card, int count) -> bool:
        """Whether a card may be one of a deal of ``count`` cards to a seat now (not yet
        seen, or a folded seat's card the deal shuffles back into the deck)."""
        return se_hand_card_free(&self.hand, card, count) == 1

    def is_known(self, int card) -> bool:
        """Whether a card code has been dealt face up or is known."""
        return 0 <= card < 52 and (self.hand.known >> card) & 1 == 1

    @cython.critical_section
    def legal(self) -> LegalTotals:
        """The ``LegalTotals`` of the seat to act."""
        cdef LegalTotals totals = LegalTotals.__new__(LegalTotals)
        se_hand_legal(&self.hand, &totals.legal)
        return totals

    @cython.critical_section
    def table_choices(self) -> TableChoices:
        """The five table actions now (``se_hand_table_choices``)."""
        cdef uint8_t legal[5]
        cdef int64_t totals[5]
        cdef int kinds[5]
        se_hand_table_choices(&self.hand, legal, totals, kinds)
        return TableChoices(tuple([legal[i] != 0 for i in range(5)]),
                            tuple([totals[i] for i in range(5)]),
                            tuple([kinds[i] for i in range(5)]))

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
    def settle(self, int game, int64_t chip, tuple flags):
        """Settles the showdown due (``se_settle``, the rake at most the table's) and
        pays it: what each seat got back unmatched, or None where the core did not
        (the caller then settles it in Python). ``game`` and ``flags`` as
        ``settle_payouts``'."""
        cdef se_settle_rules rules
        cdef int64_t returned[8]
        cdef int s
        if not self.hand.settle_due:
            return None
        _settle_rules_of(game, chip, self.hand.rules.rake, True, flags, &rules)
        if not _settle_due(&self.hand, &rules, returned):
            return None
        return [returned[s] for s in range(self.hand.rules.seats)]

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
        """The event log from ``start``, as ``CoreEvent`` records."""
        return _events_of(&self.hand, start)


cdef bint _settle_due(se_hand *hand, const se_settle_rules *rules, int64_t *returned) noexcept:
    """Settles a hand's showdown due (``se_settle``) and pays it; whether the core did,
    with what each seat got back unmatched in ``returned``."""
    cdef uint8_t live[8]
    cdef int64_t payouts[8]
    cdef int64_t taken = 0
    cdef int s
    for s in range(hand.rules.seats):
        live[s] = hand.out[s] == 0
    return (se_settle(rules, hand.rules.seats, <const uint8_t (*)[7]>hand.cards, live,
                      hand.community, hand.contributions, payouts, returned, &taken) == SE_OK
            and se_hand_pay(hand, payouts, taken) == SE_OK)


cdef void _settle_rules_of(int game, int64_t chip, int64_t rake, bint rake_at_most, tuple flags,
                           se_settle_rules *rules) except *:
    """The core's se_settle_rules; ``flags``: the five odd-chip and split options."""
    if not 0 <= game <= 3 or len(flags) != 5:
        raise CoreCallError(f"no game {game}, or not five flags: {flags}")
    rules.game = <se_game>game
    rules.chip = chip
    rules.rake = rake
    rules.rake_at_most = rake_at_most
    rules.odd_chip_played = flags[0]
    rules.odd_chip_low_high_card = flags[1]
    rules.odd_chips_first_seat = flags[2]
    rules.odd_chip_half_low = flags[3]
    rules.split_pots_merged = flags[4]


def settle_payouts(int game, hands, int community, contributions, int64_t rake, bint rake_at_most,
                   int64_t chip, bint odd_chip_played, bint odd_chip_low_high_card,
                   bint odd_chips_first_seat, bint odd_chip_half_low, bint split_pots_merged):
    """A showdown's ``Settlement`` from the core (``se_settle``): ``hands``
    a list of 7 codes (6 with a ``community`` card, else -1) or None a seat; the
    house's options as flags. The Python layer's ``settle`` is the reference."""
    cdef se_settle_rules rules
    cdef uint8_t cards[8][7]
    cdef uint8_t live[8]
    cdef int64_t chips[8]
    cdef int64_t payouts[8]
    cdef int64_t returned[8]
    cdef int64_t taken = 0
    cdef int seats = len(hands), s, i
    if not 2 <= seats <= 8 or len(contributions) != seats:
        raise CoreCallError(f"a showdown has 2 to 8 seats and a contribution each; got {seats}")
    memset(cards, 0, sizeof(cards))
    for s in range(seats):
        chips[s] = contributions[s]
        live[s] = hands[s] is not None
        if hands[s] is not None:
            if len(hands[s]) != (6 if community >= 0 else 7):
                raise HandSizeError(len(hands[s]), "7 cards, 6 with a community card")
            for i, code in enumerate(hands[s]):
                cards[s][i] = code
    _settle_rules_of(game, chip, rake, rake_at_most, (odd_chip_played, odd_chip_low_high_card,
                     odd_chips_first_seat, odd_chip_half_low, split_pots_merged), &rules)
    check_status(se_settle(&rules, seats, cards, live, community, chips, payouts, returned,
                           &taken), "settle")
    return Settlement([payouts[s] for s in range(seats)], [returned[s] for s in range(seats)],
                      taken)
