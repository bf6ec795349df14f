/* The payouts of a showdown (studeval.h, "Settlement"), as studeval/showdown.py's
 * settle makes them, for callers that play whole hands in C (many tables at once):
 * the chips nobody matched go back to their owner; each contribution level makes a
 * pot for the live seats that reached it (dead money joins the pot below); the rake
 * comes from the main pot; each pot goes to its best high hand, its best low, or
 * half to each (the high half taking the odd chip, or the low under the house's
 * option); tied winners share, the odd chips going in the house's order.
 * tests/test_settle_core.py compares every payout with settle()'s. */

#include <string.h>

#include "studeval.h"

#define SE_SETTLE_MAX 8

typedef struct se_layer {
    int64_t amount;
    uint8_t eligible[SE_SETTLE_MAX]; /* by seat */
} se_layer;

/* A seat's hand at the showdown: its cards (the community card last, if any). */
typedef struct se_showing {
    uint8_t cards[7];
    int high, low; /* ranks, smaller better; -1 when it has none for that half */
} se_showing;

static int se_card_key(int code, int ace_low) {
    return ace_low ? ((code / 4 + 1) % 13) * 4 + code % 4 : code;
}

/* The five cards that play for a ranking: the first five of the cards sorted from
 * the highest code whose rank is the hand's (showdown.py's best_five). */
static void se_best_five(const uint8_t *cards, int low, uint8_t *five) {
    uint8_t sorted[7];
    memcpy(sorted, cards, 7);
    for (int i = 1; i < 7; i++)
        for (int k = i; k > 0 && sorted[k] > sorted[k - 1]; k--) {
            uint8_t t = sorted[k];
            sorted[k] = sorted[k - 1], sorted[k - 1] = t;
        }
    int target = low ? se_low_rank(sorted, 7) : se_high_rank(sorted, 7);
    for (int a = 0; a < 7; a++)
        for (int b = a + 1; b < 7; b++)
            for (int c = b + 1; c < 7; c++)
                for (int d = c + 1; d < 7; d++)
                    for (int e = d + 1; e < 7; e++) {
                        uint8_t pick[5] = {sorted[a], sorted[b], sorted[c], sorted[d], sorted[e]};
                        if ((low ? se_low_rank(pick, 5) : se_high_rank(pick, 5)) == target) {
                            memcpy(five, pick, 5);
                            return;
                        }
                    }
    memcpy(five, sorted, 5); /* not reached: some five has the hand's rank */
}

/* The cards' keys from the deciding end: highest first (want_high), or lowest. */
static void se_odd_chip_keys(const uint8_t *cards, int n, int ace_low, int want_high, int *keys) {
    for (int i = 0; i < n; i++) {
        int key = se_card_key(cards[i], ace_low), k = i;
        for (; k > 0 && (want_high ? key > keys[k - 1] : key < keys[k - 1]); k--) keys[k] = keys[k - 1];
        keys[k] = key;
    }
}

/* Seat a's odd-chip key against seat b's: negative when a comes first. */
static int se_odd_chip_before(const se_settle_rules *r, const se_showing *a, const se_showing *b,
                              int high_half) {
    int want_high = high_half || r->odd_chip_low_high_card;
    int ace_low = !high_half; /* a low half ranks its cards ace low, as the low plays */
    uint8_t five_a[5], five_b[5];
    const uint8_t *ca = a->cards, *cb = b->cards;
    int n = 7;
    if (r->odd_chip_played) {
        se_best_five(a->cards, !high_half, five_a);
        se_best_five(b->cards, !high_half, five_b);
        ca = five_a, cb = five_b, n = 5;
    }
    int ka[7], kb[7];
    se_odd_chip_keys(ca, n, ace_low, want_high, ka);
    se_odd_chip_keys(cb, n, ace_low, want_high, kb);
    for (int i = 0; i < n; i++)
        if (ka[i] != kb[i]) return want_high ? kb[i] - ka[i] : ka[i] - kb[i];
    return 0;
}

/* Splits `amount` among `count` winners in seats order (odd-chip order), one odd
 * chip each or all to the first; adds to shares; returns the odd chips. */
