/* Exact heads-up equity by counting, not by walking the pairs of completions.
 *
 * Player A draws X (a cards) and B draws Y (b cards) from the m unseen cards,
 * X and Y disjoint. Every completion of each player is ranked once. For a set of
 * B's completions held as counters cnt[S] (how many hold the card subset S, for
 * |S| <= min(a, b)), those disjoint from X number sum over S subset of X of
 * (-1)^|S| cnt[S] (inclusion-exclusion). Sweeping the ranks from the best down,
 * querying A's completions of a rank before and after inserting B's of the same
 * rank, counts for every X how many Y beat it, tie it, or lose to it.
 *
 * Scoops (better in high and in low at once) are a 2-D dominance count. In
 * stud8 the lows take few values, so it is one high sweep per low class (see
 * se_scoops_by_class). In the no-qualifier game, per subset S, the completions
 * holding S are sorted by high rank and swept with a Fenwick tree over the low
 * ranks, and the per-subset counts are added with their inclusion-exclusion
 * signs. */
#include <stdlib.h>
#include <string.h>

#include "equity/se_equity.h"
#include "base/se_threads.h"

#define SE_HU_KEYS 7464 /* ranks 1..7462, and 57/58 for no 8-or-better low */
#define SE_LOW8_NONE 57 /* no qualifying low: worse than every low in stud8 */
/* Stud8 low classes for the scoop count: 56 lows, none, and none made worse. */
#define SE_HU_LOW_CLASSES (SE_LOW8_NONE + 2)

typedef struct se_comp {
    uint16_t hi, lo;
    uint8_t idx[7]; /* unseen positions drawn, ascending */
} se_comp;

typedef struct se_side {
    se_comp *comp;
    size_t n;
    int draw;
    /* Each completion's counter indices, `per` a completion and the even-sized
     * `even` first (se_side_subsets; NULL: made again at each query). */
    uint32_t *subs;
    int per, even;
} se_side;

/* The subset counters' layout, and the caller's progress (every step of the
 * count takes this context). */
typedef struct se_subsets {
    int m, limit;
    uint64_t binom[53][8];
    size_t offset[9];
    size_t total;
    se_progress *progress;
} se_subsets;

/* Progress is reported, and a stop looked for, every this many completions. */
#define SE_HU_STEP 65536

static void se_subsets_init(se_subsets *t, int m, int limit) {
    memset(t, 0, sizeof *t);
    t->m = m;
    t->limit = limit;
    for (int n = 0; n <= 52; n++) {
        for (int k = 0; k <= 7; k++) t->binom[n][k] = se_binomial(n, k);
    }
    for (int k = 0; k <= limit; k++) {
        t->offset[k] = t->total;
        t->total += (size_t)se_binomial(m, k);
    }
}

/* The counter indices of a completion's card subsets of size <= limit, split
 * by parity (even-sized subsets count +1 in inclusion-exclusion, odd -1). */
typedef struct se_subset_list {
    int n[2];
    uint32_t at[2][64];
} se_subset_list;

/* Subsets are built size by size, each extending one of the size below by a
 * card above all of its cards, so its colex rank (the sum of binom(card,
 * position)) is one addition away: one step per subset. */
static void se_subsets_of(const se_subsets *t, const se_comp *c, int draw, se_subset_list *out) {
    uint32_t sub[128];
    int8_t last[128];
    int from = 0, to = 1, n = 1;
    sub[0] = 0;
    last[0] = -1;
    out->n[0] = 1;
    out->n[1] = 0;
    out->at[0][0] = 0; /* the empty subset: counter 0 */
    for (int size = 1; size <= t->limit && size <= draw; size++) {
        uint32_t base = (uint32_t)t->offset[size];
        uint32_t *dst = out->at[size & 1] + out->n[size & 1];
        int made = 0;
        for (int i = from; i < to; i++) {
            for (int j = last[i] + 1; j < draw; j++) {
                sub[n] = sub[i] + (uint32_t)t->binom[c->idx[j]][size];
                last[n] = (int8_t)j;
                dst[made++] = base + sub[n];
                n++;
            }
        }
        out->n[size & 1] += made;
        from = to;
        to = n;
    }
}

static int64_t se_query(const se_subsets *t, const int32_t *cnt, const se_comp *c, int draw) {
    se_subset_list list;
    int64_t total = 0;
    se_subsets_of(t, c, draw, &list);
    for (int i = 0; i < list.n[0]; i++) total += cnt[list.at[0][i]];
    for (int i = 0; i < list.n[1]; i++) total -= cnt[list.at[1][i]];
    return total;
}

static void se_insert(const se_subsets *t, int32_t *cnt, const se_comp *c, int draw) {
    se_subset_list list;
    se_subsets_of(t, c, draw, &list);
    for (int odd = 0; odd < 2; odd++) {
        for (int i = 0; i < list.n[odd]; i++) cnt[list.at[odd][i]]++;
    }
}

