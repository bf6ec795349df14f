/* Card-room text histories, the words of a line: money, cards, and a template
 * matched against a line as the general reader's regular expression would match it
 * (se_history.c reads a hand's lines with them); where a header's first line
 * has its hand id and time (se_hist_stamp_of, for the bulk reader's headers); and
 * the lines that may start a hand (se_hist_line_starts, for the bulk reader's cut). */

#include <string.h>

#include "history/se_history_text.h"

/* ---- money -------------------------------------------------------------------------- */

/* A currency sign at s[0..len): its SE_HIST_SIGN_* and *bytes, or 0. */
static int se_sign_at(const char *s, int len, int *bytes) {
    const unsigned char *u = (const unsigned char *)s;
    if (len >= 1 && u[0] == '$') return *bytes = 1, SE_HIST_SIGN_DOLLAR;
    if (len >= 3 && u[0] == 0xE2 && u[1] == 0x82 && u[2] == 0xAC) return *bytes = 3, SE_HIST_SIGN_EURO;
    if (len >= 2 && u[0] == 0xC2 && u[1] == 0xA3) return *bytes = 2, SE_HIST_SIGN_POUND;
    return 0;
}

/* An ASCII space of a line (the general reader's \s; any other is left to it). */
static int se_space(char c) {
    return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

/* A sign or none, a space or none, digits with thousands commas, optional
 * decimals, and a sign after that no digit follows, a space or none before it
 * ("0.50€", "$ 0.54", "25 €"). Longest match (the templates never follow an amount
 * with a digit, a comma or a point, so the regular expression's backtracking could
 * not find another). Returns the bytes read, 0 for no amount, -1 for one too long
 * to hold. */
int se_read_money(const char *s, int len, se_hist_money *out) {
    int i = 0, n = 0;
    int sign = se_sign_at(s, len, &n);
    i += sign ? n : 0;
    if (i + 1 < len && se_space(s[i]) && s[i + 1] >= '0' && s[i + 1] <= '9') i++;
    if (i >= len || s[i] < '0' || s[i] > '9') return 0;
    int64_t digits = 0;
    int count = 0, places = 0, run = 0, grouped = 0;
    for (; i < len && ((s[i] >= '0' && s[i] <= '9') || s[i] == ','); i++) {
        if (s[i] == ',') { /* \d{1,3}(,\d{3})+: any other comma ends the amount ("$2,23") */
            int three = i + 3 < len && s[i + 1] >= '0' && s[i + 1] <= '9' && s[i + 2] >= '0' &&
                        s[i + 2] <= '9' && s[i + 3] >= '0' && s[i + 3] <= '9' &&
                        !(i + 4 < len && s[i + 4] >= '0' && s[i + 4] <= '9');
            if (!three || (!grouped && run > 3)) break;
            grouped = 1;
            continue;
        }
        run++;
        if (digits > 0 || s[i] != '0') count++;
        if (count > 17) return -1;
        digits = digits * 10 + (s[i] - '0');
    }
    if (i + 1 < len && s[i] == '.' && s[i + 1] >= '0' && s[i + 1] <= '9') {
        for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
            if (digits > 0 || s[i] != '0') count++;
            if (count > 17 || ++places > 17) return -1;
            digits = digits * 10 + (s[i] - '0');
        }
    }
    int gap = i < len && se_space(s[i]);
    int after = se_sign_at(s + i + gap, len - i - gap, &n);
    n += gap;
    if (after && !(i + n < len && s[i + n] >= '0' && s[i + n] <= '9')) i += n, sign |= after;
    out->digits = digits;
    out->places = places;
    out->sign = sign;
    return i;
}

/* The amount in chips of 10^-places money; -1 when not whole or too large. */
int64_t se_chips_of(se_hist_money m, int places) {
    if (m.places > places) {
        int64_t unit = 1;
        for (int i = m.places - places; i > 0; i--) unit *= 10;
        return m.digits % unit ? -1 : m.digits / unit;
    }
    int64_t chips = m.digits;
    for (int i = places - m.places; i > 0; i--) {
        if (chips > SE_ENGINE_MAX_CHIPS / 10) return -1;
        chips *= 10;
    }
    return chips < SE_ENGINE_MAX_CHIPS ? chips : -1;
}

