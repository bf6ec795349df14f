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
 *   - every hand ends.
 * Built two ways: with -DENGINE_CHECK_MAIN a program that plays N hands from a
 * seeded generator and prints what it saw (tests/test_engine_core.py); without,
 * a libFuzzer target (tools/fuzz.py, under AddressSanitizer and UBSan). */
#include "studeval.h"

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
    long hands, showdowns, community, uncapped, refused, accepted, by_hand, open_pairs;
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
    int64_t sum = 0;
    for (int s = 0; s < h->rules.seats; s++) {
        if (h->stacks[s] < 0 || h->contributions[s] < 0) fail("negative chips", step);
        sum += h->stacks[s] + (h->over ? 0 : h->contributions[s]);
    }
    if (h->over) sum += h->rake_taken;
    if (sum != total) fail("chips were lost or made", step);
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

static void act_step(se_hand *h, reader *r, stats *st, long step) {
    se_legal l;
    se_hand_legal(h, &l);
    int kind;
    int64_t to;
    uint8_t how = next_byte(r);
    if (r->at >= r->size) {
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

static void deal_step(se_hand *h, reader *r, stats *st, long step) {
    uint8_t how = next_byte(r);
    if (how % 3 == 0) { /* by hand: any bytes, one seat */
        int seat = next_byte(r) % h->rules.seats, count = next_byte(r) % 4;
        uint8_t cards[3];
        for (int i = 0; i < count; i++) {
            uint8_t b = next_byte(r);
            cards[i] = b >= 200 ? SE_UNKNOWN_CARD : b % 64; /* now and then out of range */
        }
        snapshot before = take(h);
        if (se_hand_deal(h, seat, cards, count) == SE_OK) {
            st->by_hand++;
            return;
        }
        expect_unchanged(h, &before, step);
        st->refused++;
    }
    if (how % 7 == 1 && h->street == 7) { /* a community card, allowed or not */
        snapshot before = take(h);
        if (se_hand_deal_community(h, next_byte(r) % 52) == SE_OK) return;
        expect_unchanged(h, &before, step);
        st->refused++;
    }
    if (se_hand_deal_random(h, (uint64_t)next_byte(r) * 0x9E3779B97F4A7C15ull) != SE_OK)
        fail("the deck could not deal a street", step);
}

static void showdown_step(se_hand *h, reader *r, stats *st, long step) {
    int seat = h->actor, downs = 0;
    uint8_t how = next_byte(r), cards[3];
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
    int64_t stacks[SE_ENGINE_MAX_SEATS], total = 0;
    for (int s = 0; s < rules.seats; s++) {
        uint8_t b = next_byte(&r);
        stacks[s] = b < 16 ? b % 4 : b; /* some seats start (nearly) all in */
        total += stacks[s];
    }
    se_hand h;
    if (se_hand_init(&h, &rules, stacks) != SE_OK) fail("a good table was refused", 0);
    int uncapped = 0, open_pair = 0;
    long step;
    for (step = 0; step < MAX_STEPS && !h.over; step++) {
        if (h.settle_due) {
            pay_step(&h, step);
            st->showdowns++;
        } else if (h.showdown) {
            showdown_step(&h, &r, st, step);
        } else if (h.actor < 0) {
            deal_step(&h, &r, st, step);
        } else {
            act_step(&h, &r, st, step);
        }
        check_chips(&h, total, step);
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
           "%ld open pairs, %ld deals by hand, %ld actions accepted, %ld calls refused)\n",
           st.hands, st.showdowns, st.community, st.uncapped, st.open_pairs, st.by_hand,
           st.accepted, st.refused);
    return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    stats st;
    memset(&st, 0, sizeof st);
    return play(data, size, &st);
}
#endif
