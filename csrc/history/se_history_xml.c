/* Card-room XML histories read without a document tree: one iPoker <game> element's
 * text scanned once into the steps se_history.c's reader makes of a text room's
 * lines, then prepared and replayed by the same functions (studeval.h, "Hand
 * histories"). As the text reader, it gives up (SE_HIST_UNSURE) on anything it
 * does not read exactly as studeval/histories/rooms/ipoker.py reads it: an entity,
 * a comment, an amount, a card or a number it does not read, a player not seated;
 * the general reader then reads the hand and names what is wrong with it. */

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "history/se_history_text.h"
#include "studeval.h"

#define SE_HIST_BAIL(h) return ((h)->unsure_at = 20000 + __LINE__, SE_HIST_UNSURE)

/* ---- the scanner -------------------------------------------------------------------- */

typedef struct se_span {
    const char *at;
    int len;
} se_span;

#define SE_XML_MAX_ATTRIBUTES 12

/* One tag: its name, attributes, whether it is an end tag or closes itself, and the
 * text after it up to the next "<". */
typedef struct se_tag {
    se_span name, text;
    int end, empty, count;
    se_span key[SE_XML_MAX_ATTRIBUTES], value[SE_XML_MAX_ATTRIBUTES];
} se_tag;

static int se_xml_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static int se_is(se_span s, const char *word) {
    size_t n = strlen(word);
    return s.at != NULL && (size_t)s.len == n && memcmp(s.at, word, n) == 0;
}

/* The next tag at or after *at: 1 read, 0 none left, -1 what this reader does not
 * read (a comment, an entity, a declaration, more attributes than it holds). */
static int se_next_tag(const char *s, int len, int *at, se_tag *tag) {
    int i = *at;
    while (i < len && s[i] != '<') {
        if (s[i] == '&') return -1;
        i++;
    }
    if (i >= len) return 0;
    memset(tag, 0, sizeof *tag);
    i++;
    if (i < len && (s[i] == '!' || s[i] == '?')) return -1;
    if (i < len && s[i] == '/') tag->end = 1, i++;
    int start = i;
    while (i < len && !se_xml_space(s[i]) && s[i] != '>' && s[i] != '/') i++;
    tag->name = (se_span){s + start, i - start};
    if (tag->name.len == 0) return -1;
    for (;;) {
        while (i < len && se_xml_space(s[i])) i++;
        if (i >= len) return -1;
        if (s[i] == '>') break;
        if (s[i] == '/') {
            if (i + 1 >= len || s[i + 1] != '>' || tag->end) return -1;
            tag->empty = 1, i++;
            break;
        }
        if (tag->end || tag->count == SE_XML_MAX_ATTRIBUTES) return -1;
        int key = i;
        while (i < len && !se_xml_space(s[i]) && s[i] != '=' && s[i] != '>') i++;
        se_span name = {s + key, i - key};
        while (i < len && se_xml_space(s[i])) i++;
        if (i >= len || s[i] != '=' || name.len == 0) return -1;
        for (i++; i < len && se_xml_space(s[i]); i++) {}
        if (i >= len || (s[i] != '"' && s[i] != '\'')) return -1;
        char quote = s[i++];
        int value = i;
        while (i < len && s[i] != quote) {
            if (s[i] == '&' || s[i] == '<') return -1;
            i++;
        }
        if (i >= len) return -1;
        for (int k = 0; k < tag->count; k++)
            if (tag->key[k].len == name.len && memcmp(tag->key[k].at, name.at, (size_t)name.len) == 0)
                return -1; /* an attribute twice: not well-formed */
        tag->key[tag->count] = name;
        tag->value[tag->count++] = (se_span){s + value, i - value};
        i++;
    }
    i++; /* past ">" */
    int text = i;
    while (i < len && s[i] != '<') {
        if (s[i] == '&') return -1;
        i++;
    }
    tag->text = (se_span){s + text, i - text};
    *at = i;
    return 1;
}

/* An attribute's value, or a span with no text when the tag has none. */
static se_span se_attribute(const se_tag *tag, const char *key) {
    for (int k = 0; k < tag->count; k++)
        if (se_is(tag->key[k], key)) return tag->value[k];
    return (se_span){NULL, 0};
}

/* Whether s[0..len) starts (at_end: ends) with white space Python's strip() takes
 * that se_stripped does not: the other ASCII ones, and those of Unicode. */
