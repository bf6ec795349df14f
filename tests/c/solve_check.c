/* The solver on 1, 2 and 3 threads: the same strategies after the same iterations (the
 * folds and showdowns spread over threads write apart, and so do the blocks of
 * combinations), every strategy row adding to 1, the values adding to the pot, and
 * each best response worth at least the seat's value. Two spots:
 *
 * - sixth street: random pairs, each with every seventh card (no boards);
 * - fifth street with the sixth-street up cards to come: four boards, dealt by chance
 *   nodes after the fifth-street betting (tied nodes before them and after them up to
 *   seventh street), one all-in path dealing straight to showdowns, seat 0 over 2,048
 *   combinations (two blocks) and 211 terminals: big enough for the passes to be
 *   worth a team. A combination holding a card of every board of a node is never dealt
 *   there: its row stays uniform.
 *
 * Run by tools/fuzz.py under AddressSanitizer+UBSan and ThreadSanitizer:
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

static uint64_t bits_of(const uint8_t *cards, int n) {
    uint64_t bits = 0;
    for (int k = 0; k < n; k++) bits |= 1ull << cards[k];
    return bits;
}

/* A seat's combinations, their groups and weights (NULL: alike). */
typedef struct range {
    uint8_t *hidden;
    int *group;
    double *weights;
    int count, n_groups;
} range;

/* Groups each a pair of down cards (`first` pairs given, the rest random, none of
 * `used`), with every seventh card that is neither `used` nor in the pair. */
static void pairs_with_sevenths(range *r, int pairs, const uint8_t *first, int n_first,
                                uint64_t used, uint64_t *state) {
    r->hidden = malloc((size_t)pairs * 52 * 3);
    r->group = malloc((size_t)pairs * 52 * sizeof(int));
    if (r->hidden == NULL || r->group == NULL) fail("out of memory");
    r->count = 0, r->n_groups = pairs, r->weights = NULL;
    for (int g = 0; g < pairs; g++) {
        uint8_t a, b;
        if (g < n_first) {
            a = first[2 * g], b = first[2 * g + 1];
        } else {
            do {
                a = (uint8_t)(next_random(state) % 52), b = (uint8_t)(next_random(state) % 52);
            } while (a == b || (used >> a & 1) || (used >> b & 1));
        }
        for (int c = 0; c < 52; c++) {
            if ((used >> c & 1) || c == a || c == b) continue;
            uint8_t *row = r->hidden + (size_t)r->count * 3;
            row[0] = a, row[1] = b, row[2] = (uint8_t)c;
            r->group[r->count++] = g;
        }
    }
}

static void range_free(range *r) {
    free(r->hidden), free(r->group), free(r->weights);
}

/* What the checks keep of a solved spot: every action node's strategy rows, node after
 * node (the best response's layout), where each node's rows start, the values. */
typedef struct solved {
    double *all;
    size_t *at;
    double value[2], best[2];
} solved;

static int rows_of(const se_solve_spot *spot, int node) {
    const se_solve_node *n = &spot->nodes[node];
    return n->tied ? spot->n_groups[n->seat] : spot->count[n->seat];
}

/* Solves the spot on 1, 2 and 3 threads; fails unless their strategies are equal bit
 * for bit, each row adds to 1, the values add to the pot and the best responses are
 * worth at least the values. */