/* The same amount, whatever its written places. */
int se_same_money(se_hist_money a, se_hist_money b) {
    while (a.places > 0 && a.digits % 10 == 0) a.digits /= 10, a.places--;
    while (b.places > 0 && b.digits % 10 == 0) b.digits /= 10, b.places--;
    return a.digits == b.digits && a.places == b.places;
}

int se_add_money(se_hist_money a, se_hist_money b, se_hist_money *sum) {
    if (a.places < b.places) {
        se_hist_money t = a;
        a = b, b = t;
    }
    for (int i = b.places; i < a.places; i++) {
        if (b.digits > SE_ENGINE_MAX_CHIPS / 10) return -1;
        b.digits *= 10;
    }
    if (a.digits > SE_ENGINE_MAX_CHIPS || b.digits > SE_ENGINE_MAX_CHIPS) return -1;
    sum->digits = a.digits + b.digits;
    sum->places = a.places;
    sum->sign = a.sign | b.sign;
    return 0;
}

/* ---- cards -------------------------------------------------------------------------- */

static int se_rank_of(char c) {
    static const char ranks[] = "23456789TJQKA";
    if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
    const char *at = c ? strchr(ranks, c) : NULL;
    return at ? (int)(at - ranks) : -1;
}

/* One card word ("As", "10h", "X"): its code, SE_UNKNOWN_CARD for a hidden
 * card, -1 for text that is no card (left to the general reader). */
static int se_card_word(const char *w, int len) {
    /* As the general reader, in either case: "X", "XX", "??", "?", "-", "H". */
    static const char *hidden[] = {"X", "XX", "??", "?", "-", "H"};
    for (size_t i = 0; i < sizeof hidden / sizeof *hidden; i++) {
        int same = (int)strlen(hidden[i]) == len;
        for (int k = 0; k < len && same; k++)
            same = (w[k] >= 'a' && w[k] <= 'z' ? w[k] - 'a' + 'A' : w[k]) == hidden[i][k];
        if (same) return SE_UNKNOWN_CARD;
    }
    int rank;
    if (len == 2) {
        rank = w[0] == '1' ? 12 : se_rank_of(w[0]);
    } else if (len == 3 && w[0] == '1' && w[1] == '0') {
        rank = 8;
    } else {
        return -1;
    }
    char suit = w[len - 1];
    if (suit >= 'A' && suit <= 'Z') suit = (char)(suit - 'A' + 'a');
    const char *suits = "cdhs";
    const char *at = suit ? strchr(suits, suit) : NULL;
    if (rank < 0 || at == NULL) return -1;
    return rank * 4 + (int)(at - suits);
}

/* The cards of bracketed groups in s[0..len): every group, or the last one only.
 * Returns the count, or -1 for a word that is no card or too many cards. */
int se_read_cards(const char *s, int len, int last_only, uint8_t *out, int room) {
    int count = 0;
    for (int i = 0; i < len; i++) {
        if (s[i] != '[') continue;
        if (last_only) count = 0;
        for (i++; i < len && s[i] != ']';) {
            if (s[i] == ' ' || s[i] == ',' || s[i] == '\t') {
                i++;
                continue;
            }
            int start = i;
            while (i < len && s[i] != ']' && s[i] != ' ' && s[i] != ',' && s[i] != '\t') i++;
            int code = se_card_word(s + start, i - start);
            if (code < 0 || count >= room) return -1;
            out[count++] = (uint8_t)code;
        }
    }
    return count;
}

/* ---- templates ---------------------------------------------------------------------- */

/* Matches template t against the line s[0..len) from the start, as the regular
 * expression the room's module compiles from the same slots would: lazy names,
 * greedy digits, cards and rest of line, backtracking where a later part fails. */
