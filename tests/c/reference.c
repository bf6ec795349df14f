/*
 * Brute-force reference rankings for the exhaustive test (see reference.h).
 *
 * Method: a hand's class is a sort key, a 24-bit integer holding a shape code
 * above five 4-bit ranks. Keys compare as integers exactly as the hands compare
 * as poker hands, so the rank numbers are found by marking every key that some
 * 5-card hand produces and reading the marks in key order. No table is copied
 * from anywhere; the counts 7462 and 6175 are checked, not assumed.
 */
#include "reference.h"

#include <stdlib.h>
#include <string.h>

#define HIGH_CLASSES 7462
#define LOW_CLASSES 6175
#define KEY_SPACE (1u << 24)  /* shape (4 bits) << 20 | five 4-bit ranks */

/* High shapes, larger is better; se_category = 8 - shape. */
enum { H_HIGH_CARD, H_PAIR, H_TWO_PAIR, H_TRIPS, H_STRAIGHT, H_FLUSH, H_FULL_HOUSE,
       H_QUADS, H_STRAIGHT_FLUSH };
/* Low shapes, smaller is better. */
enum { L_NO_PAIR, L_PAIR, L_TWO_PAIR, L_TRIPS, L_FULL_HOUSE, L_QUADS };

static uint32_t high_keys[HIGH_CLASSES]; /* ascending: index 0 is the worst hand */
static uint32_t low_keys[LOW_CLASSES];   /* ascending: index 0 is the best hand */
static int n_high_keys, n_low_keys;

/* Up-card classes for 1..4 cards, keys ascending. */
#define MAX_UP 1820
static uint32_t up_high_keys[5][MAX_UP];
static uint32_t up_low_keys[5][MAX_UP];
static int n_up[5];

/* Groups the n card values (each 0..12) into "expanded" order: larger groups
 * first, a higher value first among groups of the same size, each value
 * repeated as often as it occurs. counts_out gets the group sizes in that
 * order, padded with 0. Returns the number of groups. */
static int group_values(const int *values, int n, int *expanded, int *counts_out) {
    int count[13] = {0};
    int gv[7], gc[7], groups = 0;
    for (int i = 0; i < n; i++) count[values[i]]++;
    for (int v = 12; v >= 0; v--) {
        if (count[v]) {
            gv[groups] = v;
            gc[groups] = count[v];
            groups++;
        }
    }
    /* Stable insertion sort by size, descending; values are already descending. */
    for (int i = 1; i < groups; i++) {
        int v = gv[i], c = gc[i], j = i;
        while (j > 0 && gc[j - 1] < c) {
            gv[j] = gv[j - 1];
            gc[j] = gc[j - 1];
            j--;
        }
        gv[j] = v;
        gc[j] = c;
    }
    int at = 0;
    for (int g = 0; g < groups; g++)
        for (int r = 0; r < gc[g]; r++) expanded[at++] = gv[g];
    for (int g = 0; g < 5; g++) counts_out[g] = g < groups ? gc[g] : 0;
    return groups;
}

static uint32_t pack5(int shape, const int *r) {
    return ((uint32_t)shape << 20) | ((uint32_t)r[0] << 16) | ((uint32_t)r[1] << 12) |
           ((uint32_t)r[2] << 8) | ((uint32_t)r[3] << 4) | (uint32_t)r[4];
}

