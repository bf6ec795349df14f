/* The solver on 1 and 2 threads: the same strategies after the same iterations (the
 * folds and showdowns spread over threads write apart), every strategy row adding to
 * 1, the values adding to the pot, and each best response worth at least the seat's
 * value. A sixth-street spot of random pairs, each with every seventh card. Run by
 * tools/fuzz.py under AddressSanitizer+UBSan and ThreadSanitizer:
 *
 *     solve_check ITERATIONS SEED    prints "ok ..." or fails
 */
#include "studeval.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what) {
    fprintf(stderr, "solve_check: %s\n", what);
    exit(1);
}

static uint64_t next_random(uint64_t *state) {
    *state ^= *state << 13, *state ^= *state >> 7, *state ^= *state << 17;
    return *state;
}

#define PAIRS 12

int main(int argc, char **argv) {
    int iterations = argc > 1 ? atoi(argv[1]) : 200;
    uint64_t state = argc > 2 ? strtoull(argv[2], NULL, 10) * 2654435761u + 1 : 1;
    /* Up cards: seat 0 Ac Kd 7h 2s, seat 1 Qc Jd 9h 4s; every other card is free. */
    static const uint8_t up[2][4] = {{48, 45, 22, 3}, {40, 37, 30, 11}};
    uint64_t used = 0;
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < 4; k++) used |= 1ull << up[p][k];
    uint8_t *hidden[2];
    int *group[2], count[2] = {0, 0};
    for (int p = 0; p < 2; p++) {
        hidden[p] = malloc(PAIRS * 44 * 3);
        group[p] = malloc(PAIRS * 44 * sizeof(int));
        if (hidden[p] == NULL || group[p] == NULL) fail("out of memory");
        for (int g = 0; g < PAIRS; g++) {
            uint8_t a, b;
            do {
                a = (uint8_t)(next_random(&state) % 52), b = (uint8_t)(next_random(&state) % 52);
            } while (a == b || (used >> a & 1) || (used >> b & 1));
            for (int c = 0; c < 52; c++) {
                if ((used >> c & 1) || c == a || c == b) continue;
                uint8_t *row = hidden[p] + (size_t)count[p] * 3;
                row[0] = a, row[1] = b, row[2] = (uint8_t)c;
                group[p][count[p]++] = g;
            }
        }
    }
    /* A small tree, not a full street's: on sixth street (tied) seat 0 checks or bets
     * 10 and seat 1 answers; a call or two checks go on to seventh street, where seat 0
     * checks or bets and a bet is called or folded, some of them at once. */
    se_solve_node nodes[19];
    nodes[0] = (se_solve_node){SE_SOLVE_ACT, 0, 1, 2, 1, {0, 0}};          /* check, bet */
    nodes[1] = (se_solve_node){SE_SOLVE_ACT, 1, 3, 2, 1, {0, 0}};          /* x: check, bet */
    nodes[2] = (se_solve_node){SE_SOLVE_ACT, 1, 5, 2, 1, {0, 0}};          /* b: fold, call */
    nodes[3] = (se_solve_node){SE_SOLVE_ACT, 0, 7, 2, 0, {0, 0}};          /* xx: seventh */
    nodes[4] = (se_solve_node){SE_SOLVE_ACT, 0, 9, 2, 1, {0, 0}};          /* xb: fold, call */
    nodes[5] = (se_solve_node){SE_SOLVE_FOLD, 1, 0, 0, 0, {10, 0}};        /* bf */
    nodes[6] = (se_solve_node){SE_SOLVE_ACT, 0, 11, 2, 0, {0, 0}};         /* bc: seventh */
    nodes[7] = (se_solve_node){SE_SOLVE_SHOWDOWN, 0, 0, 0, 0, {0, 0}};     /* xx x */
    nodes[8] = (se_solve_node){SE_SOLVE_SHOWDOWN, 0, 0, 0, 0, {10, 10}};   /* xx b (called) */
    nodes[9] = (se_solve_node){SE_SOLVE_FOLD, 0, 0, 0, 0, {0, 10}};        /* xb f */
    nodes[10] = (se_solve_node){SE_SOLVE_ACT, 0, 13, 2, 0, {10, 10}};      /* xb c: seventh */
    nodes[11] = (se_solve_node){SE_SOLVE_SHOWDOWN, 0, 0, 0, 0, {10, 10}};  /* bc x */
    nodes[12] = (se_solve_node){SE_SOLVE_ACT, 1, 15, 2, 0, {20, 10}};      /* bc b: fold, call */
    nodes[13] = (se_solve_node){SE_SOLVE_SHOWDOWN, 0, 0, 0, 0, {10, 10}};  /* xbc x */
    nodes[14] = (se_solve_node){SE_SOLVE_ACT, 1, 17, 2, 0, {20, 10}};      /* xbc b: fold, call */
    nodes[15] = (se_solve_node){SE_SOLVE_FOLD, 1, 0, 0, 0, {20, 10}};
    nodes[16] = (se_solve_node){SE_SOLVE_SHOWDOWN, 0, 0, 0, 0, {20, 20}};
    nodes[17] = (se_solve_node){SE_SOLVE_FOLD, 1, 0, 0, 0, {20, 10}};
    nodes[18] = (se_solve_node){SE_SOLVE_SHOWDOWN, 0, 0, 0, 0, {20, 20}};
    int n = 19;
    se_solve_spot spot;
    memset(&spot, 0, sizeof spot);
    spot.game = SE_GAME_STUD8;
    spot.pot = 30.0;
    memcpy(spot.up, up, sizeof spot.up);
    for (int p = 0; p < 2; p++) {
        spot.count[p] = count[p];
        spot.hidden[p] = hidden[p];
        spot.group[p] = group[p];
        spot.n_groups[p] = PAIRS;
    }
    spot.n_nodes = n;
    spot.nodes = nodes;
    se_solver *one = NULL, *two = NULL;
    if (se_solve_new(&spot, &one) != SE_OK || se_solve_new(&spot, &two) != SE_OK) fail("new");
    if (se_solve_run(one, iterations, 1, NULL) != SE_OK) fail("one thread");
    if (se_solve_run(two, iterations, 2, NULL) != SE_OK) fail("two threads");
    size_t size = 0;
    double *all = malloc((size_t)count[0] * 2 * 19 * sizeof(double) + 64);
    double *a = malloc((size_t)count[0] * 2 * sizeof(double) + 64);
    double *b = malloc((size_t)count[0] * 2 * sizeof(double) + 64);
    if (all == NULL || a == NULL || b == NULL) fail("out of memory");
    for (int i = 0; i < n; i++) {
        if (nodes[i].kind != SE_SOLVE_ACT) continue;
        int rows = nodes[i].tied ? PAIRS : count[nodes[i].seat];
        if (se_solve_strategy(one, i, a) != SE_OK || se_solve_strategy(two, i, b) != SE_OK)
            fail("strategy");
        if (memcmp(a, b, (size_t)rows * 2 * sizeof(double)) != 0)
            fail("two threads' strategies differ from one thread's");
        for (int r = 0; r < rows; r++)
            if (fabs(a[2 * r] + a[2 * r + 1] - 1.0) > 1e-12) fail("a strategy row");
        memcpy(all + size, a, (size_t)rows * 2 * sizeof(double));
        size += (size_t)rows * 2;
    }
    double value[2], best[2];
    if (se_solve_values(one, value, NULL, NULL, NULL, NULL) != SE_OK) fail("values");
    if (fabs(value[0] + value[1] - spot.pot) > 1e-9) fail("the values do not add to the pot");
    if (se_solve_best_response(&spot, all, best) != SE_OK) fail("best response");
    if (best[0] < value[0] - 1e-9 || best[1] < value[1] - 1e-9) fail("a best response below");
    printf("ok %d iterations equal on 1 and 2 threads; exploitability %.4f of a pot of %.0f\n",
           iterations, (best[0] + best[1] - spot.pot) / 2, spot.pot);
    se_solve_free(one);
    se_solve_free(two);
    free(all), free(a), free(b);
    for (int p = 0; p < 2; p++) free(hidden[p]), free(group[p]);
    return 0;
}
