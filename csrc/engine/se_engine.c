/* The fixed-limit stud engine: one hand's state machine (see studeval.h).
 *
 * The rules are those of Robert's Rules of Poker for the structured stud games;
 * the game-dependent ones (who brings in, which board acts first, whether the
 * open pair counts) come as data in se_table_rules. Python's studeval.rules is
 * the reference for the bring-in and the first to act, and the tests compare
 * the two on random tables. */
#include "studeval.h"

#include <stdlib.h>
#include <string.h>

#include "engine/se_engine.h"

/* One bet and three raises a round. */
#define SE_CAP 4

/* ---- small helpers ---------------------------------------------------------------- */

static int64_t se_min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t se_max64(int64_t a, int64_t b) { return a > b ? a : b; }

static int se_can_act(const se_hand *h, int seat) {
    return !h->out[seat] & (h->stacks[seat] > 0);
}

/* Seats in the hand; *only the last of them, when there is one. Written without
 * branches on the seats, whose folds a branch predictor cannot guess. */
static int se_live_count(const se_hand *h, int *only) {
    int count = 0, last = SE_NONE;
    for (int s = 0; s < h->rules.seats; s++) {
        int live = !h->out[s];
        count += live;
        last = live ? s : last;
    }
    if (only != NULL && count > 0) *only = last;
    return count;
}

/* A card's place in the game's single-card order: rank first, then suit. */
static int se_card_key(const se_hand *h, int code) {
    if (!h->rules.ace_low) return code;
    return ((code / 4 + 1) % 13) * 4 + code % 4; /* the ace (rank 12) becomes rank 0 */
}

/* Makes room for `count` more events first, so that a call either happens and
 * is logged whole or fails with SE_NO_MEMORY and changes nothing. */
se_status se_reserve(se_hand *h, size_t count) {
    while (h->events_capacity - h->events_count < count) {
        size_t capacity = h->events_capacity * 2;
        se_event *grown = (se_event *)realloc(h->events, capacity * sizeof(se_event));
        if (grown == NULL) return SE_NO_MEMORY;
        h->events = grown;
        h->events_capacity = capacity;
    }
    return SE_OK;
}

/* Appends an event; the caller reserved its room. */
void se_log(se_hand *h, int kind, int seat, int64_t amount, int64_t to,
                   const uint8_t *cards, int card_count) {
    se_event *e = &h->events[h->events_count++];
    memset(e, 0, sizeof *e);
    e->kind = (se_event_kind)kind;
    e->seat = (int8_t)seat;
    e->street = (uint8_t)h->street;
    e->amount = amount;
    e->to = to;
    e->card_count = (uint8_t)card_count;
    /* At most 7 cards: a loop, not a library call for a few bytes. */
    for (int i = 0; i < card_count; i++) e->cards[i] = cards[i];
}

static void se_put(se_hand *h, int seat, int64_t chips) {
    h->stacks[seat] -= chips;
    h->contributions[seat] += chips;
    h->pot += chips;
}

static void se_pay_in(se_hand *h, int seat, int64_t chips) {
    se_put(h, seat, chips);
    h->street_bets[seat] += chips;
}

static void se_reset_round(se_hand *h) {
    h->level = 0;
    h->full_level = 0;
    h->bets = 0;
    h->uncapped = 0;
    h->big_seen = 0;
    h->bring_in_due = 0;
    h->max_raise = 0;
    for (int s = 0; s < h->rules.seats; s++) {
        h->acted_at[s] = SE_NONE;
        h->street_bets[s] = 0;
    }
}

/* The sizes a bet or raise may have now, smallest first; returns how many. */
static int se_increments(const se_hand *h, int64_t inc[2]) {
    const se_table_rules *r = &h->rules;
    if (h->open_pair_round) {
        if (h->big_seen || r->big_bet == r->small_bet) {
            inc[0] = r->big_bet;
            return 1;
        }
        inc[0] = r->small_bet;
        inc[1] = r->big_bet;
        return 2;
    }
    inc[0] = h->street <= 4 ? r->small_bet : r->big_bet;
    return 1;
}

