/* The engine's state machine from C alone, driven by a byte stream.
 *
 * The bytes choose the table (2-8 seats, small stakes and stacks, every rule
 * flag, the house's options included) and then every step: deal from the deck or by hand (any byte as a card:
 * invalid, repeated and unknown ones included), act (any kind and total, legal
 * or not), show (any down cards) or muck, and pay a showdown (wrong payouts
 * first). The oracle:
 *   - a call the state does not allow changes nothing (the chips, the turn, the
 *     street, the log);
 *   - every action se_hand_legal offers is accepted, and what it does not offer
 *     is refused;
 *   - no chip is lost or made: stacks plus contributions stay the starting
 *     total, and once the hand is over the stacks plus the rake are;
 *   - every hand ends;
 *   - the deck, counted again here from what each deal gave (deck_count below):
 *     the cards in hands, the burns and the folded seats shuffled back match the
 *     engine's; a deal is refused, or the community card dealt, exactly when the
 *     count says the deck (and, deck_reuses_muck, the muck) is short; a card is
 *     free exactly when the count says so; the shuffled deck holds every card not
 *     yet seen, once.
 * Built two ways: with -DENGINE_CHECK_MAIN a program that plays N hands from a
 * seeded generator and prints what it saw (tests/test_engine_core.py); without,
 * a libFuzzer target (tools/fuzz.py, under AddressSanitizer and UBSan). */
#include "studeval.h"

#include "engine/se_engine.h" /* se_hand_act_known: the Tables' way in */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STEPS 20000

typedef struct reader {
    const uint8_t *data;
    size_t size, at;
} reader;

/* The next byte; zeros once the input runs out (the hand then plays on by the
 * first legal choice, so it still ends). */
static uint8_t next_byte(reader *r) { return r->at < r->size ? r->data[r->at++] : 0; }

typedef struct stats {
    long hands, showdowns, community, uncapped, refused, accepted, by_hand, open_pairs, refills;
} stats;

static void fail(const char *what, long step) {
    fprintf(stderr, "engine_check: %s (step %ld)\n", what, step);
    abort();
}

typedef struct snapshot {
    int64_t stacks[SE_ENGINE_MAX_SEATS], contributions[SE_ENGINE_MAX_SEATS];
    int street, actor, showdown, over, settle_due, community;
    size_t events;
    uint64_t known;
} snapshot;

static snapshot take(const se_hand *h) {
    snapshot s;
    memset(&s, 0, sizeof s);
    memcpy(s.stacks, h->stacks, sizeof s.stacks);
    memcpy(s.contributions, h->contributions, sizeof s.contributions);
    s.street = h->street;
    s.actor = h->actor;
    s.showdown = h->showdown;
    s.over = h->over;
    s.settle_due = h->settle_due;
    s.community = h->community;
    s.events = h->events_count;
    s.known = h->known;
    return s;
}

static void expect_unchanged(const se_hand *h, const snapshot *before, long step) {
    snapshot now = take(h);
    if (memcmp(&now, before, sizeof now) != 0) fail("a refused call changed the hand", step);
}

/* What the header promises of the state and the log, beyond the chips. */
static void check_state(const se_hand *h, long step) {
    if (h->settle_due && (h->showdown || h->actor != -1 || h->over))
        fail("settle_due with the showdown still on, a seat to act, or the hand over", step);
    if (h->over && (h->showdown || h->actor != -1)) fail("an over hand with a seat to act", step);
    if (h->showdown != 0 && h->showdown != 1) fail("showdown is not 0 or 1", step);
    for (size_t i = 0; i < h->events_count; i++) {
        const se_event *e = &h->events[i];
        int wager = e->kind == SE_EVENT_BRING_IN || e->kind == SE_EVENT_COMPLETE ||
                    e->kind == SE_EVENT_BET || e->kind == SE_EVENT_RAISE ||
                    e->kind == SE_EVENT_CALL;
        if (!wager && e->to != -1) fail("an event that is no wager has a street total", step);
        if (wager && e->to < e->amount) fail("a wager's street total is below its chips", step);
        if ((e->kind == SE_EVENT_FOLD || e->kind == SE_EVENT_CHECK) && e->amount != 0)
            fail("a fold or a check put chips in", step);
    }
}

