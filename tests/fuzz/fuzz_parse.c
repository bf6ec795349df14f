/* libFuzzer harness over se_parse_lines.
 *
 * The input is the text itself, copied into an exact-size heap block (and the
 * outputs are exact-size blocks too), so AddressSanitizer sees any read or write
 * outside them. The oracles:
 *   - the line count is the number of newlines, plus one for a last line without;
 *   - the counts add up to the lines, and each status is 0, 5..7 or SE_LINE_OTHER;
 *   - a hand's row holds that many distinct codes below 52, then SE_PARSE_PAD;
 *   - each line parsed alone, from its own exact-size block (shorter than the quick
 *     reader's room, so the full reader reads it), gets the same status and row:
 *     the quick reader and the full one agree;
 *   - too little room gives SE_NO_ROOM and writes no status past it.
 * tests/test_parse_core.py checks the full reader against parse_cards.
 * Build and run: tools/fuzz.py (clang -fsanitize=fuzzer,address,undefined). */
#include "studeval.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what) {
    fprintf(stderr, "fuzz_parse: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint8_t *text = malloc(size ? size : 1);
    if (size) memcpy(text, data, size);
    size_t room = size + 1;
    uint8_t *cards = malloc(room * SE_PARSE_ROW), *status = malloc(room);
    size_t lines = 0, counts[SE_LINE_OTHER + 1];
    if (se_parse_lines(text, size, cards, status, room, &lines, counts) != SE_OK)
        die("refused with room for every line");

    size_t newlines = 0;
    for (size_t i = 0; i < size; i++) newlines += text[i] == '\n';
    if (lines != newlines + (size > 0 && text[size - 1] != '\n')) die("line count");
    size_t total = 0;
    for (int s = 0; s <= SE_LINE_OTHER; s++) total += counts[s];
    if (total != lines) die("counts do not add up to the lines");

    const uint8_t *line_start = text;
    for (size_t i = 0; i < lines; i++) {
        uint8_t s = status[i];
        const uint8_t *row = cards + i * SE_PARSE_ROW;
        if (!(s == SE_LINE_BLANK || s == SE_LINE_OTHER || (s >= 5 && s <= 7))) die("status");
        if (s >= 5 && s <= 7) {
            uint64_t held = 0;
            for (int j = 0; j < s; j++) {
                if (row[j] >= 52 || (held >> row[j] & 1)) die("a hand's codes");
                held |= 1ull << row[j];
            }
            for (int j = s; j < SE_PARSE_ROW; j++)
                if (row[j] != SE_PARSE_PAD) die("padding");
        }
        /* The same line alone, with its newline when it has one. */
        const uint8_t *nl = memchr(line_start, '\n', (size_t)(text + size - line_start));
        size_t length = nl ? (size_t)(nl - line_start) + 1 : (size_t)(text + size - line_start);
        uint8_t *alone = malloc(length ? length : 1);
        memcpy(alone, line_start, length);
        uint8_t alone_cards[SE_PARSE_ROW], alone_status[2];
        size_t alone_lines = 0, alone_counts[SE_LINE_OTHER + 1];
        if (se_parse_lines(alone, length, alone_cards, alone_status, 1, &alone_lines,
                           alone_counts) != SE_OK || alone_lines != 1)
            die("a line alone");
        if (alone_status[0] != s) die("the quick reader and the full one disagree on a status");
        if (s >= 5 && s <= 7 && memcmp(alone_cards, row, SE_PARSE_ROW) != 0)
            die("the quick reader and the full one disagree on the cards");
        free(alone);
        line_start += length;
    }

    if (lines > 0) { /* room for one line less */
        uint8_t *short_status = malloc(lines);
        memset(short_status, 0xEE, lines);
        size_t got = 0;
        if (se_parse_lines(text, size, cards, short_status, lines - 1, &got, counts) !=
            SE_NO_ROOM)
            die("too little room was not refused");
        if (short_status[lines - 1] != 0xEE) die("a status written past the room");
        free(short_status);
    }
    free(text);
    free(cards);
    free(status);
    return 0;
}
