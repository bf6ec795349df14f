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
    /* Seat p's reach: a row of its count a node where it has acted on the way there
     * (the root's row 0); a node after the other seat's action or a deal shares its
     * parent's row, so only the actor's children are written. */
    int *row[2];
    double *reach[2];
    double *cfv;       /* n_nodes rows of the larger count: the updated seat's values */
    size_t width;      /* the larger count */
    /* Each seat's combinations cut into blocks that split no group (n_blocks + 1
     * bounds): the passes over the tree run a block a worker. */
    int n_blocks[2];
    int *block[2];
    se_sd_work work[SE_MAX_THREADS];
    double *advantage[SE_MAX_THREADS]; /* a worker's: a node's advantages, a row of its block */
    int works;         /* scratch made so far */
};

/* Combinations a block, about: small enough to share the work of a few nodes' rows. */
#define SE_SV_BLOCK 2048
/* Terminals times combinations below which an iteration runs on one thread by
 * default (a few hundred microseconds of settling: less than a team costs). */
#define SE_SV_TEAM_WORK ((size_t)1 << 16)

static double *se_sv_reach(se_solver *s, int p, int node) {
    return s->reach[p] + (size_t)s->row[p][node] * (size_t)s->t.seat[p].count;
}

static double *se_sv_cfv(se_solver *s, int node) {
    return s->cfv + (size_t)node * s->width;
}

/* The reach rows, and how many each seat needs. */
static void se_sv_rows(se_solver *s, int rows[2]) {
    const se_sd_table *t = &s->t;
    rows[0] = rows[1] = 1;
    s->row[0][0] = s->row[1][0] = 0;
    for (int i = 0; i < t->n_nodes; i++) {
        const se_solve_node *n = &t->nodes[i];
        if (n->kind != SE_SOLVE_ACT && n->kind != SE_SOLVE_CHANCE) continue;
        for (int c = 0; c < n->n_children; c++)
            for (int p = 0; p < 2; p++) {
                int acts = n->kind == SE_SOLVE_ACT && n->seat == p;
                s->row[p][n->first_child + c] = acts ? rows[p]++ : s->row[p][i];
            }
    }
}

/* Seat p's blocks: bounds near every SE_SV_BLOCK combinations, moved on to where the
 * group changes; one block when the groups are not in order (a group's members
 * spread), as a tied node's row then takes from anywhere. */
static se_status se_sv_blocks(se_solver *s, int p) {
    const se_sd_seat *seat = &s->t.seat[p];
    int ordered = 1;
    for (int h = 1; h < seat->count && ordered; h++)
        ordered = seat->group[h] == seat->group[h - 1] || seat->group[h] == seat->group[h - 1] + 1;
    ordered = ordered && seat->group[0] == 0;
    s->block[p] = (int *)malloc(((size_t)seat->count / SE_SV_BLOCK + 2) * sizeof(int));
    if (s->block[p] == NULL) return SE_NO_MEMORY;
    int n = 0;
    s->block[p][n++] = 0;
    for (int h = SE_SV_BLOCK; ordered && h < seat->count;) {
        while (h < seat->count && seat->group[h] == seat->group[h - 1]) h++;
        if (h < seat->count) s->block[p][n++] = h;
        h += SE_SV_BLOCK;
    }
    s->block[p][n] = seat->count;
    s->n_blocks[p] = n;
    return SE_OK;
}

/* Scratch for each worker of the team: a block's rows are at most its combinations,
 * or every group (one block). */