#define SE_HU_KEPT ((size_t)1 << 23) /* card subsets kept a side at most: 32 MiB */

/* Keeps each of a side's completions' counter indices: a sweep queries each of A's
 * three times, the scoops by class again and again, and making them had been most
 * of the count's time. Left NULL past `most` or SE_HU_KEPT (made at each query then). */
static void se_side_subsets(const se_subsets *t, se_side *side, size_t most) {
    se_subset_list list;
    side->subs = NULL;
    if (side->n == 0) return;
    se_subsets_of(t, &side->comp[0], side->draw, &list);
    side->even = list.n[0];
    side->per = list.n[0] + list.n[1];
    if (side->n > most / (size_t)side->per || side->n > SE_HU_KEPT / (size_t)side->per) return;
    side->subs = (uint32_t *)malloc(side->n * (size_t)side->per * sizeof(uint32_t));
    if (side->subs == NULL) return;
    for (size_t i = 0; i < side->n; i++) {
        uint32_t *at = side->subs + i * (size_t)side->per;
        se_subsets_of(t, &side->comp[i], side->draw, &list);
        memcpy(at, list.at[0], (size_t)list.n[0] * sizeof(uint32_t));
        memcpy(at + list.n[0], list.at[1], (size_t)list.n[1] * sizeof(uint32_t));
    }
}

/* How many of B's completions counted in cnt are disjoint from the side's i-th. */
static int64_t se_side_query(const se_subsets *t, const int32_t *cnt, const se_side *side,
                             size_t i) {
    if (side->subs == NULL) return se_query(t, cnt, &side->comp[i], side->draw);
    const uint32_t *at = side->subs + i * (size_t)side->per;
    int64_t total = 0;
    for (int k = 0; k < side->even; k++) total += cnt[at[k]];
    for (int k = side->even; k < side->per; k++) total -= cnt[at[k]];
    return total;
}

/* Counts the side's i-th completion in cnt. */
static void se_side_insert(const se_subsets *t, int32_t *cnt, const se_side *side, size_t i) {
    if (side->subs == NULL) {
        se_insert(t, cnt, &side->comp[i], side->draw);
        return;
    }
    const uint32_t *at = side->subs + i * (size_t)side->per;
    for (int k = 0; k < side->per; k++) cnt[at[k]]++;
}

/* Every completion of one player, ranked. */
static se_status se_side_build(const se_eq_prep *p, int player, se_side *side,
                               se_progress *progress) {
    int k = p->need[player];
    size_t n = (size_t)se_binomial(p->n_unseen, k);
    int idx[7];
    side->draw = k;
    side->n = n;
    side->comp = (se_comp *)malloc((n > 0 ? n : 1) * sizeof(se_comp));
    if (side->comp == NULL) return SE_NO_MEMORY;
    for (int j = 0; j < k; j++) idx[j] = j;
    for (size_t i = 0; i < n; i++) {
        se_comp *c = &side->comp[i];
        se_sums s = p->base[player];
        if (i % SE_HU_STEP == 0 && i > 0) {
            se_eq_advance(progress, SE_HU_STEP);
            if (se_eq_stopped(progress)) return SE_STOPPED;
        }
        for (int j = 0; j < k; j++) {
            c->idx[j] = (uint8_t)idx[j];
            s = se_eq_add(s, p->unseen[idx[j]]);
        }
        se_eq_rank(p->game, s, &c->hi, &c->lo);
        if (p->game == SE_GAME_STUD8 && c->lo == SE_EQ_NONE) c->lo = SE_LOW8_NONE;
        /* Next combination in colex order. */
        int j = 0;
        while (j < k - 1 && idx[j] + 1 == idx[j + 1]) {
            idx[j] = j;
            j++;
        }
        if (k > 0) idx[j]++;
    }
    se_eq_advance(progress, n > 0 ? (n - 1) % SE_HU_STEP + 1 : 0);
    return SE_OK;
}

/* Completions in ascending order of one key, as indices (a counting sort). */
static size_t *se_order(const se_side *side, int by_low, const uint8_t *keep) {
    size_t count[SE_HU_KEYS + 1];
    size_t *order = (size_t *)malloc((side->n > 0 ? side->n : 1) * sizeof(size_t));
    if (order == NULL) return NULL;
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < side->n; i++) {
        if (keep == NULL || keep[i]) count[(by_low ? side->comp[i].lo : side->comp[i].hi) + 1]++;
    }
    for (int key = 1; key <= SE_HU_KEYS; key++) count[key] += count[key - 1];
    for (size_t i = 0; i < side->n; i++) {
        if (keep == NULL || keep[i]) {
            order[count[by_low ? side->comp[i].lo : side->comp[i].hi]++] = i;
        }
    }
    return order;
}

