/*
 * Exhaustive check of the studeval C core against the independent reference in
 * reference.c: every 5-, 6- and 7-card hand (2,598,960 + 20,358,520 +
 * 133,784,560), every 1..4-card up-card hand, both single-hand and batch paths.
 *
 * The reference for 6 and 7 cards is "best of the subsets": the reference rank
 * of all 5-card hands is stored by colex index, a 6-card hand takes the best of
 * its six 5-card subsets, and a 7-card hand the best of its seven 6-card
 * subsets (whose values were stored the same way). Since every 5-card subset of
 * a 7-card hand lies inside one of its 6-card subsets, that is exactly the best
 * of all 21 five-card subsets, at a fraction of the cost.
 *
 * Output: one line per phase, the invariants, and "fingerprint <ranking>
 * 0x<hex>" lines; on the first disagreement it prints the hand's cards
 * ("As Kd 7h ...") and exits with status 1.
 *
 * Usage: exhaustive [LIMIT]  -- LIMIT (optional) stops comparing the core with
 * the reference after LIMIT hands of each size; the reference invariants are
 * still checked over every hand. Meant only for quick local runs.
 *
 * The textbook category counts and the hands checked by hand are read from
 * tests/data (high_categories.csv, known_hands.tsv), the files the Python tests
 * read too; build with -DTEST_DATA_DIR="<repository>/tests/data".
 */
#define _POSIX_C_SOURCE 199309L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "reference.h"
#include "studeval.h"

#ifndef TEST_DATA_DIR
#error "build with -DTEST_DATA_DIR=\"<repository>/tests/data\""
#endif

#define N5 2598960u
#define N6 20358520u
#define N7 133784560u
#define BLOCK 65536u /* rows per batch call */
#define PAD_STRIDE 8 /* row stride of the second batch call, wider than k */

static uint32_t binom[53][8]; /* binom[n][r] = C(n, r) */
static unsigned long long core_limit = ~0ull;

/* ---- small helpers -------------------------------------------------------- */

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void hand_text(const uint8_t *cards, int n, char *out) {
    static const char ranks[] = "23456789TJQKA", suits[] = "cdhs";
    char *p = out;
    for (int i = 0; i < n; i++) {
        if (i) *p++ = ' ';
        if (cards[i] < 52) {
            *p++ = ranks[cards[i] / 4];
            *p++ = suits[cards[i] % 4];
        } else {
            p += sprintf(p, "#%d", cards[i]);
        }
    }
    *p = '\0';
}

/* Reports the first disagreement and stops the program. */
static void fail(const char *what, const uint8_t *cards, int n, long got, long want) {
    char text[64];
    hand_text(cards, n, text);
    printf("FAIL %s: %s: core %ld, reference %ld\n", what, text, got, want);
    fflush(stdout);
    exit(1);
}

static void fail_msg(const char *msg) {
    printf("FAIL %s\n", msg);
    fflush(stdout);
    exit(1);
}

#define EXPECT(cond, msg)           \
    do {                            \
        if (!(cond)) fail_msg(msg); \
    } while (0)

static void init_binom(void) {
    for (int n = 0; n <= 52; n++) {
        binom[n][0] = 1;
        for (int r = 1; r < 8; r++)
            binom[n][r] = n == 0 ? 0 : binom[n - 1][r - 1] + binom[n - 1][r];
    }
}

/* Colex index of k ascending cards, leaving out position skip (-1: none). */
static uint32_t colex(const uint8_t *c, int k, int skip) {
    uint32_t index = 0;
    int pos = 0;
    for (int i = 0; i < k; i++) {
        if (i == skip) continue;
        index += binom[c[i]][pos + 1];
        pos++;
    }
    return index;
}

/* Steps k ascending cards to the next combination in colex order; returns 0
 * after the last one. */
static int next_combination(uint8_t *c, int k) {
    for (int i = 0; i < k; i++) {
        int limit = i + 1 < k ? c[i + 1] : 52;
        if (c[i] + 1 < limit) {
            c[i]++;
            for (int j = 0; j < i; j++) c[j] = (uint8_t)j;
            return 1;
        }
    }
    return 0;
}

static void first_combination(uint8_t *c, int k) {
    for (int i = 0; i < k; i++) c[i] = (uint8_t)i;
}

/* Card order must not matter: hands reach the core in orders that vary with
 * the hand's serial number (rotations, and reversed for odd serials). */
