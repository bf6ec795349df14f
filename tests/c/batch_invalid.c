/* Every kind of invalid row, in every lane of a batch, on the kernel STUDEVAL_KERNEL
 * names: each code 0-51 repeated 2..k times, and codes 52, 63, 64, 127 and 255, for
 * k = 5, 6, 7, in rows k bytes apart, rows with a byte of slack, and column-major
 * rows, wanting high, low8 or all three. The bad row's place is set here, not asked
 * of the core: the batch must name exactly it. A batch of the same rows made valid
 * must rank every row as the single-hand calls do.
 *
 * A fuzzer found the reason for this check: the AVX2 kernel summed code 31's bit at
 * the top of a dword, where three copies wrap around to one and the row passed. */
#include "studeval.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 96 /* three of the vector kernels' 32-row steps */

static void fail(const char *what, int k, int layout, int code, int copies, int place,
                 size_t got) {
    printf("FAIL %s (k %d, layout %d, code %d x%d at row %d: got %zu)\n", what, k, layout,
           code, copies, place, got);
    exit(1);
}

/* Row r of the valid batch: k distinct codes (steps of 7 are distinct mod 52 for k <= 7). */
static void valid_row(uint8_t *row, int r, int k) {
    for (int j = 0; j < k; j++) row[j] = (uint8_t)((r * 5 + 7 * j) % 52);
}

/* `copies` of `code` from column `start` on (wrapping), the other columns codes that
 * differ from it and from one another. */
static void bad_row(uint8_t *row, int k, int code, int copies, int start) {
    int next = (code + 1) % 52;
    for (int j = 0; j < k; j++) {
        int column = (start + j) % k;
        if (j < copies) {
            row[column] = (uint8_t)code;
        } else {
            if (next == code) next = (next + 1) % 52;
            row[column] = (uint8_t)next;
            next = (next + 1) % 52;
        }
    }
}

/* Lays rows (k codes each) out as `layout` asks: 0 adjacent, 1 a byte of slack after
 * each row, 2 column-major. Returns the row stride; *col gets the column stride. */
static size_t lay_out(uint8_t *out, const uint8_t rows[ROWS][7], int k, int layout,
                      size_t *col) {
    size_t stride = layout == 2 ? 1 : (size_t)k + (size_t)layout;
    *col = layout == 2 ? ROWS : 1;
    memset(out, 200, ROWS * 8);
    for (int r = 0; r < ROWS; r++)
        for (int j = 0; j < k; j++) out[(size_t)r * stride + (size_t)j * *col] = rows[r][j];
    return stride;
}

int main(void) {
    static const int wants[3] = {1, 4, 7}; /* bit 0 high, 1 low, 2 low8 */
    static const int bad_codes[5] = {52, 63, 64, 127, 255};
    uint8_t rows[ROWS][7], laid[ROWS * 8];
    uint16_t out[3][ROWS];
    long found = 0, ranked = 0;
    printf("batch kernel: %s\n", se_batch_kernel());
    for (int k = 5; k <= 7; k++) {
        for (int layout = 0; layout < 3; layout++) {
            size_t col, stride;
            for (int r = 0; r < ROWS; r++) valid_row(rows[r], r, k);
            stride = lay_out(laid, rows, k, layout, &col);
            for (int w = 0; w < 3; w++) {
                uint16_t *o[3];
                size_t bad = 0;
                for (int i = 0; i < 3; i++) o[i] = wants[w] >> i & 1 ? out[i] : NULL;
                se_status st = se_rank_batch_strided(laid, ROWS, stride, col, k, o[0], o[1],
                                                     o[2], 1, 1, &bad);
                if (st != SE_OK) fail("valid rows refused", k, layout, -1, 0, -1, bad);
                for (int r = 0; r < ROWS; r++) {
                    int want[3] = {se_high_rank(rows[r], k), se_low_rank(rows[r], k),
                                   se_low8_rank(rows[r], k)};
                    for (int i = 0; i < 3; i++) {
                        if (o[i] != NULL && o[i][r] != want[i])
                            fail("a rank differs from the single call", k, layout, -1, 0, r,
                                 o[i][r]);
                    }
                    ranked++;
                }
            }
            for (int code = 0; code < 52 + 5; code++) {
                int value = code < 52 ? code : bad_codes[code - 52];
                for (int copies = code < 52 ? 2 : 1; copies <= k; copies++) {
                    for (int place = 0; place < ROWS; place++) {
                        for (int r = 0; r < ROWS; r++) valid_row(rows[r], r, k);
                        bad_row(rows[place], k, value, copies, place % k);
                        stride = lay_out(laid, rows, k, layout, &col);
                        int w = (place + code) % 3;
                        uint16_t *o[3];
                        for (int i = 0; i < 3; i++) o[i] = wants[w] >> i & 1 ? out[i] : NULL;
                        size_t bad = 0;
                        se_status st = se_rank_batch_strided(laid, ROWS, stride, col, k, o[0],
                                                             o[1], o[2], 1, 1, &bad);
                        if (st != SE_INVALID_ROW)
                            fail("an invalid row passed", k, layout, value, copies, place,
                                 (size_t)st);
                        if (bad != (size_t)place)
                            fail("not the invalid row", k, layout, value, copies, place, bad);
                        found++;
                    }
                }
            }
        }
    }
    printf("ok %ld invalid rows named, %ld valid rows ranked\n", found, ranked);
    return 0;
}