static int se_odd_space(const unsigned char *s, int len, int at_end) {
    static const char *const spaces[] = {"\xc2\x85", "\xc2\xa0", "\xe1\x9a\x80", "\xe2\x80\x80",
                                         "\xe2\x80\x81", "\xe2\x80\x82", "\xe2\x80\x83", "\xe2\x80\x84",
                                         "\xe2\x80\x85", "\xe2\x80\x86", "\xe2\x80\x87", "\xe2\x80\x88",
                                         "\xe2\x80\x89", "\xe2\x80\x8a", "\xe2\x80\xa8", "\xe2\x80\xa9",
                                         "\xe2\x80\xaf", "\xe2\x81\x9f", "\xe3\x80\x80"};
    if (len <= 0) return 0;
    unsigned char c = at_end ? s[len - 1] : s[0];
    if (c == 0x0b || c == 0x0c || (c >= 0x1c && c <= 0x1f)) return 1;
    if (c < 0x80) return 0; /* the others are written in two or three bytes, none ASCII */
    for (size_t k = 0; k < sizeof spaces / sizeof *spaces; k++) {
        int n = (int)strlen(spaces[k]);
        if (n <= len && memcmp(at_end ? s + len - n : s, spaces[k], (size_t)n) == 0) return 1;
    }
    return 0;
}

/* s without the ASCII white space at its ends (-1 in len: other white space that
 * Python's strip() would take, left to the general reader). */
static se_span se_stripped(se_span s) {
    while (s.len > 0 && se_xml_space(s.at[0])) s.at++, s.len--;
    while (s.len > 0 && se_xml_space(s.at[s.len - 1])) s.len--;
    const unsigned char *u = (const unsigned char *)s.at;
    if (s.at != NULL && (se_odd_space(u, s.len, 0) || se_odd_space(u, s.len, 1))) s.len = -1;
    return s;
}

/* A whole number (a seat, an order): its value, or -1. */
static int se_xml_number(se_span s) {
    s = se_stripped(s);
    if (s.at == NULL || s.len <= 0 || s.len > 9) return -1;
    int value = 0;
    for (int i = 0; i < s.len; i++) {
        if (s.at[i] < '0' || s.at[i] > '9') return -1;
        value = value * 10 + (s.at[i] - '0');
    }
    return value;
}

/* Money as the XML rooms write it: a sign or none ("$", "£", "€", or U+FFFD, code page
 * 1252's euro decoded as UTF-8), digits (thousands in threes after commas, or no
 * comma), decimals or none, a sign or none. 0, or -1. */
static int se_xml_money(se_span s, se_hist_money *out) {
    s = se_stripped(s);
    if (s.at == NULL || s.len <= 0) return -1;
    const unsigned char *u = (const unsigned char *)s.at;
    int i = 0, n = s.len;
    if (u[0] == '$') i = 1;
    else if (n >= 2 && u[0] == 0xC2 && u[1] == 0xA3) i = 2;
    else if (n >= 3 && ((u[0] == 0xE2 && u[1] == 0x82 && u[2] == 0xAC) ||
                        (u[0] == 0xEF && u[1] == 0xBF && u[2] == 0xBD)))
        i = 3;
    int end = n;
    if (end > i && u[end - 1] == '$') end--;
    else if (end - 2 > i && u[end - 2] == 0xC2 && u[end - 1] == 0xA3) end -= 2;
    else if (end - 3 > i && ((u[end - 3] == 0xE2 && u[end - 2] == 0x82 && u[end - 1] == 0xAC) ||
                             (u[end - 3] == 0xEF && u[end - 2] == 0xBF && u[end - 1] == 0xBD)))
        end -= 3;
    int64_t digits = 0;
    int count = 0, places = 0, group = -1, k = i;
    for (; k < end && ((u[k] >= '0' && u[k] <= '9') || u[k] == ','); k++) {
        if (u[k] == ',') { /* \d{1,3}(,\d{3})+ */
            if ((group < 0 && (count < 1 || count > 3 || k - i != count)) || (group >= 0 && group != 3))
                return -1;
            group = 0;
            continue;
        }
        if (group >= 0) group++;
        if (++count > 17) return -1;
        digits = digits * 10 + (u[k] - '0');
    }
    if (count == 0 || (group >= 0 && group != 3)) return -1;
    if (k < end && u[k] == '.') {
        if (++k >= end) return -1;
        for (; k < end && u[k] >= '0' && u[k] <= '9'; k++) {
            if (++count > 17 || ++places > 17) return -1;
            digits = digits * 10 + (u[k] - '0');
        }
    }
    if (k != end) return -1;
    out->digits = digits, out->places = places, out->sign = 0;
    return 0;
}