int se_round_increments(const se_hand *h, int64_t inc[2]) { return se_increments(h, inc); }

/* ---- who acts ------------------------------------------------------------------------ */

/* The seat that brings in: the lowest (or highest) door card in the game's card
 * order; equal ranks by suit, or by position under the house rule. */
static int se_bring_in_seat(const se_hand *h) {
    int best = SE_NONE, best_key = 0;
    for (int s = 0; s < h->rules.seats; s++) {
        if (h->out[s]) continue;
        int key = se_card_key(h, h->up[s][0]);
        if (h->rules.bring_in_tie_position) key /= 4;
        if (h->rules.bring_in_highest) key = -key;
        if (best == SE_NONE || key < best_key) { /* ties keep the lower seat */
            best = s;
            best_key = key;
        }
    }
    return best;
}

/* The cards of a board from the deciding one down: a high board compares its
 * highest cards first and wants the higher, a low board wants the lower. */
static void se_board_tiebreak(const se_hand *h, int seat, int keys[4]) {
    int n = h->up_count[seat];
    for (int i = 0; i < n; i++) keys[i] = se_card_key(h, h->up[seat][i]);
    for (int i = 1; i < n; i++) { /* sort descending: at most four cards */
        int k = keys[i], j = i - 1;
        while (j >= 0 && keys[j] < k) {
            keys[j + 1] = keys[j];
            j--;
        }
        keys[j + 1] = k;
    }
    for (int i = 0; i < n; i++) keys[i] = h->rules.board_low ? keys[i] : -keys[i];
}

/* Five cards of a board (four up and the community card) in the high board's order,
 * straights and flushes not counted: the counts of the ranks from the largest, then
 * the ranks by count and from the ace down; the lower the better, as the rankings. */
static int se_board5_high_rank(const uint8_t *cards, int n) {
    int count[13] = {0}, counts = 0, ranks = 0, groups = 0;
    for (int i = 0; i < n; i++) count[cards[i] / 4]++;
    for (int c = 4; c >= 1; c--)
        for (int r = 12; r >= 0; r--)
            if (count[r] == c) counts = counts * 5 + c, ranks = ranks * 13 + r, groups++;
    for (; groups < 5; groups++) counts *= 5, ranks *= 13; /* so 3+2 beats 3+1+1 */
    return -(counts * 371293 + ranks);                     /* 13^5 ranks a pattern */
}

/* Whether seat a's board acts before seat b's (the lower seat when they tie). */
static int se_board_before(const se_hand *h, int a, int b) {
    int (*rank)(const uint8_t *, int) = h->rules.board_low ? se_up_low_rank : se_up_high_rank;
    int ra = rank(h->up[a], h->up_count[a]), rb = rank(h->up[b], h->up_count[b]);
    if (h->community >= 0 && h->up_count[a] == 4 && h->up_count[b] == 4) {
        /* The community card plays in every hand: the board it makes acts first
         * (Robert's Rules: "the player who is now high using the common card"). */
        uint8_t ca[5], cb[5];
        memcpy(ca, h->up[a], 4), memcpy(cb, h->up[b], 4);
        ca[4] = cb[4] = (uint8_t)h->community;
        rank = h->rules.board_low ? se_low_rank : se_board5_high_rank;
        ra = rank(ca, 5), rb = rank(cb, 5);
    }
    if (ra != rb) return ra < rb;
    if (h->rules.action_tie_suit) {
        int ka[4], kb[4];
        se_board_tiebreak(h, a, ka);
        se_board_tiebreak(h, b, kb);
        for (int i = 0; i < h->up_count[a]; i++)
            if (ka[i] != kb[i]) return ka[i] < kb[i];
    }
    return a < b;
}