static void permute(const uint8_t *in, int k, unsigned long long serial, int salt,
                    uint8_t *out) {
    int shift = (int)((serial + (unsigned long long)salt) % (unsigned long long)k);
    int reverse = (int)((serial / (unsigned long long)k + (unsigned long long)salt) & 1);
    for (int i = 0; i < k; i++) {
        int j = (i + shift) % k;
        out[reverse ? k - 1 - i : i] = in[j];
    }
}

/* ---- the block checker ---------------------------------------------------- */

typedef struct block {
    int k;
    const char *name;       /* "5-card" ... */
    size_t n;               /* rows filled */
    unsigned long long serial0; /* serial of row 0 */
    uint8_t sorted[BLOCK][7];
    uint8_t rows[BLOCK * PAD_STRIDE];
    uint8_t rows_pad[BLOCK * PAD_STRIDE];
    uint8_t columns[BLOCK * 7]; /* the rows column-major: card j of row i at j * n + i */
    uint16_t want_high[BLOCK], want_low[BLOCK], want_low8[BLOCK];
    uint16_t got_high[BLOCK], got_low[BLOCK], got_low8[BLOCK];
    uint16_t *keep_high, *keep_low, *keep_low8; /* optional copies of core output */
} block;

static void block_add(block *b, const uint8_t *sorted, int high, int low) {
    size_t i = b->n;
    unsigned long long serial = b->serial0 + i;
    memcpy(b->sorted[i], sorted, (size_t)b->k);
    permute(sorted, b->k, serial, 1, b->rows + i * (size_t)b->k);
    permute(sorted, b->k, serial, 2, b->rows_pad + i * PAD_STRIDE);
    /* The padding bytes are invalid codes: with check on they must never be read. */
    for (int j = b->k; j < PAD_STRIDE; j++) b->rows_pad[i * PAD_STRIDE + (size_t)j] = 0xEE;
    b->want_high[i] = (uint16_t)high;
    b->want_low[i] = (uint16_t)low;
    b->want_low8[i] = (uint16_t)ref_low8_of_low(low);
    b->n++;
}

static void compare_batch(const block *b, const char *how) {
    char what[96];
    for (size_t i = 0; i < b->n; i++) {
        if (b->got_high[i] != b->want_high[i]) {
            snprintf(what, sizeof what, "high %s batch %s", b->name, how);
            fail(what, b->sorted[i], b->k, b->got_high[i], b->want_high[i]);
        }
        if (b->got_low[i] != b->want_low[i]) {
            snprintf(what, sizeof what, "low %s batch %s", b->name, how);
            fail(what, b->sorted[i], b->k, b->got_low[i], b->want_low[i]);
        }
        if (b->got_low8[i] != b->want_low8[i]) {
            snprintf(what, sizeof what, "low8 %s batch %s", b->name, how);
            fail(what, b->sorted[i], b->k, b->got_low8[i], b->want_low8[i]);
        }
    }
}

static void run_batch(block *b, const uint8_t *rows, size_t stride, size_t col, int threads,
                      const char *how) {
    size_t bad = 12345;
    memset(b->got_high, 0, sizeof b->got_high);
    memset(b->got_low, 0, sizeof b->got_low);
    memset(b->got_low8, 0, sizeof b->got_low8);
    se_status st = se_rank_batch_strided(rows, b->n, stride, col, b->k, b->got_high, b->got_low,
                                         b->got_low8, threads, 1, &bad);
    if (st != SE_OK) {
        char what[96];
        snprintf(what, sizeof what, "%s batch %s returned status %d (first_bad_row %zu)",
                 b->name, how, (int)st, bad);
        fail_msg(what);
    }
    compare_batch(b, how);
}