/* An iPoker card word (suit first: "DA", "H10"; "X" unseen): its code, or -1. */
static int se_ipoker_card(const char *w, int len) {
    if (len == 1 && (w[0] == 'X' || w[0] == 'x')) return SE_UNKNOWN_CARD;
    static const char ranks[] = "23456789TJQKA", suits[] = "cdhs";
    if (len < 2) return -1;
    char suit = w[0] >= 'A' && w[0] <= 'Z' ? (char)(w[0] - 'A' + 'a') : w[0];
    char rank = w[1] >= 'a' && w[1] <= 'z' ? (char)(w[1] - 'a' + 'A') : w[1];
    if (len == 3 && w[1] == '1' && w[2] == '0') rank = 'T';
    else if (len != 2) return -1;
    const char *r = rank ? strchr(ranks, rank) : NULL, *su = suit ? strchr(suits, suit) : NULL;
    return r && su ? (int)(r - ranks) * 4 + (int)(su - suits) : -1;
}

/* ---- iPoker -------------------------------------------------------------------------- */

#define SE_IPOKER_MAX_ROUNDS 16
#define SE_IPOKER_MAX_ITEMS 320

/* A <cards> or <action> of a round, in the order the document lists them. */
typedef struct se_item {
    int action, order;         /* order: an action's "no" */
    se_span player, type, value; /* value: a <cards>' text, an action's "sum" */
} se_item;

static int se_street_of(se_span type) {
    static const char *const names[] = {"Third Street", "Fourth Street", "Fifth Street",
                                        "Sixth Street", "River", "Seventh Street"};
    static const int streets[] = {3, 4, 5, 6, 7, 7};
    for (int i = 0; i < 6; i++)
        if (se_is(type, names[i])) return streets[i];
    return 0;
}

static int se_ipoker_kind(se_span type) {
    static const char *const codes[] = {"0", "3", "4", "5", "23", "15", "16", "7"};
    static const int kinds[] = {SE_HIST_FOLD,  SE_HIST_CALL, SE_HIST_CHECK,    SE_HIST_BET,
                                SE_HIST_RAISE, SE_HIST_ANTE, SE_HIST_BRING_IN, SE_HIST_ALL_IN};
    for (int i = 0; i < 8; i++)
        if (se_is(type, codes[i])) return kinds[i];
    if (se_is(type, "1") || se_is(type, "2") || se_is(type, "8") || se_is(type, "9")) return -1;
    return -2; /* a code not known: the general reader's error */
}

static int se_seat_named(const se_hist_hand *h, se_span name) {
    if (name.at == NULL) return -1;
    for (int i = 0; i < h->listed; i++)
        if (h->name_len[i] == name.len && memcmp(h->text + h->name_at[i], name.at, (size_t)name.len) == 0)
            return i;
    return -1;
}

static se_hist_step *se_push(se_hist_hand *h, int kind, int player, int street) {
    if (h->steps == SE_HIST_MAX_STEPS) return NULL;
    se_hist_step *step = &h->step[h->steps++];
    memset(step, 0, sizeof *step);
    step->kind = (uint8_t)kind, step->player = (int8_t)player, step->street = (uint8_t)street;
    if (player >= 0) h->in_hand[player] = 1;
    return step;
}

/* a - b (b no more than a), in a's and b's finer places; 0, or -1. */
static int se_sub_money(se_hist_money a, se_hist_money b, se_hist_money *out) {
    se_hist_money a_places = {0, a.places, 0}, b_places = {0, b.places, 0};
    if (se_add_money(a, b_places, &a) != 0 || se_add_money(b, a_places, &b) != 0) return -1;
    out->digits = a.digits - b.digits, out->places = a.places, out->sign = 0;
    return out->digits < 0 ? -1 : 0;
}

/* Orders items by their "no" (a stable insertion sort of indices). */
static void se_sort_actions(const se_item *items, int *order, int n) {
    for (int i = 1; i < n; i++) {
        int v = order[i], k = i;
        while (k > 0 && items[order[k - 1]].order > items[v].order) order[k] = order[k - 1], k--;
        order[k] = v;
    }
}