typedef struct se_sweep {
    uint64_t a_wins, ties, b_wins, pairs;
} se_sweep;

/* One ranking (high, or low) over A's completions oa[0..na) and B's ob[0..nb),
 * each in ascending order of that key; cnt (t->total counters) must be zero.
 * Reports na + nb steps of progress; returns SE_STOPPED on a stop. */
static se_status se_sweep_ordered(const se_subsets *t, const se_side *A, const size_t *oa,
                                  size_t na, const se_side *B, const size_t *ob, size_t nb,
                                  int by_low, int32_t *cnt, se_sweep *out) {
    size_t ia = 0, ib = 0, reported = 0;
    uint64_t better = 0, better_or_equal = 0;
    memset(out, 0, sizeof *out);
    while (ia < na) {
        if (ia + ib - reported >= SE_HU_STEP) {
            se_eq_advance(t->progress, ia + ib - reported);
            reported = ia + ib;
            if (se_eq_stopped(t->progress)) return SE_STOPPED;
        }
        uint16_t key = by_low ? A->comp[oa[ia]].lo : A->comp[oa[ia]].hi;
        /* B's completions strictly better than this rank are in already. */
        while (ib < nb && (by_low ? B->comp[ob[ib]].lo : B->comp[ob[ib]].hi) < key) {
            se_side_insert(t, cnt, B, ob[ib]);
            ib++;
        }
        size_t end = ia;
        while (end < na && (by_low ? A->comp[oa[end]].lo : A->comp[oa[end]].hi) == key) end++;
        for (size_t i = ia; i < end; i++) better += (uint64_t)se_side_query(t, cnt, A, oa[i]);
        while (ib < nb && (by_low ? B->comp[ob[ib]].lo : B->comp[ob[ib]].hi) == key) {
            se_side_insert(t, cnt, B, ob[ib]);
            ib++;
        }
        for (size_t i = ia; i < end; i++) {
            better_or_equal += (uint64_t)se_side_query(t, cnt, A, oa[i]);
        }
        ia = end;
    }
    while (ib < nb) {
        se_side_insert(t, cnt, B, ob[ib]);
        ib++;
    }
    for (size_t i = 0; i < na; i++) out->pairs += (uint64_t)se_side_query(t, cnt, A, oa[i]);
    out->b_wins = better;
    out->ties = better_or_equal - better;
    out->a_wins = out->pairs - better_or_equal;
    se_eq_advance(t->progress, na + nb - reported);
    return SE_OK;
}

/* One ranking (high, or low), over the completions each side keeps: A->n +
 * B->n steps of progress, whatever is kept. */
static se_status se_sweep_run(const se_subsets *t, const se_side *A, const se_side *B,
                              int by_low, const uint8_t *keep_a, const uint8_t *keep_b,
                              se_sweep *out) {
    if (A->n > B->n) {
        /* A's completions are queried three times, B's inserted once: let the
         * side with fewer completions be queried. */
        se_status status = se_sweep_run(t, B, A, by_low, keep_b, keep_a, out);
        uint64_t b_wins = out->b_wins;
        out->b_wins = out->a_wins;
        out->a_wins = b_wins;
        return status;
    }
    size_t na = 0, nb = 0;
    size_t *oa = se_order(A, by_low, keep_a), *ob = se_order(B, by_low, keep_b);
    int32_t *cnt = (int32_t *)calloc(t->total, sizeof(int32_t));
    se_status status = SE_OK;
    memset(out, 0, sizeof *out);
    if (oa == NULL || ob == NULL || cnt == NULL) {
        status = SE_NO_MEMORY;
    } else {
        for (size_t i = 0; i < A->n; i++) na += keep_a == NULL || keep_a[i];
        for (size_t i = 0; i < B->n; i++) nb += keep_b == NULL || keep_b[i];
        status = se_sweep_ordered(t, A, oa, na, B, ob, nb, by_low, cnt, out);
        if (status == SE_OK) se_eq_advance(t->progress, A->n + B->n - na - nb);
    }
    free(oa);
    free(ob);
    free(cnt);
    return status;
}

/* The independent sweeps of one spot (high, low, and stud8's high where nobody
 * has a low), run on threads. */
typedef struct se_sweep_spec {
    int by_low;
    const uint8_t *keep_a, *keep_b;
    se_sweep *out;
    se_status status;
} se_sweep_spec;

typedef struct se_sweep_job {
    const se_subsets *t;
    const se_side *A, *B;
    int n;
    se_sweep_spec spec[3];
} se_sweep_job;

static int se_sweep_chunk(void *context, size_t begin, size_t end, int worker) {
    se_sweep_job *job = (se_sweep_job *)context;
    (void)worker;
    for (size_t i = begin; i < end; i++) {
        se_sweep_spec *spec = &job->spec[i];
        spec->status = se_sweep_run(job->t, job->A, job->B, spec->by_low, spec->keep_a,
                                    spec->keep_b, spec->out);
    }
    return 0;
}