static void block_flush(block *b) {
    char what[64];
    if (b->n == 0) return;
    /* Single-hand functions, each hand in a third order. */
    for (size_t i = 0; i < b->n; i++) {
        uint8_t hand[7];
        permute(b->sorted[i], b->k, b->serial0 + i, 0, hand);
        int got = se_high_rank(hand, b->k);
        if (got != b->want_high[i]) {
            snprintf(what, sizeof what, "se_high_rank %s", b->name);
            fail(what, hand, b->k, got, b->want_high[i]);
        }
        got = se_low_rank(hand, b->k);
        if (got != b->want_low[i]) {
            snprintf(what, sizeof what, "se_low_rank %s", b->name);
            fail(what, hand, b->k, got, b->want_low[i]);
        }
        got = se_low8_rank(hand, b->k);
        if (got != b->want_low8[i]) {
            snprintf(what, sizeof what, "se_low8_rank %s", b->name);
            fail(what, hand, b->k, got, b->want_low8[i]);
        }
    }
    run_batch(b, b->rows, (size_t)b->k, 1, 1, "(1 thread, stride k)");
    run_batch(b, b->rows_pad, PAD_STRIDE, 1, 2, "(2 threads, stride 8)");
    /* Column-major, as pandas hands a dataframe's columns over (rows 1 byte apart). */
    for (size_t i = 0; i < b->n; i++)
        for (int j = 0; j < b->k; j++)
            b->columns[(size_t)j * b->n + i] = b->rows[i * (size_t)b->k + (size_t)j];
    run_batch(b, b->columns, 1, b->n, 1, "(1 thread, column-major)");
    if (b->keep_high) {
        memcpy(b->keep_high + b->serial0, b->got_high, b->n * sizeof(uint16_t));
        memcpy(b->keep_low + b->serial0, b->got_low, b->n * sizeof(uint16_t));
        memcpy(b->keep_low8 + b->serial0, b->got_low8, b->n * sizeof(uint16_t));
    }
    {
        /* One ranking at a time, the other outputs NULL: high alone on every hand (the
         * vector kernels read a table of their own for it), the lows once per size. */
        uint16_t *outs[3] = {b->got_high, b->got_low, b->got_low8};
        const uint16_t *wants[3] = {b->want_high, b->want_low, b->want_low8};
        for (int which = 0; which < (b->serial0 == 0 ? 3 : 1); which++) {
            memset(outs[which], 0, b->n * sizeof(uint16_t));
            se_status st = se_rank_batch(b->rows, b->n, (size_t)b->k, b->k,
                                         which == 0 ? outs[0] : NULL,
                                         which == 1 ? outs[1] : NULL,
                                         which == 2 ? outs[2] : NULL, 2, 1, NULL);
            EXPECT(st == SE_OK, "batch with one output returned an error");
            for (size_t i = 0; i < b->n; i++)
                if (outs[which][i] != wants[which][i])
                    fail("batch with one output", b->sorted[i], b->k, outs[which][i],
                         wants[which][i]);
        }
    }
    b->serial0 += b->n;
    b->n = 0;
}

/* Queues a hand for the core check unless the LIMIT is reached. */
static void check_hand(block *b, const uint8_t *sorted, int high, int low,
                       unsigned long long serial) {
    if (serial >= core_limit) return;
    block_add(b, sorted, high, low);
    if (b->n == BLOCK) block_flush(b);
}

/* ---- invariants ------------------------------------------------------------ */

/* From tests/data/high_categories.csv: each category's name (lower case) and its
 * textbook count among all 5-, 6- and 7-card hands. */
static char CATEGORY_NAMES[9][32];
static unsigned long long TEXTBOOK[3][9];

static FILE *open_data(const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", TEST_DATA_DIR, name);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        printf("FAIL cannot read %s\n", path);
        exit(1);
    }
    return f;
}

static void load_categories(void) {
    FILE *f = open_data("high_categories.csv");
    char line[512];
    int row = -1; /* the header line comes first */
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        if (row++ < 0) continue;
        char *comma = strchr(line, ',');
        EXPECT(row <= 9 && comma != NULL && comma - line < 32, "high_categories.csv: bad row");
        for (int i = 0; line + i < comma; i++)
            CATEGORY_NAMES[row - 1][i] = (char)(line[i] >= 'A' && line[i] <= 'Z' ? line[i] + 32
                                                                              : line[i]);
        EXPECT(sscanf(comma + 1, "%llu,%llu,%llu", &TEXTBOOK[0][row - 1], &TEXTBOOK[1][row - 1],
                      &TEXTBOOK[2][row - 1]) == 3,
               "high_categories.csv: a row without three counts");
    }
    fclose(f);
    EXPECT(row == 9, "high_categories.csv: not nine categories");
}

static void check_categories(const char *label, const unsigned long long *got,
                             const unsigned long long *want) {
    for (int c = 0; c < 9; c++) {
        printf("  %s %-16s %llu\n", label, CATEGORY_NAMES[c], got[c]);
        if (got[c] != want[c]) {
            char what[512];
            snprintf(what, sizeof what, "%s count of %s is %llu, textbook %llu", label,
                     CATEGORY_NAMES[c], got[c], want[c]);
            fail_msg(what);
        }
    }
}

static int count_distinct(const uint16_t *values, size_t n) {
    static uint8_t seen[65536];
    int distinct = 0;
    memset(seen, 0, sizeof seen);
    for (size_t i = 0; i < n; i++) {
        if (!seen[values[i]]) {
            seen[values[i]] = 1;
            distinct++;
        }
    }
    return distinct;
}