int se_match(const char *t, const char *s, int len, se_capture *cap) {
    while (*t && *t != '{') {
        if (len == 0 || *s != *t) return 0;
        s++, len--, t++;
    }
    if (*t == 0) return len == 0;
    const char *slot = t + 1;
    const char *close = strchr(slot, '}');
    if (close == NULL) return 0;
    const char *next = close + 1;
    if (slot[0] == '?' || slot[0] == '~') { /* an optional literal: there if it can be
                                                ("?": its words set the flag, all in) */
        int n = (int)(close - slot - 1);
        if (n <= len && memcmp(s, slot + 1, (size_t)n) == 0 && se_match(next, s + n, len - n, cap)) {
            if (slot[0] == '?') cap->flag = 1;
            return 1;
        }
        return se_match(next, s, len, cap);
    }
    if (slot[0] == '+') { /* (?:x)+: greedy, then fewer */
        int n = (int)(close - slot - 1), times = 0;
        if (n <= 0) return 0;
        while ((times + 1) * n <= len && memcmp(s + times * n, slot + 1, (size_t)n) == 0) times++;
        for (; times > 0; times--)
            if (se_match(next, s + times * n, len - times * n, cap)) return 1;
        return 0;
    }
    if (cap->only_name && se_slot_is(slot, "name")) { /* one name, or none */
        int n = cap->only_name_len;
        if (n > len || memcmp(s, cap->only_name, (size_t)n) != 0 || !se_match(next, s + n, len - n, cap))
            return 0;
        cap->name = s, cap->name_len = n;
        return 1;
    }
    if (se_slot_is(slot, "name") || se_slot_is(slot, "text")) { /* lazy: shortest first */
        int least = slot[0] == 'n' ? 1 : 0;
        int literal = *next && *next != '{';
        for (int n = least; n <= len; n++) {
            if (literal) { /* the next place the literal after the slot may start */
                const char *at = n < len ? memchr(s + n, *next, (size_t)(len - n)) : NULL;
                if (at == NULL) return 0;
                n = (int)(at - s);
            }
            if (n < len && ((unsigned char)s[n] & 0xC0) == 0x80) continue; /* inside a character */
            if (se_match(next, s + n, len - n, cap)) {
                if (slot[0] == 'n') cap->name = s, cap->name_len = n;
                return 1;
            }
        }
        return 0;
    }
    if (se_slot_is(slot, "rest")) { /* the rest of the line, whatever it is */
        cap->rest = s;
        return 1;
    }
    if (se_slot_is(slot, "notparen")) { /* [^)]*: no shorter match can help, ")" follows */
        const char *end = memchr(s, ')', (size_t)len);
        int n = end ? (int)(end - s) : len;
        return se_match(next, s + n, len - n, cap);
    }
    if (se_slot_is(slot, "spaces")) { /* \s*: the most first */
        int n = 0;
        while (n < len && se_space(s[n])) n++;
        for (; n >= 0; n--)
            if (se_match(next, s + n, len - n, cap)) return 1;
        return 0;
    }
    if (se_slot_is(slot, "code") || se_slot_is(slot, "code?")) { /* [A-Z]{3,4}, or none */
        int n = 0;
        while (n < len && n < 4 && s[n] >= 'A' && s[n] <= 'Z') n++;
        for (; n >= 3; n--)
            if (se_match(next, s + n, len - n, cap)) return 1;
        return slot[4] == '?' && se_match(next, s, len, cap);
    }
    if (se_slot_is(slot, "number")) { /* digits, not kept: greedy, then fewer */
        int n = 0;
        while (n < len && s[n] >= '0' && s[n] <= '9') n++;
        for (; n > 0; n--)
            if (se_match(next, s + n, len - n, cap)) return 1;
        return 0;
    }
    if (se_slot_is(slot, "seat")) {
        int n = 0, value = 0;
        while (n < len && s[n] >= '0' && s[n] <= '9' && n < 9) value = value * 10 + (s[n++] - '0');
        for (; n > 0; n--, value /= 10) /* greedy, then shorter */
            if (se_match(next, s + n, len - n, cap)) {
                cap->seat = value;
                return 1;
            }
        return 0;
    }
    if (se_slot_is(slot, "amount") || se_slot_is(slot, "to") || se_slot_is(slot, "money") ||
        se_slot_is(slot, "fee") || se_slot_is(slot, "part")) {
        se_hist_money m;
        int n = se_read_money(s, len, &m);
        if (n < 0) cap->unsure = 1;
        if (n <= 0 || !se_match(next, s + n, len - n, cap)) return 0;
        if (slot[0] == 'a') cap->amount = m, cap->has_amount = 1;
        else if (slot[0] == 't') cap->to = m, cap->has_to = 1;
        else if (slot[0] == 'f') cap->fee = m, cap->has_fee = 1;
        else if (slot[0] == 'p') cap->part = m, cap->has_part = 1;
        return 1; /* {money}: read, not kept */
    }
    if (se_slot_is(slot, "cards")) { /* one group, "[" to the first "]" */
        if (len == 0 || s[0] != '[' || (cap->no_close && s >= cap->no_close)) return 0;
        const char *end = memchr(s, ']', (size_t)len);
        if (end == NULL) { /* none later either: a lazy name's next tries fail at once */
            cap->no_close = s;
            return 0;
        }
        int n = (int)(end - s) + 1;
        if (!se_match(next, s + n, len - n, cap)) return 0;
        cap->cards = s, cap->cards_len = n;
        return 1;
    }
    if (se_slot_is(slot, "allcards")) { /* "[" to a "]", the last one first */
        if (len == 0 || s[0] != '[') return 0;
        if (*next == 0) { /* the line's end: only the whole rest can match */
            if (len < 2 || s[len - 1] != ']') return 0;
            cap->cards = s, cap->cards_len = len;
            return 1;
        }
        for (int n = len; n >= 2; n--)
            if (s[n - 1] == ']' && se_match(next, s + n, len - n, cap)) {
                cap->cards = s, cap->cards_len = n;
                return 1;
            }
        return 0;
    }
    return 0; /* a slot this reader does not know: no line matches it */
}

