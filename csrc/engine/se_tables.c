/* Many tables stepped together (studeval.h, "Tables"): each plays hand after hand
 * on the engine (se_engine.c), dealt from its own seeded shuffle, its showdowns
 * settled by se_settle.c, every step written to the caller's arrays. */

#include <stdlib.h>
#include <string.h>

#include "engine/se_engine.h"
#include "base/se_threads.h"
#include "studeval.h"

/* Table i's hand in play, and its other slot (the last finished hand). */
static se_hand *se_playing(const se_tables *t, size_t i) { return &t->hands[2 * i + t->current[i]]; }
static se_hand *se_other(const se_tables *t, size_t i) { return &t->hands[2 * i + (t->current[i] ^ 1)]; }

/* Asks for the memory a later table will need while this one is played. */
#define SE_AHEAD 8
#if defined(__GNUC__) || defined(__clang__)
#define SE_PREFETCH(p) __builtin_prefetch(p)
#else
#define SE_PREFETCH(p) ((void)(p))
#endif

/* A well-mixed 64-bit value of x (splitmix64's finaliser). */
static uint64_t se_mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* What each discrete action does now: allowed or not, the engine's action and the
 * street total it goes to. One cache line a table: what a step reads of it. */
struct se_table_choice {
    int64_t to[SE_TABLE_ACTIONS];
    uint8_t legal[SE_TABLE_ACTIONS];
    uint8_t kind[SE_TABLE_ACTIONS]; /* se_action */
};
typedef struct se_table_choice se_choice;

static void se_choices(const se_hand *h, se_choice *c) {
    for (int a = 0; a < SE_TABLE_ACTIONS; a++) c->to[a] = -1, c->legal[a] = 0, c->kind[a] = 0;
    se_legal legal;
    se_hand_legal(h, &legal);
    if (h->actor < 0 || h->showdown || h->over) return;
    int64_t mine = h->street_bets[h->actor];
    if (legal.fold) {
        c->legal[SE_TABLE_FOLD] = 1, c->kind[SE_TABLE_FOLD] = SE_ACT_FOLD;
        c->to[SE_TABLE_FOLD] = mine;
    }
    if (legal.check) {
        c->legal[SE_TABLE_CHECK_CALL] = 1, c->kind[SE_TABLE_CHECK_CALL] = SE_ACT_CHECK;
        c->to[SE_TABLE_CHECK_CALL] = mine;
    } else if (legal.call >= 0) {
        c->legal[SE_TABLE_CHECK_CALL] = 1, c->kind[SE_TABLE_CHECK_CALL] = SE_ACT_CALL;
        c->to[SE_TABLE_CHECK_CALL] = mine + legal.call;
    }
    if (legal.bring_in >= 0) {
        c->legal[SE_TABLE_BRING_IN] = 1, c->kind[SE_TABLE_BRING_IN] = SE_ACT_BRING_IN;
        c->to[SE_TABLE_BRING_IN] = legal.bring_in;
    }
    const int64_t *list = legal.complete_to;
    int count = legal.complete_count;
    se_action kind = SE_ACT_COMPLETE;
    if (legal.bet_count) list = legal.bet_to, count = legal.bet_count, kind = SE_ACT_BET;
    if (legal.raise_count) list = legal.raise_to, count = legal.raise_count, kind = SE_ACT_RAISE;
    if (count == 0) return;
    int64_t inc[2];
    int both = count == 2 || se_round_increments(h, inc) == 2;
    /* One total: by the bet of the round, the small bet on 3rd and 4th street. */
    int small = both || (!h->open_pair_round && h->street <= 4);
    int big = both || !small;
    if (small) {
        c->legal[SE_TABLE_SMALL] = 1, c->kind[SE_TABLE_SMALL] = (uint8_t)kind;
        c->to[SE_TABLE_SMALL] = list[0];
    }
    if (big) {
        c->legal[SE_TABLE_BIG] = 1, c->kind[SE_TABLE_BIG] = (uint8_t)kind;
        c->to[SE_TABLE_BIG] = list[count - 1];
    }
}

void se_hand_table_choices(const se_hand *hand, uint8_t *legal, int64_t *totals, int *kinds) {
    se_choice c;
    se_choices(hand, &c);
    for (int a = 0; a < SE_TABLE_ACTIONS; a++)
        legal[a] = c.legal[a], totals[a] = c.to[a], kinds[a] = c.legal[a] ? (int)c.kind[a] : -1;
}

/* A seat's 7 places: its cards where dealt, SE_UNKNOWN_CARD past them; and whether
 * each place was dealt face up (down, down, up x4, down). */
