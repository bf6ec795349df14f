/* Card-room text histories: one hand's lines read by a room's templates and
 * replayed through the engine, every amount checked (studeval.h, "Hand histories").
 *
 * This is the fast path of studeval.histories: it reads the lines a room writes
 * for every hand and gives up (SE_HIST_UNSURE) on anything else, so that the
 * general reader, which knows every line and names every error, reads that hand
 * instead. It therefore never reports what is wrong with a hand, only that it
 * did not read it; and when it does read one, it must read it exactly as the
 * general reader does (the tests compare the two on every hand they make). */

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "history/se_history_text.h"
#include "studeval.h"

#define SE_HIST_BAIL(h) return ((h)->unsure_at = __LINE__, SE_HIST_UNSURE)

/* ---- reading ------------------------------------------------------------------------ */

/* The steps' roles are one group (tried in order); each other role its own. */
static int se_group(int role) {
    if (role >= SE_HIST_ANTE && role <= SE_HIST_COLLECT) return 0;
    if (role >= SE_HIST_STREET && role <= SE_HIST_NAME) return role - SE_HIST_STREET + 1;
    return -1;
}

static const char *const se_slots[] = {"name", "text", "rest", "notparen", "seat", "amount",
                                       "to", "money", "cards", "allcards", "spaces", "code",
                                       "code?", "fee", "part", "number"};

int se_hist_compile(se_hist_grammar *g) {
    if (g == NULL || (g->templates == NULL && g->count > 0) || g->count < 0 ||
        g->count > SE_HIST_MAX_TEMPLATES)
        return SE_BAD_ARGUMENT;
    g->compiled = 0;
    int n = 0;
    for (int group = 0; group < 8; group++) {
        g->group_start[group] = (int16_t)n;
        for (int i = 0; i < g->count; i++)
            if (se_group(g->templates[i].role) == group) g->by_role[n++] = (int16_t)i;
    }
    g->group_start[8] = (int16_t)n;
    if (n != g->count) return SE_BAD_ARGUMENT; /* a role not known */
    for (int i = 0; i < g->count; i++) {
        se_hist_template *t = &g->templates[i];
        if (t->text == NULL) return SE_BAD_ARGUMENT;
        memset(t->need, 0, sizeof t->need);
        for (const char *c = t->text; *c;) {
            if (*c != '{') {
                unsigned char b = (unsigned char)*c++;
                t->need[b >> 6] |= 1ull << (b & 63);
                continue;
            }
            const char *close = strchr(c, '}');
            if (close == NULL) return SE_BAD_ARGUMENT;
            int known = c[1] == '?' || c[1] == '~' || c[1] == '+';
            for (size_t k = 0; k < sizeof se_slots / sizeof *se_slots && !known; k++)
                known = se_slot_is(c + 1, se_slots[k]);
            if (!known) return SE_BAD_ARGUMENT;
            c = close + 1; /* an optional literal may be missing: not needed */
        }
    }
    for (int group = 0; group < 8; group++) {
        for (int w = 0; w < 4; w++) g->group_need[group][w] = ~0ull;
        if (g->group_start[group] == g->group_start[group + 1]) /* no template: none needed */
            memset(g->group_need[group], 0, sizeof g->group_need[group]);
        for (int k = g->group_start[group]; k < g->group_start[group + 1]; k++)
            for (int w = 0; w < 4; w++) g->group_need[group][w] &= g->templates[g->by_role[k]].need[w];
    }
    g->compiled = 1;
    return SE_OK;
}

/* Which bytes a line holds: a template needing one it lacks cannot match. */
typedef struct se_bytes {
    uint64_t have[4];
} se_bytes;

static void se_bytes_of(const char *s, int len, se_bytes *b) {
    /* In registers: or-ing into have[c >> 6] in memory waits on the store before
     * it (a tenth of a hand's reading). ASCII bytes choose their word by a mask;
     * the others, rare, by a branch. */
    uint64_t low = 0, high = 0, other[2] = {0, 0};
    for (int i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        uint64_t bit = 1ull << (c & 63);
        if (c & 0x80) {
            other[(c >> 6) & 1] |= bit;
            continue;
        }
        uint64_t upper = 0 - (uint64_t)(c >> 6);
        high |= bit & upper;
        low |= bit & ~upper;
    }
    b->have[0] = low, b->have[1] = high, b->have[2] = other[0], b->have[3] = other[1];
}

static int se_has_all(const uint64_t *need, const se_bytes *b) {
    return !((need[0] & ~b->have[0]) | (need[1] & ~b->have[1]) | (need[2] & ~b->have[2]) |
             (need[3] & ~b->have[3]));
}

static int se_may_match(const se_hist_template *t, const se_bytes *b) {
    return se_has_all(t->need, b);
}

/* Whether a template of the group may match the line: a line lacking a byte they all
 * need (a "*" for the street markers, a "[" for the cards shown) is none of them,
 * nor nearly one (se_near), said in one test instead of one a template. */
static int se_group_may_match(const se_hist_grammar *g, int group, const se_bytes *b) {
    return se_has_all(g->group_need[group], b);
}