static void check_chips(const se_hand *h, int64_t total, long step) {
    check_state(h, step);
    int64_t sum = 0, pot = 0;
    for (int s = 0; s < h->rules.seats; s++) {
        if (h->stacks[s] < 0 || h->contributions[s] < 0) fail("negative chips", step);
        sum += h->stacks[s] + (h->over ? 0 : h->contributions[s]);
        pot += h->contributions[s];
    }
    if (h->pot != pot) fail("the pot is not the contributions' sum", step);
    if (h->over) sum += h->rake_taken;
    if (sum != total) fail("chips were lost or made", step);
}

/* ---- the deck, counted again ---------------------------------------------------------- */

/* Where the cards are, kept apart from the engine's own bookkeeping and updated
 * from what each deal gave: cards in hands (the community card included), the
 * burns of the deck in use, the folded seats whose cards went back into a new
 * deck, and each seat's card count as last seen. */
typedef struct deck_count {
    int in_hands, burned, burn_street;
    int seen[SE_ENGINE_MAX_SEATS];
    uint8_t back[SE_ENGINE_MAX_SEATS];
    int community;
} deck_count;

static int folded_cards(const se_hand *h, const deck_count *d, uint64_t *known) {
    int count = 0;
    *known = 0;
    for (int s = 0; s < h->rules.seats; s++) {
        if (!h->folded[s] || d->back[s]) continue;
        for (int i = 0; i < d->seen[s]; i++) {
            count++;
            if (h->cards[s][i] != SE_UNKNOWN_CARD) *known |= 1ull << h->cards[s][i];
        }
    }
    return count;
}

/* Whether a deal on `street` burns a card first: the street's first deal, 4th on. */
static int burn_due(const se_hand *h, const deck_count *d, int street) {
    return h->rules.deck_reuses_muck && street >= 4 && d->burn_street != street;
}

/* Whether `count` cards can be dealt now, and how many new decks that makes. A
 * deck without the muck rule is 52 cards; with it, the street's burn comes first,
 * and a deck that cannot give a card becomes what it still holds plus the burns
 * and the folded seats' cards. */
static int deck_gives(const se_hand *h, const deck_count *d, int count, int *new_decks) {
    uint64_t ignored;
    int left = 52 - d->in_hands - d->burned;
    int muck = d->burned + folded_cards(h, d, &ignored);
    *new_decks = 0;
    if (!h->rules.deck_reuses_muck) return count <= 52 - d->in_hands;
    if (burn_due(h, d, h->street)) {
        if (left == 0) {
            left = muck;
            muck = 0;
            ++*new_decks;
        }
        if (left == 0) return 0;
        left--;
        muck++;
    }
    if (count > left) {
        left += muck;
        ++*new_decks;
    }
    return count <= left;
}

static void new_deck(const se_hand *h, deck_count *d, stats *st) {
    uint64_t ignored;
    d->in_hands -= folded_cards(h, d, &ignored);
    for (int s = 0; s < h->rules.seats; s++) d->back[s] |= h->folded[s];
    d->burned = 0;
    st->refills++;
}

/* One seat's (or the community's) deal of `count` cards on `street`, as the deck
 * gives it. (The street is the seat's card count: the betting may have moved the
 * hand on since.) */
static void count_deal(const se_hand *h, deck_count *d, int street, int count, stats *st) {
    if (burn_due(h, d, street)) {
        if (52 - d->in_hands - d->burned == 0) new_deck(h, d, st);
        d->burned++;
        d->burn_street = street;
    }
    if (h->rules.deck_reuses_muck && count > 52 - d->in_hands - d->burned) new_deck(h, d, st);
    d->in_hands += count;
}

/* After a deal: count what it gave (seats in seat order, as the engine deals
 * them), then compare. */