/* FNV-1a 64 of the order of all 5-card hands under one ranking: hands sorted by
 * (rank, colex index) -- a stable counting sort of the colex-ordered array --
 * and for each hand in that order its rank (2 bytes) then its colex index
 * (4 bytes), both little-endian. Ties and order both change the hash. */
static unsigned long long fingerprint(const uint16_t *rank_of) {
    static uint32_t start[65537];
    uint32_t *order = malloc(N5 * sizeof(uint32_t));
    EXPECT(order != NULL, "out of memory");
    memset(start, 0, sizeof start);
    for (uint32_t i = 0; i < N5; i++) start[rank_of[i] + 1]++;
    for (int r = 0; r < 65536; r++) start[r + 1] += start[r];
    for (uint32_t i = 0; i < N5; i++) order[start[rank_of[i]]++] = i;
    unsigned long long h = 0xcbf29ce484222325ull;
    for (uint32_t j = 0; j < N5; j++) {
        uint32_t idx = order[j];
        uint16_t rank = rank_of[idx];
        uint8_t bytes[6] = {(uint8_t)rank, (uint8_t)(rank >> 8), (uint8_t)idx,
                            (uint8_t)(idx >> 8), (uint8_t)(idx >> 16), (uint8_t)(idx >> 24)};
        for (int b = 0; b < 6; b++) {
            h ^= bytes[b];
            h *= 0x100000001b3ull;
        }
    }
    free(order);
    return h;
}

/* ---- phases ---------------------------------------------------------------- */

static uint16_t *ref5_high, *ref5_low, *ref6_high, *ref6_low;
static block blk;

static void phase5(void) {
    unsigned long long cats[9] = {0};
    uint16_t *core_high = malloc(N5 * sizeof(uint16_t));
    uint16_t *core_low = malloc(N5 * sizeof(uint16_t));
    uint16_t *core_low8 = malloc(N5 * sizeof(uint16_t));
    uint16_t *ref_low8 = malloc(N5 * sizeof(uint16_t));
    EXPECT(core_high && core_low && core_low8 && ref_low8, "out of memory");
    memset(&blk, 0, sizeof blk);
    blk.k = 5;
    blk.name = "5-card";
    int full = core_limit >= N5;
    if (full) {
        blk.keep_high = core_high;
        blk.keep_low = core_low;
        blk.keep_low8 = core_low8;
    }
    uint8_t c[5];
    uint32_t serial = 0;
    first_combination(c, 5);
    do {
        EXPECT(colex(c, 5, -1) == serial, "colex enumeration out of step (5 cards)");
        int high = ref_high5(c), low = ref_low5(c);
        EXPECT(high >= 1 && low >= 1, "reference failed to rank a 5-card hand");
        ref5_high[serial] = (uint16_t)high;
        ref5_low[serial] = (uint16_t)low;
        ref_low8[serial] = (uint16_t)ref_low8_of_low(low);
        cats[ref_high_category(high)]++;
        check_hand(&blk, c, high, low, serial);
        serial++;
    } while (next_combination(c, 5));
    block_flush(&blk);
    EXPECT(serial == N5, "wrong number of 5-card hands");
    check_categories("5-card", cats, TEXTBOOK[0]);

    int dh = count_distinct(ref5_high, N5), dl = count_distinct(ref5_low, N5);
    int d8 = count_distinct(ref_low8, N5) - 1; /* minus the "no low" value */
    printf("  5-card classes: high %d, low %d, low8 %d\n", dh, dl, d8);
    EXPECT(dh == 7462 && dl == 6175 && d8 == 56, "5-card class counts are not 7462/6175/56");
    unsigned long long fh = fingerprint(ref5_high), fl = fingerprint(ref5_low),
                       f8 = fingerprint(ref_low8);
    if (full) {
        /* The same invariants from the core's own output. */
        EXPECT(count_distinct(core_high, N5) == 7462, "core: 5-card high classes != 7462");
        EXPECT(count_distinct(core_low, N5) == 6175, "core: 5-card low classes != 6175");
        EXPECT(count_distinct(core_low8, N5) == 57, "core: 5-card low8 classes != 56 + none");
        EXPECT(fingerprint(core_high) == fh, "core: high fingerprint differs");
        EXPECT(fingerprint(core_low) == fl, "core: low fingerprint differs");
        EXPECT(fingerprint(core_low8) == f8, "core: low8 fingerprint differs");
    }
    printf("fingerprint high 0x%016llx\n", fh);
    printf("fingerprint low 0x%016llx\n", fl);
    printf("fingerprint low8 0x%016llx\n", f8);
    free(core_high);
    free(core_low);
    free(core_low8);
    free(ref_low8);
}

