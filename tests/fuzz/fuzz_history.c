/* libFuzzer harness over the hand-history reader (se_history.c), with
 * PokerStars' templates, and the Winning Poker Network's for a text that starts
 * "Hand #" (the same text as studeval/histories/rooms/pokerstars.py and winning.py;
 * tests/test_histories_fast.py checks that they are).
 *
 * The input is one hand's text, copied into an exact-size heap block, so
 * AddressSanitizer sees any read outside it; the hand record is an exact-size
 * heap block too. Each hand read is prepared, played on a table made for it, and
 * its end checked, a showdown settled by se_settle. The oracles:
 *   - every status is SE_OK, SE_HIST_UNSURE or SE_HIST_SETTLE where allowed;
 *   - the seat lines and names lie inside the text, the steps inside the record;
 *   - the players are 2..8 seats in seat-number order, with stacks of whole chips;
 *   - no chip is lost or made by the replay: stacks plus contributions stay the
 *     prepared stacks, and what is paid out plus the rake is what was put in.
 * Build and run: tools/fuzz.py (clang -fsanitize=fuzzer,address,undefined). */
#include "studeval.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static se_hist_template templates[] = {
    {SE_HIST_SEAT, 0, "Seat {seat}: {name} ({amount} in chips, {notparen}) is sitting out", {0}},
    {SE_HIST_SEAT, 0, "Seat {seat}: {name} ({amount} in chips, {notparen}) out of hand{rest}", {0}},
    {SE_HIST_SEAT, 0, "Seat {seat}: {name} ({amount} in chips, {notparen})", {0}},
    {SE_HIST_SEAT, 0, "Seat {seat}: {name} ({amount} in chips) is sitting out", {0}},
    {SE_HIST_SEAT, 0, "Seat {seat}: {name} ({amount} in chips) out of hand{rest}", {0}},
    {SE_HIST_SEAT, 0, "Seat {seat}: {name} ({amount} in chips)", {0}},
    {SE_HIST_STREET, 3, "*** 3rd STREET ***{rest}", {0}},
    {SE_HIST_STREET, 4, "*** 4th STREET ***{rest}", {0}},
    {SE_HIST_STREET, 5, "*** 5th STREET ***{rest}", {0}},
    {SE_HIST_STREET, 6, "*** 6th STREET ***{rest}", {0}},
    {SE_HIST_STREET, 7, "*** RIVER ***{rest}", {0}},
    {SE_HIST_STREET, 8, "*** SHOW DOWN ***{rest}", {0}},
    {SE_HIST_STREET, 9, "*** SUMMARY ***{rest}", {0}},
    {SE_HIST_REVEAL, 0, "{name}: shows {cards}{rest}", {0}},
    {SE_HIST_REVEAL, 0, "Seat {seat}: {name} ({notparen}) showed {cards}{rest}", {0}},
    {SE_HIST_REVEAL, 0, "Seat {seat}: {name} ({notparen}) mucked {cards}{rest}", {0}},
    {SE_HIST_REVEAL, 0, "Seat {seat}: {name} showed {cards}{rest}", {0}},
    {SE_HIST_REVEAL, 0, "Seat {seat}: {name} mucked {cards}{rest}", {0}},
    {SE_HIST_TOTAL, 0, "Total pot {amount} {text}| Rake {to}", {0}},
    {SE_HIST_TOTAL, 0, "Total pot {amount}{rest}", {0}},
    {SE_HIST_STRICT, 0, ": ", {0}},
    {SE_HIST_ANTE, 0, "{name}: posts the ante {amount}{? and is all-in}", {0}},
    {SE_HIST_DEAL, 0, "Dealt to {name} {allcards}", {0}},
    {SE_HIST_BRING_IN, 0, "{name}: brings in for {amount}{? and is all-in}", {0}},
    {SE_HIST_COMPLETE, 0, "{name}: completes it to {to}{? and is all-in}", {0}},
    {SE_HIST_BET, 0, "{name}: bets {amount}{? and is all-in}", {0}},
    {SE_HIST_RAISE, 0, "{name}: raises {amount} to {to}{? and is all-in}", {0}},
    {SE_HIST_CALL, 0, "{name}: calls {amount}{? and is all-in}", {0}},
    {SE_HIST_CHECK, 0, "{name}: checks", {0}},
    {SE_HIST_FOLD, 0, "{name}: folds {allcards}", {0}},
    {SE_HIST_FOLD, 0, "{name}: folds", {0}},
    {SE_HIST_RETURN, 0, "Uncalled bet ({amount}) returned to {name}", {0}},
    {SE_HIST_SHOW, 0, "{name}: shows {cards}{rest}", {0}},
    {SE_HIST_MUCK, 0, "{name}: mucks hand{rest}", {0}},
    {SE_HIST_MUCK, 0, "{name}: doesn't show hand{rest}", {0}},
    {SE_HIST_COLLECT, 0, "{name} collected {amount} from the main pot{rest}", {0}},
    {SE_HIST_COLLECT, 0, "{name} collected {amount} from the side pot{rest}", {0}},
    {SE_HIST_COLLECT, 0, "{name} collected {amount} from the pot{rest}", {0}},
    {SE_HIST_COLLECT, 0, "{name} collected {amount} from main pot{rest}", {0}},
    {SE_HIST_COLLECT, 0, "{name} collected {amount} from side pot{rest}", {0}},
    {SE_HIST_COLLECT, 0, "{name} collected {amount} from pot{rest}", {0}},
};

/* The Winning Poker Network's templates (winning.py; its summary's "won" lines and a
 * total pot after the rake), for a text that starts "Hand #". */