static void check_deck(const se_hand *h, deck_count *d, stats *st, long step) {
    for (int s = 0; s < h->rules.seats; s++) {
        if (h->card_count[s] == d->seen[s]) continue;
        count_deal(h, d, h->card_count[s], h->card_count[s] - d->seen[s], st);
        d->seen[s] = h->card_count[s];
    }
    if (h->community >= 0 && !d->community) {
        count_deal(h, d, 7, 1, st);
        d->community = 1;
    }
    if (h->cards_dealt != d->in_hands) fail("the engine's count of cards dealt is off", step);
    if (h->burned != d->burned) fail("the engine's count of burned cards is off", step);
    for (int s = 0; s < h->rules.seats; s++)
        if (!h->recycled[s] != !d->back[s]) fail("a seat's cards went back, or did not", step);
}

/* The cards seen: every known card of a seat not shuffled back, and the community
 * card, each once. */
static void check_known(const se_hand *h, const deck_count *d, long step) {
    uint64_t known = 0;
    int count = 0;
    for (int s = 0; s < h->rules.seats; s++) {
        if (d->back[s]) continue;
        for (int i = 0; i < h->card_count[s]; i++) {
            if (h->cards[s][i] == SE_UNKNOWN_CARD) continue;
            known |= 1ull << h->cards[s][i];
            count++;
        }
    }
    if (h->community >= 0) {
        known |= 1ull << h->community;
        count++;
    }
    if (known != h->known) fail("the cards seen are not the cards in play", step);
    int bits = 0;
    for (uint64_t k = known; k; k &= k - 1) bits++;
    if (bits != count) fail("a card is in play twice", step);
    if (h->deck_count < 0) return;
    /* The shuffled deck: every card not seen, once (cards dealt by hand since the
     * last deal from it may still be there, until that deal drops them). */
    uint64_t deck = 0;
    for (int i = 0; i < h->deck_count; i++) {
        if (h->deck[i] > 51 || (deck & (1ull << h->deck[i]))) fail("a bad card in the deck", step);
        deck |= 1ull << h->deck[i];
    }
    if ((deck | known) != (1ull << 52) - 1) fail("a card not seen is missing from the deck", step);
}

/* The cards free for the next deal of `count` cards, by the count: those nobody
 * holds face up, and a folded seat's cards when the deal shuffles them back. The
 * engine's se_hand_card_free must agree on every code. */
static uint64_t check_free(const se_hand *h, const deck_count *d, int count, long step) {
    int new_decks = 0;
    uint64_t back, free_ = 0;
    deck_gives(h, d, count, &new_decks);
    folded_cards(h, d, &back);
    for (int card = 0; card < 52; card++)
        if (!(h->known & (1ull << card)) || (new_decks > 0 && (back >> card) & 1))
            free_ |= 1ull << card;
    for (int card = -2; card < 70; card++) {
        int expected = card >= 0 && card < 52 && ((free_ >> card) & 1);
        if (se_hand_card_free(h, card, count) != expected) fail("card_free is wrong", step);
    }
    return free_;
}

/* The `pick`th free card, 255 (unknown) when none is left. */
static uint8_t nth_free(uint64_t free_, int pick) {
    int count = 0;
    for (uint64_t f = free_; f; f &= f - 1) count++;
    if (count == 0) return SE_UNKNOWN_CARD;
    pick %= count;
    for (uint8_t card = 0; card < 52; card++)
        if (((free_ >> card) & 1) && pick-- == 0) return card;
    return SE_UNKNOWN_CARD;
}

static int offered(const se_legal *l, int kind, int64_t to) {
    const int64_t *list = NULL;
    int count = 0;
    switch (kind) {
    case SE_ACT_FOLD: return l->fold;
    case SE_ACT_CHECK: return l->check;
    case SE_ACT_CALL: return l->call >= 0;
    case SE_ACT_BRING_IN: return l->bring_in >= 0 && (to < 0 || to == l->bring_in);
    case SE_ACT_COMPLETE: list = l->complete_to; count = l->complete_count; break;
    case SE_ACT_BET: list = l->bet_to; count = l->bet_count; break;
    case SE_ACT_RAISE: list = l->raise_to; count = l->raise_count; break;
    default: return 0;
    }
    if (count == 0) return 0;
    if (to < 0) return 1;
    for (int i = 0; i < count; i++)
        if (list[i] == to) return 1;
    return 0;
}