static void phase6(void) {
    unsigned long long cats[9] = {0};
    memset(&blk, 0, sizeof blk);
    blk.k = 6;
    blk.name = "6-card";
    uint8_t c[6];
    uint32_t serial = 0;
    first_combination(c, 6);
    do {
        EXPECT(colex(c, 6, -1) == serial, "colex enumeration out of step (6 cards)");
        int high = 65535, low = 65535;
        for (int skip = 0; skip < 6; skip++) {
            uint32_t sub = colex(c, 6, skip);
            if (ref5_high[sub] < high) high = ref5_high[sub];
            if (ref5_low[sub] < low) low = ref5_low[sub];
        }
        ref6_high[serial] = (uint16_t)high;
        ref6_low[serial] = (uint16_t)low;
        cats[ref_high_category(high)]++;
        check_hand(&blk, c, high, low, serial);
        serial++;
    } while (next_combination(c, 6));
    block_flush(&blk);
    EXPECT(serial == N6, "wrong number of 6-card hands");
    check_categories("6-card", cats, TEXTBOOK[1]);
}

static void phase7(void) {
    unsigned long long cats[9] = {0};
    static uint8_t high_seen[7463], low_seen[6176];
    int high_classes = 0, low_classes = 0;
    memset(&blk, 0, sizeof blk);
    blk.k = 7;
    blk.name = "7-card";
    uint8_t c[7];
    uint32_t serial = 0;
    first_combination(c, 7);
    do {
        EXPECT(colex(c, 7, -1) == serial, "colex enumeration out of step (7 cards)");
        int high = 65535, low = 65535;
        for (int skip = 0; skip < 7; skip++) {
            uint32_t sub = colex(c, 7, skip);
            if (ref6_high[sub] < high) high = ref6_high[sub];
            if (ref6_low[sub] < low) low = ref6_low[sub];
        }
        cats[ref_high_category(high)]++;
        if (!high_seen[high]) {
            high_seen[high] = 1;
            high_classes++;
        }
        if (!low_seen[low]) {
            low_seen[low] = 1;
            low_classes++;
        }
        check_hand(&blk, c, high, low, serial);
        serial++;
    } while (next_combination(c, 7));
    block_flush(&blk);
    EXPECT(serial == N7, "wrong number of 7-card hands");
    check_categories("7-card", cats, TEXTBOOK[2]);
    printf("  7-card reachable classes: high %d, low %d\n", high_classes, low_classes);
    EXPECT(high_classes == 4824, "high classes reachable from 7 cards != 4824");
}

/* The best reference rank of n (5..7) cards: the best of their 5-card subsets. */
static int ref_best(const uint8_t *cards, int n, int (*rank5)(const uint8_t cards[5])) {
    int best = 65535;
    for (unsigned mask = 0; mask < (1u << n); mask++) {
        uint8_t five[7];
        int k = 0;
        for (int i = 0; i < n; i++)
            if (mask >> i & 1) five[k++] = cards[i];
        if (k != 5) continue;
        int r = rank5(five);
        if (r < best) best = r;
    }
    return best;
}

/* A pinned cell of known_hands.tsv: -1 when empty, SE_NO_LOW for "none". */
static long known_cell(const char *text) {
    if (*text == '\0') return -1;
    if (strcmp(text, "none") == 0) return SE_NO_LOW;
    return strtol(text, NULL, 10);
}

static void check_known(const char *what, const uint8_t *cards, int n, long pinned, long core,
                        long ref) {
    if (ref != core) fail(what, cards, n, core, ref);
    if (pinned >= 0 && ref != pinned) fail(what, cards, n, ref, pinned);
}

/* Every hand of tests/data/known_hands.tsv: the reference and the core (single
 * hand) agree, and both give each pinned rank. */
