/* Tables stepped on a team of threads against the same tables on one thread: every
 * array equal after every step, chips kept, the team's worker the same from step to
 * step. Run by tools/fuzz.py under AddressSanitizer+UBSan and ThreadSanitizer:
 *
 *     tables_check TABLES STEPS SEED    prints "ok ..." or fails
 */
#include "studeval.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEATS 5

typedef struct arrays {
    se_tables_view view;
    void *blocks[15];
} arrays;

static void *zeroed(arrays *a, int k, size_t bytes) {
    a->blocks[k] = calloc(bytes, 1);
    if (a->blocks[k] == NULL) {
        fprintf(stderr, "tables_check: out of memory\n");
        exit(2);
    }
    return a->blocks[k];
}

static void make(arrays *a, size_t n) {
    se_tables_view *v = &a->view;
    v->actor = zeroed(a, 0, n);
    v->legal = zeroed(a, 1, n * SE_TABLE_ACTIONS);
    v->totals = zeroed(a, 2, n * SE_TABLE_ACTIONS * 8);
    v->street = zeroed(a, 3, n);
    v->pot = zeroed(a, 4, n * 8);
    v->to_call = zeroed(a, 5, n * 8);
    v->stacks = zeroed(a, 6, n * SEATS * 8);
    v->bets = zeroed(a, 7, n * SEATS * 8);
    v->folded = zeroed(a, 8, n * SEATS);
    v->cards = zeroed(a, 9, n * SEATS * 7);
    v->up = zeroed(a, 10, n * SEATS * 7);
    v->history = zeroed(a, 11, n * 5 * SE_TABLE_HISTORY);
    v->rewards = zeroed(a, 12, n * SEATS * 8);
    v->done = zeroed(a, 13, n);
    v->hands_played = zeroed(a, 14, n * 8);
}

static int same(const arrays *a, const arrays *b, size_t n) {
    const size_t bytes[15] = {n, n * SE_TABLE_ACTIONS, n * SE_TABLE_ACTIONS * 8, n, n * 8, n * 8,
                              n * SEATS * 8, n * SEATS * 8, n * SEATS, n * SEATS * 7,
                              n * SEATS * 7, n * 5 * SE_TABLE_HISTORY, n * SEATS * 8, n, n * 8};
    for (int k = 0; k < 15; k++)
        if (memcmp(a->blocks[k], b->blocks[k], bytes[k]) != 0) return 0;
    return 1;
}

int main(int argc, char **argv) {
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 4096;
    long steps = argc > 2 ? atol(argv[2]) : 50;
    uint64_t state = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    se_table_rules rules;
    memset(&rules, 0, sizeof rules);
    rules.seats = SEATS, rules.ante = 1, rules.bring_in = 2, rules.small_bet = 5;
    rules.big_bet = 10, rules.open_pair = 1, rules.rake = 3;
    se_settle_rules settle;
    memset(&settle, 0, sizeof settle);
    settle.game = SE_GAME_STUD8, settle.chip = 1;
    const int64_t stacks[SEATS] = {40, 60, 80, 100, 300};
    arrays one, two;
    make(&one, n);
    make(&two, n);
    se_tables alone, team;
    if (se_tables_init(&alone, n, &rules, &settle, 7, &one.view) != SE_OK ||
        se_tables_init(&team, n, &rules, &settle, 7, &two.view) != SE_OK ||
        se_tables_start(&alone, stacks) != SE_OK || se_tables_start(&team, stacks) != SE_OK) {
        fprintf(stderr, "tables_check: could not set up the tables\n");
        return 1;
    }
    int64_t *actions = calloc(n, sizeof *actions);
    long hands = 0;
    int64_t raked = 0;
    size_t started = 0;
    for (long step = 0; step < steps; step++) {
        /* Half way, every table dealt afresh from another seed, in both sets. */
        if (step == steps / 2 && (se_tables_reset(&alone, 9) != SE_OK ||
                                  se_tables_reset(&team, 9) != SE_OK || !same(&one, &two, n))) {
            fprintf(stderr, "tables_check: the reset tables differ\n");
            return 1;
        }
        for (size_t i = 0; i < n; i++) { /* an allowed action, drawn by splitmix64 */
            uint64_t z = (state += 0x9E3779B97F4A7C15ull);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            int allowed[SE_TABLE_ACTIONS], count = 0;
            for (int a = 0; a < SE_TABLE_ACTIONS; a++)
                if (one.view.legal[i * SE_TABLE_ACTIONS + a]) allowed[count++] = a;
            if (count == 0) {
                fprintf(stderr, "tables_check: table %zu has no action\n", i);
                return 1;
            }
            actions[i] = allowed[(z >> 33) % (uint64_t)count];
        }
        int workers_alone = 0, workers_team = 0;
        size_t bad = 0;
        if (se_tables_step(&alone, actions, 1, &workers_alone, &bad) != SE_OK ||
            se_tables_step(&team, actions, 2, &workers_team, &bad) != SE_OK) {
            fprintf(stderr, "tables_check: step %ld failed at table %zu\n", step, bad);
            return 1;
        }
        if (workers_alone != 1 || workers_team != 2) {
            fprintf(stderr, "tables_check: %d and %d workers ran\n", workers_alone, workers_team);
            return 1;
        }
        if (step == 0) started = se_threads_started();
        if (!same(&one, &two, n)) {
            fprintf(stderr, "tables_check: the team's tables differ after step %ld\n", step);
            return 1;
        }
        for (size_t i = 0; i < n; i++) {
            if (!one.view.done[i]) continue;
            int64_t sum = 0;
            for (int s = 0; s < SEATS; s++) sum += one.view.rewards[i * SEATS + s];
            if (sum > 0 || sum < -rules.rake) { /* what the seats lost is at most the rake */
                fprintf(stderr, "tables_check: table %zu's hand moved %lld chips\n", i,
                        (long long)sum);
                return 1;
            }
            hands++, raked -= sum;
        }
    }
    if (se_threads_started() != started) {
        fprintf(stderr, "tables_check: the team started threads after its first step\n");
        return 1;
    }
    se_tables_free(&alone);
    se_tables_free(&team);
    for (int k = 0; k < 15; k++) free(one.blocks[k]), free(two.blocks[k]);
    free(actions);
    printf("ok %zu tables x %ld steps on 1 and 2 threads equal: %ld hands, %lld chips raked\n",
           n, steps, hands, (long long)raked);
    return 0;
}