/* The live seat whose board acts first (SE_NONE when no seat is live). */
static int se_best_board(const se_hand *h) {
    int best = SE_NONE;
    for (int s = 0; s < h->rules.seats; s++) {
        if (h->out[s]) continue;
        if (best == SE_NONE || se_board_before(h, s, best)) best = s;
    }
    return best;
}

/* The first to act on 4th-7th street: the best board showing; when that seat is
 * all in, the next seat clockwise that can act (SE_NONE when none can). */
static int se_first_to_act(const se_hand *h) {
    int n = h->rules.seats, best = se_best_board(h);
    if (best == SE_NONE || h->stacks[best] > 0) return best;
    for (int step = 1; step < n; step++) {
        int s = (best + step) % n;
        if (!h->out[s] && h->stacks[s] > 0) return s;
    }
    return SE_NONE;
}

static int se_open_pair_now(const se_hand *h) {
    if (h->street != 4 || !h->rules.open_pair) return 0;
    for (int s = 0; s < h->rules.seats; s++)
        if (!h->out[s] && h->up[s][0] / 4 == h->up[s][1] / 4) return 1;
    return 0;
}

/* More than one seat can still bet, or one can and owes a call. */
static int se_betting_possible(const se_hand *h) {
    int able = 0, one = SE_NONE;
    for (int s = 0; s < h->rules.seats; s++) {
        int can = se_can_act(h, s);
        able += can;
        one = can ? s : one;
    }
    if (able >= 2) return 1;
    return able == 1 && h->street_bets[one] < h->level;
}

/* The next seat clockwise after `after` that must still act this round. */
static int se_next_to_act(const se_hand *h, int after) {
    int n = h->rules.seats;
    for (int step = 1, s = after; step <= n; step++) {
        s = s + 1 >= n ? 0 : s + 1; /* clockwise, without a division a seat */
        if (!se_can_act(h, s)) continue;
        if (h->acted_at[s] == SE_NONE || h->street_bets[s] < h->level) return s;
    }
    return SE_NONE;
}

/* Whether a live seat other than `seat` could put in more than the street's level:
 * a completion, bet or raise that nobody can answer is no wager at all (every
 * other seat folded or all in, or too short to call it in full). */
static int se_wager_answerable(const se_hand *h, int seat) {
    for (int s = 0; s < h->rules.seats; s++)
        if (s != seat && !h->out[s] && h->stacks[s] + h->street_bets[s] > h->level) return 1;
    return 0;
}

/* ---- the end -------------------------------------------------------------------------- */

static void se_close(se_hand *h) {
    for (int s = 0; s < h->rules.seats; s++) h->stacks[s] += h->payouts[s];
    h->over = 1;
    h->showdown = 0;
    h->settle_due = 0;
    h->actor = SE_NONE;
}

/* A hand won by folds: the chips nobody matched go back to the one seat that put
 * in most, the rake (at most what the pot holds) comes off, the winner takes the
 * rest. */
static void se_finish_by_folds(se_hand *h, int winner) {
    int n = h->rules.seats, top_seat = 0, top_count = 0;
    int64_t top = -1, second = 0, pot = 0;
    for (int s = 0; s < n; s++) {
        int64_t c = h->contributions[s];
        if (c > top) {
            second = top < 0 ? 0 : top;
            top = c;
            top_seat = s;
            top_count = 1;
        } else if (c == top) {
            top_count++;
        } else if (c > second) {
            second = c;
        }
        pot += c;
        h->payouts[s] = 0;
    }
    if (top_count == 1 && top > second) {
        h->payouts[top_seat] = top - second;
        pot -= top - second;
    }
    h->rake_taken = se_min64(h->rules.rake, pot);
    h->payouts[winner] += pot - h->rake_taken;
    se_close(h);
}