static void phase_known(void) {
    FILE *f = open_data("known_hands.tsv");
    char line[512];
    int header = 1, hands = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        if (header) {
            header = 0;
            continue;
        }
        char *cell[6];
        int cells = 0;
        cell[cells++] = line;
        for (char *p = line; *p && cells < 6; p++) {
            if (*p == '\t') {
                *p = '\0';
                cell[cells++] = p + 1;
            }
        }
        EXPECT(cells == 6, "known_hands.tsv: a row without six cells");
        uint8_t cards[7];
        int n = 0;
        static const char ranks[] = "23456789TJQKA", suits[] = "cdhs";
        for (const char *p = cell[0]; *p; p++) {
            if (*p == ' ') continue;
            const char *r = strchr(ranks, p[0]), *s = p[1] ? strchr(suits, p[1]) : NULL;
            EXPECT(r && s && n < 7, "known_hands.tsv: a bad card");
            cards[n++] = (uint8_t)((r - ranks) * 4 + (s - suits));
            p++;
        }
        EXPECT(n >= 5, "known_hands.tsv: fewer than five cards");
        int high = ref_best(cards, n, ref_high5), low = ref_best(cards, n, ref_low5);
        check_known("known high", cards, n, known_cell(cell[1]), se_high_rank(cards, n), high);
        check_known("known low", cards, n, known_cell(cell[2]), se_low_rank(cards, n), low);
        check_known("known low8", cards, n, known_cell(cell[3]), se_low8_rank(cards, n),
                    ref_low8_of_low(low));
        hands++;
    }
    fclose(f);
    EXPECT(hands > 20, "known_hands.tsv: too few hands");
    printf("ok %d known hands\n", hands);
}

static void phase_up(void) {
    static const uint32_t combos[5] = {0, 52, 1326, 22100, 270725};
    for (int n = 1; n <= 4; n++) {
        static uint8_t seen_high[65536], seen_low[65536];
        int distinct_high = 0, distinct_low = 0;
        memset(seen_high, 0, sizeof seen_high);
        memset(seen_low, 0, sizeof seen_low);
        uint8_t c[4], hand[4];
        uint32_t serial = 0;
        first_combination(c, n);
        do {
            permute(c, n, serial, 0, hand);
            int want = ref_up_high(hand, n), got = se_up_high_rank(hand, n);
            if (got != want) fail("se_up_high_rank", hand, n, got, want);
            if (!seen_high[got]) { seen_high[got] = 1; distinct_high++; }
            want = ref_up_low(hand, n);
            got = se_up_low_rank(hand, n);
            if (got != want) fail("se_up_low_rank", hand, n, got, want);
            if (!seen_low[got]) { seen_low[got] = 1; distinct_low++; }
            serial++;
        } while (next_combination(c, n));
        EXPECT(serial == combos[n], "wrong number of up-card hands");
        printf("  %d up cards: %u hands, %d high classes, %d low classes\n", n, serial,
               distinct_high, distinct_low);
        EXPECT(distinct_high == ref_up_classes(n) && distinct_low == ref_up_classes(n),
               "up-card class counts differ from the rank multisets");
    }
}

static void phase_classes(void) {
    for (int rank = 1; rank <= 7462; rank++) {
        int got[5], want[5];
        int gc = se_high_class(rank, got), wc = ref_high_ranks(rank, want);
        if (gc != wc || memcmp(got, want, sizeof got) != 0) {
            printf("FAIL se_high_class(%d): category %d ranks %d %d %d %d %d, reference "
                   "category %d ranks %d %d %d %d %d\n", rank, gc, got[0], got[1], got[2],
                   got[3], got[4], wc, want[0], want[1], want[2], want[3], want[4]);
            exit(1);
        }
    }
    for (int rank = 1; rank <= 6175; rank++) {
        int got[5], want[5];
        int gc = se_low_class(rank, got), wc = ref_low_ranks(rank, want);
        if (gc != wc || memcmp(got, want, sizeof got) != 0) {
            printf("FAIL se_low_class(%d): category %d ranks %d %d %d %d %d, reference "
                   "category %d ranks %d %d %d %d %d\n", rank, gc, got[0], got[1], got[2],
                   got[3], got[4], wc, want[0], want[1], want[2], want[3], want[4]);
            exit(1);
        }
    }
    int out[5];
    EXPECT(se_high_class(0, out) == SE_BAD_ARGUMENT, "se_high_class(0) accepted");
    EXPECT(se_high_class(7463, out) == SE_BAD_ARGUMENT, "se_high_class(7463) accepted");
    EXPECT(se_low_class(0, out) == SE_BAD_ARGUMENT, "se_low_class(0) accepted");
    EXPECT(se_low_class(6176, out) == SE_BAD_ARGUMENT, "se_low_class(6176) accepted");
}