static int64_t se_divide(const se_settle_rules *r, int64_t amount, const int *order, int count,
                         int64_t *shares) {
    if (count == 0) return 0;
    int64_t units = amount / r->chip, base = units / count, odd = units % count;
    for (int place = 0; place < count; place++) {
        int64_t extra = r->odd_chips_first_seat ? (place == 0 ? odd : 0) : (place < odd ? 1 : 0);
        shares[order[place]] += (base + extra) * r->chip;
    }
    return odd;
}

/* The winners of one half among the eligible seats, in odd-chip order. */
static int se_winners(const se_settle_rules *r, const se_showing *table, const uint8_t *eligible,
                      int seats, int high_half, int *order) {
    int best = -1, count = 0;
    for (int s = 0; s < seats; s++) {
        int rank = high_half ? table[s].high : table[s].low;
        if (eligible[s] && rank >= 0 && (best < 0 || rank < best)) best = rank;
    }
    if (best < 0) return 0;
    for (int s = 0; s < seats; s++)
        if (eligible[s] && (high_half ? table[s].high : table[s].low) == best) order[count++] = s;
    if (!r->odd_chips_first_seat) /* stable: equal keys keep seat order */
        for (int i = 1; i < count; i++)
            for (int k = i; k > 0 && se_odd_chip_before(r, &table[order[k]], &table[order[k - 1]],
                                                        high_half) < 0; k--) {
                int t = order[k];
                order[k] = order[k - 1], order[k - 1] = t;
            }
    return count;
}

/* One pot split between its high and low halves; marks its winners. */
static void se_contest(const se_settle_rules *r, const se_showing *table, const se_layer *pot,
                       int seats, int64_t *shares, uint8_t *won) {
    int high[SE_SETTLE_MAX], low[SE_SETTLE_MAX];
    int highs = se_winners(r, table, pot->eligible, seats, 1, high);
    int lows = se_winners(r, table, pot->eligible, seats, 0, low);
    int64_t high_amount, low_amount;
    if (highs && lows) {
        low_amount = pot->amount / r->chip / 2 * r->chip;
        high_amount = pot->amount - low_amount;
        if (r->odd_chip_half_low) {
            int64_t t = high_amount;
            high_amount = low_amount, low_amount = t;
        }
    } else if (highs) {
        high_amount = pot->amount, low_amount = 0;
    } else {
        high_amount = 0, low_amount = pot->amount;
    }
    se_divide(r, high_amount, high, highs, shares);
    se_divide(r, low_amount, low, lows, shares);
    for (int i = 0; i < highs; i++) won[high[i]] = 1;
    for (int i = 0; i < lows; i++) won[low[i]] = 1;
}

