/* libFuzzer harness over the C core's batch API.
 *
 * The input chooses everything a caller can: k (any byte, mostly 5..7), the
 * row count, the row stride and the column stride (se_rank_batch_strided for 2..4,
 * rows then interleaving), the thread count (1..4), check on or off, which outputs
 * are given, the least rows per thread, and the card bytes themselves (any
 * values, not only 0..51). The oracle is the single-hand API:
 *   - with check on, a row is valid exactly when se_high_rank accepts it; the
 *     batch must report the first invalid row, or fill every given output with
 *     the single-hand ranks when all rows are valid;
 *   - with check off, the call must return SE_OK and never touch memory outside
 *     the rows and outputs (AddressSanitizer watches; the buffers are exact-size
 *     heap blocks so any overrun is caught), and valid rows still rank right.
 * Build and run: tools/fuzz.py (clang -fsanitize=fuzzer,address,undefined). */
#include "studeval.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS 4096

static void die(const char *what, size_t row, int got, int want) {
    fprintf(stderr, "fuzz_batch: %s (row %zu: got %d, want %d)\n", what, row, got, want);
    abort();
}

/* Row r's k cards, wherever the strides put them. */
static void gather(uint8_t *row, const uint8_t *cards, size_t r, size_t stride, size_t col,
                   int k) {
    for (int i = 0; i < k; i++) row[i] = cards[r * stride + (size_t)i * col];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 6) {
        return 0;
    }
    /* Header: six bytes of choices, then the card bytes. */
    int k = data[0] % 8 == 7 ? (int)(data[0] >> 3) : 5 + data[0] % 3; /* now and then a bad k */
    size_t extra = data[1] % 4;                                       /* the row stride's slack */
    int threads = 1 + data[2] % 4;
    int check = data[3] & 1;
    int want = (data[3] >> 1) & 7; /* which outputs: bit 0 high, 1 low, 2 low8 */
    size_t min_rows = (size_t)1 << (data[4] % 15); /* 1 .. 16384 rows per thread */
    int stride_zero_rows = data[5] & 1;             /* one more row than bytes allow? */
    size_t col = 1 + ((data[5] >> 1) & 3);          /* cards 1..4 bytes apart in a row */
    data += 6;
    size -= 6;

    /* Contiguous rows (col 1) are k + extra bytes apart; strided rows may interleave. */
    size_t stride = col == 1 ? (size_t)(k > 0 ? k : 1) + extra : 1 + extra;
    size_t span = k >= 1 ? (size_t)(k - 1) * col + 1 : 1; /* the bytes one row covers */
    /* Every row that fits; contiguous rows only whole strides of them unless the header
     * asks for the one more whose last card ends before its stride does. */
    size_t rows = size >= span ? (size - span) / stride + 1 : 0;
    if (col == 1 && !stride_zero_rows) {
        rows = size / stride;
    }
    if (rows > MAX_ROWS) {
        rows = MAX_ROWS;
    }
    /* Exact-size copies, so that ASan sees any read past the last row's last card. */
    size_t card_bytes = rows > 0 ? (rows - 1) * stride + span : 0;
    uint8_t *cards = malloc(card_bytes > 0 ? card_bytes : 1);
    uint16_t *out[3] = {NULL, NULL, NULL};
    if (cards == NULL) {
        return 0;
    }
    memcpy(cards, data, card_bytes);
    for (int i = 0; i < 3; i++) {
        if (want & (1 << i)) {
            out[i] = malloc(rows > 0 ? rows * sizeof(uint16_t) : 1);
        }
    }
    se_set_batch_min_rows_per_thread(min_rows);
    size_t bad = (size_t)-1;
    se_status status = col == 1 ? se_rank_batch(cards, rows, stride, k, out[0], out[1], out[2],
                                                threads, check, &bad)
                                : se_rank_batch_strided(cards, rows, stride, col, k, out[0],
                                                        out[1], out[2], threads, check, &bad);
    se_set_batch_min_rows_per_thread(65536);

    if (k < 5 || k > 7) {
        if (status != SE_BAD_SIZE) die("a bad k was not SE_BAD_SIZE", 0, status, SE_BAD_SIZE);
        goto done;
    }
    if (rows > 0 && want == 0) {
        if (status != SE_BAD_ARGUMENT) die("no outputs was not SE_BAD_ARGUMENT", 0, status, -4);
        goto done;
    }
    size_t first_invalid = (size_t)-1;
    uint8_t row[7];
    for (size_t r = 0; r < rows && first_invalid == (size_t)-1; r++) {
        gather(row, cards, r, stride, col, k);
        if (se_high_rank(row, k) < 0) first_invalid = r;
    }
    if (check && first_invalid != (size_t)-1) {
        if (status != SE_INVALID_ROW) die("an invalid row was not reported", first_invalid,
                                          status, SE_INVALID_ROW);
        if (bad != first_invalid) die("not the first invalid row", bad, (int)bad,
                                      (int)first_invalid);
        goto done;
    }
    if (status != SE_OK) die("a batch failed", 0, status, SE_OK);
    for (size_t r = 0; r < rows; r++) {
        gather(row, cards, r, stride, col, k);
        if (se_high_rank(row, k) < 0) continue; /* check off: any rank will do */
        int expect[3] = {se_high_rank(row, k), se_low_rank(row, k), se_low8_rank(row, k)};
        for (int i = 0; i < 3; i++) {
            if (out[i] != NULL && out[i][r] != expect[i]) die("a rank differs from the single "
                                                              "call", r, out[i][r], expect[i]);
        }
    }
done:
    free(cards);
    for (int i = 0; i < 3; i++) free(out[i]);
    return 0;
}
