/* libFuzzer harness over the hand-history reader (se_history.c), with the
 * templates and flags of every format the C reader reads, each for a text that
 * starts as its hands do (fuzz_history_rooms.h, which tools/fuzz.py writes from the
 * rooms' grammars: FUZZ_ROOMS, the format whose start comes first, the last ""),
 *
 * The input is one hand's text, copied into an exact-size heap block, so
 * AddressSanitizer sees any read outside it; the hand record is an exact-size
 * heap block too. Each hand read is prepared, played on a table made for it, and
 * its end checked, a showdown settled by se_settle; a text that starts "<game" is
 * read as an XML room's (se_hist_read_ipoker, se_hist_read_merge); its first line's
 * hand id and time are found (se_hist_stamp_of). The oracles:
 *   - every status is SE_OK, SE_HIST_UNSURE or SE_HIST_SETTLE where allowed;
 *   - the seat lines and names lie inside the text, the steps inside the record,
 *     the hand id's and times' spans inside the first line, in order;
 *   - the players are 2..8 seats in seat-number order, with stacks of whole chips;
 *   - no chip is lost or made by the replay: stacks plus contributions stay the
 *     prepared stacks, and what is paid out plus the rake is what was put in.
 * Build and run: tools/fuzz.py (clang -fsanitize=fuzzer,address,undefined). */
#include "studeval.h"
#include "fuzz_history_rooms.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what) {
    fprintf(stderr, "fuzz_history: %s\n", what);
    abort();
}