int se_hist_read_ipoker(const char *text, size_t size, const char *hero, int hero_len,
                        int tournament, se_hist_hand *h) {
    if (text == NULL || h == NULL || (hero == NULL && hero_len != 0)) return SE_BAD_ARGUMENT;
    memset(h, 0, offsetof(se_hist_hand, step));
    h->text = text;
    h->hero = -1;
    h->flags = SE_HIST_COLLECTS_RETURNS | SE_HIST_HERO_MARKED; /* the hero: the session's */
    if (size > SE_HIST_MAX_TEXT) SE_HIST_BAIL(h);
    int len = (int)size, at = 0, in_round = -1, rounds = 0, count = 0, found;
    int round_no[SE_IPOKER_MAX_ROUNDS], round_first[SE_IPOKER_MAX_ROUNDS], round_last[SE_IPOKER_MAX_ROUNDS];
    se_item items[SE_IPOKER_MAX_ITEMS]; /* about 18 KiB */
    int item_round[SE_IPOKER_MAX_ITEMS];
    se_hist_money bet[SE_HIST_MAX_LISTED], win[SE_HIST_MAX_LISTED];
    se_tag tag;
    while ((found = se_next_tag(text, len, &at, &tag)) == 1) {
        if (se_is(tag.name, "round")) {
            if (tag.end) {
                in_round = -1;
                continue;
            }
            if (in_round >= 0 || rounds == SE_IPOKER_MAX_ROUNDS) SE_HIST_BAIL(h); /* nested */
            int no = se_xml_number(se_attribute(&tag, "no"));
            if (no < 0) SE_HIST_BAIL(h);
            round_no[rounds] = no, round_first[rounds] = count, round_last[rounds] = count;
            if (!tag.empty) in_round = rounds;
            rounds++;
        } else if (se_is(tag.name, "player") && !tag.end) {
            se_span name = se_attribute(&tag, "name");
            int seat = se_xml_number(se_attribute(&tag, "seat"));
            if (seat < 0) SE_HIST_BAIL(h);
            if (name.at == NULL || name.len == 0) continue; /* an empty seat */
            if (se_seat_named(h, name) >= 0 || h->listed == SE_HIST_MAX_LISTED) SE_HIST_BAIL(h);
            int i = h->listed++;
            h->seat_number[i] = seat;
            h->name_at[i] = (int)(name.at - text), h->name_len[i] = name.len;
            se_span bet_text = se_attribute(&tag, "bet"), win_text = se_attribute(&tag, "win");
            bet[i] = win[i] = (se_hist_money){0, 0, 0};
            if (se_xml_money(se_attribute(&tag, "chips"), &h->stack[i]) != 0 ||
                (bet_text.at && se_xml_money(bet_text, &bet[i]) != 0) ||
                (win_text.at && se_xml_money(win_text, &win[i]) != 0))
                SE_HIST_BAIL(h);
        } else if (in_round >= 0 && !tag.end && (se_is(tag.name, "cards") || se_is(tag.name, "action"))) {
            if (count == SE_IPOKER_MAX_ITEMS) SE_HIST_BAIL(h);
            se_item *item = &items[count];
            item->action = tag.name.at[0] == 'a';
            item->player = se_attribute(&tag, "player");
            item->type = se_attribute(&tag, "type");
            item->value = item->action ? se_attribute(&tag, "sum") : (tag.empty ? (se_span){text, 0} : tag.text);
            item->order = item->action ? se_xml_number(se_attribute(&tag, "no")) : 0;
            if (item->order < 0) SE_HIST_BAIL(h);
            /* A community card (<cards> of no player): the general reader's. */
            if (!item->action && item->player.len == 0) SE_HIST_BAIL(h);
            item_round[count++] = in_round;
            round_last[in_round] = count;
        }
    }
    if (found < 0 || in_round >= 0 || h->listed == 0) SE_HIST_BAIL(h);
    /* The rounds by number (stable), each a street: its deals, then its actions by "no". */
    int by_number[SE_IPOKER_MAX_ROUNDS];
    for (int r = 0; r < rounds; r++) {
        int k = r;
        while (k > 0 && round_no[by_number[k - 1]] > round_no[r]) by_number[k] = by_number[k - 1], k--;
        by_number[k] = r;
    }
    for (int n = 0; n < rounds; n++) {
        int r = by_number[n], street = round_no[r] + 1, actions[SE_IPOKER_MAX_ITEMS], acts = 0, any = 0;
        for (int i = round_first[r]; i < round_last[r]; i++) {
            if (item_round[i] != r) continue;
            any = 1;
            if (items[i].action) actions[acts++] = i;
        }
        if (street >= 3 && street <= 7 && any && !se_push(h, SE_HIST_STREET, -1, street)) SE_HIST_BAIL(h);
        for (int i = round_first[r]; i < round_last[r]; i++) {
            const se_item *item = &items[i];
            if (item_round[i] != r || item->action) continue;
            int seat = se_seat_named(h, item->player);
            if (seat < 0) SE_HIST_BAIL(h); /* a player not seated */
            if (se_street_of(item->type) != street) continue;
            se_hist_step *step = se_push(h, SE_HIST_DEAL, seat, street);
            if (step == NULL) SE_HIST_BAIL(h);
            const char *s = item->value.at;
            for (int c = 0, end = item->value.len; c < end;) {
                if (se_xml_space(s[c])) {
                    c++;
                    continue;
                }
                int w = c;
                while (c < end && !se_xml_space(s[c])) c++;
                int card = se_ipoker_card(s + w, c - w);
                if (card < 0 || step->card_count == 7) SE_HIST_BAIL(h);
                step->cards[step->card_count++] = (uint8_t)card;
            }
        }
        se_sort_actions(items, actions, acts);
        for (int a = 0; a < acts; a++) {
            const se_item *item = &items[actions[a]];
            int kind = se_ipoker_kind(item->type);
            if (kind == -1) continue; /* no chips in stud (blinds, sitting out) */
            int seat = se_seat_named(h, item->player);
            if (kind < 0 || seat < 0) SE_HIST_BAIL(h);
            se_hist_step *step = se_push(h, kind, seat, street);
            se_hist_money amount = {0, 0, 0};
            if (step == NULL || (item->value.at && se_xml_money(item->value, &amount) != 0)) SE_HIST_BAIL(h);
            if (kind == SE_HIST_RAISE) step->to = amount, step->has_to = 1; /* its street total */
            else step->amount = amount, step->has_amount = 1;
        }
    }
    /* The hero: the session's player, if a step names it. */
    for (int i = 0; i < h->steps && hero != NULL && h->hero < 0; i++) {
        int p = h->step[i].player;
        if (p >= 0 && h->name_len[p] == hero_len && memcmp(h->text + h->name_at[p], hero, (size_t)hero_len) == 0)
            h->hero = p;
    }
    /* Cards shown: every known card dealt to a player whose first 3rd-street card is. */
    for (int i = 0; i < h->steps; i++) {
        const se_hist_step *s = &h->step[i];
        if (s->kind != SE_HIST_DEAL || s->street != 3 || (s->card_count > 0 && s->cards[0] == SE_UNKNOWN_CARD))
            continue;
        int p = s->player;
        if (h->revealed_set[p]) continue;
        h->revealed_set[p] = 1;
        for (int k = 0; k < h->steps; k++) {
            const se_hist_step *d = &h->step[k];
            if (d->kind != SE_HIST_DEAL || d->player != p) continue;
            for (int c = 0; c < d->card_count; c++) {
                if (d->cards[c] == SE_UNKNOWN_CARD) continue;
                if (h->revealed_count[p] == SE_HIST_MAX_CARDS) SE_HIST_BAIL(h);
                h->revealed[p][h->revealed_count[p]++] = d->cards[c];
            }
        }
    }
    /* What was bet and won in all: never more won than bet. */
    se_hist_money bets = {0, 0, 0}, wins = {0, 0, 0}, rake = {0, 0, 0};
    for (int i = 0; i < h->listed; i++)
        if (se_add_money(bets, bet[i], &bets) != 0 || se_add_money(wins, win[i], &wins) != 0) SE_HIST_BAIL(h);
    if (se_sub_money(bets, wins, &rake) != 0) SE_HIST_BAIL(h);
    /* A hero who took no pot (no more than the uncalled part of the bet) mucked. */
    if (h->hero >= 0 && h->revealed_set[h->hero]) {
        se_hist_money others = {0, 0, 0}, over;
        for (int i = 0; i < h->listed; i++) {
            se_hist_money diff;
            if (i != h->hero && se_sub_money(bet[i], others, &diff) == 0 && diff.digits > 0) others = bet[i];
        }
        if (se_sub_money(bet[h->hero], others, &over) != 0) over = (se_hist_money){0, 0, 0};
        if (se_sub_money(over, win[h->hero], &over) == 0 && !se_push(h, SE_HIST_MUCK, h->hero, 0))
            SE_HIST_BAIL(h);
    }
    h->rake_text = tournament ? (se_hist_money){0, 0, 0} : rake, h->has_rake = 1;
    for (int i = 0; i < h->listed; i++) {
        if (!tournament) h->bet_text[i] = bet[i], h->has_bet[i] = 1;
        if (win[i].digits == 0) continue;
        se_hist_step *step = se_push(h, SE_HIST_COLLECT, i, 9);
        if (step == NULL) SE_HIST_BAIL(h);
        step->amount = win[i], step->has_amount = 1;
    }
    return SE_OK;
}

