/* libFuzzer harness over equity against ranges (se_equity_sample_ranges and
 * se_equity_tuples).
 *
 * The input chooses the game, 2..4 players and their known cards, dead cards, and
 * for 1..2 ranged seats the seat, the width, the combinations (any byte values,
 * not only 0..51; duplicates and clashes with the spot included) and the weights
 * (any doubles from the bytes: NaN, infinities, negatives, zeros). The C core must
 * refuse what is bad with a status and never touch memory outside the arrays it is
 * given (AddressSanitizer watches; every array is an exact-size heap block). When a
 * call succeeds its sums must hold together: the deals asked for, shares summing to
 * the pot in every deal, the low part of each share within it.
 * Build and run: tools/fuzz.py (clang -fsanitize=fuzzer,address,undefined). */
#include "studeval.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what) {
    fprintf(stderr, "fuzz_ranges: %s\n", what);
    abort();
}

/* Reads the next byte, 0 when the input is used up. */
static uint8_t next(const uint8_t **data, size_t *size) {
    if (*size == 0) return 0;
    (*size)--;
    return *(*data)++;
}

static void check_sums(const se_equity_counts *c, int players, uint64_t deals) {
    uint64_t total = 0;
    if (c->deals != deals) die("the deals are not those asked for");
    for (int i = 0; i < players; i++) {
        total += c->share[i];
        if (c->low_share[i] > c->share[i]) die("a low share above the share");
    }
    if (total != c->deals * SE_EQ_UNITS) die("the shares do not add up to the pots");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    se_equity_spot spot;
    memset(&spot, 0, sizeof spot);
    spot.game = (se_game)(next(&data, &size) % 4);
    spot.players = 2 + next(&data, &size) % 3;
    for (int i = 0; i < spot.players; i++) {
        spot.known[i] = next(&data, &size) % 8;
        for (int j = 0; j < spot.known[i]; j++) spot.cards[i][j] = next(&data, &size);
    }
    spot.dead_count = next(&data, &size) % 16;
    for (int j = 0; j < spot.dead_count; j++) spot.dead[j] = next(&data, &size);
    spot.dead_unknown = next(&data, &size) % 4;

    int n_ranges = 1 + next(&data, &size) % 2;
    se_equity_range ranges[2];
    uint8_t *cards[2] = {NULL, NULL};
    double *weights[2] = {NULL, NULL};
    int seats[2], widths[2];
    for (int k = 0; k < n_ranges; k++) {
        size_t count = 1 + next(&data, &size) % 12;
        int width = 1 + next(&data, &size) % 3;
        seats[k] = next(&data, &size) % 5; /* now and then no such seat */
        widths[k] = width;
        cards[k] = (uint8_t *)malloc(count * (size_t)width);
        for (size_t c = 0; c < count * (size_t)width; c++) cards[k][c] = next(&data, &size);
        if (next(&data, &size) & 1) {
            weights[k] = (double *)malloc(count * sizeof(double));
            for (size_t c = 0; c < count; c++) {
                uint8_t raw[8];
                for (int b = 0; b < 8; b++) raw[b] = next(&data, &size);
                memcpy(&weights[k][c], raw, sizeof(double));
            }
        }
        ranges[k] = (se_equity_range){seats[k], width, count, cards[k], weights[k]};
    }

    se_equity_counts counts;
    se_status status = se_equity_sample_ranges(&spot, ranges, n_ranges, 1, 0, 1, 1, &counts);
    if (status == SE_OK) check_sums(&counts, spot.players, SE_EQ_CHUNK_SAMPLES);

    /* The same combinations as tuples (range 0's rows, beside range 1's first row). */
    size_t tuples = ranges[0].count;
    int width = widths[0] + (n_ranges > 1 ? widths[1] : 0);
    uint8_t *tuple_cards = (uint8_t *)malloc(tuples * (size_t)width);
    se_equity_counts *out = (se_equity_counts *)malloc(tuples * sizeof *out);
    for (size_t t = 0; t < tuples; t++) {
        memcpy(tuple_cards + t * (size_t)width, cards[0] + t * (size_t)widths[0], (size_t)widths[0]);
        if (n_ranges > 1) memcpy(tuple_cards + t * (size_t)width + widths[0], cards[1], (size_t)widths[1]);
    }
    double deals = 0;
    se_equity_spot first = spot;
    int fits = n_ranges == 1 || seats[0] != seats[1]; /* one range a seat */
    for (int k = 0; k < n_ranges && fits; k++) {
        if (seats[k] >= spot.players || spot.known[seats[k]] + widths[k] > 7) fits = 0;
    }
    /* Only spots small enough to walk quickly: the counts of a big one would take long. */
    if (fits) {
        const uint8_t *c = tuple_cards;
        for (int k = 0; k < n_ranges; k++) {
            for (int j = 0; j < widths[k]; j++) first.cards[seats[k]][first.known[seats[k]]++] = *c++;
        }
        if (se_equity_deals(&first, &deals, NULL) != SE_OK) deals = 0;
    }
    if (deals * (double)tuples <= 2e5) {
        status = se_equity_tuples(&spot, seats, widths, n_ranges, tuple_cards, tuples, 1 << 16,
                                  2, NULL, out);
        if (status == SE_OK) {
            for (size_t t = 0; t < tuples; t++) check_sums(&out[t], spot.players, out[0].deals);
        }
    }
    free(out);
    free(tuple_cards);
    for (int k = 0; k < n_ranges; k++) {
        free(cards[k]);
        free(weights[k]);
    }
    return 0;
}
