/* Best responses on a solved street's tree: each seat's value when it chooses, for
 * each of its combinations at each of its nodes, the action worth the most against
 * the other seat's fixed strategy. Its own passes over the tree, apart from the
 * solver's: only the settling of folds and showdowns is shared (se_solve_showdown.c). */
#include "solve/se_solve.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Seat p's best value of each combination at `node` into out (count[p] values),
 * the other seat reaching it with `reach`. */
static se_status se_br_node(const se_sd_table *t, const double *strategy, int p, int node,
                            const double *reach, double *out, se_sd_work *w) {
    const se_solve_node *n = &t->nodes[node];
    int count = t->seat[p].count, other = t->seat[1 - p].count;
    if (n->kind == SE_SOLVE_FOLD || n->kind == SE_SOLVE_SHOWDOWN) {
        se_sd_terminal(t, node, p, reach, out, w);
        return SE_OK;
    }
    int k = n->n_children;
    /* The other seat acts: its strategy thins its reach. Seat p acts: each child's
     * values are kept, for the best to be chosen. Cards are dealt: each deal's values
     * are summed (each board counts its chance where it is settled). */
    int chance = n->kind == SE_SOLVE_CHANCE, thinned = !chance && n->seat != p;
    double *child = (double *)malloc((size_t)k * (size_t)count * sizeof(double));
    double *next = thinned ? (double *)malloc((size_t)other * sizeof(double)) : NULL;
    if (child == NULL || (thinned && next == NULL)) {
        free(child);
        free(next);
        return SE_NO_MEMORY;
    }
    const double *sigma = strategy + t->offset[node];
    se_status status = SE_OK;
    for (int c = 0; c < k && status == SE_OK; c++) {
        double *values = child + (size_t)c * (size_t)count;
        if (thinned) {
            for (int o = 0; o < other; o++)
                next[o] = reach[o] * sigma[(size_t)se_sd_row(t, n, o) * k + c];
            status = se_br_node(t, strategy, p, n->first_child + c, next, values, w);
        } else {
            status = se_br_node(t, strategy, p, n->first_child + c, reach, values, w);
        }
    }
    if (status == SE_OK && (chance || n->seat != p)) {
        for (int h = 0; h < count; h++) {
            double sum = 0.0;
            for (int c = 0; c < k; c++) sum += child[(size_t)c * (size_t)count + h];
            out[h] = sum;
        }
    } else if (status == SE_OK) {
        /* The best action of each row: a combination's own, or at a tied node the one
         * its whole group is worth most with (the group cannot tell its members apart). */
        int rows = se_sd_rows(t, node);
        double *worth = (double *)calloc((size_t)rows * (size_t)k, sizeof(double));
        if (worth == NULL) status = SE_NO_MEMORY;
        for (int h = 0; h < count && status == SE_OK; h++) {
            double own = n->tied ? t->seat[p].prior[h] : 1.0; /* a member by its weight */
            for (int c = 0; c < k; c++)
                worth[(size_t)se_sd_row(t, n, h) * k + c] += own * child[(size_t)c * (size_t)count + h];
        }
        for (int h = 0; h < count && status == SE_OK; h++) {
            const double *row = worth + (size_t)se_sd_row(t, n, h) * k;
            int best = 0;
            for (int c = 1; c < k; c++)
                if (row[c] > row[best]) best = c;
            out[h] = child[(size_t)best * (size_t)count + h];
        }
        free(worth);
    }
    free(child);
    free(next);
    return status;
}

se_status se_solve_best_response(const se_solve_spot *spot, const double *strategy,
                                 size_t size, double value[2]) {
    if (strategy == NULL || value == NULL) return SE_BAD_ARGUMENT;
    se_sd_table t;
    se_sd_work w;
    se_status status = se_sd_prepare(spot, &t);
    if (status == SE_OK) status = se_sd_work_new(&t, &w);
    else memset(&w, 0, sizeof w);
    if (status == SE_OK && size != t.strategy_size) status = SE_BAD_SIZE;
    for (size_t i = 0; i < t.strategy_size && status == SE_OK; i++)
        if (!(strategy[i] >= 0.0 && strategy[i] <= 1.0)) status = SE_BAD_ARGUMENT;
    double *best = NULL, *met = NULL;
    if (status == SE_OK) {
        size_t n = (size_t)(t.seat[0].count > t.seat[1].count ? t.seat[0].count : t.seat[1].count);
        best = (double *)malloc(n * sizeof(double));
        met = (double *)malloc(n * sizeof(double));
        if (best == NULL || met == NULL) status = SE_NO_MEMORY;
    }
    for (int p = 0; p < 2 && status == SE_OK; p++) {
        status = se_br_node(&t, strategy, p, 0, t.seat[1 - p].prior, best, &w);
        if (status != SE_OK) break;
        se_sd_met(&t, p, t.seat[1 - p].prior, met, &w);
        double sum = 0.0, z = 0.0;
        for (int h = 0; h < t.seat[p].count; h++) {
            sum += t.seat[p].prior[h] * best[h];
            z += t.seat[p].prior[h] * met[h];
        }
        if (!(z > SE_SD_NOISE * t.seat[0].total * t.seat[1].total)) status = SE_NO_DEAL;
        else value[p] = sum / z;
    }
    free(best);
    free(met);
    se_sd_work_free(&w);
    se_sd_release(&t);
    return status;
}