/* The first offered action, smallest total: used when the bytes run out. */
static void first_offered(const se_legal *l, int *kind, int64_t *to) {
    *to = -1;
    if (l->bring_in >= 0) *kind = SE_ACT_BRING_IN;
    else if (l->check) *kind = SE_ACT_CHECK;
    else if (l->call >= 0) *kind = SE_ACT_CALL;
    else *kind = SE_ACT_FOLD;
}

static void act_step(se_hand *h, reader *r, stats *st, int passive, long step) {
    se_legal l;
    se_hand_legal(h, &l);
    int kind;
    int64_t to;
    uint8_t how = next_byte(r);
    if (r->at >= r->size || (passive && how % 16 != 0)) {
        first_offered(&l, &kind, &to);
    } else if (how % 4 == 0) { /* anything at all */
        kind = next_byte(r) % 9;
        to = (int64_t)next_byte(r) - 8;
    } else { /* an offered kind and total, picked by the byte */
        const int64_t *lists[3] = {l.complete_to, l.bet_to, l.raise_to};
        int counts[3] = {l.complete_count, l.bet_count, l.raise_count};
        int kinds[7], n = 0;
        if (l.fold) kinds[n++] = SE_ACT_FOLD;
        if (l.check) kinds[n++] = SE_ACT_CHECK;
        if (l.call >= 0) kinds[n++] = SE_ACT_CALL;
        if (l.bring_in >= 0) kinds[n++] = SE_ACT_BRING_IN;
        for (int i = 0; i < 3; i++)
            if (counts[i] > 0) kinds[n++] = SE_ACT_COMPLETE + i;
        if (n == 0) fail("a seat to act has nothing legal", step);
        kind = kinds[next_byte(r) % n];
        to = -1;
        if (kind >= SE_ACT_COMPLETE) {
            int i = kind - SE_ACT_COMPLETE;
            to = lists[i][next_byte(r) % counts[i]];
        }
    }
    int legal = offered(&l, kind, to);
    snapshot before = take(h);
    se_status status = se_hand_act(h, (se_action)kind, to);
    if (legal && status != SE_OK) fail("an offered action was refused", step);
    if (!legal && status == SE_OK) fail("an action not offered was accepted", step);
    if (status != SE_OK) {
        expect_unchanged(h, &before, step);
        st->refused++;
    } else {
        st->accepted++;
    }
}

static int waiting_seats(const se_hand *h) {
    int count = 0;
    for (int s = 0; s < h->rules.seats; s++) count += !h->out[s] && !h->dealt[s];
    return count;
}

/* A choice kept from before (a Tables step that failed between streets) is refused
 * when no seat is to act, and changes nothing: never an action at seat -1. */
static void stale_choice(se_hand *h, uint8_t how, long step) {
    snapshot before = take(h);
    if (se_hand_act_known(h, (se_action)(how % 7), 5) != SE_ILLEGAL)
        fail("an action with no seat to act was played", step);
    expect_unchanged(h, &before, step);
}

