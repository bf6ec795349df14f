/* libFuzzer harness over the solver (se_solve_new, run, strategy, values and the best
 * response).
 *
 * The input chooses the game (now and then out of range), the pot, each seat's up
 * cards, combinations (any bytes), weights and groups (any), a tree of nodes (any
 * kinds, seats, children, tied flags and chips; chance nodes among them) and the
 * boards (none, a few, a count out of range or no array; their cards distinct, or any
 * bytes). The C core must refuse what is bad with a status and never touch memory
 * outside the arrays it is given (AddressSanitizer watches; every array is an
 * exact-size heap block, and the boards given to se_solve_new are freed once both
 * solvers exist: they are copied). This file reads the tree's boards by studeval.h's
 * rules on its own: a tree whose chance nodes cannot share their boards equally, or
 * with a showdown under more than one board, is refused (SE_BAD_ARGUMENT when every
 * card is good), and an accepted tree is neither. When a spot is accepted, a few
 * iterations run on 1 and 2 threads alike, each strategy row adds to 1, the values are
 * finite and add to the pot, each best response is worth at least the value, and a
 * combination holding a card of every board of a node is never dealt there: its row
 * (or its group's, when every member's is so) stays uniform, and one holding a card
 * of every board is met by nothing (ev NaN).
 * Build and run: tools/fuzz.py (clang -fsanitize=fuzzer,address,undefined). */
#include "studeval.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NODES 16
#define MAX_BOARDS 8

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

/* The cards' bits, or 0 when one is out of range or comes twice. */
static uint64_t distinct_bits(const uint8_t *cards, int n) {
    uint64_t bits = 0;
    for (int k = 0; k < n; k++) {
        if (cards[k] >= 52 || (bits >> cards[k] & 1)) return 0;
        bits |= 1ull << cards[k];
    }
    return bits;
}

/* Each board's 8 cards: with `any`, bytes that may be out of range or repeat; else
 * distinct, each byte choosing among the cards not yet on the board. */
static void draw_boards(uint8_t *boards, int n, int any, const uint8_t **data, size_t *size) {
    for (int b = 0; b < n; b++) {
        uint64_t taken = 0;
        for (int k = 0; k < 8; k++) {
            int pick = next(data, size);
            if (any) {
                boards[b * 8 + k] = (uint8_t)(pick % 54); /* 52, 53: bad */
                continue;
            }
            pick %= 52 - k;
            int card = 0;
            for (;; card++)
                if (!(taken >> card & 1) && pick-- == 0) break;
            boards[b * 8 + k] = (uint8_t)card;
            taken |= 1ull << card;
        }
    }
}

/* Each node's boards (first, count) by the rules of studeval.h, boards == 0 read as
 * one. -1: not a tree at all (children out of order or range, a node not one parent's
 * child, an unknown kind), 0: a tree whose boards do not split (a chance node's count
 * of children does not divide its boards, a showdown without exactly one), 1: fine. */
static int split_boards(const se_solve_node *nodes, int n, int boards, int *first, int *count) {
    int parents[MAX_NODES] = {0};
    for (int i = 0; i < n; i++) {
        const se_solve_node *node = &nodes[i];
        if (node->kind < 0 || node->kind > SE_SOLVE_CHANCE) return -1;
        if (node->kind != SE_SOLVE_ACT && node->kind != SE_SOLVE_CHANCE) continue;
        if (node->n_children < 1 || node->first_child <= i ||
            node->first_child + node->n_children > n)
            return -1;
        for (int c = 0; c < node->n_children; c++) parents[node->first_child + c]++;
    }
    for (int i = 0; i < n; i++)
        if (parents[i] != (i > 0)) return -1;
    int fine = 1;
    first[0] = 0, count[0] = boards > 0 ? boards : 1;
    for (int i = 0; i < n; i++) { /* a parent comes before its children */
        const se_solve_node *node = &nodes[i];
        if (node->kind == SE_SOLVE_SHOWDOWN && count[i] != 1) fine = 0;
        if (node->kind != SE_SOLVE_ACT && node->kind != SE_SOLVE_CHANCE) continue;
        int k = node->n_children, chance = node->kind == SE_SOLVE_CHANCE;
        if (chance && count[i] % k != 0) fine = 0;
        for (int c = 0; c < k; c++) {
            first[node->first_child + c] = first[i] + (chance ? c * (count[i] / k) : 0);
            count[node->first_child + c] = chance ? count[i] / k : count[i];
        }
    }
    return fine;
}