static void se_start_showdown(se_hand *h) {
    int n = h->rules.seats;
    int first = h->round_aggressor != SE_NONE ? h->round_aggressor : h->first_actor;
    /* Nobody could act on the last street (all in), or the first to act folded with
     * a check free: the best board shows first, as it would have acted first. */
    if (first == SE_NONE || h->out[first]) first = se_best_board(h);
    h->show_count = 0;
    for (int k = 0; k < n; k++) {
        int s = (first + k) % n;
        if (!h->out[s]) h->show_order[h->show_count++] = s;
    }
    h->showdown = 1;
    h->actor = h->show_order[0];
}

static void se_next_shower(se_hand *h) {
    int only = SE_NONE, any_shown = 0;
    int live = se_live_count(h, &only);
    for (int s = 0; s < h->rules.seats; s++) any_shown |= h->shown[s];
    if (live == 1 && !any_shown) {
        h->actor = SE_NONE;
        se_finish_by_folds(h, only);
        return;
    }
    for (int i = 0; i < h->show_count; i++) {
        int s = h->show_order[i];
        if (!h->shown[s] && !h->out[s]) {
            h->actor = s;
            return;
        }
    }
    h->actor = SE_NONE;
    h->showdown = 0;
    h->settle_due = 1;
}

/* ---- streets --------------------------------------------------------------------------- */

static void se_end_round(se_hand *h) {
    if (h->over) return;
    int only = SE_NONE;
    if (se_live_count(h, &only) == 1) {
        se_finish_by_folds(h, only);
        return;
    }
    h->round_aggressor = h->last_aggressor;
    if (h->street == 7) {
        se_start_showdown(h);
        return;
    }
    h->street++;
    h->burn_due = h->rules.deck_reuses_muck != 0;
    memset(h->dealt, 0, sizeof h->dealt);
    h->last_aggressor = SE_NONE;
    h->actor = SE_NONE;
}

void se_start_betting(se_hand *h) {
    se_reset_round(h);
    h->open_pair_round = se_open_pair_now(h);
    if (h->street == 3) {
        int seat = se_bring_in_seat(h);
        int due = h->rules.bring_in > 0; /* without a bring-in the seat opens or checks */
        h->first_actor = seat;
        if (h->stacks[seat] == 0) { /* all in for the ante: the next seat acts first */
            seat = se_next_to_act(h, seat);
            due = due && h->rules.bring_in_passes_left;
        }
        h->bring_in_due = due && seat != SE_NONE;
        h->actor = seat;
    } else {
        h->first_actor = se_first_to_act(h);
        h->actor = h->first_actor;
    }
    if (h->actor != SE_NONE && !se_betting_possible(h)) h->actor = SE_NONE;
    if (h->actor == SE_NONE) se_end_round(h);
}

/* ---- betting ---------------------------------------------------------------------------- */