static se_status se_sv_works(se_solver *s, int workers) {
    for (; s->works < workers; s->works++) {
        s->advantage[s->works] = (double *)malloc(s->width * 3 * sizeof(double));
        if (s->advantage[s->works] == NULL || se_sd_work_new(&s->t, &s->work[s->works]) != SE_OK) {
            se_sd_work_free(&s->work[s->works]);
            free(s->advantage[s->works]);
            s->advantage[s->works] = NULL;
            return SE_NO_MEMORY;
        }
    }
    return SE_OK;
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
    s->row[0] = (int *)malloc(nodes * sizeof(int));
    s->row[1] = (int *)malloc(nodes * sizeof(int));
    s->cfv = (double *)malloc(nodes * s->width * sizeof(double));
    s->terminal = (int *)malloc(nodes * sizeof(int));
    if (!s->regret || !s->average || !s->row[0] || !s->row[1] ||
        !s->cfv || !s->terminal) {
        se_solve_free(s);
        return SE_NO_MEMORY;
    }
    int rows[2];
    se_sv_rows(s, rows);
    for (int p = 0; p < 2 && status == SE_OK; p++) {
        s->reach[p] = (double *)malloc((size_t)rows[p] * (size_t)t->seat[p].count * sizeof(double));
        status = s->reach[p] == NULL ? SE_NO_MEMORY : se_sv_blocks(s, p);
    }
    if (status != SE_OK) {
        se_solve_free(s);
        return status;
    }
    for (int i = 0; i < t->n_nodes; i++)
        if (t->nodes[i].kind == SE_SOLVE_FOLD || t->nodes[i].kind == SE_SOLVE_SHOWDOWN)
            s->terminal[s->n_terminals++] = i;
    if ((status = se_sv_works(s, 1)) != SE_OK) {
        se_solve_free(s);
        return status;
    }
    /* No pair of combinations dealt together: nothing to solve. */
    se_sd_met(t, 0, t->seat[1].prior, s->work[0].share, &s->work[0]);
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
    for (int k = 0; k < s->works; k++) {
        se_sd_work_free(&s->work[k]);
        free(s->advantage[k]);
    }
    se_sd_release(&s->t);
    free(s->regret);
    free(s->average);
    for (int p = 0; p < 2; p++) {
        free(s->row[p]);
        free(s->reach[p]);
        free(s->block[p]);
    }
    free(s->cfv);
    free(s->terminal);
    free(s);
}

int se_solve_iterations(const se_solver *s) {
    return s == NULL ? 0 : s->iterations;
}

/* Regret matching of one row of k: `f` (regrets or average sums) to probabilities,
 * uniform where nothing is positive. The strategy is made from the regrets where it
 * is used rather than kept: one array less of the tree's size. */
SE_INLINE void se_sv_match(const double *f, int k, double *o) {
    double sum = 0.0;
    for (int a = 0; a < k; a++) sum += f[a] > 0.0 ? f[a] : 0.0;
    for (int a = 0; a < k; a++) o[a] = sum > 0.0 ? (f[a] > 0.0 ? f[a] / sum : 0.0) : 1.0 / k;
}

/* The rows of block b of seat p at action node n: its groups' at a tied node (to the
 * next block's first group), else its combinations'. */
static void se_sv_block_rows(const se_solver *s, int p, int b, const se_solve_node *n, int *first,
                             int *last) {
    const se_sd_seat *seat = &s->t.seat[p];
    int lo = s->block[p][b], hi = s->block[p][b + 1];
    if (!n->tied) {
        *first = lo, *last = hi;
        return;
    }
    if (s->n_blocks[p] == 1) { /* every group, wherever its members are */
        *first = 0, *last = seat->n_groups;
        return;
    }
    *first = seat->group[lo];
    *last = hi < seat->count ? seat->group[hi] : seat->n_groups;
}

typedef struct se_sv_job {
    se_solver *s;
    int p;
    const double *from; /* regrets or average sums: the strategy */
    double weight;      /* > 0: update the regrets and the average */
} se_sv_job;