static void deal_step(se_hand *h, reader *r, stats *st, deck_count *d, long step) {
    uint8_t how = next_byte(r);
    stale_choice(h, how, step);
    int street = h->street, due = street == 3 ? 3 : 1, ignored;
    uint64_t free_ = check_free(h, d, due, step);
    if (how % 3 == 0) { /* by hand: any bytes, one seat */
        /* Now and then a seat off the table: -1 or one past the last. */
        int seat = (int)(next_byte(r) % (h->rules.seats + 2)) - 1, count = next_byte(r) % 4;
        uint8_t cards[3];
        for (int i = 0; i < count; i++) {
            uint8_t b = next_byte(r);
            if (b >= 200) {
                cards[i] = SE_UNKNOWN_CARD;
            } else if (b >= 100) { /* a card the count calls free */
                cards[i] = nth_free(free_, b);
                if (cards[i] != SE_UNKNOWN_CARD) free_ &= ~(1ull << cards[i]);
            } else {
                cards[i] = b % 64; /* any card, now and then out of range */
            }
        }
        /* On 7th street a seat's own card only while every waiting seat can have one. */
        int gives = deck_gives(h, d, due, &ignored) &&
                    (street != 7 || deck_gives(h, d, waiting_seats(h), &ignored));
        snapshot before = take(h);
        se_status status = se_hand_deal(h, seat, cards, count);
        if (status == SE_OK) {
            if (!gives) fail("a deal the deck cannot give was accepted", step);
            if (seat < 0 || seat >= h->rules.seats) fail("a deal to no seat was accepted", step);
            /* An up card is always seen: the third of 3rd street, and 4th to 6th. */
            int up = street == 3 ? 2 : street < 7 ? 0 : -1;
            if (up >= 0 && up < count && cards[up] == SE_UNKNOWN_CARD)
                fail("an unknown up card was accepted", step);
            st->by_hand++;
            return;
        }
        if (status == SE_NO_DEAL && gives) fail("a deal the deck can give was refused", step);
        expect_unchanged(h, &before, step);
        st->refused++;
    }
    if (how % 7 == 1 && h->street == 7) { /* a community card, allowed or not */
        int gives = deck_gives(h, d, 1, &ignored);
        snapshot before = take(h);
        se_status status = se_hand_deal_community(h, next_byte(r) % 52);
        if (status == SE_OK) {
            if (!gives) fail("a community card the deck cannot give was dealt", step);
            return;
        }
        if (status == SE_NO_DEAL && gives) fail("a community card was refused", step);
        expect_unchanged(h, &before, step);
        st->refused++;
    }
    int waiting = waiting_seats(h), community = h->community;
    int everyone = deck_gives(h, d, waiting * due, &ignored);
    if (se_hand_deal_random(h, (uint64_t)next_byte(r) * 0x9E3779B97F4A7C15ull) != SE_OK)
        fail("the deck could not deal a street", step);
    if (everyone != (h->community == community))
        fail("the community card was dealt, or not, against the count", step);
}

static void showdown_step(se_hand *h, reader *r, stats *st, long step) {
    int seat = h->actor, downs = 0;
    uint8_t how = next_byte(r), cards[3];
    stale_choice(h, how, step);
    for (int i = 0; i < h->card_count[seat]; i++) downs += i < 2 || i == 6;
    if (how % 5 == 0) {
        if (se_hand_muck(h) != SE_OK) fail("muck refused at the showdown", step);
        return;
    }
    if (how % 5 == 1) { /* any down cards */
        for (int i = 0; i < downs; i++) cards[i] = next_byte(r) % 53;
        snapshot before = take(h);
        if (se_hand_show(h, cards, downs) == SE_OK) return;
        expect_unchanged(h, &before, step);
        st->refused++;
    }
    /* The cards dealt, unknown ones replaced by cards nobody holds. */
    for (int i = 0, k = 0; i < h->card_count[seat]; i++) {
        if (!(i < 2 || i == 6)) continue;
        uint8_t c = h->cards[seat][i];
        if (c == SE_UNKNOWN_CARD) {
            uint64_t taken = h->known;
            for (int j = 0; j < k; j++) taken |= 1ull << cards[j];
            for (c = 0; taken & (1ull << c); c++) {
            }
        }
        cards[k++] = c;
    }
    if (se_hand_show(h, cards, downs) != SE_OK) fail("an honest show was refused", step);
}

static void pay_step(se_hand *h, long step) {
    int64_t payouts[SE_ENGINE_MAX_SEATS];
    memcpy(payouts, h->contributions, sizeof payouts); /* everyone takes back their own */
    payouts[0]++;
    snapshot before = take(h);
    if (se_hand_pay(h, payouts, 0) == SE_OK) fail("payouts making a chip were accepted", step);
    expect_unchanged(h, &before, step);
    payouts[0]--;
    if (se_hand_pay(h, payouts, 0) != SE_OK) fail("balanced payouts were refused", step);
}