static void se_seat_cards(const se_hand *h, int s, uint8_t *cards, uint8_t *up) {
    int count = h->card_count[s];
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* All 7 at once, place k in byte k: a deal rewrites every seat's rows. */
    uint64_t dealt = (1ull << (8 * count)) - 1u, row = 0; /* count <= 7 */
    memcpy(&row, h->cards[s], 7);
    row = (row & dealt) | (~dealt & 0x00FFFFFFFFFFFFFFull);
    uint64_t face_up = 0x0000010101010000ull & dealt;
    memcpy(cards, &row, 7);
    memcpy(up, &face_up, 7);
#else
    for (int k = 0; k < 7; k++) {
        int dealt = k < count;
        cards[k] = dealt ? h->cards[s][k] : SE_UNKNOWN_CARD;
        up[k] = (uint8_t)(dealt && !se_down_place(k));
    }
#endif
}

/* Writes table i's state into the caller's arrays, and keeps its choices. `seat`
 * is the one seat whose chips changed since the last write, -1 for all of them. */
static void se_table_view(se_tables *t, size_t i, int seat) {
    const se_hand *h = se_playing(t, i);
    const se_tables_view *v = &t->view;
    int seats = t->rules.seats;
    se_choice *c = &t->choices[i];
    se_choices(h, c);
    v->actor[i] = (int8_t)h->actor;
    v->street[i] = (int8_t)h->street;
    /* Copied whole (the arrays may alias nothing the compiler can see: a loop of
     * stores would reload the choice after each). */
    memcpy(v->legal + i * SE_TABLE_ACTIONS, c->legal, sizeof c->legal);
    memcpy(v->totals + i * SE_TABLE_ACTIONS, c->to, sizeof c->to);
    v->to_call[i] = c->legal[SE_TABLE_CHECK_CALL] && c->kind[SE_TABLE_CHECK_CALL] == SE_ACT_CALL
                        ? c->to[SE_TABLE_CHECK_CALL] - h->street_bets[h->actor]
                        : 0;
    /* Between deals only the seat that acted puts chips in (a street's end deals,
     * a hand's end starts a new one): the other seats' rows stay as written. */
    v->pot[i] = h->pot; /* from the hand alone: the arrays are only ever written */
    if (t->cards_shown[i] == h->cards_dealt && seat >= 0) {
        size_t at = i * (size_t)seats + (size_t)seat;
        v->stacks[at] = h->stacks[seat];
        v->bets[at] = h->street_bets[seat];
        v->folded[at] = h->folded[seat];
        return;
    }
    for (int s = 0; s < seats; s++) {
        size_t at = i * (size_t)seats + (size_t)s;
        v->stacks[at] = h->stacks[s];
        v->bets[at] = h->street_bets[s];
        v->folded[at] = h->folded[s];
        se_seat_cards(h, s, v->cards + at * 7, v->up + at * 7);
    }
    t->cards_shown[i] = h->cards_dealt;
    v->hands_played[i] = t->played[i];
}

/* Plays table i on to the next decision: deals, shows, settles; a finished hand's
 * chips go to rewards, it is kept as the last hand, and a new hand starts. */
static se_status se_table_advance(se_tables *t, size_t i) {
    se_hand *h = se_playing(t, i);
    int seats = t->rules.seats;
    for (;;) {
        if (h->over) {
            for (int s = 0; s < seats; s++)
                t->view.rewards[i * (size_t)seats + (size_t)s] += h->payouts[s] - h->contributions[s];
            t->view.done[i] = 1;
            /* The finished hand becomes the last one; the new hand is dealt in the
             * other slot, over the older one (its log's memory kept). */
            h = se_other(t, i);
            t->current[i] ^= 1;
            t->played[i]++;
            t->cards_shown[i] = -1;
            se_status status = se_hand_restart(h, &t->rules, t->stacks);
            if (status != SE_OK) return status;
            memset(t->view.history + i * 5 * SE_TABLE_HISTORY, 0, 5 * SE_TABLE_HISTORY);
            memset(t->history_count + i * 5, 0, 5);
            continue;
        }
        if (h->showdown) { /* every seat left shows: its cards are all known */
            se_status status = se_hand_show(h, NULL, 0);
            if (status != SE_OK) return status;
            continue;
        }
        if (h->settle_due) {
            uint8_t live[SE_ENGINE_MAX_SEATS];
            int64_t payouts[SE_ENGINE_MAX_SEATS], returned[SE_ENGINE_MAX_SEATS], rake = 0;
            for (int s = 0; s < seats; s++) live[s] = !h->out[s];
            se_status status = se_settle(&t->settle, seats, (const uint8_t(*)[7])h->cards, live,
                                         h->community, h->contributions, payouts, returned, &rake);
            if (status == SE_OK) status = se_hand_pay(h, payouts, rake);
            if (status != SE_OK) return status;
            continue;
        }
        if (h->actor >= 0) return SE_OK;
        uint64_t seed = se_mix(se_mix(t->seed ^ se_mix((uint64_t)i)) + t->played[i]);
        se_status status = se_hand_deal_random(h, seed);
        if (status != SE_OK) return status;
    }
}

