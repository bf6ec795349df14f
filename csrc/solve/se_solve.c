/* CFR+ over two whole ranges on a caller's betting tree: see studeval.h.
 *
 * An iteration updates each seat in turn. The current strategies come from the
 * regrets (regret matching: positive regrets in proportion, else uniform); a forward
 * pass carries each seat's reach of every node (its weights times its own action
 * probabilities on the way); every fold and showdown is settled for the updated
 * seat against the other's reach (the terminals spread over threads); a backward
 * pass sums the counterfactual values up the tree, adds each action's advantage to
 * its regret, floored at zero (CFR+), and adds the seat's strategy, weighted by its
 * reach and the iteration's number, to its average. The average strategy is the
 * answer; its values come from the same passes with it. */
#include "solve/se_solve.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/se_threads.h"
#include "equity/se_equity.h"

struct se_solver {
    se_sd_table t;
    int iterations;
    int n_terminals;
    int *terminal;     /* the fold and showdown nodes */
    double *regret;    /* strategy_size: each action's regret, a row a combination */
    double *average;   /* strategy_size: the strategies' weighted sums */
    double *current;   /* strategy_size: this iteration's strategy */
    double *scratch;   /* a tied node's advantages, a row a group */
    double *reach[2];  /* n_nodes rows of each seat's count: its reach of each node */
    double *cfv;       /* n_nodes rows of the larger count: the updated seat's values */
    size_t width;      /* the larger count */
    se_sd_work work[SE_MAX_THREADS];
    int works;         /* scratch made so far */
};

/* A row-major block: node i's row of seat p's reach, or of values. */
static double *se_sv_reach(se_solver *s, int p, int node) {
    return s->reach[p] + (size_t)node * (size_t)s->t.seat[p].count;
}

static double *se_sv_cfv(se_solver *s, int node) {
    return s->cfv + (size_t)node * s->width;
}

se_status se_solve_new(const se_solve_spot *spot, se_solver **out) {
    if (out == NULL) return SE_BAD_ARGUMENT;
    *out = NULL;
    se_solver *s = (se_solver *)calloc(1, sizeof *s);
    if (s == NULL) return SE_NO_MEMORY;
    se_status status = se_sd_prepare(spot, &s->t);
    if (status != SE_OK) {
        se_solve_free(s);
        return status;
    }
    const se_sd_table *t = &s->t;
    s->width = (size_t)(t->seat[0].count > t->seat[1].count ? t->seat[0].count : t->seat[1].count);
    size_t size = t->strategy_size > 0 ? t->strategy_size : 1, nodes = (size_t)t->n_nodes;
    s->regret = (double *)calloc(size, sizeof(double));
    s->average = (double *)calloc(size, sizeof(double));
    s->current = (double *)calloc(size, sizeof(double));
    s->scratch = (double *)calloc(size, sizeof(double));
    s->reach[0] = (double *)malloc(nodes * (size_t)t->seat[0].count * sizeof(double));
    s->reach[1] = (double *)malloc(nodes * (size_t)t->seat[1].count * sizeof(double));
    s->cfv = (double *)malloc(nodes * s->width * sizeof(double));
    s->terminal = (int *)malloc(nodes * sizeof(int));
    if (!s->regret || !s->average || !s->current || !s->scratch || !s->reach[0] || !s->reach[1] || !s->cfv ||
        !s->terminal) {
        se_solve_free(s);
        return SE_NO_MEMORY;
    }
    for (int i = 0; i < t->n_nodes; i++)
        if (t->nodes[i].kind != SE_SOLVE_ACT) s->terminal[s->n_terminals++] = i;
    if ((status = se_sd_work_new(t, &s->work[0])) != SE_OK) {
        se_sd_work_free(&s->work[0]); /* what it did allocate */
        se_solve_free(s);
        return status;
    }
    s->works = 1;
    /* No pair of combinations dealt together: nothing to solve. */
    se_sd_compatible(t, 0, t->seat[1].prior, s->work[0].share, &s->work[0]);
    double z = 0.0;
    for (int h = 0; h < t->seat[0].count; h++) z += t->seat[0].prior[h] * s->work[0].share[h];
    if (!(z > SE_SD_NOISE * t->seat[0].total * t->seat[1].total)) {
        se_solve_free(s);
        return SE_NO_DEAL;
    }
    *out = s;
    return SE_OK;
}