/* Whether combination h holds a card of each of boards first .. first + count - 1. */
static int kept_out(const uint8_t *hidden, int h, const uint64_t *board_bits, int first,
                    int count) {
    uint64_t held = 0;
    for (int k = 0; k < 3; k++) held |= 1ull << (hidden[h * 3 + k] % 64);
    for (int b = first; b < first + count; b++)
        if (!(held & board_bits[b])) return 0;
    return 1;
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
    int n = 1 + next(&data, &size) % MAX_NODES;
    se_solve_node *nodes = (se_solve_node *)malloc((size_t)n * sizeof *nodes);
    for (int i = 0; i < n; i++) {
        nodes[i].kind = next(&data, &size) % 5; /* 4: refused */
        nodes[i].seat = next(&data, &size) % 3; /* 2: refused */
        nodes[i].first_child = (int8_t)next(&data, &size) % (MAX_NODES + 2);
        nodes[i].n_children = next(&data, &size) % 5;
        nodes[i].tied = next(&data, &size) % 3; /* 2: refused */
        nodes[i].put[0] = next(&data, &size);
        nodes[i].put[1] = next(&data, &size);
    }
    spot.n_nodes = n;
    spot.nodes = nodes;
    /* The boards: 0 (the one board is `up`), 1 .. MAX_BOARDS, or refused: a count below
     * 1 or above SE_SOLVE_MAX_BOARDS (with a block of a few boards: the solver must read
     * none of it), or a count and no array. */
    int how = next(&data, &size) % (MAX_BOARDS + 4), any = next(&data, &size) % 4 == 3;
    int n_boards = how <= MAX_BOARDS ? how : 1 + next(&data, &size) % MAX_BOARDS;
    if (how == MAX_BOARDS + 1) spot.n_boards = -1 - next(&data, &size);
    else if (how == MAX_BOARDS + 2) spot.n_boards = SE_SOLVE_MAX_BOARDS + 1;
    else spot.n_boards = n_boards;
    uint8_t *boards = NULL, *kept = NULL; /* the solver's, and this file's copy */
    if (how != MAX_BOARDS + 3 && n_boards > 0) {
        boards = (uint8_t *)malloc((size_t)n_boards * 8);
        kept = (uint8_t *)malloc((size_t)n_boards * 8);
        draw_boards(boards, n_boards, any, &data, &size);
        memcpy(kept, boards, (size_t)n_boards * 8);
    }
    spot.boards = boards;

    /* This file's verdicts: the boards' split, and whether every card is good. */
    int first[MAX_NODES], count[MAX_NODES], tree = -1, cards_good = 1;
    uint64_t board_bits[MAX_BOARDS], up = 0;
    int sane_boards = how <= MAX_BOARDS; /* a count in range, with its array */
    if (sane_boards) tree = split_boards(nodes, n, spot.n_boards, first, count);
    for (int b = 0; b < n_boards && boards != NULL; b++)
        if ((board_bits[b] = distinct_bits(boards + b * 8, 8)) == 0) cards_good = 0;
    if (spot.n_boards == 0) {
        up = distinct_bits(&spot.up[0][0], 8);
        board_bits[0] = up;
        if (up == 0) cards_good = 0;
    }
    int holds_up = 0; /* a combination holding an up card, with no boards */
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < spot.count[p]; i++) {
            uint64_t held = distinct_bits(hidden[p] + i * 3, 3);
            if (held == 0) cards_good = 0;
            if (spot.n_boards == 0 && (held & up)) holds_up = 1;
        }
    if (holds_up) cards_good = 0; /* refused: SE_DUPLICATE_CARD */

    se_solver *one = NULL, *two = NULL;
    se_status status = se_solve_new(&spot, &one);
    if (status == SE_OK) {
        if (se_solve_new(&spot, &two) != SE_OK) die("the same spot refused the second time");
        free(boards); /* copied: the solvers must not read it again */
        boards = NULL;
        spot.boards = kept;
        if (tree != 1) die("a tree whose boards do not split (or no tree) accepted");
        if (holds_up) die("a combination holding an up card accepted");
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
            int k = nodes[i].n_children, seat = nodes[i].seat;
            int grouped = nodes[i].tied && group[seat];
            int rows = grouped ? spot.n_groups[seat] : spot.count[seat];
            if (se_solve_strategy(one, i, all + at, (size_t)rows * k) != SE_OK) die("strategy");
            if (se_solve_strategy(two, i, other + at, (size_t)rows * k) != SE_OK)
                die("strategy, 2 threads");
            for (int r = 0; r < rows; r++) {
                double sum = 0.0;
                for (int c = 0; c < k; c++) sum += all[at + (size_t)r * k + c];
                if (!(fabs(sum - 1.0) < 1e-9)) die("a strategy row does not add to 1");
                /* Every member kept out of every board of the node: never dealt there,
                 * nothing won or lost below, the row's regrets stay 0. */
                int members = 0, dealt = 0;
                for (int h = 0; h < spot.count[seat]; h++) {
                    if ((grouped ? group[seat][h] : h) != r) continue;
                    members++;
                    if (!kept_out(hidden[seat], h, board_bits, first[i], count[i])) dealt = 1;
                }
                for (int c = 0; c < k && members > 0 && !dealt; c++)
                    if (!(fabs(all[at + (size_t)r * k + c] - 1.0 / k) <= 1e-12))
                        die("a row never dealt at its node is not uniform");
            }
            at += (size_t)rows * (size_t)k;
        }
        if (memcmp(all, other, total * sizeof(double)) != 0) die("2 threads differ from 1");
        double value[2], best[2];
        double *ev[2], *met[2];
        for (int p = 0; p < 2; p++) {
            ev[p] = (double *)malloc((size_t)spot.count[p] * sizeof(double));
            met[p] = (double *)malloc((size_t)spot.count[p] * sizeof(double));
        }
        size_t counts[2] = {(size_t)spot.count[0], (size_t)spot.count[1]};
        if (se_solve_values(one, value, ev[0], ev[1], met[0], met[1], counts) != SE_OK)
            die("values");
        if (!isfinite(value[0]) || !isfinite(value[1])) die("a value not finite");
        if (!(fabs(value[0] + value[1] - spot.pot) <= 1e-6 * (1.0 + spot.pot)))
            die("the values do not add to the pot");
        for (int p = 0; p < 2; p++)
            for (int h = 0; h < spot.count[p]; h++) {
                if (!(met[p][h] >= -1e-9 && met[p][h] <= 1.0 + 1e-9))
                    die("a combination met out of range");
                if (kept_out(hidden[p], h, board_bits, 0, spot.n_boards > 0 ? spot.n_boards : 1) &&
                    (met[p][h] != 0.0 || !isnan(ev[p][h])))
                    die("a combination holding a card of every board is dealt");
            }
        if (se_solve_best_response(&spot, all, total, best) != SE_OK) die("best response");
        double slack = 1e-6 * (1.0 + spot.pot + 1024.0);
        if (best[0] < value[0] - slack || best[1] < value[1] - slack) die("a best response below");
        for (int p = 0; p < 2; p++) free(ev[p]), free(met[p]);
        free(all);
        free(other);
    } else {
        if (one != NULL) die("a refused spot returned a solver");
        if (tree == 0 && cards_good && status != SE_BAD_ARGUMENT)
            die("a tree whose boards do not split refused, but not as a bad argument");
    }
    se_solve_free(one);
    se_solve_free(two);
    for (int p = 0; p < 2; p++) {
        free(hidden[p]);
        free(weights[p]);
        free(group[p]);
    }
    free(nodes);
    free(boards);
    free(kept);
    return 0;
}