se_status se_settle(const se_settle_rules *r, int seats, const uint8_t (*cards)[7],
                    const uint8_t *live, int community, const int64_t *contributions,
                    int64_t *payouts, int64_t *returned, int64_t *rake_taken) {
    if (r == NULL || cards == NULL || live == NULL || contributions == NULL || payouts == NULL ||
        returned == NULL || rake_taken == NULL)
        return SE_BAD_ARGUMENT;
    if (seats < 2 || seats > SE_SETTLE_MAX || r->chip < 1 || r->rake < 0 || r->game < 0 ||
        r->game > SE_GAME_STUD_HILO_NOQ || community > 51)
        return SE_BAD_ARGUMENT;
    int64_t chips[SE_SETTLE_MAX];
    int live_count = 0;
    for (int s = 0; s < seats; s++) {
        chips[s] = contributions[s];
        if (chips[s] < 0 || chips[s] >= SE_ENGINE_MAX_CHIPS || chips[s] % r->chip) return SE_BAD_ARGUMENT;
        live_count += live[s] != 0;
    }
    if (live_count == 0 || r->rake % r->chip) return SE_BAD_ARGUMENT;
    /* The hands: ranks for the halves the game plays. */
    se_showing table[SE_SETTLE_MAX];
    memset(table, 0, sizeof table);
    for (int s = 0; s < seats; s++) {
        table[s].high = table[s].low = -1;
        if (!live[s]) continue;
        memcpy(table[s].cards, cards[s], 7);
        if (community >= 0) table[s].cards[6] = (uint8_t)community;
        int high = se_high_rank(table[s].cards, 7);
        if (high < 0) return (se_status)high;
        if (r->game != SE_GAME_RAZZ) table[s].high = high;
        if (r->game == SE_GAME_RAZZ || r->game == SE_GAME_STUD_HILO_NOQ)
            table[s].low = se_low_rank(table[s].cards, 7);
        else if (r->game == SE_GAME_STUD8) {
            int low8 = se_low8_rank(table[s].cards, 7);
            table[s].low = low8 == SE_NO_LOW ? -1 : low8;
        }
    }
    /* The chips of the one seat that put in most, above all others, go back. */
    memset(returned, 0, (size_t)seats * sizeof *returned);
    int top = 0, ties = 0;
    for (int s = 1; s < seats; s++)
        if (chips[s] > chips[top]) top = s;
    int64_t second = 0;
    for (int s = 0; s < seats; s++) {
        if (s == top) continue;
        ties |= chips[s] == chips[top];
        if (chips[s] > second) second = chips[s];
    }
    if (!ties) returned[top] = chips[top] - second, chips[top] = second;
    /* The pots, by contribution level. */
    se_layer layers[SE_SETTLE_MAX];
    int count = 0;
    int64_t below = 0;
    for (;;) {
        int64_t level = -1;
        for (int s = 0; s < seats; s++)
            if (chips[s] > below && (level < 0 || chips[s] < level)) level = chips[s];
        if (level < 0) break;
        se_layer layer;
        memset(&layer, 0, sizeof layer);
        int any = 0;
        for (int s = 0; s < seats; s++) {
            int64_t upto = chips[s] < level ? chips[s] : level, before = chips[s] < below ? chips[s] : below;
            layer.amount += upto - before;
            layer.eligible[s] = live[s] && chips[s] >= level;
            any |= layer.eligible[s];
        }
        below = level;
        if (!any) { /* dead money: into the pot below, or a pot of every live seat */
            if (count > 0) {
                layers[count - 1].amount += layer.amount;
            } else {
                for (int s = 0; s < seats; s++) layer.eligible[s] = live[s] != 0;
                layers[count++] = layer;
            }
        } else if (count > 0 && memcmp(layers[count - 1].eligible, layer.eligible, SE_SETTLE_MAX) == 0) {
            layers[count - 1].amount += layer.amount;
        } else {
            layers[count++] = layer;
        }
    }
    /* The rake, from the main pot. */
    int64_t rake = r->rake, main_pot = count ? layers[0].amount : 0;
    if (rake > main_pot) {
        if (!r->rake_at_most) return SE_BAD_ARGUMENT;
        rake = main_pot;
    }
    if (count && rake) layers[0].amount -= rake;
    int64_t shares[SE_SETTLE_MAX] = {0};
    uint8_t won[SE_SETTLE_MAX] = {0};
    for (int i = 0; i < count; i++) se_contest(r, table, &layers[i], seats, shares, won);
    if (r->split_pots_merged) {
        /* Pots in a row that the same winners contend for are one pot, with the
         * first one's eligible seats (pokerkit's reading). */
        se_layer merged[SE_SETTLE_MAX];
        int merged_count = 0;
        uint8_t last[SE_SETTLE_MAX];
        for (int i = 0; i < count; i++) {
            uint8_t contenders[SE_SETTLE_MAX] = {0};
            for (int s = 0; s < seats; s++) contenders[s] = layers[i].eligible[s] && won[s];
            if (merged_count > 0 && memcmp(contenders, last, SE_SETTLE_MAX) == 0)
                merged[merged_count - 1].amount += layers[i].amount;
            else
                merged[merged_count++] = layers[i];
            memcpy(last, contenders, SE_SETTLE_MAX);
        }
        memset(shares, 0, sizeof shares);
        for (int i = 0; i < merged_count; i++) se_contest(r, table, &merged[i], seats, shares, won);
    }
    int64_t paid = rake, put_in = 0;
    for (int s = 0; s < seats; s++) {
        payouts[s] = returned[s] + shares[s];
        paid += payouts[s];
        put_in += contributions[s];
    }
    *rake_taken = rake;
    return paid == put_in ? SE_OK : SE_BAD_ARGUMENT; /* no chip lost or made */
}