static solved solve_alike(const se_solve_spot *spot, int iterations) {
    enum { TEAMS = 3 };
    se_solver *s[TEAMS];
    for (int k = 0; k < TEAMS; k++) {
        if (se_solve_new(spot, &s[k]) != SE_OK) fail("new");
        if (se_solve_run(s[k], iterations, k + 1, NULL) != SE_OK) fail("run");
    }
    solved out;
    size_t size = 0, widest = 0;
    out.at = malloc((size_t)spot->n_nodes * sizeof *out.at);
    if (out.at == NULL) fail("out of memory");
    for (int i = 0; i < spot->n_nodes; i++) {
        out.at[i] = size;
        if (spot->nodes[i].kind != SE_SOLVE_ACT) continue;
        size_t cells = (size_t)rows_of(spot, i) * (size_t)spot->nodes[i].n_children;
        size += cells, widest = cells > widest ? cells : widest;
    }
    out.all = malloc(size * sizeof(double) + 64);
    double *other = malloc(widest * sizeof(double) + 64);
    if (out.all == NULL || other == NULL) fail("out of memory");
    for (int i = 0; i < spot->n_nodes; i++) {
        if (spot->nodes[i].kind != SE_SOLVE_ACT) continue;
        int rows = rows_of(spot, i), k = spot->nodes[i].n_children;
        double *mine = out.all + out.at[i];
        if (se_solve_strategy(s[0], i, mine, (size_t)rows * k) != SE_OK) fail("strategy");
        for (int t = 1; t < TEAMS; t++) {
            if (se_solve_strategy(s[t], i, other, (size_t)rows * k) != SE_OK) fail("strategy");
            if (memcmp(mine, other, (size_t)rows * k * sizeof(double)) != 0)
                fail("a team's strategies differ from one thread's");
        }
        for (int r = 0; r < rows; r++) {
            double sum = 0.0;
            for (int c = 0; c < k; c++) sum += mine[(size_t)r * k + c];
            if (fabs(sum - 1.0) > 1e-12) fail("a strategy row");
        }
    }
    if (se_solve_values(s[0], out.value, NULL, NULL, NULL, NULL, NULL) != SE_OK) fail("values");
    if (fabs(out.value[0] + out.value[1] - spot->pot) > 1e-9)
        fail("the values do not add to the pot");
    if (se_solve_best_response(spot, out.all, size, out.best) != SE_OK) fail("best response");
    if (out.best[0] < out.value[0] - 1e-9 || out.best[1] < out.value[1] - 1e-9)
        fail("a best response below");
    for (int k = 0; k < TEAMS; k++) se_solve_free(s[k]);
    free(other);
    return out;
}

/* ---- sixth street ------------------------------------------------------------------ */

#define PAIRS 12

static double sixth_street(int iterations, uint64_t *state) {
    /* Up cards: seat 0 Ac Kd 7h 2s, seat 1 Qc Jd 9h 4s; every other card is free. */
    static const uint8_t up[2][4] = {{48, 45, 22, 3}, {40, 37, 30, 11}};
    uint64_t used = bits_of(up[0], 4) | bits_of(up[1], 4);
    range r[2];
    for (int p = 0; p < 2; p++) pairs_with_sevenths(&r[p], PAIRS, NULL, 0, used, state);
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
    se_solve_spot spot;
    memset(&spot, 0, sizeof spot);
    spot.game = SE_GAME_STUD8;
    spot.pot = 30.0;
    memcpy(spot.up, up, sizeof spot.up);
    for (int p = 0; p < 2; p++) {
        spot.count[p] = r[p].count;
        spot.hidden[p] = r[p].hidden;
        spot.group[p] = r[p].group;
        spot.n_groups[p] = r[p].n_groups;
    }
    spot.n_nodes = 19;
    spot.nodes = nodes;
    solved out = solve_alike(&spot, iterations);
    free(out.all), free(out.at);
    for (int p = 0; p < 2; p++) range_free(&r[p]);
    return (out.best[0] + out.best[1] - spot.pot) / 2;
}

/* ---- fifth street, the sixth-street up cards to come ----------------------------- */

/* The tree as it is built, with each node's boards as studeval.h splits them (this
 * file's own reading, for the uniform rows' check). */
#define TREE_NODES 512

typedef struct tree {
    se_solve_node node[TREE_NODES];
    int first[TREE_NODES], boards[TREE_NODES];
    int n;
} tree;

/* Makes node `at` a choice of `seat` (or a deal: SE_SOLVE_CHANCE) among k children
 * placed after every node so far; returns the first. A deal's children take equal
 * consecutive shares of its boards, a choice's the node's own. */
static int grow(tree *t, int at, int kind, int seat, int k, int tied) {
    int first = t->n;
    if ((t->n += k) > TREE_NODES) fail("the tree outgrew its array");
    t->node[at] = (se_solve_node){kind, seat, first, k, tied, {0, 0}};
    int share = kind == SE_SOLVE_CHANCE ? t->boards[at] / k : t->boards[at];
    for (int c = 0; c < k; c++) {
        t->first[first + c] = t->first[at] + (kind == SE_SOLVE_CHANCE ? c * share : 0);
        t->boards[first + c] = share;
    }
    return first;
}

