/* libFuzzer harness over se_format_rows.
 *
 * The input chooses 1..4 fields, each with its own table of texts (any lengths,
 * offsets that may fall or pass the text's end), index width (1 or 2 bytes),
 * index stride and index values (inside the table or not), the row count and the
 * room given (too little now and then, or exactly the least the quick path
 * takes), and whether the texts have the 64 spare bytes it wants. Every buffer is an exact-size heap block,
 * so AddressSanitizer sees any read or write outside it. The oracle: a plain
 * concatenation, which must match the output byte for byte when the call
 * succeeds, and the call must fail exactly when an index is outside its table,
 * an offset falls or passes the text, or the room runs out.
 * Build and run: tools/fuzz.py (clang -fsanitize=fuzzer,address,undefined). */
#include "studeval.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    const uint8_t *data;
    size_t size, at;
} reader;

static uint8_t byte_of(reader *r) { return r->at < r->size ? r->data[r->at++] : 0; }

static void die(const char *what) {
    fprintf(stderr, "fuzz_format: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size, 0};
    int fields = 1 + byte_of(&r) % 4;
    size_t rows = byte_of(&r) % 40;
    se_text_field f[4];
    char *texts[4] = {0};
    uint32_t *offsets[4] = {0};
    uint8_t *indexes[4] = {0};
    int valid_tables = 1;
    for (int i = 0; i < fields; i++) {
        uint32_t count = 1 + byte_of(&r) % 6;
        size_t text_size = byte_of(&r) % 80;
        /* Now and then the 64 spare bytes the quick path wants after the texts. */
        size_t spare = byte_of(&r) % 2 ? 64 : 0;
        texts[i] = malloc(text_size + spare > 0 ? text_size + spare : 1);
        for (size_t j = 0; j < text_size + spare; j++) texts[i][j] = (char)('a' + j % 26);
        offsets[i] = malloc((count + 1) * sizeof(uint32_t));
        uint32_t at = 0;
        for (uint32_t j = 0; j <= count; j++) {
            uint8_t b = byte_of(&r);
            if (b == 255) at = at > 3 ? at - 3 : 0; /* now and then a falling offset */
            else at += b % 9;
            offsets[i][j] = at;
            if ((j > 0 && offsets[i][j] < offsets[i][j - 1]) || at > text_size + spare) valid_tables = 0;
        }
        int bytes = 1 + byte_of(&r) % 2;
        size_t stride = (size_t)bytes * (1 + byte_of(&r) % 3);
        size_t index_size = rows > 0 ? (rows - 1) * stride + (size_t)bytes : 1;
        indexes[i] = malloc(index_size);
        for (size_t j = 0; j < index_size; j++) indexes[i][j] = byte_of(&r) % (count + 2);
        if (bytes == 2)
            for (size_t j = 1; j < index_size; j += 2) indexes[i][j] = 0; /* small uint16s */
        f[i] = (se_text_field){texts[i], text_size + spare, offsets[i], count, indexes[i], stride,
                               bytes};
    }
    /* The oracle's output and its failure, row by row. */
    /* The room: a few bytes, plenty, or the least the quick path takes (each row's
     * longest texts, and 64 bytes for its fixed-size copies). */
    size_t longest_row = 0;
    for (int i = 0; i < fields && valid_tables; i++) {
        size_t longest = 0;
        for (uint32_t j = 0; j < f[i].count; j++)
            if (offsets[i][j + 1] - offsets[i][j] > longest) longest = offsets[i][j + 1] - offsets[i][j];
        longest_row += longest;
    }
    uint8_t choice = byte_of(&r) % 4;
    size_t room = choice == 0 ? (size_t)byte_of(&r) : choice == 1 ? rows * longest_row + 64 : 4096;
    char *expect = malloc(room > 4096 ? room : 4096);
    size_t expect_len = 0;
    int expect_fail = !valid_tables;
    for (size_t row = 0; row < rows && !expect_fail; row++) {
        for (int i = 0; i < fields && !expect_fail; i++) {
            const uint8_t *p = indexes[i] + row * f[i].index_stride;
            uint32_t k = f[i].index_bytes == 1 ? p[0] : (uint32_t)(p[0] | (p[1] << 8));
            if (k >= f[i].count) {
                expect_fail = 1;
                break;
            }
            size_t length = offsets[i][k + 1] - offsets[i][k];
            if (expect_len + length > room) {
                expect_fail = 1;
                break;
            }
            memcpy(expect + expect_len, texts[i] + offsets[i][k], length);
            expect_len += length;
        }
    }
    char *out = malloc(room > 0 ? room : 1);
    size_t written = 0, bad = 0;
    se_status status = se_format_rows(f, fields, rows, out, room, &written, &bad);
    if (expect_fail && status == SE_OK) die("a call that must fail succeeded");
    if (!expect_fail) {
        if (status != SE_OK) die("a good call failed");
        if (written != expect_len || memcmp(out, expect, written) != 0) die("the text differs");
    }
    free(out);
    free(expect);
    for (int i = 0; i < fields; i++) {
        free(texts[i]);
        free(offsets[i]);
        free(indexes[i]);
    }
    return 0;
}