void se_hand_legal(const se_hand *h, se_legal *legal) {
    /* Field by field, not memset: GCC made that a `rep stos`, whose start-up costs
     * tens of cycles, and this runs after every action of every table. */
    legal->fold = legal->check = 0;
    legal->call = legal->bring_in = -1;
    legal->complete_count = legal->bet_count = legal->raise_count = 0;
    for (int i = 0; i < 2; i++) legal->complete_to[i] = legal->bet_to[i] = legal->raise_to[i] = 0;
    if (h == NULL || h->actor == SE_NONE || h->showdown) return;
    const se_table_rules *r = &h->rules;
    int seat = h->actor;
    int64_t stack = h->stacks[seat], mine = h->street_bets[seat];
    int64_t most = mine + stack; /* the seat's street total all in */
    if (h->bring_in_due) {
        int64_t complete = se_min64(r->small_bet, most), bring_in = se_min64(r->bring_in, stack);
        legal->bring_in = bring_in;
        /* A stack of no more than the bring-in: all of it is the bring-in, or (pokerkit)
         * also a wager of the same chips that opens the round. */
        if (complete > bring_in || r->short_bring_in_opens) {
            legal->complete_to[0] = complete;
            legal->complete_count = 1;
        }
        return;
    }
    int64_t owe = h->level - mine;
    legal->fold = 1;
    legal->check = owe <= 0;
    legal->call = owe > 0 ? se_min64(owe, stack) : -1;
    if (!(h->bets < SE_CAP || h->uncapped) || stack <= owe) return;
    if (!se_wager_answerable(h, seat)) return;
    int64_t inc[2] = {0, 0}, targets[2]; /* a count slip cannot read garbage */
    int n_inc = se_increments(h, inc), n = 0;
    if (r->short_all_in_full_bet) {
        /* A seat may raise only when it faces the round's largest increment or more:
         * not after all-ins for less since it acted, unless they add up to a full
         * raise. The raise goes a full increment on top of the highest total, and
         * the bring-in is completed to the small bet. */
        if (owe < h->max_raise) return;
        int completing = h->street == 3 && r->bring_in > 0 && h->bets == 0;
        for (int i = 0; i < n_inc; i++) {
            int64_t step = se_max64(h->max_raise, inc[i]);
            targets[n++] = completing && step > h->level ? step : h->level + step;
        }
    } else {
        int reopened = h->acted_at[seat] == SE_NONE || h->acted_at[seat] < h->full_level;
        if (!reopened) return;
        for (int i = 0; i < n_inc; i++) {
            int64_t t = h->full_level + inc[i];
            if (t > h->level) targets[n++] = t;
        }
        if (n == 0) targets[n++] = h->level + inc[0];
    }
    /* All in for less caps a total; two capped totals are then one. */
    for (int i = 0; i < n; i++) targets[i] = se_min64(targets[i], most);
    if (n == 2 && targets[0] == targets[1]) n = 1;
    int64_t *out;
    int *count;
    int opened = r->short_all_in_full_bet ? h->bets > 0 : h->full_level > 0;
    if (!opened && h->level == 0) {
        out = legal->bet_to;
        count = &legal->bet_count;
    } else if (!opened) {
        out = legal->complete_to; /* the bring-in or a short all-in bet, completed */
        count = &legal->complete_count;
    } else {
        out = legal->raise_to;
        count = &legal->raise_count;
    }
    for (int i = 0; i < n; i++) out[i] = targets[i];
    *count = n;
}

/* The total a wager goes to: `to` when it is one of the legal ones, the smallest
 * when `to` is negative; -1 when neither. */
static int64_t se_pick(const int64_t *list, int count, int64_t to) {
    if (count == 0) return -1;
    if (to < 0) return list[0];
    for (int i = 0; i < count; i++)
        if (list[i] == to) return to;
    return -1;
}

static void se_advance(se_hand *h, int seat) {
    int only = SE_NONE;
    if (se_live_count(h, &only) == 1) {
        h->actor = SE_NONE;
        se_finish_by_folds(h, only);
        return;
    }
    int next = se_next_to_act(h, seat);
    if (next != SE_NONE && !se_betting_possible(h)) next = SE_NONE;
    h->actor = next;
    if (next == SE_NONE) se_end_round(h);
}

/* The players left for the cap: the seats not folded (an all-in seat is one), or
 * under cap_skips_all_in only those that can still bet. */
static int se_players_left(const se_hand *h) {
    if (!h->rules.cap_skips_all_in) return se_live_count(h, NULL);
    int count = 0;
    for (int s = 0; s < h->rules.seats; s++) count += se_can_act(h, s);
    return count;
}

/* A wager that counts as a bet or raise (by `increment`): the cap lifts for two
 * players left before the third raise, and after an open pair's big bet every
 * increment is the big bet. */
static void se_count_wager(se_hand *h, int64_t increment) {
    if (h->bets == SE_CAP - 1 && !h->rules.cap_heads_up && se_players_left(h) <= 2)
        h->uncapped = 1;
    h->bets++;
    if (h->open_pair_round && increment >= h->rules.big_bet) h->big_seen = 1;
}