static void settle(tree *t, int at, int kind, int folder, double put0, double put1) {
    t->node[at] = (se_solve_node){kind, folder, 0, 0, 0, {put0, put1}};
}

static void betting(tree *t, int at, int street, double put0, double put1);

/* A round closed with each seat's chips in: fifth street's deals the sixth-street up
 * cards (a board a child), sixth street's goes on to seventh, seventh's shows down. */
static void closed(tree *t, int at, int street, double put0, double put1) {
    if (street == 7) {
        settle(t, at, SE_SOLVE_SHOWDOWN, 0, put0, put1);
        return;
    }
    if (street == 6) {
        betting(t, at, 7, put0, put1);
        return;
    }
    int k = t->boards[at], first = grow(t, at, SE_SOLVE_CHANCE, 0, k, 0);
    for (int c = 0; c < k; c++) betting(t, first + c, 6, put0, put1);
}

/* A betting round of bets of 10 from node `at`: seat 0 checks or bets, seat 1 answers,
 * a check-bet is folded or called. Tied before seventh street (the seventh card is not
 * known yet). On fifth street seat 1 may also raise a bet all in: seat 0 folds or
 * calls, and the sixth-street cards are dealt in two steps, straight to showdowns. */
static void betting(tree *t, int at, int street, double put0, double put1) {
    int tied = street < 7, fifth = street == 5;
    int x = grow(t, at, SE_SOLVE_ACT, 0, 2, tied), b = x + 1;
    int xx = grow(t, x, SE_SOLVE_ACT, 1, 2, tied), xb = xx + 1;
    int bf = grow(t, b, SE_SOLVE_ACT, 1, fifth ? 3 : 2, tied), bc = bf + 1;
    int xbf = grow(t, xb, SE_SOLVE_ACT, 0, 2, tied), xbc = xbf + 1;
    closed(t, xx, street, put0, put1);
    settle(t, bf, SE_SOLVE_FOLD, 1, put0 + 10, put1);
    closed(t, bc, street, put0 + 10, put1 + 10);
    settle(t, xbf, SE_SOLVE_FOLD, 0, put0, put1 + 10);
    closed(t, xbc, street, put0 + 10, put1 + 10);
    if (!fifth) return;
    int brf = grow(t, bc + 1, SE_SOLVE_ACT, 0, 2, tied), brc = brf + 1;
    settle(t, brf, SE_SOLVE_FOLD, 0, put0 + 10, put1 + 20);
    int half = grow(t, brc, SE_SOLVE_CHANCE, 0, 2, 0);
    for (int h = 0; h < 2; h++) {
        int deal = grow(t, half + h, SE_SOLVE_CHANCE, 0, t->boards[half + h], 0);
        for (int d = 0; d < t->boards[half + h]; d++)
            settle(t, deal + d, SE_SOLVE_SHOWDOWN, 0, put0 + 20, put1 + 20);
    }
}

#define BOARDS 4
#define PAIRS0 48 /* 2,112 combinations: two blocks */
#define PAIRS1 16

/* Whether every board of node i holds a card of every combination playing by row
 * `row` there (then none of them is ever dealt at i). */
static int never_dealt(const tree *t, const range *r, const uint64_t *board_bits, int i, int row) {
    const se_solve_node *n = &t->node[i];
    int members = 0;
    for (int h = n->tied ? 0 : row; h < (n->tied ? r->count : row + 1); h++) {
        if (n->tied && r->group[h] != row) continue;
        uint64_t held = bits_of(r->hidden + (size_t)h * 3, 3);
        for (int b = t->first[i]; b < t->first[i] + t->boards[i]; b++)
            if (!(held & board_bits[b])) return 0;
        members++;
    }
    return members > 0;
}