/* A capture with nothing read, copied in before each match: GCC makes a memset of
 * the struct a "rep stos", whose start-up cost was a tenth of the reading. */
static const se_capture se_no_capture;

/* Template t against the line: 1 it matches (cap holds what it read), 0 it does not,
 * -1 the line holds an amount too long to read here. */
static int se_try(const se_hist_template *t, const char *s, int len, const se_bytes *b,
                  se_capture *cap) {
    if (!se_may_match(t, b)) return 0;
    *cap = se_no_capture;
    if (se_match(t->text, s, len, cap)) return 1;
    return cap->unsure ? -1 : 0;
}

/* The length of the literal a template starts with (0: it starts with a slot). */
static int se_lead(const char *t) {
    const char *open = strchr(t, '{');
    return open ? (int)(open - t) : (int)strlen(t);
}

/* Where the n bytes of `word` first occur in s[0..len), or -1. */
static int se_find_text(const char *s, int len, const char *word, int n) {
    for (int i = 0; i + n <= len; i++) {
        const char *at = memchr(s + i, word[0], (size_t)(len - n - i + 1));
        if (at == NULL) return -1;
        i = (int)(at - s);
        if (memcmp(at, word, (size_t)n) == 0) return i;
    }
    return -1;
}

/* Whether the line holds every literal part of template t, in order (an optional
 * literal aside): a line the template nearly matches, with an amount, a seat or a
 * card this reader does not read ("$ 2.00", "Seat \u0968"), which the general
 * reader's patterns may read. */
static int se_resembles(const char *t, const char *s, int len) {
    int at = 0;
    while (*t) {
        if (*t == '{') {
            const char *close = strchr(t, '}');
            if (close == NULL) return 0;
            t = close + 1;
            continue;
        }
        int n = se_lead(t);
        int found = se_find_text(s + at, len - at, t, n);
        if (found < 0) return 0;
        at += found + n;
        t += n;
    }
    return 1;
}

/* Whether a template of `role`'s group before the k-th of the group (all: k -1)
 * resembles the line. A template that resembles it needs only bytes the line has:
 * the others are passed over at once. */
static int se_near(const se_hist_grammar *g, int role, int before, const char *s, int len,
                   const se_bytes *b) {
    int group = se_group(role);
    if (!se_group_may_match(g, group, b)) return 0;
    int end = before >= 0 ? g->group_start[group] + before : g->group_start[group + 1];
    for (int k = g->group_start[group]; k < end; k++) {
        const se_hist_template *t = &g->templates[g->by_role[k]];
        /* (Not a winner found anywhere: one missed leaves a pot's chips unpaid, and
         * se_hist_check_end gives the hand up.) */
        if (t->role == SE_HIST_WON && t->value == 1) continue;
        if (se_may_match(t, b) && se_resembles(t->text, s, len)) return 1;
    }
    return 0;
}

/* Whether the line starts with the literal a template of `role`'s group starts with. */
static int se_starts_like(const se_hist_grammar *g, int role, const char *s, int len) {
    int group = se_group(role);
    for (int k = g->group_start[group]; k < g->group_start[group + 1]; k++) {
        const char *t = g->templates[g->by_role[k]].text;
        int n = se_lead(t);
        if (n > 0 && n <= len && memcmp(s, t, (size_t)n) == 0) return 1;
    }
    return 0;
}

/* Whether a listed name starts as a line no name starts does ("*** SUMMARY ***",
 * "Seat 1", "Dealt to x"): the general reader tells such lines apart by the
 * names it knows; this one leaves them to it. */
static int se_name_like_a_line(const se_hist_grammar *g, const se_hist_hand *h) {
    for (int i = 0; i < g->count; i++) {
        const char *t = g->templates[i].text;
        int n = se_lead(t);
        if (n == 0 || g->templates[i].role == SE_HIST_STRICT || g->templates[i].role == SE_HIST_NAME)
            continue;
        for (int p = 0; p < h->listed; p++)
            if (h->name_len[p] >= n && memcmp(h->text + h->name_at[p], t, (size_t)n) == 0) return 1;
    }
    return 0;
}

/* Bytes the general reader splits lines at or strips as white space, which this
 * reader does not: a hand holding one is left to it. */
static int se_odd_bytes(const unsigned char *s, size_t len) {
    /* Most text is printable ASCII: a pass the compiler vectorizes says so. */
    unsigned char plain = 1;
    for (size_t i = 0; i < len; i++)
        plain &= (unsigned char)((s[i] >= 0x20 && s[i] < 0x80) | (s[i] == '\n') | (s[i] == '\t'));
    if (plain) return 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = s[i];
        if (c == '\r' || c == 0x0b || c == 0x0c || (c >= 0x1c && c <= 0x1f) || c == 0) return 1;
        if (c == 0xC2 && i + 1 < len && (s[i + 1] == 0x85 || s[i + 1] == 0xA0)) return 1;
        if (c == 0xD9 || c == 0xDB || c == 0xDF) return 1; /* Arabic and N'Ko digits */
        /* The euro sign, read as money's sign both ways; other three- and four-byte
         * characters: spaces, BOMs, other signs, and digits (Devanagari, Thai,
         * mathematical bold...) the general reader's \d reads. */
        if (c == 0xE2 && i + 2 < len && s[i + 1] == 0x82 && s[i + 2] == 0xAC) {
            i += 2;
            continue;
        }
        if (c >= 0xE0) return 1;
    }
    return 0;
}