/* A wager under short_all_in_full_bet: every one counts toward the cap, and the
 * largest increment sets what a raise adds. */
static void se_wager_full_bet(se_hand *h, se_action kind, int64_t target) {
    int seat = h->actor;
    int64_t mine = h->street_bets[seat], increment = target - h->level;
    h->bring_in_due = 0;
    se_count_wager(h, increment);
    se_pay_in(h, seat, target - mine);
    h->last_aggressor = seat;
    h->max_raise = se_max64(h->max_raise, increment);
    h->level = target;
    h->full_level = target;
    h->acted_at[seat] = h->full_level;
    se_log(h, kind, seat, target - mine, target, NULL, 0);
}

static void se_wager(se_hand *h, se_action kind, int64_t target) {
    if (h->rules.short_all_in_full_bet) {
        se_wager_full_bet(h, kind, target);
        return;
    }
    int seat = h->actor;
    int64_t mine = h->street_bets[seat], inc[2] = {0, 0};
    int64_t increment = target - h->full_level;
    se_increments(h, inc);
    int full = 2 * increment >= inc[0]; /* half a bet or more counts as a full bet */
    h->bring_in_due = 0;                /* a completion is the bring-in's alternative */
    if (full) se_count_wager(h, increment);
    se_pay_in(h, seat, target - mine);
    /* The last to bet or raise shows first, also after an all-in for less (every
     * wager tops the level: a seat that cannot may only call). */
    h->last_aggressor = seat;
    if (full) h->full_level = target;
    h->level = target;
    h->acted_at[seat] = h->full_level;
    se_log(h, kind, seat, target - mine, target, NULL, 0);
}

se_status se_hand_act(se_hand *h, se_action kind, int64_t to) {
    if (h == NULL) return SE_BAD_ARGUMENT;
    se_legal legal;
    se_hand_legal(h, &legal);
    return se_hand_act_legal(h, kind, to, &legal);
}

se_status se_hand_act_legal(se_hand *h, se_action kind, int64_t to, const se_legal *legal) {
    if (h == NULL || legal == NULL) return SE_BAD_ARGUMENT;
    if (h->actor == SE_NONE || h->showdown) return SE_ILLEGAL;
    int64_t total = -1; /* the street total the action goes to (fold and check: none) */
    switch (kind) {
    case SE_ACT_FOLD:
        if (!legal->fold) return SE_ILLEGAL;
        break;
    case SE_ACT_CHECK:
        if (!legal->check) return SE_ILLEGAL;
        break;
    case SE_ACT_CALL:
        if (legal->call < 0) return SE_ILLEGAL;
        total = h->street_bets[h->actor] + legal->call;
        break;
    case SE_ACT_BRING_IN:
        if (legal->bring_in < 0 || (to >= 0 && to != legal->bring_in)) return SE_ILLEGAL;
        total = legal->bring_in;
        break;
    case SE_ACT_COMPLETE:
        total = se_pick(legal->complete_to, legal->complete_count, to);
        break;
    case SE_ACT_BET:
        total = se_pick(legal->bet_to, legal->bet_count, to);
        break;
    case SE_ACT_RAISE:
        total = se_pick(legal->raise_to, legal->raise_count, to);
        break;
    default:
        return SE_BAD_ARGUMENT;
    }
    if (kind >= SE_ACT_COMPLETE && total < 0) return SE_ILLEGAL;
    return se_hand_act_known(h, kind, total);
}