/* ---- Merge --------------------------------------------------------------------------- */

#define SE_MERGE_MAX_PLAYERS 16
#define SE_MERGE_MAX_WINNERS 32

/* A Merge card ("Tc", rank first; "null" or nothing unseen): its code, or -1. */
static int se_merge_card(const char *w, int len) {
    static const char ranks[] = "23456789TJQKA", suits[] = "cdhs";
    if (len == 0 || (len == 4 && memcmp(w, "null", 4) == 0)) return SE_UNKNOWN_CARD;
    const char *r = len == 2 && w[0] ? strchr(ranks, w[0]) : NULL;
    const char *s = len == 2 && w[1] ? strchr(suits, w[1]) : NULL;
    return r && s ? (int)(r - ranks) * 4 + (int)(s - suits) : -1;
}

static int se_merge_street(se_span id) {
    static const char *const names[] = {"BLINDS",        "BRING_IN",       "THIRD_STREET",
                                        "FOURTH_STREET", "FIFTH_STREET",   "SIXTH_STREET",
                                        "SEVENTH_STREET", "SHOWDOWN",      "END_OF_GAME",
                                        "END_OF_FOLDED_GAME"};
    static const int streets[] = {0, 3, 3, 4, 5, 6, 7, 8, 8, 8};
    for (int i = 0; i < 10; i++)
        if (se_is(id, names[i])) return streets[i];
    return -1;
}