/* Bad input: each function's documented status, and no crash on garbage. */
static void phase_errors(void) {
    typedef int (*single_fn)(const uint8_t *, int);
    static const single_fn full[3] = {se_high_rank, se_low_rank, se_low8_rank};
    static const single_fn up[2] = {se_up_high_rank, se_up_low_rank};
    const uint8_t good[8] = {51, 47, 43, 39, 35, 3, 7, 11};
    uint8_t hand[8];
    for (int f = 0; f < 3; f++) {
        for (int n = 0; n <= 8; n++)
            if (n < 5 || n > 7)
                EXPECT(full[f](good, n) == SE_BAD_SIZE, "single: bad size not SE_BAD_SIZE");
        for (int n = 5; n <= 7; n++) {
            for (int pos = 0; pos < n; pos++) {
                memcpy(hand, good, sizeof hand);
                hand[pos] = (uint8_t)(52 + pos * 29); /* 52, 81, ..., 226 */
                EXPECT(full[f](hand, n) == SE_INVALID_CARD, "single: bad code not SE_INVALID_CARD");
                memcpy(hand, good, sizeof hand);
                hand[pos] = good[(pos + 1) % n];
                EXPECT(full[f](hand, n) == SE_DUPLICATE_CARD,
                       "single: repeated code not SE_DUPLICATE_CARD");
            }
            hand[0] = 255;
            memcpy(hand + 1, good + 1, 7);
            EXPECT(full[f](hand, n) == SE_INVALID_CARD, "single: code 255 not SE_INVALID_CARD");
        }
    }
    for (int f = 0; f < 2; f++) {
        EXPECT(up[f](good, 0) == SE_BAD_SIZE && up[f](good, 5) == SE_BAD_SIZE,
               "up cards: bad size not SE_BAD_SIZE");
        for (int n = 1; n <= 4; n++) {
            memcpy(hand, good, sizeof hand);
            hand[n - 1] = 52;
            EXPECT(up[f](hand, n) == SE_INVALID_CARD, "up cards: bad code not SE_INVALID_CARD");
            if (n >= 2) {
                memcpy(hand, good, sizeof hand);
                hand[n - 1] = hand[0];
                EXPECT(up[f](hand, n) == SE_DUPLICATE_CARD,
                       "up cards: repeated code not SE_DUPLICATE_CARD");
            }
        }
    }

    /* Batches: argument checks. */
    /* Enough rows for several 8192-row chunks, and for 2 threads at the default
     * least rows per thread (65536), so that the 2-thread calls below really
     * run on 2 threads (checked with se_threads_started). */
    enum { ROWS = 140000 };
    static uint8_t rows[ROWS * 7];
    static uint16_t h[ROWS], l[ROWS], l8[ROWS];
    size_t bad = 0;
    for (int r = 0; r < ROWS; r++) {
        /* Distinct valid cards: seven codes spaced by r-dependent steps. */
        for (int j = 0; j < 7; j++) rows[r * 7 + j] = (uint8_t)((r + 7 * j) % 52);
    }
    EXPECT(se_rank_batch(rows, ROWS, 7, 7, h, l, l8, 1, 1, &bad) == SE_OK, "batch: good rows");
    EXPECT(se_rank_batch(rows, ROWS, 7, 4, h, l, l8, 1, 1, &bad) == SE_BAD_SIZE, "batch: k=4");
    EXPECT(se_rank_batch(rows, ROWS, 7, 8, h, l, l8, 1, 1, &bad) == SE_BAD_SIZE, "batch: k=8");
    EXPECT(se_rank_batch(rows, ROWS, 6, 7, h, l, l8, 1, 1, &bad) == SE_BAD_ARGUMENT,
           "batch: stride < k");
    EXPECT(se_rank_batch(NULL, ROWS, 7, 7, h, l, l8, 1, 1, &bad) == SE_BAD_ARGUMENT,
           "batch: NULL cards");
    EXPECT(se_rank_batch(rows, 0, 7, 7, h, l, l8, 2, 1, &bad) == SE_OK, "batch: zero rows");
    EXPECT(se_batch_min_rows_per_thread() == 65536, "batch: default rows per thread");
    for (int threads = 1; threads <= 2; threads++) {
        /* Bad rows in chunks that different threads take: the smallest index
         * must be reported. */
        static uint8_t copy[ROWS * 7];
        size_t started = se_threads_started();
        memcpy(copy, rows, sizeof copy);
        copy[35000 * 7 + 3] = copy[35000 * 7 + 5];  /* duplicate */
        copy[30000 * 7 + 6] = 52;                   /* out of range */
        bad = 0;
        EXPECT(se_rank_batch(copy, ROWS, 7, 7, h, l, l8, threads, 1, &bad) == SE_INVALID_ROW &&
                   bad == 30000,
               "batch: invalid row 30000 not reported");
        EXPECT(se_threads_started() - started == (size_t)(threads - 1),
               "batch: the 2-thread call did not start exactly one thread");
        copy[100 * 7 + 0] = copy[100 * 7 + 1];
        bad = 0;
        EXPECT(se_rank_batch(copy, ROWS, 7, 7, h, l, l8, threads, 1, &bad) == SE_INVALID_ROW &&
                   bad == 100,
               "batch: duplicate in row 100 not reported first");
        EXPECT(se_rank_batch(copy, ROWS, 7, 7, h, l, l8, threads, 1, NULL) == SE_INVALID_ROW,
               "batch: invalid rows with first_bad_row NULL");
    }

    /* check=0 on garbage bytes of every k: must return and stay in bounds. */
    enum { GARBAGE = 1 << 20 };
    uint8_t *junk = malloc((size_t)GARBAGE * 7);
    uint16_t *gh = malloc(GARBAGE * sizeof(uint16_t)), *gl = malloc(GARBAGE * sizeof(uint16_t)),
             *g8 = malloc(GARBAGE * sizeof(uint16_t));
    EXPECT(junk && gh && gl && g8, "out of memory");
    unsigned long long x = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < (size_t)GARBAGE * 7; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        junk[i] = (uint8_t)x;
    }
    for (int k = 5; k <= 7; k++)
        for (int threads = 1; threads <= 2; threads++)
            EXPECT(se_rank_batch(junk, GARBAGE, (size_t)k, k, gh, gl, g8, threads, 0, NULL) ==
                       SE_OK,
                   "batch: check=0 on garbage did not return SE_OK");
    free(junk);
    free(gh);
    free(gl);
    free(g8);

    /* A lower least-rows setting lets a small batch use threads too. */
    {
        size_t started = se_threads_started();
        se_set_batch_min_rows_per_thread(1);
        EXPECT(se_rank_batch(rows, 20000, 7, 7, h, l, l8, 2, 1, &bad) == SE_OK,
               "batch: 20000 rows on 2 threads");
        EXPECT(se_threads_started() - started == 1, "batch: min rows 1 did not start a thread");
        se_set_batch_min_rows_per_thread(0); /* counts as 1 */
        EXPECT(se_batch_min_rows_per_thread() == 1, "batch: min rows 0 is not 1");
        se_set_batch_min_rows_per_thread(65536);
    }

    EXPECT(se_cpu_count() >= 1, "se_cpu_count() < 1");
    for (int st = 0; st >= -8; st--)
        EXPECT(se_status_text(st) != NULL && se_status_text(st)[0] != '\0',
               "se_status_text gave no text");
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc > 1) core_limit = strtoull(argv[1], NULL, 10);
    double t0 = now_s(), t;
    init_binom();
    EXPECT(ref_init() == 0, "reference: class counts are not 7462 / 6175");
    ref5_high = malloc(N5 * sizeof(uint16_t));
    ref5_low = malloc(N5 * sizeof(uint16_t));
    ref6_high = malloc(N6 * sizeof(uint16_t));
    ref6_low = malloc(N6 * sizeof(uint16_t));
    EXPECT(ref5_high && ref5_low && ref6_high && ref6_low, "out of memory");
    printf("reference ready (%.1f s)\n", now_s() - t0);
    printf("batch kernel: %s\n", se_batch_kernel());
    if (core_limit != ~0ull) printf("core compared on the first %llu hands of each size only\n",
                                    core_limit);

    t = now_s();
    load_categories();
    phase_known();
    phase_errors();
    phase_classes();
    phase_up();
    printf("ok up cards, classes and statuses (%.1f s)\n", now_s() - t);
    /* A block's 2-thread calls must really run on 2 threads: a block is less than
     * twice the default least rows per thread (phase_errors checked the default). */
    const size_t default_min_rows = se_batch_min_rows_per_thread();
    se_set_batch_min_rows_per_thread(BLOCK / 2);
    t = now_s();
    phase5();
    printf("ok 2598960 5-card hands (%.1f s)\n", now_s() - t);
    t = now_s();
    phase6();
    printf("ok 20358520 6-card hands (%.1f s)\n", now_s() - t);
    free(ref5_high);
    free(ref5_low);
    t = now_s();
    phase7();
    printf("ok 133784560 7-card hands (%.1f s)\n", now_s() - t);
    free(ref6_high);
    free(ref6_low);
    se_set_batch_min_rows_per_thread(default_min_rows);
    /* Every block above ran on 2 threads as well as 1: prove that threads ran. */
    EXPECT(se_threads_started() >= 10, "fewer than 10 worker threads ran in the whole check");
    printf("worker threads started: %zu\n", se_threads_started());
    printf("PASS (%.1f s)\n", now_s() - t0);
    return 0;
}