static uint32_t high_key(const uint8_t cards[5]) {
    int ranks[5], expanded[5], counts[5];
    int flush = 1;
    for (int i = 0; i < 5; i++) {
        ranks[i] = cards[i] / 4;
        if (cards[i] % 4 != cards[0] % 4) flush = 0;
    }
    int groups = group_values(ranks, 5, expanded, counts);
    int straight = 0;
    if (groups == 5) {
        if (expanded[0] - expanded[4] == 4) {
            straight = 1;
        } else if (expanded[0] == 12 && expanded[1] == 3) {
            /* A-5-4-3-2: the ace plays low, so the hand reads 5-4-3-2-A. */
            straight = 1;
            expanded[0] = 3; expanded[1] = 2; expanded[2] = 1; expanded[3] = 0; expanded[4] = 12;
        }
    }
    int shape;
    if (straight && flush) shape = H_STRAIGHT_FLUSH;
    else if (counts[0] == 4) shape = H_QUADS;
    else if (counts[0] == 3 && counts[1] == 2) shape = H_FULL_HOUSE;
    else if (flush) shape = H_FLUSH;
    else if (straight) shape = H_STRAIGHT;
    else if (counts[0] == 3) shape = H_TRIPS;
    else if (counts[0] == 2 && counts[1] == 2) shape = H_TWO_PAIR;
    else if (counts[0] == 2) shape = H_PAIR;
    else shape = H_HIGH_CARD;
    return pack5(shape, expanded);
}

/* Ace-to-five value of a rank: ace 0, deuce 1, ..., king 12. */
static int low_value(int rank) { return rank == 12 ? 0 : rank + 1; }

static int low_shape(const int *counts) {
    if (counts[0] == 4) return L_QUADS;
    if (counts[0] == 3) return counts[1] == 2 ? L_FULL_HOUSE : L_TRIPS;
    if (counts[0] == 2) return counts[1] == 2 ? L_TWO_PAIR : L_PAIR;
    return L_NO_PAIR;
}

static uint32_t low_key(const uint8_t cards[5]) {
    int values[5], expanded[5], counts[5];
    for (int i = 0; i < 5; i++) values[i] = low_value(cards[i] / 4);
    group_values(values, 5, expanded, counts);
    return pack5(low_shape(counts), expanded);
}