/* ---- a header's hand id and time ------------------------------------------------------ */

static int se_digit(char c) { return c >= '0' && c <= '9'; }

/* Python's str.isspace of an ASCII character (str.lstrip's white space). */
static int se_white(char c) {
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

/* One or two digits at s[*i] followed by `after`, as a regular expression's greedy
 * \d{1,2} followed by it matches them: their value, *i past `after`; -1 none. */
static int se_one_or_two(const char *s, int len, int *i, char after) {
    int k = *i;
    if (k < len && se_digit(s[k]) && k + 1 < len && s[k + 1] == after) {
        *i = k + 2;
        return s[k] - '0';
    }
    if (k + 2 < len && se_digit(s[k]) && se_digit(s[k + 1]) && s[k + 2] == after) {
        *i = k + 3;
        return 10 * (s[k] - '0') + (s[k + 1] - '0');
    }
    return -1;
}

/* A time "YYYY/M/D H:MM:SS" from s[at]: its end, and its fields in clock[]; -1 none. */
static int se_clock_at(const char *s, int len, int at, int32_t clock[6]) {
    int i = at;
    if (i + 5 > len) return -1;
    for (int k = 0; k < 4; k++)
        if (!se_digit(s[i + k])) return -1;
    if (s[i + 4] != '/') return -1;
    clock[0] = 1000 * (s[i] - '0') + 100 * (s[i + 1] - '0') + 10 * (s[i + 2] - '0') + (s[i + 3] - '0');
    i += 5;
    if ((clock[1] = se_one_or_two(s, len, &i, '/')) < 0) return -1;
    if ((clock[2] = se_one_or_two(s, len, &i, ' ')) < 0) return -1;
    if ((clock[3] = se_one_or_two(s, len, &i, ':')) < 0) return -1;
    if (i + 5 > len || !se_digit(s[i]) || !se_digit(s[i + 1]) || s[i + 2] != ':' ||
        !se_digit(s[i + 3]) || !se_digit(s[i + 4]))
        return -1;
    clock[4] = 10 * (s[i] - '0') + (s[i + 1] - '0');
    clock[5] = 10 * (s[i + 3] - '0') + (s[i + 4] - '0');
    return i + 5;
}

int se_hist_stamp_of(const char *text, size_t size, const char *prefix, se_hist_stamp *out) {
    if (!text || !prefix || !out) return SE_BAD_ARGUMENT;
    const char *newline = memchr(text, '\n', size);
    size_t line_len = newline ? (size_t)(newline - text) : size;
    if (line_len > SE_HIST_MAX_TEXT) return SE_HIST_UNSURE;
    int len = (int)line_len, i;
    for (i = 0; i < len; i++) /* no byte >= 0x80, no control byte but white space */
        if ((unsigned char)text[i] >= 0x80 || (text[i] < ' ' && !se_white(text[i])))
            return SE_HIST_UNSURE;
    int n = (int)strlen(prefix);
    if (n > len || memcmp(text, prefix, (size_t)n) != 0) return SE_HIST_UNSURE;
    for (i = n; i < len && se_digit(text[i]); i++) {
    }
    if (i == n || i >= len || text[i] != ':') return SE_HIST_UNSURE;
    out->id_at = n;
    out->id_end = i;
    for (i++; i < len && se_white(text[i]); i++) {
    }
    out->rest_at = i;
    /* The first place a time starts (a year may end a longer run of digits). */
    int end = -1;
    for (; i < len; i++)
        if ((end = se_clock_at(text, len, i, out->clock)) >= 0) break;
    if (end < 0) return SE_HIST_UNSURE;
    out->time_at = i;
    out->zone_at = out->zone_end = -1;
    if (end + 1 < len && text[end] == ' ' && text[end + 1] >= 'A' && text[end + 1] <= 'Z') {
        out->zone_at = end + 1;
        for (end += 1; end < len && text[end] >= 'A' && text[end] <= 'Z'; end++) {
        }
        out->zone_end = end;
    }
    out->time_end = end;
    out->again_at = out->again_end = -1;
    int32_t again[6];
    if (end + 2 <= len && text[end] == ' ' && text[end + 1] == '[') {
        int at = end + 2, past = se_clock_at(text, len, at, again);
        if (past >= 0 && past + 4 <= len && memcmp(text + past, " ET]", 4) == 0) {
            out->again_at = at;
            out->again_end = past + 3;
        }
    }
    return SE_OK;
}

/* ---- where hands may start ---------------------------------------------------------- */

int64_t se_hist_line_starts(const char *text, size_t size, size_t at, const char *const *heads,
                            const size_t *sizes, int count, int64_t first_line, int64_t *starts,
                            int64_t *numbers, size_t room) {
    if ((!text && size) || at > size || count < 0 || count > SE_HIST_MAX_HEADS ||
        (count && (!heads || !sizes)) || (room && (!starts || !numbers)))
        return -1;
    /* The heads by their first byte (most lines start with none of them, and cost one
     * look; the others are compared with the few heads that start as they do). */
    uint16_t begin[257] = {0}, order[SE_HIST_MAX_HEADS];
    for (int h = 0; h < count; h++) {
        if (sizes[h] == 0 || !heads[h]) return -1;
        begin[(uint8_t)heads[h][0] + 1]++;
    }
    for (int b = 0; b < 256; b++) begin[b + 1] += begin[b];
    uint16_t fill[256];
    memcpy(fill, begin, sizeof fill);
    for (int h = 0; h < count; h++) order[fill[(uint8_t)heads[h][0]]++] = (uint16_t)h;
    int64_t found = 0, line = first_line;
    size_t p = at;
    if (at > 0 && text[at - 1] != '\n') { /* `at` is inside a line: the next one */
        const char *end = memchr(text + at, '\n', size - at);
        if (!end) return 0;
        p = (size_t)(end - text) + 1;
        line++;
    }
    while (p < size) {
        uint8_t lead = (uint8_t)text[p];
        for (int k = begin[lead]; k < begin[lead + 1]; k++) {
            int h = order[k];
            if (sizes[h] <= size - p && memcmp(text + p, heads[h], sizes[h]) == 0) {
                if ((size_t)found < room) {
                    starts[found] = (int64_t)p;
                    numbers[found] = line;
                }
                found++;
                break;
            }
        }
        const char *end = memchr(text + p, '\n', size - p);
        if (!end) break;
        p = (size_t)(end - text) + 1;
        line++;
    }
    return found;
}