/* Plays one hand from the bytes; returns 0, or aborts on a broken rule. */
static int play(const uint8_t *data, size_t size, stats *st) {
    reader r = {data, size, 0};
    se_table_rules rules;
    memset(&rules, 0, sizeof rules);
    uint8_t flags = next_byte(&r);
    rules.seats = 2 + next_byte(&r) % 7;
    rules.small_bet = 1 + next_byte(&r) % 6;
    rules.big_bet = rules.small_bet * (1 + next_byte(&r) % 3);
    rules.bring_in = next_byte(&r) % (rules.small_bet + 1);
    rules.ante = next_byte(&r) % 3;
    rules.rake = next_byte(&r) % 4;
    rules.bring_in_highest = flags & 1;
    rules.ace_low = (flags >> 1) & 1;
    rules.board_low = (flags >> 2) & 1;
    rules.open_pair = (flags >> 3) & 1;
    rules.bring_in_tie_position = (flags >> 4) & 1;
    rules.action_tie_suit = (flags >> 5) & 1;
    rules.short_all_in_full_bet = (flags >> 6) & 1;
    rules.bring_in_passes_left = (flags >> 7) & 1;
    uint8_t more = next_byte(&r);
    rules.cap_heads_up = more & 1;
    rules.deck_reuses_muck = (more >> 1) & 1;
    rules.short_bring_in_opens = (more >> 4) & 1;
    rules.cap_skips_all_in = (more >> 5) & 1;
    /* A table of seats that mostly check and call: many of them reach 7th street,
     * where the deck runs out. */
    int passive = ((more >> 2) & 3) == 0;
    int64_t stacks[SE_ENGINE_MAX_SEATS], total = 0;
    for (int s = 0; s < rules.seats; s++) {
        uint8_t b = next_byte(&r);
        stacks[s] = b < 16 ? b % 4 : b; /* some seats start (nearly) all in */
        total += stacks[s];
    }
    se_hand h;
    if (se_hand_init(&h, &rules, stacks) != SE_OK) fail("a good table was refused", 0);
    deck_count d;
    memset(&d, 0, sizeof d);
    int uncapped = 0, open_pair = 0;
    long step;
    for (step = 0; step < MAX_STEPS && !h.over; step++) {
        if (h.settle_due) {
            pay_step(&h, step);
            st->showdowns++;
        } else if (h.showdown) {
            showdown_step(&h, &r, st, step);
        } else if (h.actor < 0) {
            deal_step(&h, &r, st, &d, step);
            check_deck(&h, &d, st, step);
        } else {
            act_step(&h, &r, st, passive, step);
        }
        check_chips(&h, total, step);
        check_known(&h, &d, step);
        uncapped |= h.uncapped;
        open_pair |= h.open_pair_round;
    }
    if (!h.over) fail("the hand did not end", step);
    st->hands++;
    st->community += h.community >= 0;
    st->uncapped += uncapped;
    st->open_pairs += open_pair;
    se_hand_free(&h);
    return 0;
}

#ifdef ENGINE_CHECK_MAIN
int main(int argc, char **argv) {
    long hands = argc > 1 ? atol(argv[1]) : 10000;
    uint64_t state = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    stats st;
    memset(&st, 0, sizeof st);
    uint8_t bytes[4096];
    for (long i = 0; i < hands; i++) {
        for (size_t j = 0; j < sizeof bytes; j++) { /* splitmix64, a byte at a time */
            uint64_t z = (state += 0x9E3779B97F4A7C15ull);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            bytes[j] = (uint8_t)(z ^ (z >> 31));
        }
        /* Some inputs run short: the rest of the hand then plays on by default. */
        size_t size = i % 3 == 0 ? (size_t)(64 + i % 512) : sizeof bytes;
        play(bytes, size, &st);
    }
    printf("ok %ld hands (%ld showdowns, %ld community cards, %ld uncapped rounds, "
           "%ld open pairs, %ld deals by hand, %ld actions accepted, %ld calls refused, "
           "%ld new decks from the muck)\n",
           st.hands, st.showdowns, st.community, st.uncapped, st.open_pairs, st.by_hand,
           st.accepted, st.refused, st.refills);
    return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    stats st;
    memset(&st, 0, sizeof st);
    return play(data, size, &st);
}
#endif