static int se_strip_len(const char *s, int len) {
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t')) len--;
    return len;
}

static int se_listed_seat(const se_hist_hand *h, const char *name, int len) {
    for (int i = 0; i < h->listed; i++)
        if (h->name_len[i] == len && memcmp(h->text + h->name_at[i], name, (size_t)len) == 0)
            return i;
    return -1;
}

/* Template t read with a listed name in its name's place, the longest first, as the
 * general reader reads a line whose shortest name is no player's ("Bob Jr" before
 * "{text}"): the listed seat, or -1. */
static int se_try_named(const se_hist_hand *h, const se_hist_template *t, const char *s, int len,
                        se_capture *cap) {
    int tried[SE_HIST_MAX_LISTED] = {0};
    for (;;) {
        int best = -1;
        for (int i = 0; i < h->listed; i++)
            if (!tried[i] && (best < 0 || h->name_len[i] > h->name_len[best])) best = i;
        if (best < 0) return -1;
        tried[best] = 1;
        const char *name = h->text + h->name_at[best];
        if (se_find_text(s, len, name, h->name_len[best]) < 0) continue;
        *cap = se_no_capture;
        cap->only_name = name, cap->only_name_len = h->name_len[best];
        if (se_match(t->text, s, len, cap)) return best;
    }
}

/* The first template of `role` matching the line, or -1. */
static int se_find(const se_hist_grammar *g, int role, const char *s, int len,
                   const se_bytes *bytes, se_capture *cap) {
    int group = se_group(role);
    if (!se_group_may_match(g, group, bytes)) return -1;
    for (int k = g->group_start[group]; k < g->group_start[group + 1]; k++) {
        int i = g->by_role[k], tried = se_try(&g->templates[i], s, len, bytes, cap);
        if (tried != 0) return tried > 0 ? i : -2;
    }
    /* None matches: one that nearly does may be a line the general reader reads. */
    return se_near(g, role, -1, s, len, bytes) ? -2 : -1;
}

/* Each listed seat's deal lines so far, by street (a marker's value: 0..9). */
typedef struct se_dealt {
    uint8_t has[SE_HIST_MAX_LISTED][10], count[SE_HIST_MAX_LISTED][10];
    uint8_t cards[SE_HIST_MAX_LISTED][10][7];
} se_dealt;

/* The cards a deal line repeats ("[2c 7h] [3d]") against those the seat was dealt
 * before: all of them, or its up cards only (3rd street's last). */
static int se_repeats(const se_dealt *d, int seat, int street, const uint8_t *said, int n,
                      int ups_only) {
    int at = 0;
    for (int s = 0; s < street; s++) {
        if (!d->has[seat][s]) continue;
        int first = ups_only && s == 3 && d->count[seat][s] > 0 ? d->count[seat][s] - 1 : 0;
        for (int c = first; c < d->count[seat][s]; c++, at++) {
            uint8_t known = d->cards[seat][s][c];
            if (at >= n) return 0;
            if (said[at] != known && said[at] != SE_UNKNOWN_CARD && known != SE_UNKNOWN_CARD)
                return 0;
        }
    }
    return at == n;
}

/* Whether a deal line agrees with the seat's earlier ones, as the general reader
 * checks it: one line a street (the same again is no harm), and on 4th street on
 * the cards it repeats are the ones dealt before. */
static int se_deal_agrees(se_dealt *d, int seat, int street, const se_hist_step *step,
                          const se_capture *cap) {
    if (street > 9) return 0;
    if (d->has[seat][street])
        return d->count[seat][street] == step->card_count &&
               memcmp(d->cards[seat][street], step->cards, step->card_count) == 0;
    d->has[seat][street] = 1;
    d->count[seat][street] = step->card_count;
    memcpy(d->cards[seat][street], step->cards, step->card_count);
    if (street <= 3) return 1;
    uint8_t every[2 * SE_HIST_MAX_CARDS];
    int n = se_read_cards(cap->cards, cap->cards_len, 0, every, (int)sizeof every);
    if (n < 0) return 0;
    n -= step->card_count; /* the cards before the last group */
    return n <= 0 || se_repeats(d, seat, street, every, n, 0) || se_repeats(d, seat, street, every, n, 1);
}

/* A summary's line of what a listed seat won (and bet, if it says): 0, or -1 for
 * one this reader does not read. */
static int se_add_won(se_hist_hand *h, int seat, const se_capture *cap) {
    if (!cap->has_amount || h->steps == SE_HIST_MAX_STEPS) return -1;
    se_hist_step *step = &h->step[h->steps++];
    memset(step, 0, sizeof *step);
    step->kind = SE_HIST_WON;
    step->player = (int8_t)seat;
    step->street = 9;
    step->amount = cap->amount, step->has_amount = 1;
    if (cap->has_to) h->bet_text[seat] = cap->to, h->has_bet[seat] = 1;
    return 0;
}