static void check_read(const se_hist_hand *h, size_t size) {
    if (h->header_end < 0 || (size_t)h->header_end > size) die("header end");
    if (h->listed < 1 || h->listed > SE_HIST_MAX_LISTED) die("seat lines");
    for (int i = 0; i < h->listed; i++)
        if (h->name_at[i] < 0 || h->name_len[i] < 1 || (size_t)(h->name_at[i] + h->name_len[i]) > size)
            die("a name outside the text");
    if (h->steps < 0 || h->steps > SE_HIST_MAX_STEPS) die("steps");
    for (int i = 0; i < h->steps; i++) {
        const se_hist_step *s = &h->step[i];
        if (s->card_count > 7 || s->player >= h->listed) die("a step");
        if (s->kind > SE_HIST_STREET && s->kind != SE_HIST_WON) die("a step's kind");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static se_hist_grammar grammars[sizeof fuzz_rooms / sizeof *fuzz_rooms];
    static int compiled;
    enum { ROOMS = (int)(sizeof fuzz_rooms / sizeof *fuzz_rooms) };
    if (!compiled) {
        for (int r = 0; r < ROOMS; r++) {
            grammars[r].templates = fuzz_rooms[r].templates;
            grammars[r].count = fuzz_rooms[r].count;
            grammars[r].flags = fuzz_rooms[r].flags;
            if (se_hist_compile(&grammars[r]) != SE_OK) die("the templates do not compile");
        }
        compiled = 1;
    }
    const se_hist_grammar *g = &grammars[ROOMS - 1];
    for (int r = 0; r < ROOMS; r++) {
        size_t n = strlen(fuzz_rooms[r].start);
        if (size >= n && memcmp(data, fuzz_rooms[r].start, n) == 0) {
            g = &grammars[r];
            break;
        }
    }
    char *text = malloc(size ? size : 1);
    se_hist_hand *h = malloc(sizeof *h);
    if (text == NULL || h == NULL) die("no memory");
    if (size) memcpy(text, data, size);
    /* The header's hand id and time: spans in order, inside the first line. */
    se_hist_stamp stamp;
    if (se_hist_stamp_of(text, size, "PokerStars Hand #", &stamp) == SE_OK) {
        const char *newline = memchr(text, '\n', size);
        int32_t line = newline ? (int32_t)(newline - text) : (int32_t)size;
        if (!(stamp.id_at == (int32_t)strlen("PokerStars Hand #") && stamp.id_at < stamp.id_end && stamp.id_end < stamp.rest_at &&
              stamp.rest_at <= stamp.time_at && stamp.time_at < stamp.time_end &&
              stamp.time_end <= line))
            die("stamp spans");
        if (stamp.zone_at >= 0 && !(stamp.time_at < stamp.zone_at && stamp.zone_end == stamp.time_end))
            die("stamp zone");
        if (stamp.again_at >= 0 && !(stamp.time_end + 2 == stamp.again_at &&
                                     stamp.again_at < stamp.again_end && stamp.again_end < line))
            die("stamp again");
        if (stamp.clock[0] < 0 || stamp.clock[0] > 9999) die("stamp year");
        for (int k = 1; k < 6; k++)
            if (stamp.clock[k] < 0 || stamp.clock[k] > 99) die("stamp clock");
    }
    /* A text that starts "<game" is an XML room's game element: iPoker's where it
     * holds "gamecode" (the hero: "Ann"), else Merge's; a tournament's when its
     * length is odd (the limits then from the wagers). */
    int xml = size >= 5 && memcmp(data, "<game", 5) == 0, tournament = (int)(size & 1), ipoker = 0;
    for (size_t i = 0; xml && !ipoker && i + 8 <= size; i++) ipoker = memcmp(data + i, "gamecode", 8) == 0;
    int status = !xml   ? se_hist_read(g, text, size, h)
                 : ipoker ? se_hist_read_ipoker(text, size, "Ann", 3, tournament, h)
                          : se_hist_read_merge(text, size, tournament, h);
    if (status != SE_OK && status != SE_HIST_UNSURE) die("read status");
    if (status == SE_OK) {
        check_read(h, size);
        status = xml && tournament ? se_hist_prepare(h, "", 0, "", 0)
                                      : se_hist_prepare(h, "$0.04", 5, "$0.08", 5);
        if (status != SE_OK && status != SE_HIST_UNSURE) die("prepare status");
    }
    if (status == SE_OK) {
        if (h->players < 2 || h->players > SE_ENGINE_MAX_SEATS) die("players");
        for (int p = 0; p < h->players; p++) {
            if (h->stacks[p] < 0) die("a stack");
            if (p > 0 && h->seat_number[h->player[p - 1]] > h->seat_number[h->player[p]])
                die("seat order");
        }
        se_table_rules rules;
        memset(&rules, 0, sizeof rules);
        rules.seats = h->players;
        rules.ante = h->ante, rules.bring_in = h->bring_in;
        rules.small_bet = h->small_bet, rules.big_bet = h->big_bet, rules.rake = h->rake;
        rules.open_pair = 1;
        se_hand table;
        if (se_hand_init(&table, &rules, h->stacks) == SE_OK) {
            status = se_hist_play(h, &table);
            if (status != SE_OK && status != SE_HIST_UNSURE && status != SE_HIST_SETTLE)
                die("play status");
            int64_t put_in = 0;
            for (int p = 0; p < h->players; p++) {
                if (table.stacks[p] + table.contributions[p] != h->stacks[p] && !table.over)
                    die("chips made or lost in play");
                put_in += table.contributions[p];
            }
            if (status == SE_HIST_SETTLE) { /* settled by se_settle, as a C caller would */
                se_settle_rules settle;
                memset(&settle, 0, sizeof settle);
                settle.game = SE_GAME_STUD, settle.chip = 1, settle.rake = h->rake;
                settle.rake_at_most = 1;
                uint8_t live[SE_ENGINE_MAX_SEATS];
                for (int p = 0; p < h->players; p++) live[p] = !table.out[p];
                int64_t payouts[SE_ENGINE_MAX_SEATS], returned[SE_ENGINE_MAX_SEATS], rake = 0;
                if (se_settle(&settle, h->players, (const uint8_t(*)[7])table.cards, live,
                              table.community, table.contributions, payouts, returned, &rake) != SE_OK)
                    die("a showdown se_settle refused");
                if (se_hand_pay(&table, payouts, rake) != SE_OK) die("the settlement");
                int end = se_hist_check_end(h, returned);
                if (end != SE_OK && end != SE_HIST_UNSURE) die("check_end status");
            } else if (status == SE_OK) {
                if (!table.over) die("over");
                int64_t paid = table.rake_taken;
                for (int p = 0; p < h->players; p++) paid += table.payouts[p];
                if (paid != put_in) die("a payout that is not what was put in");
                int end = se_hist_check_end(h, NULL);
                if (end != SE_OK && end != SE_HIST_UNSURE) die("check_end status");
            }
            se_hand_free(&table);
        }
    }
    free(h);
    free(text);
    return 0;
}