static int se_merge_kind(se_span type) {
    static const char *const codes[] = {"ANTE", "BRING_IN", "COMPLETE", "BET",  "RAISE", "CALL",
                                        "CHECK", "FOLD",    "ALL_IN",   "SHOW", "MUCK"};
    static const int kinds[] = {SE_HIST_ANTE,  SE_HIST_BRING_IN, SE_HIST_COMPLETE, SE_HIST_BET,
                                SE_HIST_RAISE, SE_HIST_CALL,     SE_HIST_CHECK,    SE_HIST_FOLD,
                                SE_HIST_ALL_IN, SE_HIST_SHOW,    SE_HIST_MUCK};
    for (int i = 0; i < 11; i++)
        if (se_is(type, codes[i])) return kinds[i];
    return -1; /* sitting out, chat and the like: no chips */
}

/* The dealt-in seat line a "player" attribute names (its seat number as written
 * from the number: "3"), or -1. */
static int se_merge_seat(const se_hist_hand *h, se_span player) {
    if (player.at == NULL || player.len < 1 || player.len > 9 || (player.at[0] == '0' && player.len > 1))
        return -1;
    int value = 0;
    for (int i = 0; i < player.len; i++) {
        if (player.at[i] < '0' || player.at[i] > '9') return -1;
        value = value * 10 + (player.at[i] - '0');
    }
    for (int i = 0; i < h->listed; i++)
        if (h->seat_number[i] == value) return i;
    return -1;
}

/* A round's elements, emitted at its end: its cards in order, then its events by
 * their sequence; the street's totals (each seat's last wager) and what each put in. */
typedef struct se_merge_state {
    int dealt[SE_HIST_MAX_LISTED];
    se_hist_money street_total[SE_HIST_MAX_LISTED], put_in[SE_HIST_MAX_LISTED];
    se_hist_money ante[SE_HIST_MAX_LISTED];
    int has_ante[SE_HIST_MAX_LISTED];
} se_merge_state;