/* The winners a summary line names wherever they are, as often as they are there: the
 * won templates of value 1, as one alternation tried at each place in turn (a
 * regular expression's finditer). 1 some were found, 0 none, -1 not sure (a name
 * not listed, an amount too long). */
static int se_won_anywhere(const se_hist_grammar *g, se_hist_hand *h, const char *line, int len,
                           const se_bytes *bytes) {
    int group = se_group(SE_HIST_WON), found = 0;
    se_capture cap;
    for (int i = 0; i < len;) {
        int read = 0;
        for (int k = g->group_start[group]; k < g->group_start[group + 1] && !read; k++) {
            const se_hist_template *t = &g->templates[g->by_role[k]];
            if (t->value != 1) continue;
            read = se_try(t, line + i, len - i, bytes, &cap);
            if (read < 0) return -1;
        }
        if (!read) {
            i++;
            continue;
        }
        int seat = cap.name ? se_listed_seat(h, cap.name, cap.name_len) : -1;
        if (seat < 0 || cap.rest == NULL || se_add_won(h, seat, &cap) != 0) return -1;
        found = 1;
        int end = (int)(cap.rest - line);
        i = end > i ? end : i + 1;
    }
    return found;
}

/* A seat line's name against the grammar's name shapes: 0 it has one (*seat: its
 * {seat}, where it has one), or -1. No shape: any name. */
static int se_name_shape(const se_hist_grammar *g, const char *name, int len, int *seat) {
    int group = se_group(SE_HIST_NAME);
    if (g->group_start[group] == g->group_start[group + 1]) return 0;
    for (int k = g->group_start[group]; k < g->group_start[group + 1]; k++) {
        se_capture cap;
        memset(&cap, 0, sizeof cap);
        if (!se_match(g->templates[g->by_role[k]].text, name, len, &cap)) continue;
        if (strstr(g->templates[g->by_role[k]].text, "{seat}") != NULL) *seat = cap.seat;
        return 0;
    }
    return -1;
}

/* SE_HIST_CARD_BY_CARD: the last step, a card dealt on a line of its own (none named:
 * one face down), joined to the player's deal of the street since the last marker,
 * as the general reader joins them. 0, or -1 for more cards than a player holds. */
static int se_join_card(se_hist_hand *h, se_hist_step *step) {
    if (step->card_count == 0) step->cards[step->card_count++] = SE_UNKNOWN_CARD;
    for (int i = h->steps - 2; i >= 0; i--) {
        se_hist_step *earlier = &h->step[i];
        if (earlier->kind == SE_HIST_STREET) break;
        if (earlier->kind != SE_HIST_DEAL || earlier->player != step->player ||
            earlier->street != step->street)
            continue;
        if (earlier->card_count + step->card_count > 7) return -1;
        memcpy(earlier->cards + earlier->card_count, step->cards, step->card_count);
        earlier->card_count = (uint8_t)(earlier->card_count + step->card_count);
        h->steps--;
        return 0;
    }
    return 0;
}