/* Block b of seat p: its reach of every node. */
static void se_sv_forward_block(se_sv_job *job, int b) {
    se_solver *s = job->s;
    const se_sd_table *t = &s->t;
    int p = job->p, lo = s->block[p][b], hi = s->block[p][b + 1];
    memcpy(se_sv_reach(s, p, 0) + lo, t->seat[p].prior + lo, (size_t)(hi - lo) * sizeof(double));
    for (int i = 0; i < t->n_nodes; i++) {
        const se_solve_node *n = &t->nodes[i];
        if (n->kind != SE_SOLVE_ACT || n->seat != p) continue;
        int k = n->n_children;
        const double *from = job->from + t->offset[i], *reach = se_sv_reach(s, p, i);
        double *to[3];
        for (int c = 0; c < k; c++) to[c] = se_sv_reach(s, p, n->first_child + c);
        for (int h = lo; h < hi; h++) {
            double sigma[3];
            se_sv_match(from + (size_t)se_sd_row(t, n, h) * k, k, sigma);
            for (int c = 0; c < k; c++) to[c][h] = reach[h] * sigma[c];
        }
    }
}

/* Block b of seat p: its values summed up the tree; with a weight, its regrets
 * (CFR+) and its average updated. */
static void se_sv_backward_block(se_sv_job *job, int b, double *advantage) {
    se_solver *s = job->s;
    const se_sd_table *t = &s->t;
    int p = job->p, lo = s->block[p][b], hi = s->block[p][b + 1];
    for (int i = t->n_nodes - 1; i >= 0; i--) {
        const se_solve_node *n = &t->nodes[i];
        if (n->kind != SE_SOLVE_ACT && n->kind != SE_SOLVE_CHANCE) continue;
        int k = n->n_children;
        double *v = se_sv_cfv(s, i);
        if (n->kind == SE_SOLVE_CHANCE || n->seat != p) { /* p's values: the children's sum */
            memcpy(v + lo, se_sv_cfv(s, n->first_child) + lo, (size_t)(hi - lo) * sizeof(double));
            for (int c = 1; c < k; c++) {
                const double *child = se_sv_cfv(s, n->first_child + c);
                for (int h = lo; h < hi; h++) v[h] += child[h];
            }
            continue;
        }
        const double *from = job->from + t->offset[i], *child[3];
        for (int c = 0; c < k; c++) child[c] = se_sv_cfv(s, n->first_child + c);
        int first, last;
        se_sv_block_rows(s, p, b, n, &first, &last);
        int update = job->weight > 0.0;
        if (update) memset(advantage, 0, (size_t)(last - first) * (size_t)k * sizeof(double));
        double *average = s->average + t->offset[i];
        const double *reach = se_sv_reach(s, p, i), *prior = t->seat[p].prior;
        for (int h = lo; h < hi; h++) {
            size_t row = (size_t)se_sd_row(t, n, h) * k;
            double sigma[3], sum = 0.0;
            se_sv_match(from + row, k, sigma);
            for (int c = 0; c < k; c++) sum += sigma[c] * child[c][h];
            v[h] = sum;
            if (!update) continue;
            /* Each row's advantages and reach: a combination's own, or a group's
             * summed, each member by its weight (its chance of being the one held). */
            double own = n->tied ? prior[h] : 1.0, *mine = advantage + (row - (size_t)first * k);
            for (int c = 0; c < k; c++) {
                mine[c] += own * (child[c][h] - sum);
                average[row + c] += job->weight * reach[h] * sigma[c];
            }
        }
        if (!update) continue;
        double *regret = s->regret + t->offset[i] + (size_t)first * k;
        for (size_t at = 0; at < (size_t)(last - first) * (size_t)k; at++) {
            double r = regret[at] + advantage[at];
            regret[at] = r > 0.0 ? r : 0.0;
        }
    }
}

static int se_sv_forward_blocks(void *context, size_t begin, size_t end, int worker) {
    (void)worker;
    for (size_t b = begin; b < end; b++) se_sv_forward_block((se_sv_job *)context, (int)b);
    return 0;
}

static int se_sv_backward_blocks(void *context, size_t begin, size_t end, int worker) {
    se_sv_job *job = (se_sv_job *)context;
    for (size_t b = begin; b < end; b++) se_sv_backward_block(job, (int)b, job->s->advantage[worker]);
    return 0;
}

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

