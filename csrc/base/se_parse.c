/* Hand text to card codes (see studeval.h): the reader behind the command line's
 * input and parse_hands. One pass over the bytes; each line's cards go into a
 * 52-bit set as they are read, so a repeated card is caught in the same pass. A
 * line this does not read is marked for the caller, which knows the wider
 * grammar and words the errors. */
#include "studeval.h"

#include <string.h>

/* The quick reader is inlined into the loop over lines; the full one, for the
 * odd line, is kept out of it. */
#if defined(_MSC_VER)
#define SE_PARSE_INLINE static __forceinline
#define SE_PARSE_COLD static __declspec(noinline)
#else
#define SE_PARSE_INLINE static inline __attribute__((always_inline))
#define SE_PARSE_COLD static __attribute__((noinline))
#endif

/* rank * 4 of a rank byte (either case; "10" is read apart) and the suit of a
 * suit letter (either case), so that their OR is the card's code; stored XOR
 * SE_BAD_BYTE, so that every byte left out of the lists reads as SE_BAD_BYTE. */
#define SE_BAD_BYTE 0x80
#define SE_RANK4(ch, rank) [ch] = SE_BAD_BYTE | (rank) * 4
static const uint8_t se_rank4_of_byte[256] = {
    SE_RANK4('2', 0),  SE_RANK4('3', 1),  SE_RANK4('4', 2),  SE_RANK4('5', 3),
    SE_RANK4('6', 4),  SE_RANK4('7', 5),  SE_RANK4('8', 6),  SE_RANK4('9', 7),
    SE_RANK4('T', 8),  SE_RANK4('t', 8),  SE_RANK4('J', 9),  SE_RANK4('j', 9),
    SE_RANK4('Q', 10), SE_RANK4('q', 10), SE_RANK4('K', 11), SE_RANK4('k', 11),
    SE_RANK4('A', 12), SE_RANK4('a', 12),
};
#define SE_SUIT(ch, suit) [ch] = SE_BAD_BYTE | (suit)
static const uint8_t se_suit_of_byte[256] = {
    SE_SUIT('c', 0), SE_SUIT('C', 0), SE_SUIT('d', 1), SE_SUIT('D', 1),
    SE_SUIT('h', 2), SE_SUIT('H', 2), SE_SUIT('s', 3), SE_SUIT('S', 3),
};

/* The suit of each symbol U+2660 .. U+2667 (UTF-8 E2 99 A0 .. A7): spade, heart,
 * diamond, club, filled and outlined in turn. */
static const uint8_t se_suit_of_symbol[8] = {3, 2, 1, 0, 3, 2, 1, 0};

/* Bytes between cards: 1 for ASCII whitespace (what Python's str.split() splits
 * on, bar the newline that ends the line), 2 for the comma, which also splits but
 * does not make a line blank. */
static const uint8_t se_gap_of_byte[256] = {
    ['\t'] = 1, ['\v'] = 1, ['\f'] = 1, ['\r'] = 1, [' '] = 1,
    [0x1c] = 1, [0x1d] = 1, [0x1e] = 1, [0x1f] = 1, [','] = 2,
};

/* Reads one card at *p (a rank, "10" included, then a suit letter or symbol) and
 * moves *p past it; returns its code, or -1 with *p unmoved when the bytes there
 * are not a card. */
static int se_read_card(const uint8_t **at, const uint8_t *end) {
    const uint8_t *p = *at;
    unsigned rank4;
    if (*p == '1') {
        if (end - p < 2 || p[1] != '0') return -1;
        rank4 = 8 * 4; /* "10": a ten */
        p += 2;
    } else {
        rank4 = se_rank4_of_byte[*p] ^ SE_BAD_BYTE;
        if (rank4 & SE_BAD_BYTE) return -1;
        p++;
    }
    if (p == end) return -1;
    unsigned suit = se_suit_of_byte[*p] ^ SE_BAD_BYTE;
    if (!(suit & SE_BAD_BYTE)) {
        p++;
    } else if (*p == 0xE2 && end - p >= 3 && p[1] == 0x99 && p[2] >= 0xA0 && p[2] <= 0xA7) {
        suit = se_suit_of_symbol[p[2] - 0xA0];
        p += 3;
    } else {
        return -1;
    }
    *at = p;
    return (int)(rank4 | suit);
}

/* Reads the line at *at (ending at the next '\n' or at `end`) into row, moves *at
 * past it, and returns its status. */
SE_PARSE_COLD uint8_t se_parse_line(const uint8_t **at, const uint8_t *end, uint8_t *row) {
    const uint8_t *p = *at;
    uint64_t held = 0;
    int n = 0, gaps = 0;
    while (p < end && *p != '\n') {
        unsigned gap = se_gap_of_byte[*p];
        if (gap) {
            gaps |= (int)gap;
            p++;
            continue;
        }
        int code = se_read_card(&p, end);
        if (code < 0) goto other;
        if (n == SE_PARSE_ROW) goto other; /* an eighth card */
        if (held >> code & 1) goto other; /* a repeated card */
        held |= 1ull << code;
        row[n++] = (uint8_t)code;
    }
    *at = p < end ? p + 1 : end;
    if (n == 0 && !(gaps & 2)) return SE_LINE_BLANK;
    if (n < 5) return SE_LINE_OTHER;
    memset(row + n, SE_PARSE_PAD, (size_t)(SE_PARSE_ROW - n));
    return (uint8_t)n;
other:
    p = memchr(p, '\n', (size_t)(end - p));
    *at = p ? p + 1 : end;
    return SE_LINE_OTHER;
}