int se_hist_read(const se_hist_grammar *g, const char *text, size_t size, se_hist_hand *h) {
    if (g == NULL || !g->compiled || h == NULL || (text == NULL && size > 0)) return SE_BAD_ARGUMENT;
    memset(h, 0, offsetof(se_hist_hand, step)); /* the steps are set as they are read */
    h->text = text;
    h->hero = -1;
    h->flags = g->flags;
    if (size > SE_HIST_MAX_TEXT || se_odd_bytes((const unsigned char *)text, size))
        SE_HIST_BAIL(h);
    int len = (int)size, street = g->flags & SE_HIST_FIRST_STREET_3 ? 3 : 0;
    int in_seats = 0, seats_done = 0;
    unsigned dealt_now = 0; /* SE_HIST_STREETS_BY_DEALS: the seat lines dealt this street */
    se_capture cap;
    se_dealt dealt;
    memset(&dealt, 0, sizeof dealt);
    uint8_t held[SE_HIST_MAX_LISTED] = {0}; /* SE_HIST_DEALS_REPEAT_ALL: the cards each
                                               player's deal lines listed */
    for (int at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', (size_t)(len - at));
        int end = nl ? (int)(nl - text) : len;
        const char *line = text + at;
        int line_len = se_strip_len(line, end - at), line_at = at;
        at = end + 1;
        se_bytes bytes;
        se_bytes_of(line, line_len, &bytes);
        if (!seats_done) {
            int seat_line = se_find(g, SE_HIST_SEAT, line, line_len, &bytes, &cap);
            /* A line that starts as a seat line and is none ("Seat 1: Ann ($1 in chips,
             * $3 bounty)"): the general reader's seat pattern may read it. */
            if (seat_line == -2 || (seat_line == -1 && se_starts_like(g, SE_HIST_SEAT, line, line_len)))
                SE_HIST_BAIL(h);
            if (seat_line >= 0) {
                if (!in_seats) h->header_end = line_at;
                in_seats = 1;
                if (h->listed == SE_HIST_MAX_LISTED) SE_HIST_BAIL(h);
                if (se_listed_seat(h, cap.name, cap.name_len) >= 0) SE_HIST_BAIL(h); /* twice */
                int i = h->listed++, number = cap.seat;
                if (se_name_shape(g, cap.name, cap.name_len, &number) != 0) SE_HIST_BAIL(h);
                if ((g->flags & SE_HIST_HERO_MARKED) && cap.flag) h->hero = i; /* the last marked */
                h->seat_number[i] = number;
                h->name_at[i] = (int)(cap.name - text);
                h->name_len[i] = cap.name_len;
                if (!cap.has_amount) SE_HIST_BAIL(h);
                h->stack[i] = cap.amount;
                continue;
            }
            if (!in_seats || line_len == 0) continue; /* the header, or a blank line */
            seats_done = 1;
            if (se_name_like_a_line(g, h)) SE_HIST_BAIL(h);
        }
        if (line_len == 0) continue;
        int found = se_find(g, SE_HIST_STREET, line, line_len, &bytes, &cap);
        if (found == -2) SE_HIST_BAIL(h);
        if (found >= 0) {
            /* A marker that deals a community card ("*** RIVER *** [Kc]"). */
            if (cap.rest && line + line_len - cap.rest >= 2 && cap.rest[0] == ' ' && cap.rest[1] == '[')
                SE_HIST_BAIL(h);
            street = g->templates[found].value;
            dealt_now = 0;
            if (street <= 7) {
                if (h->steps == SE_HIST_MAX_STEPS) SE_HIST_BAIL(h);
                se_hist_step *step = &h->step[h->steps++];
                memset(step, 0, sizeof *step);
                step->kind = SE_HIST_STREET;
                step->street = (uint8_t)street;
                step->player = -1;
            }
            continue;
        }
        int group = se_group(SE_HIST_REVEAL), shown = 0;
        int reveals = se_group_may_match(g, group, &bytes) ? g->group_start[group + 1] : 0;
        for (int k = g->group_start[group]; k < reveals; k++) {
            /* Cards shown, wherever they are. */
            int tried = se_try(&g->templates[g->by_role[k]], line, line_len, &bytes, &cap);
            if (tried < 0) SE_HIST_BAIL(h);
            if (tried == 0) continue;
            shown = 1;
            int seat = se_listed_seat(h, cap.name, cap.name_len);
            if (seat < 0 || h->revealed_set[seat]) continue; /* the first word stands */
            uint8_t cards[SE_HIST_MAX_CARDS];
            int n = se_read_cards(cap.cards, cap.cards_len, 0, cards, SE_HIST_MAX_CARDS);
            if (n < 0) SE_HIST_BAIL(h);
            h->revealed_set[seat] = 1;
            for (int c = 0; c < n; c++)
                if (cards[c] != SE_UNKNOWN_CARD) h->revealed[seat][h->revealed_count[seat]++] = cards[c];
        }
        if (!shown && se_near(g, SE_HIST_REVEAL, -1, line, line_len, &bytes)) SE_HIST_BAIL(h);
        if (street == 9) { /* the summary: the total pot and the rake */
            int total = se_find(g, SE_HIST_TOTAL, line, line_len, &bytes, &cap);
            if (total == -2) SE_HIST_BAIL(h);
            if (total >= 0) { /* each said on a later line replaces the earlier */
                if (cap.has_amount) h->total_pot = cap.amount, h->has_total = 1;
                if (cap.has_part) { /* one of many pots: added to those before (to none,
                                       or to 0, it is the total, as in Python) */
                    if (!h->has_total || h->total_pot.digits == 0)
                        cap.part.sign |= h->has_total ? h->total_pot.sign : 0, h->total_pot = cap.part;
                    else if (se_add_money(h->total_pot, cap.part, &h->total_pot) != 0) SE_HIST_BAIL(h);
                    h->has_total = 1;
                }
                if (cap.has_to || cap.has_fee) { /* a fee is rake: the two added */
                    se_hist_money none = {0, 0, 0};
                    if (se_add_money(cap.has_to ? cap.to : none, cap.has_fee ? cap.fee : none,
                                     &h->rake_text) != 0)
                        SE_HIST_BAIL(h);
                    h->has_rake = 1;
                }
            } /* and the line may name winners too (OnGame's "Main pot: $1 won by A ($1)") */
            int anywhere = se_won_anywhere(g, h, line, line_len, &bytes);
            if (anywhere < 0) SE_HIST_BAIL(h);
            if (anywhere > 0 || total >= 0) continue;
            /* What a player won, as the summary says it: the first template that
             * reads a listed name ("E (x)" may read as "E" and "(x)" first). */
            int group = se_group(SE_HIST_WON), matched = 0, seat = -1;
            for (int k = g->group_start[group]; k < g->group_start[group + 1] && seat < 0; k++) {
                const se_hist_template *t = &g->templates[g->by_role[k]];
                if (t->value == 1) continue; /* found anywhere: above */
                int tried = se_try(t, line, line_len, &bytes, &cap);
                if (tried < 0) SE_HIST_BAIL(h);
                if (tried == 0) continue;
                matched = 1;
                if (cap.name) seat = se_listed_seat(h, cap.name, cap.name_len);
                if (cap.name && seat < 0) seat = se_try_named(h, t, line, line_len, &cap);
            }
            if (matched && seat < 0) SE_HIST_BAIL(h);
            if (!matched && se_near(g, SE_HIST_WON, -1, line, line_len, &bytes)) SE_HIST_BAIL(h);
            if (seat >= 0 && se_add_won(h, seat, &cap) != 0) SE_HIST_BAIL(h);
            continue;
        }
        int kind = -1, at_k = -1;
        int steps = se_group_may_match(g, 0, &bytes) ? g->group_start[1] : 0;
        for (int k = g->group_start[0]; k < steps && kind < 0; k++) {
            const se_hist_template *t = &g->templates[g->by_role[k]];
            int tried = se_try(t, line, line_len, &bytes, &cap);
            if (tried < 0) SE_HIST_BAIL(h);
            if (tried > 0) kind = t->role, at_k = k - g->group_start[0];
        }
        /* A template before the one matching (or any, with none) nearly matches: the
         * general reader's patterns, tried in the same order, may read the line. */
        if (se_near(g, SE_HIST_ANTE, at_k, line, line_len, &bytes)) SE_HIST_BAIL(h);
        if (kind < 0) { /* a line no template knows: passed over, unless a player's */
            int strict = se_group(SE_HIST_STRICT);
            for (int k = g->group_start[strict]; k < g->group_start[strict + 1]; k++) {
                const char *after = g->templates[g->by_role[k]].text;
                int after_len = (int)strlen(after);
                for (int i = 0; i < h->listed; i++) {
                    int n = h->name_len[i];
                    if (n + after_len <= line_len &&
                        memcmp(line, text + h->name_at[i], (size_t)n) == 0 &&
                        memcmp(line + n, after, (size_t)after_len) == 0)
                        SE_HIST_BAIL(h);
                }
            }
            continue;
        }
        int seat = cap.name ? se_listed_seat(h, cap.name, cap.name_len) : -1;
        if (seat < 0) SE_HIST_BAIL(h);
        if (kind == SE_HIST_DEAL && (g->flags & SE_HIST_STREETS_BY_DEALS) && street >= 3) {
            /* No marker: a deal after an action, or to a seat dealt this street, is the
             * next street's. */
            int before = h->steps > 0 ? h->step[h->steps - 1].kind : SE_HIST_STREET;
            if ((before != SE_HIST_DEAL && before != SE_HIST_STREET) || ((dealt_now >> seat) & 1)) {
                if (++street > 7 || h->steps == SE_HIST_MAX_STEPS) SE_HIST_BAIL(h);
                dealt_now = 0;
                se_hist_step *marker = &h->step[h->steps++];
                memset(marker, 0, sizeof *marker);
                marker->kind = SE_HIST_STREET;
                marker->street = (uint8_t)street;
                marker->player = -1;
            }
            dealt_now |= 1u << seat;
        }
        if (h->steps == SE_HIST_MAX_STEPS) SE_HIST_BAIL(h);
        se_hist_step *step = &h->step[h->steps++];
        memset(step, 0, sizeof *step);
        step->kind = (uint8_t)kind;
        step->player = (int8_t)seat;
        step->street = (uint8_t)street;
        step->all_in = (uint8_t)cap.flag;
        step->amount = cap.amount, step->has_amount = (uint8_t)cap.has_amount;
        step->to = cap.to, step->has_to = (uint8_t)cap.has_to;
        if (cap.cards) {
            int n = se_read_cards(cap.cards, cap.cards_len, kind == SE_HIST_DEAL && street > 3,
                                  step->cards, 7);
            if (n < 0) SE_HIST_BAIL(h);
            step->card_count = (uint8_t)n;
        }
        if (kind == SE_HIST_DEAL && (g->flags & SE_HIST_DEALS_REPEAT_ALL)) {
            int had = held[seat];
            if (step->card_count <= had) { /* the player's cards again, none new */
                h->steps--;
                continue;
            }
            held[seat] = step->card_count;
            step->card_count = (uint8_t)(step->card_count - had);
            memmove(step->cards, step->cards + had, step->card_count);
        }
        if (kind == SE_HIST_DEAL && (g->flags & SE_HIST_CARD_BY_CARD)) {
            if (se_join_card(h, step) != 0) SE_HIST_BAIL(h);
            h->in_hand[seat] = 1;
            continue;
        }
        if (kind == SE_HIST_DEAL && !se_deal_agrees(&dealt, seat, street, step, &cap)) SE_HIST_BAIL(h);
        h->in_hand[seat] = 1;
    }
    if (h->listed == 0) SE_HIST_BAIL(h);
    int totals = se_group(SE_HIST_TOTAL); /* a room that writes the total pot: cut without it */
    for (int k = g->group_start[totals]; !h->has_total && k < g->group_start[totals + 1]; k++)
        if (strstr(g->templates[g->by_role[k]].text, "{amount}")) SE_HIST_BAIL(h);
    return SE_OK;
}