se_status se_tables_init(se_tables *t, size_t n, const se_table_rules *rules,
                         const se_settle_rules *settle, uint64_t seed, const se_tables_view *view) {
    if (t == NULL || rules == NULL || settle == NULL || view == NULL) return SE_BAD_ARGUMENT;
    memset(t, 0, sizeof *t);
    if (n == 0 || rules->seats < 2 || rules->seats > SE_ENGINE_MAX_SEATS) return SE_BAD_ARGUMENT;
    if (!view->actor || !view->legal || !view->totals || !view->street || !view->pot ||
        !view->to_call || !view->stacks || !view->bets || !view->folded || !view->cards ||
        !view->up || !view->history || !view->rewards || !view->done || !view->hands_played)
        return SE_BAD_ARGUMENT;
    t->n = n;
    t->rules = *rules;
    t->settle = *settle;
    t->settle.rake = rules->rake;
    t->settle.rake_at_most = 1;
    t->seed = seed;
    t->view = *view;
    t->hands = calloc(2 * n, sizeof *t->hands);
    t->current = calloc(n, 1);
    t->choices = calloc(n, sizeof *t->choices);
    t->cards_shown = calloc(n, sizeof *t->cards_shown);
    t->played = calloc(n, sizeof *t->played);
    t->history_count = calloc(n, 5);
    if (!t->hands || !t->current || !t->played || !t->history_count ||
        !t->choices || !t->cards_shown) {
        se_tables_free(t);
        return SE_NO_MEMORY;
    }
    return SE_OK;
}

se_status se_tables_start(se_tables *t, const int64_t *stacks) {
    if (t == NULL || stacks == NULL || t->hands == NULL) return SE_BAD_ARGUMENT;
    for (int s = 0; s < t->rules.seats; s++) {
        if (stacks[s] <= t->rules.ante) return SE_BAD_ARGUMENT;
        t->stacks[s] = stacks[s];
    }
    for (size_t i = 0; i < t->n; i++) {
        se_status status = se_hand_init(se_playing(t, i), &t->rules, t->stacks);
        if (status != SE_OK) {
            memset(se_playing(t, i), 0, sizeof(se_hand));
            return status;
        }
        t->cards_shown[i] = -1;
        status = se_table_advance(t, i);
        if (status != SE_OK) return status;
        se_table_view(t, i, -1);
    }
    memset(t->view.rewards, 0, t->n * (size_t)t->rules.seats * sizeof *t->view.rewards);
    memset(t->view.done, 0, t->n);
    return SE_OK;
}

se_status se_tables_reset(se_tables *t, uint64_t seed) {
    if (t == NULL || t->hands == NULL) return SE_BAD_ARGUMENT;
    t->seed = seed;
    memset(t->view.history, 0, t->n * 5 * SE_TABLE_HISTORY);
    memset(t->history_count, 0, t->n * 5);
    for (size_t i = 0; i < t->n; i++) {
        t->played[i] = 0;
        t->cards_shown[i] = -1;
        se_status status = se_hand_restart(se_playing(t, i), &t->rules, t->stacks);
        if (status == SE_OK) status = se_table_advance(t, i);
        if (status != SE_OK) return status;
        se_table_view(t, i, -1);
    }
    memset(t->view.rewards, 0, t->n * (size_t)t->rules.seats * sizeof *t->view.rewards);
    memset(t->view.done, 0, t->n);
    return SE_OK;
}

se_status se_tables_check(const se_tables *t, const int64_t *actions, size_t *bad) {
    if (t == NULL || actions == NULL || t->hands == NULL) return SE_BAD_ARGUMENT;
    for (size_t i = 0; i < t->n; i++) {
        const se_choice *c = &t->choices[i]; /* the hand's own, kept when last written */
        if (actions[i] < 0 || actions[i] >= SE_TABLE_ACTIONS || !c->legal[actions[i]]) {
            if (bad) *bad = i;
            return SE_ILLEGAL;
        }
    }
    return SE_OK;
}