static int find_key(const uint32_t *keys, int n, uint32_t key) {
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (keys[mid] == key) return mid;
        if (keys[mid] < key) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

/* Up cards: shape above four 4-bit values (padding 0 past n, the same for
 * every hand of n cards, so it never decides a comparison). */
static uint32_t up_key(const int *values, int n) {
    int expanded[5], counts[5];
    group_values(values, n, expanded, counts);
    /* One shape scale serves both directions: for high a larger key wins (quads
     * 4 > trips 3 > two pair 2 > pair 1 > none 0), for low a smaller one does. */
    int shape;
    if (counts[0] == 4) shape = 4;
    else if (counts[0] == 3) shape = 3;
    else if (counts[0] == 2 && counts[1] == 2) shape = 2;
    else if (counts[0] == 2) shape = 1;
    else shape = 0;
    uint32_t key = (uint32_t)shape << 16;
    for (int i = 0; i < 4; i++) key |= (uint32_t)(i < n ? expanded[i] : 0) << (12 - 4 * i);
    return key;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Every multiset of n ranks, as nondecreasing sequences. */
static void build_up(int n) {
    int r[4] = {0, 0, 0, 0};
    int count = 0;
    for (;;) {
        int hv[4], lv[4];
        for (int i = 0; i < n; i++) {
            hv[i] = r[i];
            lv[i] = low_value(r[i]);
        }
        up_high_keys[n][count] = up_key(hv, n);
        up_low_keys[n][count] = up_key(lv, n);
        count++;
        /* Next nondecreasing sequence. */
        int i = n - 1;
        while (i >= 0 && r[i] == 12) i--;
        if (i < 0) break;
        r[i]++;
        for (int j = i + 1; j < n; j++) r[j] = r[i];
    }
    qsort(up_high_keys[n], (size_t)count, sizeof(uint32_t), cmp_u32);
    qsort(up_low_keys[n], (size_t)count, sizeof(uint32_t), cmp_u32);
    n_up[n] = count;
}

int ref_init(void) {
    uint8_t *seen_high = calloc(KEY_SPACE, 1);
    uint8_t *seen_low = calloc(KEY_SPACE, 1);
    if (!seen_high || !seen_low) {
        free(seen_high);
        free(seen_low);
        return -1;
    }
    uint8_t h[5];
    for (h[0] = 0; h[0] < 52; h[0]++)
        for (h[1] = h[0] + 1; h[1] < 52; h[1]++)
            for (h[2] = h[1] + 1; h[2] < 52; h[2]++)
                for (h[3] = h[2] + 1; h[3] < 52; h[3]++)
                    for (h[4] = h[3] + 1; h[4] < 52; h[4]++) {
                        seen_high[high_key(h)] = 1;
                        seen_low[low_key(h)] = 1;
                    }
    n_high_keys = n_low_keys = 0;
    for (uint32_t key = 0; key < KEY_SPACE; key++) {
        if (seen_high[key]) {
            if (n_high_keys == HIGH_CLASSES) { n_high_keys++; break; }
            high_keys[n_high_keys++] = key;
        }
    }
    for (uint32_t key = 0; key < KEY_SPACE; key++) {
        if (seen_low[key]) {
            if (n_low_keys == LOW_CLASSES) { n_low_keys++; break; }
            low_keys[n_low_keys++] = key;
        }
    }
    free(seen_high);
    free(seen_low);
    for (int n = 1; n <= 4; n++) build_up(n);
    if (n_high_keys != HIGH_CLASSES || n_low_keys != LOW_CLASSES) return -1;
    if (n_up[1] != 13 || n_up[2] != 91 || n_up[3] != 455 || n_up[4] != 1820) return -1;
    return 0;
}

int ref_high5(const uint8_t cards[5]) {
    int at = find_key(high_keys, n_high_keys, high_key(cards));
    return at < 0 ? -1 : HIGH_CLASSES - at;
}

int ref_low5(const uint8_t cards[5]) {
    int at = find_key(low_keys, n_low_keys, low_key(cards));
    return at < 0 ? -1 : at + 1;
}

int ref_low8_of_low(int low_rank) {
    if (low_rank < 1 || low_rank > LOW_CLASSES) return -1;
    uint32_t key = low_keys[low_rank - 1];
    /* No pair and the top card an eight or lower: ace-low value 7 (ace 0 .. eight 7). */
    int qualifies = (key >> 20) == L_NO_PAIR && ((key >> 16) & 15) <= 7;
    return qualifies ? low_rank : 65535;
}

int ref_high_category(int high_rank) {
    if (high_rank < 1 || high_rank > HIGH_CLASSES) return -1;
    return 8 - (int)(high_keys[HIGH_CLASSES - high_rank] >> 20);
}

int ref_low_category(int low_rank) {
    if (low_rank < 1 || low_rank > LOW_CLASSES) return -1;
    return (int)(low_keys[low_rank - 1] >> 20);
}

int ref_high_ranks(int high_rank, int ranks_out[5]) {
    if (high_rank < 1 || high_rank > HIGH_CLASSES) return -1;
    uint32_t key = high_keys[HIGH_CLASSES - high_rank];
    for (int i = 0; i < 5; i++) ranks_out[i] = (int)((key >> (16 - 4 * i)) & 15);
    return 8 - (int)(key >> 20);
}

int ref_low_ranks(int low_rank, int ranks_out[5]) {
    if (low_rank < 1 || low_rank > LOW_CLASSES) return -1;
    uint32_t key = low_keys[low_rank - 1];
    for (int i = 0; i < 5; i++) {
        int v = (int)((key >> (16 - 4 * i)) & 15);
        ranks_out[i] = v == 0 ? 12 : v - 1;
    }
    return (int)(key >> 20);
}

int ref_up_classes(int n) { return n >= 1 && n <= 4 ? n_up[n] : -1; }

int ref_up_high(const uint8_t *cards, int n) {
    if (n < 1 || n > 4) return -1;
    int v[4];
    for (int i = 0; i < n; i++) v[i] = cards[i] / 4;
    int at = find_key(up_high_keys[n], n_up[n], up_key(v, n));
    return at < 0 ? -1 : n_up[n] - at;
}

int ref_up_low(const uint8_t *cards, int n) {
    if (n < 1 || n > 4) return -1;
    int v[4];
    for (int i = 0; i < n; i++) v[i] = low_value(cards[i] / 4);
    int at = find_key(up_low_keys[n], n_up[n], up_key(v, n));
    return at < 0 ? -1 : at + 1;
}