/* ---- the table ---------------------------------------------------------------------- */

/* Whether a step is a bet of streets lo..hi counted for the limits: a 4th-street bet
 * of the big bet (``big``) is an open pair's double bet, no small bet. */
static int se_limit_bet(const se_hist_step *s, int lo, int hi, int64_t big) {
    return s->kind == SE_HIST_BET && s->street >= lo && s->street <= hi && s->amount_chips > 0 &&
           !(s->street == 4 && s->amount_chips == big);
}

/* The commonest such bet in chips (the smallest of those as common), 0 for none. */
static int64_t se_commonest_bet(const se_hist_hand *h, int lo, int hi, int64_t big) {
    int64_t best = 0;
    int best_count = 0;
    for (int i = 0; i < h->steps; i++) {
        const se_hist_step *s = &h->step[i];
        if (!se_limit_bet(s, lo, hi, big)) continue;
        int count = 0;
        for (int k = 0; k < h->steps; k++)
            count += se_limit_bet(&h->step[k], lo, hi, big) && h->step[k].amount_chips == s->amount_chips;
        if (count > best_count || (count == best_count && s->amount_chips < best))
            best = s->amount_chips, best_count = count;
    }
    return best;
}

/* The limits of a hand whose text names none, from its wagers, in chips, as the
 * general reader's limits() finds them: a completion on 3rd street is the small
 * bet, else the commonest bet of 3rd and 4th but a 4th-street bet of the big bet;
 * the commonest of 5th to 7th the big bet (twice the other where a street shows
 * none); with no bet at all, four
 * bring-ins or the largest early all-in. 0, or -1 where they are not whole chips. */