static int se_merge_round(se_hist_hand *h, se_merge_state *m, int street, se_item *items, int count) {
    for (int i = 0; i < count; i++) { /* the cards */
        const se_item *item = &items[i];
        if (item->action) continue;
        int p = se_merge_seat(h, item->player);
        if (p < 0) return -1;
        uint8_t shown[16];
        int n = 0;
        const char *s = item->value.at;
        for (int c = 0, end = item->value.len;; c++) { /* split at "," */
            int w = c;
            while (c < end && s[c] != ',') c++;
            int card = n < 16 ? se_merge_card(s + w, c - w) : -1;
            if (card < 0) return -1;
            shown[n++] = (uint8_t)card;
            if (c >= end) break;
        }
        if (se_is(item->type, "SHOWN") || se_is(item->type, "MUCKED")) {
            h->revealed_set[p] = 1, h->revealed_count[p] = 0;
            for (int c = 0; c < n; c++) {
                if (shown[c] == SE_UNKNOWN_CARD) continue;
                if (h->revealed_count[p] == SE_HIST_MAX_CARDS) return -1;
                h->revealed[p][h->revealed_count[p]++] = shown[c];
            }
        } else if (street >= 3 && street <= 7 && n > m->dealt[p]) {
            if (se_is(item->type, "HOLE")) h->hero = p;
            if (n - m->dealt[p] > 7) return -1;
            se_hist_step *step = se_push(h, SE_HIST_DEAL, p, street);
            if (step == NULL) return -1;
            step->card_count = (uint8_t)(n - m->dealt[p]);
            memcpy(step->cards, shown + m->dealt[p], step->card_count);
            m->dealt[p] = n;
        }
    }
    int order[SE_IPOKER_MAX_ITEMS], events = 0;
    for (int i = 0; i < count; i++)
        if (items[i].action) order[events++] = i;
    se_sort_actions(items, order, events);
    for (int e = 0; e < events; e++) {
        const se_item *item = &items[order[e]];
        int kind = se_merge_kind(item->type);
        if (kind < 0) continue;
        int p = se_merge_seat(h, item->player);
        se_hist_money amount = {0, 0, 0}, added = {0, 0, 0};
        int has = item->value.at != NULL && item->value.len > 0;
        if (p < 0 || (has && se_xml_money(item->value, &amount) != 0)) return -1;
        se_hist_step *step = se_push(h, kind, p, street);
        if (step == NULL) return -1;
        if ((kind == SE_HIST_COMPLETE || kind == SE_HIST_BET || kind == SE_HIST_RAISE) && has) {
            /* A street total: what it adds is the total less the seat's last. */
            if (se_sub_money(amount, m->street_total[p], &added) != 0) return -1;
            if (kind == SE_HIST_BET && m->street_total[p].digits == 0)
                step->amount = amount, step->has_amount = 1;
            m->street_total[p] = amount;
            step->to = amount, step->has_to = 1;
        } else {
            if (has) added = amount, step->amount = amount, step->has_amount = 1;
            if (kind != SE_HIST_ANTE && se_add_money(m->street_total[p], added, &m->street_total[p]) != 0)
                return -1;
            if (kind == SE_HIST_ANTE && amount.digits != 0) m->ante[p] = amount, m->has_ante[p] = 1;
        }
        if (se_add_money(m->put_in[p], added, &m->put_in[p]) != 0) return -1;
    }
    return 0;
}