/* ---- scoops by low class -------------------------------------------------------- */

/* A 2-D count (A better in high and in low) as 1-D high sweeps split by low
 * class. Pairs with A's low in a lower group of classes than B's are counted by
 * one sweep per group of B (A's completions of the lower groups against B's of
 * the group); pairs within a group by one sweep per class of B (A's of the same
 * group with a lower class against B's of the class). With about sqrt(K) groups
 * of about sqrt(K) classes, each of B's completions is swept twice and each of
 * A's about 2 sqrt(K) times: B, the side with more completions, costs the most
 * per completion (more card subsets). Stud8 lows take 59 values (56 lows, none,
 * and "none" made worse than none), the no-qualifier game's 6,175. The sweeps
 * are independent, so they run on threads, each with its own counters. */

typedef struct se_class_sweep {
    const size_t *a_list; /* A's completions by high */
    size_t a_n;
    uint16_t a_min, a_end; /* keep A's with a low class in [a_min, a_end) */
    const size_t *b_list; /* B's completions of the group or class, by high */
    size_t b_n;
} se_class_sweep;

typedef struct se_class_job {
    const se_subsets *t;
    const se_side *A, *B;
    const uint16_t *a_low;
    se_class_sweep *sweep;
    int strict;
    uint64_t found[SE_MAX_THREADS];
    se_status failed[SE_MAX_THREADS];
} se_class_job;

/* Groups of classes for K classes: about sqrt(K) of about sqrt(K) classes each. */
static int se_class_width(int classes) {
    int width = 1;
    while (width * width < classes) width++;
    return width;
}

/* The most subset steps a count of scoops by class may take (about 20 s on two
 * cores here): a third-street hand against one with unknown hole cards takes
 * 3e9 in stud8 and 6e9 in the no-qualifier game; spots beyond it (both players'
 * hole cards unknown, and earlier) return SE_TOO_BIG and are left to Monte Carlo. */
#define SE_HU_CLASS_WORK 8000000000.0

/* Subset steps of the two families of class sweeps: A queried three times in each
 * of its sweeps, B inserted once in each of its two. */
static double se_class_work(int classes, size_t a_n, int a_subsets, size_t b_n, int b_subsets) {
    int width = se_class_width(classes), groups = (classes + width - 1) / width;
    return 2.0 * ((double)(groups + width) * (double)a_n * a_subsets * 3.0 +
                  2.0 * (double)b_n * b_subsets);
}

/* Progress steps of one family of class sweeps (at most; topped up to it). */
static size_t se_class_steps(int classes, size_t a_n, size_t b_n) {
    int width = se_class_width(classes), groups = (classes + width - 1) / width;
    return (size_t)(groups + width) * a_n + 2 * b_n;
}

static int se_class_chunk(void *context, size_t begin, size_t end, int worker) {
    se_class_job *job = (se_class_job *)context;
    int32_t *cnt = (int32_t *)malloc(job->t->total * sizeof(int32_t));
    size_t *oa = (size_t *)malloc((job->A->n > 0 ? job->A->n : 1) * sizeof(size_t));
    if (cnt == NULL || oa == NULL) {
        free(cnt);
        free(oa);
        job->failed[worker] = SE_NO_MEMORY;
        return 1;
    }
    /* Each sweep is a_n + b_n steps of progress. */
    for (size_t i = begin; i < end && job->failed[worker] == SE_OK; i++) {
        const se_class_sweep *w = &job->sweep[i];
        size_t na = 0;
        if (se_eq_stopped(job->t->progress)) {
            job->failed[worker] = SE_STOPPED;
            break;
        }
        if (w->b_n > 0) {
            for (size_t k = 0; k < w->a_n; k++) {
                uint16_t low = job->a_low[w->a_list[k]];
                if (low >= w->a_min && low < w->a_end) oa[na++] = w->a_list[k];
            }
        }
        se_eq_advance(job->t->progress, w->a_n - na);
        if (na == 0 || w->b_n == 0) {
            se_eq_advance(job->t->progress, w->b_n);
            continue;
        }
        se_sweep sweep;
        memset(cnt, 0, job->t->total * sizeof(int32_t));
        job->failed[worker] = se_sweep_ordered(job->t, job->A, oa, na, job->B, w->b_list, w->b_n,
                                               0, cnt, &sweep);
        job->found[worker] += sweep.a_wins + (job->strict ? 0 : sweep.ties);
    }
    free(cnt);
    free(oa);
    return job->failed[worker] != SE_OK;
}