static double fifth_street(int iterations, uint64_t *state, int *uniform_rows) {
    /* Fifth street's up cards: seat 0 Kh Qh 9c, seat 1 8s 8d 3c. Sixth street's come on
     * one of four boards: Jh 5s, Ah 8c, 2d Tc, Jh Ks (Jh on two: a card held can keep a
     * combination from more than one board). */
    static const uint8_t fixed[2][3] = {{46, 42, 28}, {27, 25, 4}};
    static const uint8_t sixth[BOARDS][2] = {{38, 15}, {50, 24}, {1, 32}, {38, 47}};
    uint8_t boards[BOARDS * 8];
    uint64_t board_bits[BOARDS];
    for (int b = 0; b < BOARDS; b++) {
        uint8_t *board = boards + b * 8;
        for (int p = 0; p < 2; p++) {
            memcpy(board + p * 4, fixed[p], 3);
            board[p * 4 + 3] = sixth[b][p];
        }
        board_bits[b] = bits_of(board, 8);
    }
    uint64_t used = bits_of(fixed[0], 3) | bits_of(fixed[1], 3);
    /* Each seat's first pair holds sixth-street cards (Ah 2d: boards 1 and 2; Jh 5s:
     * boards 0 and 3), so some whole groups are never dealt at some tied nodes; the rest
     * are random, any sixth-street card among them. Seat 1's weights vary. */
    static const uint8_t first0[2] = {50, 1}, first1[2] = {38, 15};
    range r[2];
    pairs_with_sevenths(&r[0], PAIRS0, first0, 1, used, state);
    pairs_with_sevenths(&r[1], PAIRS1, first1, 1, used, state);
    r[1].weights = malloc((size_t)r[1].count * sizeof(double));
    if (r[1].weights == NULL) fail("out of memory");
    for (int h = 0; h < r[1].count; h++)
        r[1].weights[h] = (double)(1 + next_random(state) % 1000) / 1000.0;
    tree *t = malloc(sizeof *t);
    if (t == NULL) fail("out of memory");
    t->n = 1, t->first[0] = 0, t->boards[0] = BOARDS;
    betting(t, 0, 5, 0.0, 0.0);
    se_solve_spot spot;
    memset(&spot, 0, sizeof spot);
    spot.game = SE_GAME_STUD;
    spot.pot = 30.0;
    for (int p = 0; p < 2; p++) {
        spot.count[p] = r[p].count;
        spot.hidden[p] = r[p].hidden;
        spot.weights[p] = r[p].weights;
        spot.group[p] = r[p].group;
        spot.n_groups[p] = r[p].n_groups;
    }
    spot.n_nodes = t->n;
    spot.nodes = t->node;
    spot.n_boards = BOARDS;
    spot.boards = boards;
    solved out = solve_alike(&spot, iterations);
    /* A row none of whose combinations is dealt at a node wins and loses nothing below
     * it: its regrets stay 0 and its strategy uniform. */
    *uniform_rows = 0;
    for (int i = 0; i < t->n; i++) {
        const se_solve_node *n = &t->node[i];
        if (n->kind != SE_SOLVE_ACT) continue;
        const double *rows = out.all + out.at[i];
        for (int row = 0; row < rows_of(&spot, i); row++) {
            if (!never_dealt(t, &r[n->seat], board_bits, i, row)) continue;
            for (int c = 0; c < n->n_children; c++)
                if (fabs(rows[(size_t)row * n->n_children + c] - 1.0 / n->n_children) > 1e-12)
                    fail("a row never dealt at its node is not uniform");
            ++*uniform_rows;
        }
    }
    if (*uniform_rows == 0) fail("no row never dealt: the check checked nothing");
    free(out.all), free(out.at), free(t);
    for (int p = 0; p < 2; p++) range_free(&r[p]);
    return (out.best[0] + out.best[1] - spot.pot) / 2;
}

int main(int argc, char **argv) {
    int iterations = argc > 1 ? atoi(argv[1]) : 200;
    uint64_t state = argc > 2 ? strtoull(argv[2], NULL, 10) * 2654435761u + 1 : 1;
    double sixth = sixth_street(iterations, &state);
    int uniform_rows;
    double fifth = fifth_street(iterations, &state, &uniform_rows);
    printf("ok %d iterations equal on 1, 2 and 3 threads; exploitability of a pot of 30: "
           "%.4f on sixth street, %.4f on fifth with %d boards (%d rows never dealt, uniform)\n",
           iterations, sixth, fifth, BOARDS, uniform_rows);
    return 0;
}
