/* libFuzzer harness over the solver (se_solve_new, run, strategy, values and the best
 * response).
 *
 * The input chooses the game (now and then out of range), the pot, each seat's up
 * cards, combinations (any bytes), weights and groups (any), and a tree of nodes (any
 * kinds, seats, children, tied flags and chips). The C core must refuse what is bad
 * with a status and never touch memory outside the arrays it is given
 * (AddressSanitizer watches; every array is an exact-size heap block). When a spot is
 * accepted, a few iterations run on 1 and 2 threads alike, each strategy row adds to
 * 1, the values add to the pot, and each best response is worth at least the value.
 * Build and run: tools/fuzz.py (clang -fsanitize=fuzzer,address,undefined). */
#include "studeval.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what) {
    fprintf(stderr, "fuzz_solve: %s\n", what);
    abort();
}

static uint8_t next(const uint8_t **data, size_t *size) {
    if (*size == 0) return 0;
    (*size)--;
    return *(*data)++;
}

static double next_double(const uint8_t **data, size_t *size) {
    uint8_t raw[8];
    double value;
    for (int b = 0; b < 8; b++) raw[b] = next(data, size);
    memcpy(&value, raw, sizeof value);
    return value;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    se_solve_spot spot;
    memset(&spot, 0, sizeof spot);
    spot.game = (se_game)(next(&data, &size) % 4); /* 3: refused */
    spot.pot = (double)next(&data, &size);
    if (next(&data, &size) == 255) spot.pot = next_double(&data, &size); /* any double */
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < 4; k++) spot.up[p][k] = next(&data, &size) % 54; /* 52, 53: bad */
    uint8_t *hidden[2] = {NULL, NULL};
    double *weights[2] = {NULL, NULL};
    int *group[2] = {NULL, NULL};
    for (int p = 0; p < 2; p++) {
        int count = next(&data, &size) % 9; /* 0: refused */
        spot.count[p] = count;
        hidden[p] = (uint8_t *)malloc(count > 0 ? (size_t)count * 3 : 1);
        for (int i = 0; i < count * 3; i++) hidden[p][i] = next(&data, &size) % 53;
        spot.hidden[p] = hidden[p];
        uint8_t flags = next(&data, &size);
        if (flags & 1) {
            weights[p] = (double *)malloc(count > 0 ? (size_t)count * sizeof(double) : 1);
            for (int i = 0; i < count; i++)
                weights[p][i] = flags & 4 ? next_double(&data, &size) : next(&data, &size) / 16.0;
            spot.weights[p] = weights[p];
        }
        if (flags & 2) {
            group[p] = (int *)malloc(count > 0 ? (size_t)count * sizeof(int) : 1);
            spot.n_groups[p] = next(&data, &size) % 5;
            for (int i = 0; i < count; i++) group[p][i] = (int8_t)next(&data, &size) % 5;
            spot.group[p] = group[p];
        }
    }
    int n = 1 + next(&data, &size) % 12;
    se_solve_node *nodes = (se_solve_node *)malloc((size_t)n * sizeof *nodes);
    for (int i = 0; i < n; i++) {
        nodes[i].kind = next(&data, &size) % 4; /* 3: refused */
        nodes[i].seat = next(&data, &size) % 3; /* 2: refused */
        nodes[i].first_child = (int8_t)next(&data, &size) % 14;
        nodes[i].n_children = next(&data, &size) % 5;
        nodes[i].tied = next(&data, &size) % 3; /* 2: refused */
        nodes[i].put[0] = next(&data, &size);
        nodes[i].put[1] = next(&data, &size);
    }
    spot.n_nodes = n;
    spot.nodes = nodes;

    se_solver *one = NULL, *two = NULL;
    se_status status = se_solve_new(&spot, &one);
    if (status == SE_OK) {
        if (se_solve_new(&spot, &two) != SE_OK) die("the same spot refused the second time");
        int iterations = 1 + next(&data, &size) % 4;
        if (se_solve_run(one, iterations, 1, NULL) != SE_OK) die("run, 1 thread");
        if (se_solve_run(two, iterations, 2, NULL) != SE_OK) die("run, 2 threads");
        size_t total = 0;
        for (int i = 0; i < n; i++) {
            if (nodes[i].kind != SE_SOLVE_ACT) continue;
            int rows = nodes[i].tied && group[nodes[i].seat] ? spot.n_groups[nodes[i].seat]
                                                             : spot.count[nodes[i].seat];
            total += (size_t)rows * (size_t)nodes[i].n_children;
        }
        double *all = (double *)malloc((total > 0 ? total : 1) * sizeof(double));
        double *other = (double *)malloc((total > 0 ? total : 1) * sizeof(double));
        size_t at = 0;
        for (int i = 0; i < n; i++) {
            if (nodes[i].kind != SE_SOLVE_ACT) continue;
            int k = nodes[i].n_children;
            int rows = nodes[i].tied && group[nodes[i].seat] ? spot.n_groups[nodes[i].seat]
                                                             : spot.count[nodes[i].seat];
            if (se_solve_strategy(one, i, all + at) != SE_OK) die("strategy");
            if (se_solve_strategy(two, i, other + at) != SE_OK) die("strategy, 2 threads");
            for (int r = 0; r < rows; r++) {
                double sum = 0.0;
                for (int c = 0; c < k; c++) sum += all[at + (size_t)r * k + c];
                if (!(fabs(sum - 1.0) < 1e-9)) die("a strategy row does not add to 1");
            }
            at += (size_t)rows * (size_t)k;
        }
        if (memcmp(all, other, total * sizeof(double)) != 0) die("2 threads differ from 1");
        double value[2], best[2];
        if (se_solve_values(one, value, NULL, NULL, NULL, NULL) != SE_OK) die("values");
        if (!(fabs(value[0] + value[1] - spot.pot) <= 1e-6 * (1.0 + spot.pot)))
            die("the values do not add to the pot");
        if (se_solve_best_response(&spot, all, best) != SE_OK) die("best response");
        double slack = 1e-6 * (1.0 + spot.pot + 1024.0);
        if (best[0] < value[0] - slack || best[1] < value[1] - slack) die("a best response below");
        free(all);
        free(other);
    } else if (one != NULL) {
        die("a refused spot returned a solver");
    }
    se_solve_free(one);
    se_solve_free(two);
    for (int p = 0; p < 2; p++) {
        free(hidden[p]);
        free(weights[p]);
        free(group[p]);
    }
    free(nodes);
    return 0;
}