/* order (by high) stably sorted by key[] into out, with start[key] offsets. */
static void se_bucket(const size_t *order, size_t n, const uint16_t *key, int keys, int width,
                      size_t *out, size_t *start) {
    for (int k = 0; k <= keys; k++) start[k] = 0;
    for (size_t i = 0; i < n; i++) start[key[order[i]] / width + 1]++;
    for (int k = 1; k <= keys; k++) start[k] += start[k - 1];
    size_t *next = start + keys + 1; /* scratch: keys + 1 more entries */
    memcpy(next, start, (size_t)(keys + 1) * sizeof(size_t));
    for (size_t i = 0; i < n; i++) out[next[key[order[i]] / width]++] = order[i];
}

/* How many disjoint pairs have A's high better than B's and A's low class
 * better than B's (strict), or neither worse (not strict); classes < `classes`. */
static se_status se_class_sweeps(const se_subsets *t, const se_side *A, const uint16_t *a_low,
                                 const se_side *B, const uint16_t *b_low, int classes,
                                 int strict, int threads, uint64_t *out) {
    int width = se_class_width(classes), groups = (classes + width - 1) / width;
    size_t items = (size_t)(groups + classes);
    se_class_job *job = (se_class_job *)calloc(1, sizeof *job);
    size_t *a_by_high = se_order(A, 0, NULL), *b_by_high = se_order(B, 0, NULL);
    size_t *buf = (size_t *)malloc(((A->n + 2 * B->n) > 0 ? A->n + 2 * B->n : 1) * sizeof(size_t));
    size_t *starts = (size_t *)malloc((size_t)(3 * 2 * (classes + 1)) * sizeof(size_t));
    se_class_sweep *sweep = (se_class_sweep *)calloc(items, sizeof *sweep);
    se_status status = SE_OK;
    size_t planned = se_class_steps(classes, A->n, B->n), steps = 0;
    *out = 0;
    if (job == NULL || a_by_high == NULL || b_by_high == NULL || buf == NULL || starts == NULL ||
        sweep == NULL) {
        status = SE_NO_MEMORY;
        goto done;
    }
    {
        size_t *a_by_group = buf, *b_by_group = buf + A->n, *b_by_class = buf + A->n + B->n;
        size_t *a_group = starts, *b_group = starts + 2 * (classes + 1);
        size_t *b_class = starts + 4 * (classes + 1);
        se_bucket(a_by_high, A->n, a_low, groups, width, a_by_group, a_group);
        se_bucket(b_by_high, B->n, b_low, groups, width, b_by_group, b_group);
        se_bucket(b_by_high, B->n, b_low, classes, 1, b_by_class, b_class);
        for (int g = 0; g < groups; g++) { /* A's of lower groups against B's of group g */
            se_class_sweep *w = &sweep[g];
            w->a_list = a_by_high;
            w->a_n = A->n;
            w->a_min = 0;
            w->a_end = (uint16_t)(g * width);
            w->b_list = b_by_group + b_group[g];
            w->b_n = b_group[g + 1] - b_group[g];
        }
        for (int c = 0; c < classes; c++) { /* within the group: A's of lower classes */
            se_class_sweep *w = &sweep[groups + c];
            int g = c / width;
            w->a_list = a_by_group + a_group[g];
            w->a_n = a_group[g + 1] - a_group[g];
            w->a_min = (uint16_t)(g * width);
            w->a_end = (uint16_t)(strict ? c : c + 1);
            w->b_list = b_by_class + b_class[c];
            w->b_n = b_class[c + 1] - b_class[c];
        }
        for (size_t i = 0; i < items; i++) steps += sweep[i].a_n + sweep[i].b_n;
    }
    job->t = t;
    job->A = A;
    job->B = B;
    job->a_low = a_low;
    job->sweep = sweep;
    job->strict = strict;
    {
        int workers = se_parallel_for(items, 1, 1, threads, se_class_chunk, job);
        for (int w = 0; w < workers; w++) {
            if (job->failed[w] != SE_OK) status = job->failed[w];
            *out += job->found[w];
        }
    }
    if (status == SE_OK) se_eq_advance(t->progress, planned - steps);
done:
    free(job);
    free(a_by_high);
    free(b_by_high);
    free(buf);
    free(starts);
    free(sweep);
    return status;
}

/* Both players' scoops by low class. A scoops when its high is better and its
 * low is better (in stud8: or nobody has a low; with B's "none" made worse than
 * A's, that is A's high better and A's class better). B's scoops are counted
 * through the complement, so that B's completions (the side with more) stay
 * the ones swept least: the pairs where B is better in both are those where B's
 * high is better, plus those where B's low is better, less those where either
 * is, which are all pairs less those where A is no worse in both.
 * b_low_wins: the pairs where B's low beats A's (stud8: A's "none" made worse). */