se_status se_hand_act_known(se_hand *h, se_action kind, int64_t total) {
    int seat = h->actor;
    /* A kept choice may be stale: a step that failed (no memory for a deal) leaves the
     * hand between streets. No seat to act is refused, never written at seat -1. */
    if (seat == SE_NONE || h->showdown) return SE_ILLEGAL;
    if (se_reserve(h, 1) != SE_OK) return SE_NO_MEMORY;
    int64_t mine = h->street_bets[seat];
    switch (kind) {
    case SE_ACT_FOLD:
        h->folded[seat] = 1;
        h->out[seat] = 1;
        se_log(h, kind, seat, 0, -1, NULL, 0);
        break;
    case SE_ACT_CHECK:
        h->acted_at[seat] = h->full_level;
        se_log(h, kind, seat, 0, -1, NULL, 0);
        break;
    case SE_ACT_CALL:
        se_pay_in(h, seat, total - mine);
        h->acted_at[seat] = h->full_level;
        se_log(h, kind, seat, total - mine, total, NULL, 0);
        break;
    case SE_ACT_BRING_IN:
        se_pay_in(h, seat, total);
        h->level = se_max64(h->level, total);
        h->bring_in_due = 0;
        if (total >= h->rules.small_bet) { /* the whole small bet: the round's bet, raised next */
            se_count_wager(h, total);
            h->full_level = total;
            h->max_raise = h->rules.short_all_in_full_bet ? total : h->max_raise;
        }
        h->acted_at[seat] = h->full_level;
        se_log(h, kind, seat, total, total, NULL, 0);
        break;
    default: /* complete, bet, raise */
        se_wager(h, kind, total);
        break;
    }
    se_advance(h, seat);
    return SE_OK;
}

/* ---- the showdown ------------------------------------------------------------------------- */

se_status se_hand_show(se_hand *h, const uint8_t *down, int count) {
    if (h == NULL) return SE_BAD_ARGUMENT;
    if (!h->showdown || h->actor == SE_NONE) return SE_ILLEGAL;
    int seat = h->actor, cards = h->card_count[seat];
    if (down != NULL) {
        int downs = 0;
        for (int i = 0; i < cards; i++) downs += se_down_place(i);
        if (count != downs) return SE_BAD_SIZE;
        uint64_t seen = h->known;
        for (int i = 0, k = 0; i < cards; i++) {
            if (!se_down_place(i)) continue;
            uint8_t old = h->cards[seat][i], code = down[k++];
            if (code > 51) return SE_INVALID_CARD;
            if (old != SE_UNKNOWN_CARD) {
                if (old != code) return SE_ILLEGAL; /* another card was dealt there */
                continue;
            }
            if (seen & (1ull << code)) return SE_DUPLICATE_CARD;
            seen |= 1ull << code;
        }
    }
    for (int i = 0, k = 0; i < cards; i++) {
        if (!se_down_place(i)) continue;
        uint8_t code = down != NULL ? down[k++] : h->cards[seat][i];
        if (code == SE_UNKNOWN_CARD) return SE_ILLEGAL; /* unknown cards must be shown */
    }
    if (se_reserve(h, 1) != SE_OK) return SE_NO_MEMORY;
    for (int i = 0, k = 0; down != NULL && i < cards; i++) {
        if (!se_down_place(i)) continue;
        uint8_t code = down[k++];
        h->cards[seat][i] = code;
        h->known |= 1ull << code;
    }
    h->shown[seat] = 1;
    se_log(h, SE_EVENT_SHOW, seat, 0, -1, h->cards[seat], cards);
    se_next_shower(h);
    return SE_OK;
}

se_status se_hand_muck(se_hand *h) {
    if (h == NULL) return SE_BAD_ARGUMENT;
    if (!h->showdown || h->actor == SE_NONE) return SE_ILLEGAL;
    if (se_reserve(h, 1) != SE_OK) return SE_NO_MEMORY;
    int seat = h->actor;
    h->out[seat] = 1;
    se_log(h, SE_EVENT_MUCK, seat, 0, -1, NULL, 0);
    se_next_shower(h);
    return SE_OK;
}