static se_hist_template winning_templates[] = {
    {SE_HIST_SEAT, 0, "Seat {seat}: {name} ({amount}) is sitting out", {0}},
    {SE_HIST_SEAT, 0, "Seat {seat}: {name} ({amount})", {0}},
    {SE_HIST_STREET, 3, "*** 3rd STREET ***{rest}", {0}},
    {SE_HIST_STREET, 4, "*** 4th STREET ***{rest}", {0}},
    {SE_HIST_STREET, 5, "*** 5th STREET ***{rest}", {0}},
    {SE_HIST_STREET, 6, "*** 6th STREET ***{rest}", {0}},
    {SE_HIST_STREET, 7, "*** 7th STREET ***{rest}", {0}},
    {SE_HIST_STREET, 8, "*** SHOW DOWN ***{rest}", {0}},
    {SE_HIST_STREET, 8, "*** SHOWDOWN ***{rest}", {0}},
    {SE_HIST_STREET, 9, "*** SUMMARY ***{rest}", {0}},
    {SE_HIST_REVEAL, 0, "{name} shows {cards}{rest}", {0}},
    {SE_HIST_REVEAL, 0, "Seat {seat}: {name} ({notparen}) showed {cards}{rest}", {0}},
    {SE_HIST_REVEAL, 0, "Seat {seat}: {name} ({notparen}) mucked {cards}{rest}", {0}},
    {SE_HIST_REVEAL, 0, "Seat {seat}: {name} showed {cards}{rest}", {0}},
    {SE_HIST_REVEAL, 0, "Seat {seat}: {name} mucked {cards}{rest}", {0}},
    {SE_HIST_TOTAL, 0, "Total pot {amount} | Rake {to}", {0}},
    {SE_HIST_TOTAL, 0, "Total pot {amount}", {0}},
    {SE_HIST_WON, 0, "Seat {seat}: {name} ({notparen}) did not show and won {amount}{rest}", {0}},
    {SE_HIST_WON, 0, "Seat {seat}: {name} ({notparen}) did not show and collected {amount}{rest}", {0}},
    {SE_HIST_WON, 0, "Seat {seat}: {name} ({notparen}) showed {cards} and won {amount}{rest}", {0}},
    {SE_HIST_WON, 0, "Seat {seat}: {name} ({notparen}) showed {cards} and collected {amount}{rest}", {0}},
    {SE_HIST_WON, 0, "Seat {seat}: {name} did not show and won {amount}{rest}", {0}},
    {SE_HIST_WON, 0, "Seat {seat}: {name} did not show and collected {amount}{rest}", {0}},
    {SE_HIST_WON, 0, "Seat {seat}: {name} showed {cards} and won {amount}{rest}", {0}},
    {SE_HIST_WON, 0, "Seat {seat}: {name} showed {cards} and collected {amount}{rest}", {0}},
    {SE_HIST_STRICT, 0, " ", {0}},
    {SE_HIST_ANTE, 0, "{name} posts ante {amount}{? and is all-in}", {0}},
    {SE_HIST_DEAL, 0, "Dealt to {name} {allcards}", {0}},
    {SE_HIST_BRING_IN, 0, "{name} brings in low {amount}{? and is all-in}", {0}},
    {SE_HIST_BRING_IN, 0, "{name} brings in {amount}{? and is all-in}", {0}},
    {SE_HIST_BRING_IN, 0, "{name} brings-in low {amount}{? and is all-in}", {0}},
    {SE_HIST_BRING_IN, 0, "{name} brings-in {amount}{? and is all-in}", {0}},
    {SE_HIST_BET, 0, "{name} bets {amount}{? and is all-in}", {0}},
    {SE_HIST_RAISE, 0, "{name} raises {money} to {to}{? and is all-in}", {0}},
    {SE_HIST_CALL, 0, "{name} calls {amount}{? and is all-in}", {0}},
    {SE_HIST_CHECK, 0, "{name} checks", {0}},
    {SE_HIST_FOLD, 0, "{name} folds", {0}},
    {SE_HIST_RETURN, 0, "Uncalled bet ({amount}) returned to {name}", {0}},
    {SE_HIST_SHOW, 0, "{name} shows {cards}{rest}", {0}},
    {SE_HIST_MUCK, 0, "{name} mucks hand{rest}", {0}},
    {SE_HIST_MUCK, 0, "{name} does not show{rest}", {0}},
    {SE_HIST_COLLECT, 0, "{name} collected {amount} from {text}pot{rest}", {0}},
};

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
    static se_hist_grammar stars, winning;
    if (!stars.compiled) {
        stars.templates = templates;
        stars.count = (int)(sizeof templates / sizeof *templates);
        winning.templates = winning_templates;
        winning.count = (int)(sizeof winning_templates / sizeof *winning_templates);
        winning.flags = SE_HIST_POT_AFTER_RAKE;
        if (se_hist_compile(&stars) != SE_OK || se_hist_compile(&winning) != SE_OK)
            die("the templates do not compile");
    }
    const se_hist_grammar *g = size >= 6 && memcmp(data, "Hand #", 6) == 0 ? &winning : &stars;
    char *text = malloc(size ? size : 1);
    se_hist_hand *h = malloc(sizeof *h);
    if (text == NULL || h == NULL) die("no memory");
    if (size) memcpy(text, data, size);
    int status = se_hist_read(g, text, size, h);
    if (status != SE_OK && status != SE_HIST_UNSURE) die("read status");
    if (status == SE_OK) {
        check_read(h, size);
        status = se_hist_prepare(h, "$0.04", 5, "$0.08", 5);
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