static int se_limits(se_hist_hand *h) {
    const se_hist_step *first = NULL;
    for (int i = 0; i < h->steps && first == NULL; i++) {
        const se_hist_step *s = &h->step[i];
        if (s->street == 3 && (s->kind == SE_HIST_COMPLETE || s->kind == SE_HIST_BET || s->kind == SE_HIST_RAISE))
            first = s;
    }
    int64_t small = 0, big = se_commonest_bet(h, 5, 7, 0);
    if (first != NULL && !first->all_in) small = first->to_chips > 0 ? first->to_chips : first->amount_chips;
    if (small <= 0) small = se_commonest_bet(h, 3, 4, big);
    if (small > 0 && big <= 0) {
        big = small * 2;
    } else if (big > 0 && small <= 0) {
        if (big % 2) return -1; /* half a chip */
        small = big / 2;
    } else if (small <= 0) {
        int64_t bring_in = -1, unit = 1;
        for (int i = 0; i < h->places; i++) unit *= 10; /* the default: one of the money */
        for (int i = 0; i < h->steps; i++) {
            const se_hist_step *s = &h->step[i];
            int64_t paid = s->amount_chips > 0 ? s->amount_chips : 0;
            if (s->kind == SE_HIST_BRING_IN && paid > bring_in) bring_in = paid;
        }
        small = (bring_in < 0 ? unit : bring_in) * 4;
        for (int i = 0; i < h->steps; i++) {
            const se_hist_step *s = &h->step[i];
            if (s->kind == SE_HIST_ALL_IN && s->street < 5 && s->amount_chips > small) small = s->amount_chips;
        }
        big = small * 2;
    }
    if (small >= SE_ENGINE_MAX_CHIPS / 4 || big >= SE_ENGINE_MAX_CHIPS / 2) return -1;
    h->small_bet = small, h->big_bet = big;
    return 0;
}