se_status se_hand_pay(se_hand *h, const int64_t *payouts, int64_t rake) {
    if (h == NULL || payouts == NULL) return SE_BAD_ARGUMENT;
    if (!h->settle_due) return SE_ILLEGAL;
    int64_t paid = rake, put_in = 0;
    if (rake < 0 || rake > h->rules.rake) return SE_BAD_ARGUMENT;
    for (int s = 0; s < h->rules.seats; s++) {
        if (payouts[s] < 0 || payouts[s] > SE_ENGINE_MAX_CHIPS) return SE_BAD_ARGUMENT;
        paid += payouts[s];
        put_in += h->contributions[s];
    }
    if (paid != put_in) return SE_BAD_ARGUMENT; /* no chip lost or made */
    memcpy(h->payouts, payouts, (size_t)h->rules.seats * sizeof(int64_t));
    h->rake_taken = rake;
    se_close(h);
    return SE_OK;
}

/* ---- set-up ---------------------------------------------------------------------------- */

se_status se_hand_init(se_hand *h, const se_table_rules *rules, const int64_t *stacks) {
    if (h == NULL) return SE_BAD_ARGUMENT;
    h->events = NULL;
    return se_hand_restart(h, rules, stacks);
}

se_status se_hand_restart(se_hand *h, const se_table_rules *rules, const int64_t *stacks) {
    if (h == NULL || rules == NULL || stacks == NULL) return SE_BAD_ARGUMENT;
    se_event *log = h->events; /* kept for the new hand when there is one */
    size_t room = log != NULL ? h->events_capacity : 0;
    memset(h, 0, sizeof *h);
    h->events = log;
    h->events_capacity = room;
    const se_table_rules *r = rules;
    if (r->seats < 2 || r->seats > SE_ENGINE_MAX_SEATS) return SE_BAD_ARGUMENT;
    int64_t stakes[5] = {r->ante, r->bring_in, r->small_bet, r->big_bet, r->rake};
    for (int i = 0; i < 5; i++)
        if (stakes[i] < 0 || stakes[i] >= SE_ENGINE_MAX_CHIPS) return SE_BAD_ARGUMENT;
    if (r->small_bet < 1 || r->bring_in > r->small_bet || r->big_bet < r->small_bet)
        return SE_BAD_ARGUMENT;
    int64_t total = 0;
    for (int s = 0; s < r->seats; s++) {
        if (stacks[s] < 0 || stacks[s] >= SE_ENGINE_MAX_CHIPS) return SE_BAD_ARGUMENT;
        total += stacks[s];
        if (total >= SE_ENGINE_MAX_CHIPS) return SE_BAD_ARGUMENT;
    }
    if (h->events == NULL || h->events_capacity < 64) {
        free(h->events);
        h->events_capacity = 64;
        h->events = (se_event *)malloc(h->events_capacity * sizeof(se_event));
        if (h->events == NULL) {
            h->events_capacity = 0;
            return SE_NO_MEMORY;
        }
    }
    h->rules = *r;
    h->street = 3;
    h->actor = SE_NONE;
    h->community = SE_NONE;
    h->last_aggressor = h->round_aggressor = h->first_actor = SE_NONE;
    h->deck_count = -1;
    se_reset_round(h);
    for (int s = 0; s < r->seats; s++) {
        h->stacks[s] = stacks[s];
        int64_t ante = se_min64(r->ante, stacks[s]);
        if (ante > 0) {
            se_put(h, s, ante);
            se_log(h, SE_EVENT_ANTE, s, ante, -1, NULL, 0); /* 8 fit in the first 64 */
        }
    }
    return SE_OK;
}

se_status se_hand_copy(se_hand *dst, const se_hand *src) {
    if (dst == NULL || src == NULL || dst == src) return SE_BAD_ARGUMENT;
    se_event *events = (se_event *)malloc(src->events_capacity * sizeof(se_event));
    if (events == NULL) return SE_NO_MEMORY;
    memcpy(events, src->events, src->events_count * sizeof(se_event));
    *dst = *src;
    dst->events = events;
    return SE_OK;
}

void se_hand_free(se_hand *h) {
    if (h == NULL) return;
    free(h->events);
    h->events = NULL;
    h->events_count = h->events_capacity = 0;
}