int se_hist_read_merge(const char *text, size_t size, int tournament, se_hist_hand *h) {
    if (text == NULL || h == NULL) return SE_BAD_ARGUMENT;
    memset(h, 0, offsetof(se_hist_hand, step));
    h->text = text;
    h->hero = -1;
    h->flags = SE_HIST_COLLECTS_RETURNS | SE_HIST_HERO_MARKED; /* the hero: dealt "HOLE" */
    if (size > SE_HIST_MAX_TEXT) SE_HIST_BAIL(h);
    int len = (int)size, at = 0, found, street = -1, in_round = 0, count = 0, listed = 0, winners = 0;
    int all_seat[SE_MERGE_MAX_PLAYERS];
    se_span all_name[SE_MERGE_MAX_PLAYERS], winner_player[SE_MERGE_MAX_WINNERS];
    se_hist_money winner_amount[SE_MERGE_MAX_WINNERS];
    se_item items[SE_IPOKER_MAX_ITEMS];
    se_merge_state m;
    memset(&m, 0, sizeof m);
    se_tag tag;
    while ((found = se_next_tag(text, len, &at, &tag)) == 1) {
        if (se_is(tag.name, "round")) {
            if (tag.end) {
                if (!in_round || se_merge_round(h, &m, street, items, count) != 0) SE_HIST_BAIL(h);
                in_round = 0;
                continue;
            }
            if (in_round) SE_HIST_BAIL(h); /* nested */
            street = se_merge_street(se_attribute(&tag, "id"));
            if (street < 0) SE_HIST_BAIL(h);
            if (street >= 3 && street <= 7 && !se_is(se_attribute(&tag, "id"), "THIRD_STREET")) {
                if (!se_push(h, SE_HIST_STREET, -1, street)) SE_HIST_BAIL(h);
                memset(m.street_total, 0, sizeof m.street_total);
            }
            in_round = !tag.empty, count = 0;
        } else if (se_is(tag.name, "player") && !tag.end) {
            int seat = se_xml_number(se_attribute(&tag, "seat"));
            se_span name = se_attribute(&tag, "nickname"), dealt_in = se_attribute(&tag, "dealtin");
            if (name.at == NULL) name = (se_span){text, 0};
            if (seat < 0 || listed == SE_MERGE_MAX_PLAYERS) SE_HIST_BAIL(h);
            for (int i = 0; i < listed; i++)
                if (all_seat[i] == seat || (all_name[i].len == name.len && memcmp(all_name[i].at, name.at, (size_t)name.len) == 0))
                    SE_HIST_BAIL(h); /* listed twice */
            all_seat[listed] = seat, all_name[listed++] = name;
            if (dealt_in.at != NULL && !se_is(dealt_in, "true")) continue;
            if (name.len == 0 || h->listed == SE_HIST_MAX_LISTED) SE_HIST_BAIL(h);
            int i = h->listed++;
            h->seat_number[i] = seat;
            h->name_at[i] = (int)(name.at - text), h->name_len[i] = name.len;
            if (se_xml_money(se_attribute(&tag, "balance"), &h->stack[i]) != 0) SE_HIST_BAIL(h);
        } else if (se_is(tag.name, "winner") && !tag.end) {
            if (winners == SE_MERGE_MAX_WINNERS) SE_HIST_BAIL(h);
            winner_player[winners] = se_attribute(&tag, "player");
            if (se_xml_money(se_attribute(&tag, "amount"), &winner_amount[winners++]) != 0) SE_HIST_BAIL(h);
        } else if (in_round && !tag.end && (se_is(tag.name, "cards") || se_is(tag.name, "event"))) {
            if (count == SE_IPOKER_MAX_ITEMS) SE_HIST_BAIL(h);
            se_item *item = &items[count++];
            item->action = tag.name.at[0] == 'e';
            item->player = se_attribute(&tag, "player");
            item->type = se_attribute(&tag, "type");
            item->value = se_attribute(&tag, item->action ? "amount" : "cards");
            if (!item->action && item->value.at == NULL) item->value = (se_span){text, 0};
            item->order = item->action ? se_xml_number(se_attribute(&tag, "sequence")) : 0;
            if (item->order < 0) SE_HIST_BAIL(h);
        }
    }
    if (found < 0 || in_round || h->listed == 0) SE_HIST_BAIL(h);
    if (tournament) /* a tournament's balance is written after the ante was posted */
        for (int p = 0; p < h->listed; p++)
            if (m.has_ante[p] && se_add_money(h->stack[p], m.ante[p], &h->stack[p]) != 0) SE_HIST_BAIL(h);
    se_hist_money paid_out = {0, 0, 0}, put_in = {0, 0, 0};
    for (int w = 0; w < winners; w++) {
        int p = se_merge_seat(h, winner_player[w]);
        se_hist_step *step = p >= 0 ? se_push(h, SE_HIST_COLLECT, p, 8) : NULL;
        if (step == NULL || se_add_money(paid_out, winner_amount[w], &paid_out) != 0) SE_HIST_BAIL(h);
        step->amount = winner_amount[w], step->has_amount = 1;
    }
    for (int p = 0; p < h->listed; p++)
        if (se_add_money(put_in, m.put_in[p], &put_in) != 0) SE_HIST_BAIL(h);
    /* Never more paid out than put in; the rake is the rest. */
    if (se_sub_money(put_in, paid_out, &h->rake_text) != 0) SE_HIST_BAIL(h);
    h->has_rake = 1;
    return SE_OK;
}