void se_solve_free(se_solver *s) {
    if (s == NULL) return;
    for (int k = 0; k < s->works; k++) se_sd_work_free(&s->work[k]);
    se_sd_release(&s->t);
    free(s->regret);
    free(s->average);
    free(s->current);
    free(s->scratch);
    free(s->reach[0]);
    free(s->reach[1]);
    free(s->cfv);
    free(s->terminal);
    free(s);
}

int se_solve_iterations(const se_solver *s) {
    return s == NULL ? 0 : s->iterations;
}

/* Regret matching at every action node: `from` (regrets or average sums) to
 * probabilities in `to`, uniform where nothing is positive. */
static void se_sv_normalise_node(const se_sd_table *t, int i, const double *f, double *o) {
    int k = t->nodes[i].n_children, count = se_sd_rows(t, i);
    for (int h = 0; h < count; h++) {
        double sum = 0.0;
        for (int a = 0; a < k; a++) sum += f[(size_t)h * k + a] > 0.0 ? f[(size_t)h * k + a] : 0.0;
        for (int a = 0; a < k; a++) {
            double r = f[(size_t)h * k + a];
            o[(size_t)h * k + a] = sum > 0.0 ? (r > 0.0 ? r / sum : 0.0) : 1.0 / k;
        }
    }
}

static void se_sv_normalise(const se_sd_table *t, const double *from, double *to) {
    for (int i = 0; i < t->n_nodes; i++)
        if (t->nodes[i].kind == SE_SOLVE_ACT)
            se_sv_normalise_node(t, i, from + t->offset[i], to + t->offset[i]);
}

/* Each seat's reach of every node under `strategy`. */
static void se_sv_forward(se_solver *s, const double *strategy) {
    const se_sd_table *t = &s->t;
    for (int p = 0; p < 2; p++)
        memcpy(se_sv_reach(s, p, 0), t->seat[p].prior, (size_t)t->seat[p].count * sizeof(double));
    for (int i = 0; i < t->n_nodes; i++) {
        const se_solve_node *n = &t->nodes[i];
        if (n->kind != SE_SOLVE_ACT) continue;
        int a = n->seat, k = n->n_children, count = t->seat[a].count;
        const double *sigma = strategy + t->offset[i];
        for (int c = 0; c < k; c++) {
            int child = n->first_child + c;
            const double *from = se_sv_reach(s, a, i);
            double *to = se_sv_reach(s, a, child);
            for (int h = 0; h < count; h++) to[h] = from[h] * sigma[(size_t)se_sd_row(t, n, h) * k + c];
            memcpy(se_sv_reach(s, 1 - a, child), se_sv_reach(s, 1 - a, i),
                   (size_t)t->seat[1 - a].count * sizeof(double));
        }
    }
}

typedef struct se_sv_job {
    se_solver *s;
    int p;
} se_sv_job;

static int se_sv_terminals(void *context, size_t begin, size_t end, int worker) {
    se_sv_job *job = (se_sv_job *)context;
    se_solver *s = job->s;
    for (size_t k = begin; k < end; k++) {
        int node = s->terminal[k];
        se_sd_terminal(&s->t, node, job->p, se_sv_reach(s, 1 - job->p, node), se_sv_cfv(s, node),
                       &s->work[worker]);
    }
    return 0;
}

/* Seat p's counterfactual values of every terminal, on up to `threads` threads. */
static se_status se_sv_settle(se_solver *s, int p, int threads) {
    int workers = se_workers_for((size_t)s->n_terminals, 1, threads);
    for (; s->works < workers; s->works++)
        if (se_sd_work_new(&s->t, &s->work[s->works]) != SE_OK) {
            se_sd_work_free(&s->work[s->works]);
            return SE_NO_MEMORY;
        }
    se_sv_job job = {s, p};
    se_parallel_for((size_t)s->n_terminals, 1, 1, workers, se_sv_terminals, &job);
    return SE_OK;
}

/* Sums seat p's values up the tree under `strategy`; with `weight` > 0 also updates
 * p's regrets (CFR+) and adds its strategy, times weight, to the average. */