/* Seat p's reach of every node, playing the strategy of `from`. */
static void se_sv_forward(se_solver *s, se_team *team, int p, const double *from) {
    se_sv_job job = {s, p, from, 0.0};
    se_team_for(team, (size_t)s->n_blocks[p], 1, se_sv_forward_blocks, &job);
}

/* Seat p's values of every terminal, then summed up the tree (see the block's). */
static void se_sv_backward(se_solver *s, se_team *team, int p, const double *from,
                           double weight) {
    se_sv_job job = {s, p, from, weight};
    se_team_for(team, (size_t)s->n_terminals, 1, se_sv_terminals, &job);
    se_team_for(team, (size_t)s->n_blocks[p], 1, se_sv_backward_blocks, &job);
}

se_status se_solve_run(se_solver *s, int iterations, int threads, se_progress *progress) {
    if (s == NULL || iterations < 0) return SE_BAD_ARGUMENT;
    se_eq_plan(progress, (size_t)iterations);
    if (iterations == 0) return SE_OK;
    /* Every core by default, but a small tree on one: its passes take microseconds,
     * and threads would cost more than they do (a team's workers spin between two
     * loops). Threads asked for are used. */
    if (threads <= 0)
        threads = (size_t)s->n_terminals * s->width >= SE_SV_TEAM_WORK ? se_cpu_count() : 1;
    se_team *team = se_team_new(threads);
    se_status status = se_sv_works(s, se_team_size(team));
    /* Each seat's strategy and reach from its regrets; after a seat's update only its
     * own change. */
    for (int p = 0; p < 2 && status == SE_OK; p++) se_sv_forward(s, team, p, s->regret);
    for (int it = 0; it < iterations && status == SE_OK; it++) {
        if (se_eq_stopped(progress)) {
            status = SE_STOPPED;
            break;
        }
        double weight = (double)(s->iterations + 1);
        for (int p = 0; p < 2; p++) {
            se_sv_backward(s, team, p, s->regret, weight);
            se_sv_forward(s, team, p, s->regret);
        }
        s->iterations++;
        se_eq_advance(progress, 1);
    }
    se_team_free(team);
    return status;
}

se_status se_solve_strategy(const se_solver *s, int node, double *out, size_t size) {
    if (s == NULL || out == NULL || node < 0 || node >= s->t.n_nodes ||
        s->t.nodes[node].kind != SE_SOLVE_ACT)
        return SE_BAD_ARGUMENT;
    int k = s->t.nodes[node].n_children;
    if (size != (size_t)se_sd_rows(&s->t, node) * (size_t)k) return SE_BAD_SIZE;
    const double *average = s->average + s->t.offset[node];
    for (int r = 0; r < se_sd_rows(&s->t, node); r++)
        se_sv_match(average + (size_t)r * k, k, out + (size_t)r * k);
    return SE_OK;
}

se_status se_solve_values(se_solver *s, double value[2], double *ev0, double *ev1,
                          double *met0, double *met1, const size_t size[2]) {
    if (s == NULL || value == NULL) return SE_BAD_ARGUMENT;
    const se_sd_table *t = &s->t;
    for (int p = 0; p < 2; p++)
        if ((p == 0 ? ev0 != NULL || met0 != NULL : ev1 != NULL || met1 != NULL) &&
            (size == NULL || size[p] != (size_t)t->seat[p].count))
            return SE_BAD_SIZE;
    /* The average strategies and their reach (the next run makes its own again). */
    for (int p = 0; p < 2; p++) se_sv_forward(s, NULL, p, s->average);
    for (int p = 0; p < 2; p++) {
        se_sv_backward(s, NULL, p, s->average, 0.0);
        const double *root = se_sv_cfv(s, 0), *prior = t->seat[p].prior;
        double *ev = p == 0 ? ev0 : ev1, *met = s->work[0].share;
        se_sd_met(t, p, t->seat[1 - p].prior, met, &s->work[0]);
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
