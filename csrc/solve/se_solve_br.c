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
    if (n->kind != SE_SOLVE_ACT) {
        se_sd_terminal(t, node, p, reach, out, w);
        return SE_OK;
    }
    int k = n->n_children;
    double *child = (double *)malloc((size_t)count * sizeof(double));
    double *next = n->seat != p ? (double *)malloc((size_t)other * sizeof(double)) : NULL;
    if (child == NULL || (n->seat != p && next == NULL)) {
        free(child);
        free(next);
        return SE_NO_MEMORY;
    }
    const double *sigma = strategy + t->offset[node];
    se_status status = SE_OK;
    for (int c = 0; c < k && status == SE_OK; c++) {
        if (n->seat != p) {
            for (int o = 0; o < other; o++) next[o] = reach[o] * sigma[(size_t)o * k + c];
            status = se_br_node(t, strategy, p, n->first_child + c, next, child, w);
            for (int h = 0; h < count && status == SE_OK; h++) out[h] = c == 0 ? child[h] : out[h] + child[h];
        } else {
            status = se_br_node(t, strategy, p, n->first_child + c, reach, child, w);
            for (int h = 0; h < count && status == SE_OK; h++)
                if (c == 0 || child[h] > out[h]) out[h] = child[h];
        }
    }
    free(child);
    free(next);
    return status;
}

se_status se_solve_best_response(const se_solve_spot *spot, const double *strategy,
                                 double value[2]) {
    if (strategy == NULL || value == NULL) return SE_BAD_ARGUMENT;
    se_sd_table t;
    se_sd_work w;
    se_status status = se_sd_prepare(spot, &t);
    if (status == SE_OK) status = se_sd_work_new(&t, &w);
    else memset(&w, 0, sizeof w);
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
        se_sd_compatible(&t, p, t.seat[1 - p].prior, met, &w);
        double sum = 0.0, z = 0.0;
        for (int h = 0; h < t.seat[p].count; h++) {
            sum += t.seat[p].prior[h] * best[h];
            z += t.seat[p].prior[h] * met[h];
        }
        if (!(z > 0.0)) status = SE_NO_DEAL;
        else value[p] = sum / z;
    }
    free(best);
    free(met);
    se_sd_work_free(&w);
    se_sd_release(&t);
    return status;
}