static se_status se_scoops_by_class(const se_subsets *t, const se_side *A, const se_side *B,
                                    int game, uint64_t deals, uint64_t b_high_wins,
                                    uint64_t b_low_wins, int threads, uint64_t *scoop_a,
                                    uint64_t *scoop_b) {
    uint16_t *low[2][2] = {{NULL, NULL}, {NULL, NULL}}; /* [side][none made worse] */
    const se_side *side[2] = {A, B};
    int classes = game == SE_GAME_STUD8 ? SE_HU_LOW_CLASSES : SE_LOW_CLASSES + 1;
    se_status status = SE_OK;
    uint64_t no_worse = 0;
    for (int i = 0; i < 2 && status == SE_OK; i++) {
        for (int worse = 0; worse < 2; worse++) {
            low[i][worse] = (uint16_t *)malloc((side[i]->n > 0 ? side[i]->n : 1) * sizeof(uint16_t));
            if (low[i][worse] == NULL) {
                status = SE_NO_MEMORY;
                break;
            }
            for (size_t j = 0; j < side[i]->n; j++) {
                uint16_t lo = side[i]->comp[j].lo;
                int none = game == SE_GAME_STUD8 && lo == SE_LOW8_NONE;
                low[i][worse][j] = (uint16_t)(worse && none ? SE_LOW8_NONE + 1 : lo);
            }
        }
    }
    if (status == SE_OK) {
        status = se_class_sweeps(t, A, low[0][0], B, low[1][1], classes, 1, threads, scoop_a);
    }
    if (status == SE_OK) {
        status = se_class_sweeps(t, A, low[0][1], B, low[1][0], classes, 0, threads, &no_worse);
    }
    if (status == SE_OK) *scoop_b = b_high_wins + b_low_wins - (deals - no_worse);
    for (int i = 0; i < 2; i++) {
        free(low[i][0]);
        free(low[i][1]);
    }
    return status;
}

/* ---- scoops: 2-D dominance per subset ------------------------------------------ */

typedef struct se_record {
    uint32_t subset;
    uint16_t hi, lo;
    int8_t sign; /* 0 for one of B's points, else the query's inclusion-exclusion sign */
} se_record;

static size_t se_subset_count(const se_subsets *t, int draw) {
    size_t n = 0;
    for (int k = 0; k <= draw && k <= t->limit; k++) n += (size_t)se_binomial(draw, k);
    return n;
}

/* How many disjoint pairs (X of A, Y of B) have Y worse in high and in low. */
static se_status se_scoops(const se_subsets *t, const se_side *A, const se_side *B,
                           uint64_t *out) {
    size_t per_a = se_subset_count(t, A->draw), per_b = se_subset_count(t, B->draw);
    size_t n = A->n * per_a + B->n * per_b, at = 0;
    se_record *rec, *sorted;
    size_t *count;
    int64_t total = 0;
    uint32_t fen[SE_HU_KEYS + 2];
    rec = (se_record *)malloc((n > 0 ? n : 1) * sizeof *rec);
    sorted = (se_record *)malloc((n > 0 ? n : 1) * sizeof *sorted);
    /* One count array serves both counting sorts: by (high, kind), then by subset. */
    size_t buckets = t->total + 2 > 2 * SE_HU_KEYS + 2 ? t->total + 2 : 2 * SE_HU_KEYS + 2;
    count = (size_t *)calloc(buckets, sizeof(size_t));
    if (rec == NULL || sorted == NULL || count == NULL) {
        free(rec);
        free(sorted);
        free(count);
        return SE_NO_MEMORY;
    }
    /* A's completions are the queries (with their inclusion-exclusion signs),
     * B's the points (sign 0). */
    for (int who = 0; who < 2; who++) {
        const se_side *from = who == 0 ? A : B;
        for (size_t i = 0; i < from->n; i++) {
            const se_comp *c = &from->comp[i];
            se_subset_list list;
            se_subsets_of(t, c, from->draw, &list);
            for (int odd = 0; odd < 2; odd++) {
                for (int j = 0; j < list.n[odd]; j++) {
                    rec[at].subset = list.at[odd][j];
                    rec[at].hi = c->hi;
                    rec[at].lo = c->lo;
                    rec[at].sign = (int8_t)(who == 1 ? 0 : odd ? -1 : 1);
                    at++;
                }
            }
        }
    }
    /* Sort by high descending, A's queries before B's points of the same high
     * (B must be strictly worse), then stably by subset: two counting sorts. */
    memset(count, 0, (2 * SE_HU_KEYS + 2) * sizeof(size_t));
    for (size_t i = 0; i < n; i++) {
        count[2 * (SE_HU_KEYS - rec[i].hi) + (rec[i].sign == 0) + 1]++;
    }
    for (int k = 1; k <= 2 * SE_HU_KEYS + 1; k++) count[k] += count[k - 1];
    for (size_t i = 0; i < n; i++) {
        sorted[count[2 * (SE_HU_KEYS - rec[i].hi) + (rec[i].sign == 0)]++] = rec[i];
    }
    memset(count, 0, (t->total + 1) * sizeof(size_t));
    for (size_t i = 0; i < n; i++) count[sorted[i].subset + 1]++;
    for (size_t k = 1; k <= t->total; k++) count[k] += count[k - 1];
    for (size_t i = 0; i < n; i++) rec[count[sorted[i].subset]++] = sorted[i];
    memset(fen, 0, sizeof fen);
    for (size_t start = 0; start < n;) {
        size_t end = start;
        uint32_t inserted = 0;
        while (end < n && rec[end].subset == rec[start].subset) end++;
        for (size_t i = start; i < end; i++) {
            if (rec[i].sign == 0) {
                for (int k = rec[i].lo + 1; k <= SE_HU_KEYS + 1; k += k & -k) fen[k]++;
                inserted++;
            } else {
                uint32_t at_most = 0; /* points with low <= the query's low */
                for (int k = rec[i].lo + 1; k > 0; k -= k & -k) at_most += fen[k];
                total += rec[i].sign * (int64_t)(inserted - at_most);
            }
        }
        for (size_t i = start; i < end; i++) { /* empty the tree for the next subset */
            if (rec[i].sign == 0) {
                for (int k = rec[i].lo + 1; k <= SE_HU_KEYS + 1; k += k & -k) fen[k]--;
            }
        }
        start = end;
    }
    free(rec);
    free(sorted);
    free(count);
    *out = (uint64_t)total;
    se_eq_advance(t->progress, A->n + B->n);
    return se_eq_stopped(t->progress) ? SE_STOPPED : SE_OK;
}