int se_hist_prepare(se_hist_hand *h, const char *small_text, int small_len,
                    const char *big_text, int big_len) {
    if (h == NULL) return SE_BAD_ARGUMENT;
    /* No limits named (both ""): found from the wagers, and 0 for the chip. */
    se_hist_money small = {0, 0, 0}, big = {0, 0, 0};
    int from_wagers = small_len == 0 && big_len == 0;
    if (small_text == NULL || big_text == NULL ||
        (!from_wagers && (se_read_money(small_text, small_len, &small) != small_len || small_len == 0 ||
                          se_read_money(big_text, big_len, &big) != big_len || big_len == 0)))
        SE_HIST_BAIL(h);
    if (h->steps == 0) SE_HIST_BAIL(h);
    /* The chip: the finest place any amount is written to, each distinct amount
     * counted as first written (the general reader takes a set of Decimals). */
    se_hist_money all[2 + SE_HIST_MAX_LISTED + 2 * SE_HIST_MAX_STEPS + 2];
    int n = 0;
    all[n++] = small, all[n++] = big;
    for (int i = 0; i < h->listed; i++) all[n++] = h->stack[i];
    int collects = 0; /* a summary's "won" is an amount of the hand only without these */
    for (int i = 0; i < h->steps && !collects; i++) collects = h->step[i].kind == SE_HIST_COLLECT;
    for (int i = 0; i < h->steps; i++) {
        /* With them, the general reader compares what the summary says again. */
        if (collects && h->step[i].kind == SE_HIST_WON) SE_HIST_BAIL(h);
        if (h->step[i].has_amount) all[n++] = h->step[i].amount;
        if (h->step[i].has_to) all[n++] = h->step[i].to;
    }
    if (h->has_total) all[n++] = h->total_pot;
    if (h->has_rake) all[n++] = h->rake_text;
    int places = 0;
    h->signs = 0;
    for (int i = 0; i < n; i++) h->signs |= all[i].sign;
    h->stack_signs = 0;
    for (int i = 0; i < h->listed; i++) h->stack_signs |= h->stack[i].sign;
    for (int i = 0; i < n; i++) {
        if (all[i].places <= places) continue;
        int earlier = 0;
        for (int k = 0; k < i && !earlier; k++) earlier = se_same_money(all[k], all[i]);
        if (!earlier) places = all[i].places;
    }
    h->places = places;
    /* The players: the listed seats with a line of their own, by seat number. */
    h->players = 0;
    for (int i = 0; i < h->listed; i++) {
        if (!h->in_hand[i]) continue;
        if (h->players == SE_ENGINE_MAX_SEATS) SE_HIST_BAIL(h);
        int k = h->players++;
        while (k > 0 && h->seat_number[h->player[k - 1]] > h->seat_number[i]) {
            h->player[k] = h->player[k - 1];
            k--;
        }
        h->player[k] = i;
    }
    if (h->players < 2) SE_HIST_BAIL(h);
    for (int i = 0; i < SE_HIST_MAX_LISTED; i++) h->seat_of[i] = -1;
    for (int p = 0; p < h->players; p++) {
        h->seat_of[h->player[p]] = p;
        h->stacks[p] = se_chips_of(h->stack[h->player[p]], places);
        if (h->stacks[p] < 0) SE_HIST_BAIL(h);
    }
    for (int i = 0; i < h->steps; i++) {
        se_hist_step *s = &h->step[i];
        s->amount_chips = s->has_amount ? se_chips_of(s->amount, places) : -1;
        s->to_chips = s->has_to ? se_chips_of(s->to, places) : -1;
        if ((s->has_amount && s->amount_chips < 0) || (s->has_to && s->to_chips < 0)) SE_HIST_BAIL(h);
    }
    if (from_wagers) {
        if (se_limits(h) != 0) SE_HIST_BAIL(h);
    } else {
        h->small_bet = se_chips_of(small, places);
        h->big_bet = se_chips_of(big, places);
    }
    if (h->small_bet <= 0 || h->big_bet < 0) SE_HIST_BAIL(h);
    /* The ante: the largest posted; the bring-in: the first one's (all in or not),
     * else none where the first seat checks or folds, else half the small bet, below
     * the first seat's total when it went all in for less (_replay.py's _bring_in). */
    h->ante = 0;
    const se_hist_step *bring_in = NULL, *opening = NULL;
    for (int i = 0; i < h->steps; i++) {
        const se_hist_step *s = &h->step[i];
        if (s->kind == SE_HIST_ANTE && s->amount_chips > h->ante) h->ante = s->amount_chips;
        if (s->kind == SE_HIST_BRING_IN && s->has_amount && bring_in == NULL) bring_in = s;
        if (s->kind >= SE_HIST_BRING_IN && s->kind <= SE_HIST_ALL_IN && s->street == 3 && !opening)
            opening = s;
    }
    if (bring_in != NULL) {
        h->bring_in = bring_in->amount_chips;
    } else if (opening != NULL && (opening->kind == SE_HIST_CHECK || opening->kind == SE_HIST_FOLD)) {
        h->bring_in = 0;
    } else {
        h->bring_in = h->small_bet / 2 > 1 ? h->small_bet / 2 : 1;
        int64_t total = opening == NULL ? -1 : opening->to_chips > 0 ? opening->to_chips
                                                                     : opening->amount_chips;
        if (total >= 0 && total <= h->bring_in) h->bring_in = total / 2;
    }
    if (h->bring_in > h->small_bet) h->bring_in = h->small_bet;
    /* A rake left unwritten: none where the room writes none (se_hist_unwritten_rake
     * finds it); else, as the general reader, the total pot written less what was
     * collected (Bovada, now and then), or none. */
    h->rake_unwritten = !h->has_rake && !h->has_total && (h->flags & SE_HIST_RAKE_UNWRITTEN);
    h->rake = h->has_rake ? se_chips_of(h->rake_text, places) : 0;
    h->total_pot_chips = h->has_total ? se_chips_of(h->total_pot, places) : -1;
    if (h->rake < 0 || (h->has_total && h->total_pot_chips < 0)) SE_HIST_BAIL(h);
    if (!h->has_rake && h->has_total && !(h->flags & (SE_HIST_COLLECTS_RETURNS | SE_HIST_POT_AFTER_RAKE))) {
        int64_t taken = 0;
        for (int i = 0; i < h->steps; i++)
            if (h->step[i].kind == SE_HIST_COLLECT && h->step[i].has_amount) taken += h->step[i].amount_chips;
        h->rake = h->total_pot_chips > taken ? h->total_pot_chips - taken : 0;
    }
    /* The hero (unless marked): the first player dealt three known cards on 3rd street. */
    for (int i = 0; i < h->steps && h->hero < 0 && !(h->flags & SE_HIST_HERO_MARKED); i++) {
        const se_hist_step *s = &h->step[i];
        if (s->kind != SE_HIST_DEAL || s->street != 3 || s->card_count != 3) continue;
        if (s->cards[0] != SE_UNKNOWN_CARD && s->cards[1] != SE_UNKNOWN_CARD &&
            s->cards[2] != SE_UNKNOWN_CARD)
            h->hero = s->player;
    }
    return SE_OK;
}