typedef struct se_step_work {
    se_tables *t;
    const int64_t *actions;
    volatile size_t failed; /* 1 + the first table that failed, 0 when none */
    se_status status;
} se_step_work;

static int se_step_chunk(void *context, size_t begin, size_t end, int worker) {
    (void)worker;
    se_step_work *w = context;
    se_tables *t = w->t;
    int seats = t->rules.seats;
    for (size_t k = begin; k < end && k < begin + SE_AHEAD; k++) { /* the first tables' */
        const char *hand = (const char *)se_playing(t, k);
        for (size_t line = 0; line < SE_HAND_HOT_BYTES + 63; line += 64) SE_PREFETCH(hand + line);
    }
    for (size_t i = begin; i < end; i++) {
        if (i + SE_AHEAD < end) { /* a later table's memory, on its way */
            size_t k = i + SE_AHEAD;
            /* The part of its hand every action touches (a deal's fields are
             * left to the hardware: a street starts once in a few actions). */
            const char *later = (const char *)se_playing(t, k);
            for (size_t line = 0; line < SE_HAND_HOT_BYTES + 63; line += 64) SE_PREFETCH(later + line);
            SE_PREFETCH(&t->choices[k]);
            /* The log of a nearer table, whose hand was asked for before (reading a
             * field of a hand not yet here would wait for it). */
            const se_hand *nearer = se_playing(t, i + SE_AHEAD / 2);
            SE_PREFETCH(nearer->events + nearer->events_count);
            SE_PREFETCH(&t->view.stacks[k * (size_t)seats]);
            SE_PREFETCH(&t->view.bets[k * (size_t)seats]);
            SE_PREFETCH(&t->view.totals[k * SE_TABLE_ACTIONS]);
        }
        se_hand *h = se_playing(t, i);
        if (t->view.done[i]) { /* last step's rewards, cleared */
            memset(t->view.rewards + i * (size_t)seats, 0, (size_t)seats * sizeof *t->view.rewards);
            t->view.done[i] = 0;
        }
        const se_choice *c = &t->choices[i];
        int action = (int)w->actions[i], seat = h->actor, street = h->street;
        /* The choice came from se_hand_legal when the hand last changed (and
         * se_tables_check found it allowed): played without finding it again. */
        se_status status = se_hand_act_known(h, (se_action)c->kind[action], c->to[action]);
        if (status == SE_OK) {
            uint8_t *count = &t->history_count[i * 5 + (size_t)(street - 3)];
            if (*count < SE_TABLE_HISTORY) {
                size_t at = (i * 5 + (size_t)(street - 3)) * SE_TABLE_HISTORY + *count;
                t->view.history[at] = (uint8_t)(1 + seat * SE_TABLE_ACTIONS + action);
                (*count)++;
            }
            status = se_table_advance(t, i);
        }
        if (status != SE_OK) {
            se_store(&w->failed, i + 1);
            w->status = status;
            return 1;
        }
        se_table_view(t, i, seat);
    }
    return 0;
}

se_status se_tables_step(se_tables *t, const int64_t *actions, int threads, int *workers,
                         size_t *bad) {
    se_status status = se_tables_check(t, actions, bad);
    if (status != SE_OK) return status;
    se_step_work work = {t, actions, 0, SE_OK};
    /* A team kept from step to step: a thread started per step, and its core woken,
     * would cost about what half the step's tables take. */
    int want = se_workers_for(t->n, SE_TABLES_PER_THREAD, threads);
    if (want > 1 && se_team_size(t->team) != want) {
        se_team_free(t->team);
        t->team = se_team_new(want); /* NULL (no thread started): the step runs alone */
    }
    int used = se_team_for(want > 1 ? t->team : NULL, t->n, 256, se_step_chunk, &work);
    if (workers) *workers = used;
    if (work.failed) {
        if (bad) *bad = work.failed - 1;
        return work.status;
    }
    return SE_OK;
}

se_status se_tables_last(const se_tables *t, size_t i, const se_hand **hand) {
    if (t == NULL || hand == NULL || i >= t->n) return SE_BAD_ARGUMENT;
    *hand = t->played[i] > 0 ? se_other(t, i) : NULL; /* a hand has ended there */
    return SE_OK;
}

void se_tables_free(se_tables *t) {
    if (t == NULL) return;
    se_team_free(t->team);
    for (size_t i = 0; t->hands && i < 2 * t->n; i++) se_hand_free(&t->hands[i]);
    free(t->hands);
    free(t->current);
    free(t->played);
    free(t->history_count);
    free(t->choices);
    free(t->cards_shown);
    memset(t, 0, sizeof *t);
}