/* ---- putting it together -------------------------------------------------------- */

se_status se_equity_count_heads_up(const se_equity_spot *spot, size_t max_records, int threads,
                                   se_progress *progress, se_equity_counts *out) {
    se_eq_prep p;
    se_side side[2];
    se_subsets *t = NULL;
    uint8_t *unq[2] = {NULL, NULL};
    int by_class = 0;
    se_status status = se_eq_prepare(spot, &p);
    memset(side, 0, sizeof side);
    if (status != SE_OK) return status;
    if (out == NULL || p.players != 2 || p.community) return SE_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    t = (se_subsets *)malloc(sizeof *t);
    if (t == NULL) return SE_NO_MEMORY;
    se_subsets_init(t, p.n_unseen, p.need[0] < p.need[1] ? p.need[0] : p.need[1]);
    t->progress = progress;
    {
        /* Scoops: stud8 counts them by low class; the no-qualifier game, with
         * thousands of low classes, from records while they fit in max_records
         * (faster), else by class too. */
        size_t n0 = (size_t)se_binomial(p.n_unseen, p.need[0]);
        size_t n1 = (size_t)se_binomial(p.n_unseen, p.need[1]);
        size_t small = n0 < n1 ? n0 : n1, both = n0 + n1;
        size_t records = n0 * se_subset_count(t, p.need[0]) + n1 * se_subset_count(t, p.need[1]);
        by_class = p.game == SE_GAME_STUD8 ||
                   (p.game == SE_GAME_STUD_HILO_NOQ && records > max_records);
        if (by_class) {
            int classes = p.game == SE_GAME_STUD8 ? SE_HU_LOW_CLASSES : SE_LOW_CLASSES + 1;
            int s0 = (int)se_subset_count(t, p.need[0]), s1 = (int)se_subset_count(t, p.need[1]);
            double work = n0 <= n1 ? se_class_work(classes, n0, s0, n1, s1)
                                   : se_class_work(classes, n1, s1, n0, s0);
            if (work > SE_HU_CLASS_WORK) {
                status = SE_TOO_BIG;
                goto done;
            }
        }
        /* Progress in completions handled: building both sides, each sweep over
         * both, then the scoops (by class: each family's planned steps). */
        size_t sweeps = p.game == SE_GAME_STUD8 ? 3 : p.game == SE_GAME_STUD_HILO_NOQ ? 2 : 1;
        size_t scoops = 0;
        if (by_class) {
            int classes = p.game == SE_GAME_STUD8 ? SE_HU_LOW_CLASSES : SE_LOW_CLASSES + 1;
            scoops = 2 * se_class_steps(classes, small, both - small);
        } else if (p.game == SE_GAME_STUD_HILO_NOQ) {
            scoops = 2 * both;
        }
        se_eq_plan(progress, both * (1 + sweeps) + scoops);
    }
    for (int i = 0; i < 2 && status == SE_OK; i++) status = se_side_build(&p, i, &side[i], progress);
    if (status != SE_OK) goto done;
    for (int i = 0; i < 2; i++) se_side_subsets(t, &side[i], max_records);
    out->deals = side[0].n * se_binomial(p.n_unseen - p.need[0], p.need[1]);
    {
        const uint64_t U = SE_EQ_UNITS, H = SE_EQ_UNITS / 2, Q = SE_EQ_UNITS / 4;
        se_sweep hi = {0, 0, 0, 0}, lo = {0, 0, 0, 0}, uu = {0, 0, 0, 0};
        int uses_high = p.game != SE_GAME_RAZZ, uses_low = p.game != SE_GAME_STUD;
        se_sweep_job job;
        memset(&job, 0, sizeof job);
        job.t = t;
        job.A = &side[0];
        job.B = &side[1];
        if (uses_high) job.spec[job.n++] = (se_sweep_spec){0, NULL, NULL, &hi, SE_OK};
        if (uses_low) job.spec[job.n++] = (se_sweep_spec){1, NULL, NULL, &lo, SE_OK};
        if (p.game == SE_GAME_STUD8) {
            /* The high among the deals where nobody has a low, too. */
            for (int i = 0; i < 2; i++) {
                unq[i] = (uint8_t *)malloc(side[i].n > 0 ? side[i].n : 1);
                if (unq[i] == NULL) {
                    status = SE_NO_MEMORY;
                    goto done;
                }
                for (size_t j = 0; j < side[i].n; j++) unq[i][j] = side[i].comp[j].lo == SE_LOW8_NONE;
            }
            job.spec[job.n++] = (se_sweep_spec){0, unq[0], unq[1], &uu, SE_OK};
        }
        se_parallel_for((size_t)job.n, 1, 1, threads, se_sweep_chunk, &job);
        for (int i = 0; i < job.n; i++) {
            if (job.spec[i].status != SE_OK) status = job.spec[i].status;
        }
        if (status != SE_OK) goto done;
        if (p.game == SE_GAME_STUD) {
            out->share[0] = U * hi.a_wins + H * hi.ties;
            out->share[1] = U * hi.b_wins + H * hi.ties;
        } else if (p.game == SE_GAME_RAZZ) {
            out->share[0] = U * lo.a_wins + H * lo.ties;
            out->share[1] = U * lo.b_wins + H * lo.ties;
        } else if (p.game == SE_GAME_STUD_HILO_NOQ) {
            out->share[0] = H * (hi.a_wins + lo.a_wins) + Q * (hi.ties + lo.ties);
            out->share[1] = H * (hi.b_wins + lo.b_wins) + Q * (hi.ties + lo.ties);
        } else {
            /* Stud8: half the pot by high and half by low (no low counted as the
             * worst low), except that where nobody qualifies the high takes the
             * low half too: the high result over those deals, less the tie that
             * "no low against no low" counted in the low sweep. */
            out->share[0] = H * hi.a_wins + Q * hi.ties + H * lo.a_wins + Q * lo.ties +
                            H * uu.a_wins + Q * uu.ties - Q * uu.pairs;
            out->share[1] = H * hi.b_wins + Q * hi.ties + H * lo.b_wins + Q * lo.ties +
                            H * uu.b_wins + Q * uu.ties - Q * uu.pairs;
        }
        if (uses_high) {
            out->high_win[0] = hi.a_wins;
            out->high_win[1] = hi.b_wins;
            out->high_tie[0] = out->high_tie[1] = hi.ties;
        }
        if (uses_low) {
            out->low_win[0] = lo.a_wins;
            out->low_win[1] = lo.b_wins;
            /* A tie of "no low" with "no low" is no tie for a low. */
            out->low_tie[0] = out->low_tie[1] = lo.ties - uu.pairs;
        }
        /* Heads-up a low is won alone or split in two. */
        for (int i = 0; i < 2; i++) {
            out->low_share[i] = p.game == SE_GAME_RAZZ ? out->share[i]
                                : p.game == SE_GAME_STUD ? 0
                                : H * out->low_win[i] + Q * out->low_tie[i];
        }
        if (p.game == SE_GAME_STUD) {
            out->scoop[0] = hi.a_wins;
            out->scoop[1] = hi.b_wins;
        } else if (p.game == SE_GAME_RAZZ) {
            out->scoop[0] = lo.a_wins;
            out->scoop[1] = lo.b_wins;
        } else if (by_class) {
            /* The side with fewer completions is the one swept most. */
            int small = side[1].n < side[0].n, big = 1 - small;
            status = se_scoops_by_class(t, &side[small], &side[big], p.game, out->deals,
                                        small ? hi.a_wins : hi.b_wins,
                                        (small ? lo.a_wins : lo.b_wins) + uu.pairs, threads,
                                        &out->scoop[small], &out->scoop[big]);
            if (status) goto done;
        } else {
            if ((status = se_scoops(t, &side[0], &side[1], &out->scoop[0]))) goto done;
            if ((status = se_scoops(t, &side[1], &side[0], &out->scoop[1]))) goto done;
        }
    }
done:
    if (status != SE_OK) memset(out, 0, sizeof *out);
    free(side[0].comp);
    free(side[1].comp);
    free(side[0].subs);
    free(side[1].subs);
    free(unq[0]);
    free(unq[1]);
    free(t);
    return status;
}