int se_parse_cards(const uint8_t *text, size_t length, uint8_t *codes, int max_cards) {
    if ((length > 0 && text == NULL) || (max_cards > 0 && codes == NULL) || max_cards < 0)
        return SE_BAD_ARGUMENT;
    const uint8_t *p = text, *end = text + length;
    int n = 0;
    while (p < end) {
        if (se_gap_of_byte[*p] || *p == '\n') {
            p++;
            continue;
        }
        int code = se_read_card(&p, end);
        if (code < 0) return SE_INVALID_CARD;
        if (n == max_cards) return SE_BAD_SIZE;
        codes[n++] = (uint8_t)code;
    }
    return n;
}

/* Decodes n cards at p, p + step, ... (step 3: with the gap byte `gap` between
 * them) into row, without a branch per card; n and step are constants where this
 * is inlined, so every address is known before any byte is read. A repeat shows
 * as the sum of the cards' bits differing from their OR. Returns n, or
 * SE_LINE_OTHER when a byte is not as expected. */
SE_PARSE_INLINE uint8_t se_parse_fixed(const uint8_t *p, uint8_t *row, int n, int step,
                                       uint8_t gap) {
    uint64_t held = 0, sum = 0;
    unsigned bad = 0;
    for (int i = 0; i < n; i++) {
        const uint8_t *card = p + i * step;
        unsigned code = (se_rank4_of_byte[card[0]] ^ SE_BAD_BYTE) |
                        (se_suit_of_byte[card[1]] ^ SE_BAD_BYTE);
        if (step == 3 && i > 0) bad |= (unsigned)(card[-1] != gap) * SE_BAD_BYTE;
        bad |= code;
        uint64_t bit = 1ull << (code & 63);
        held |= bit;
        sum += bit;
        row[i] = (uint8_t)code;
    }
    for (int i = n; i < SE_PARSE_ROW; i++) row[i] = SE_PARSE_PAD;
    if ((bad & SE_BAD_BYTE) || held != sum) return SE_LINE_OTHER;
    return (uint8_t)n;
}

/* The common line: 5 to 7 cards of two ASCII bytes, all with the same gap byte
 * between them or all with none. The line's first gap fixes the step from card to
 * card and the newline's place the count. Needs SE_QUICK_ROOM bytes from p (it
 * reads at most p[0 .. 20]). Returns the card count and moves *at past the line,
 * or returns SE_LINE_OTHER with *at unmoved for the full reader to judge. */
#define SE_QUICK_ROOM 32
SE_PARSE_INLINE uint8_t se_parse_quick(const uint8_t **at, uint8_t *row) {
    const uint8_t *p = *at;
    const uint8_t gap = p[2];
    uint8_t n;
    if (se_gap_of_byte[gap]) { /* the newline after card n lies at 3 * n - 1 */
        if (p[20] == '\n') n = se_parse_fixed(p, row, 7, 3, gap);
        else if (p[17] == '\n') n = se_parse_fixed(p, row, 6, 3, gap);
        else if (p[14] == '\n') n = se_parse_fixed(p, row, 5, 3, gap);
        else return SE_LINE_OTHER;
        if (n != SE_LINE_OTHER) *at = p + 3 * n;
    } else { /* the newline after card n lies at 2 * n */
        if (p[14] == '\n') n = se_parse_fixed(p, row, 7, 2, 0);
        else if (p[12] == '\n') n = se_parse_fixed(p, row, 6, 2, 0);
        else if (p[10] == '\n') n = se_parse_fixed(p, row, 5, 2, 0);
        else return SE_LINE_OTHER;
        if (n != SE_LINE_OTHER) *at = p + 2 * n + 1;
    }
    return n;
}

se_status se_parse_lines(const uint8_t *text, size_t length, uint8_t *cards, uint8_t *status,
                         size_t max_lines, size_t *lines, size_t counts[SE_LINE_OTHER + 1]) {
    if (lines == NULL || counts == NULL ||
        (length > 0 && (text == NULL || cards == NULL || status == NULL)))
        return SE_BAD_ARGUMENT;
    for (int s = 0; s <= SE_LINE_OTHER; s++) counts[s] = 0;
    *lines = 0;
    if (length == 0) return SE_OK;
    const uint8_t *p = text, *end = text + length;
    size_t line = 0;
    while (p < end) {
        if (line == max_lines) return SE_NO_ROOM;
        uint8_t *row = cards + line * SE_PARSE_ROW;
        uint8_t s = SE_LINE_OTHER;
        if (end - p >= SE_QUICK_ROOM) s = se_parse_quick(&p, row);
        if (s == SE_LINE_OTHER) s = se_parse_line(&p, end, row);
        status[line++] = s;
        counts[s]++;
    }
    *lines = line;
    return SE_OK;
}