static void se_sv_backward(se_solver *s, int p, const double *strategy, double weight) {
    const se_sd_table *t = &s->t;
    int count = t->seat[p].count;
    for (int i = t->n_nodes - 1; i >= 0; i--) {
        const se_solve_node *n = &t->nodes[i];
        if (n->kind != SE_SOLVE_ACT) continue;
        int k = n->n_children;
        double *v = se_sv_cfv(s, i);
        if (n->seat != p) {
            memcpy(v, se_sv_cfv(s, n->first_child), (size_t)count * sizeof(double));
            for (int c = 1; c < k; c++) {
                const double *child = se_sv_cfv(s, n->first_child + c);
                for (int h = 0; h < count; h++) v[h] += child[h];
            }
            continue;
        }
        const double *sigma = strategy + t->offset[i];
        for (int h = 0; h < count; h++) {
            const double *row = sigma + (size_t)se_sd_row(t, n, h) * k;
            double sum = 0.0;
            for (int c = 0; c < k; c++) sum += row[c] * se_sv_cfv(s, n->first_child + c)[h];
            v[h] = sum;
        }
        if (weight <= 0.0) continue;
        /* Each row's advantages and reach: a combination's own, or a group's summed,
         * each member by its weight (its chance of being the one held). */
        size_t size = (size_t)se_sd_rows(t, i) * (size_t)k;
        double *advantage = s->scratch, *regret = s->regret + t->offset[i];
        double *average = s->average + t->offset[i];
        const double *reach = se_sv_reach(s, p, i);
        memset(advantage, 0, size * sizeof(double));
        const double *prior = t->seat[p].prior;
        for (int h = 0; h < count; h++) {
            size_t row = (size_t)se_sd_row(t, n, h) * k;
            double own = n->tied ? prior[h] : 1.0;
            for (int c = 0; c < k; c++) {
                advantage[row + c] += own * (se_sv_cfv(s, n->first_child + c)[h] - v[h]);
                average[row + c] += weight * reach[h] * sigma[row + c];
            }
        }
        for (size_t at = 0; at < size; at++) {
            double r = regret[at] + advantage[at];
            regret[at] = r > 0.0 ? r : 0.0;
        }
    }
}

se_status se_solve_run(se_solver *s, int iterations, int threads, se_progress *progress) {
    if (s == NULL || iterations < 0) return SE_BAD_ARGUMENT;
    se_eq_plan(progress, (size_t)iterations);
    for (int it = 0; it < iterations; it++) {
        if (se_eq_stopped(progress)) return SE_STOPPED;
        double weight = (double)(s->iterations + 1);
        for (int p = 0; p < 2; p++) {
            se_sv_normalise(&s->t, s->regret, s->current);
            se_sv_forward(s, s->current);
            se_status status = se_sv_settle(s, p, threads);
            if (status != SE_OK) return status;
            se_sv_backward(s, p, s->current, weight);
        }
        s->iterations++;
        se_eq_advance(progress, 1);
    }
    return SE_OK;
}

se_status se_solve_strategy(const se_solver *s, int node, double *out) {
    if (s == NULL || out == NULL || node < 0 || node >= s->t.n_nodes ||
        s->t.nodes[node].kind != SE_SOLVE_ACT)
        return SE_BAD_ARGUMENT;
    se_sv_normalise_node(&s->t, node, s->average + s->t.offset[node], out);
    return SE_OK;
}

se_status se_solve_values(se_solver *s, double value[2], double *ev0, double *ev1,
                          double *met0, double *met1) {
    if (s == NULL || value == NULL) return SE_BAD_ARGUMENT;
    const se_sd_table *t = &s->t;
    se_sv_normalise(t, s->average, s->current);
    se_sv_forward(s, s->current);
    for (int p = 0; p < 2; p++) {
        se_status status = se_sv_settle(s, p, 1);
        if (status != SE_OK) return status;
        se_sv_backward(s, p, s->current, 0.0);
        const double *root = se_sv_cfv(s, 0), *prior = t->seat[p].prior;
        double *ev = p == 0 ? ev0 : ev1, *met = s->work[0].share;
        se_sd_compatible(t, p, t->seat[1 - p].prior, met, &s->work[0]);
        double sum = 0.0, z = 0.0;
        for (int h = 0; h < t->seat[p].count; h++) {
            sum += prior[h] * root[h];
            z += prior[h] * met[h];
            int held = met[h] > SE_SD_NOISE * t->seat[1 - p].total; /* dealt at all */
            if (ev != NULL) ev[h] = held ? root[h] / met[h] : NAN;
        }
        double *met_out = p == 0 ? met0 : met1;
        if (met_out != NULL)
            for (int h = 0; h < t->seat[p].count; h++) met_out[h] = prior[h] * met[h];
        value[p] = sum / z;
    }
    return SE_OK;
}
