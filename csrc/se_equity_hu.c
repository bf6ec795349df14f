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
 * Scoops (B worse in high and in low at once) are a 2-D dominance count: per
 * subset S, the completions holding S are sorted by high rank and swept with a
 * Fenwick tree over the low ranks, and the per-subset counts are added with
 * their inclusion-exclusion signs. */
#include <stdlib.h>
#include <string.h>

#include "se_equity.h"

#define SE_HU_KEYS 7464 /* ranks 1..7462, and 57/58 for no 8-or-better low */
#define SE_LOW8_NONE 57 /* no qualifying low: worse than every low in stud8 */

typedef struct se_comp {
    uint16_t hi, lo;
    uint8_t idx[7]; /* unseen positions drawn, ascending */
} se_comp;

typedef struct se_side {
    se_comp *comp;
    size_t n;
    int draw;
} se_side;

typedef struct se_subsets {
    int m, limit;
    uint64_t binom[53][8];
    size_t offset[9];
    size_t total;
} se_subsets;

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

/* Calls fn(index, sign) for every subset of a completion's cards of size <= limit. */
#define SE_FOR_SUBSETS(T, C, DRAW, BODY)                                   \
    for (unsigned mask_ = 0; mask_ < (1u << (DRAW)); mask_++) {            \
        int size_ = 0;                                                      \
        size_t sub_ = 0;                                                    \
        for (int j_ = 0; j_ < (DRAW); j_++) {                               \
            if (mask_ >> j_ & 1u) {                                         \
                size_++;                                                    \
                sub_ += (size_t)(T)->binom[(C)->idx[j_]][size_];            \
            }                                                               \
        }                                                                   \
        if (size_ > (T)->limit) continue;                                   \
        size_t index = (T)->offset[size_] + sub_;                           \
        int sign = (size_ & 1) ? -1 : 1;                                    \
        BODY                                                                \
    }

static int64_t se_query(const se_subsets *t, const int64_t *cnt, const se_comp *c, int draw) {
    int64_t total = 0;
    SE_FOR_SUBSETS(t, c, draw, { total += sign * cnt[index]; })
    return total;
}

static void se_insert(const se_subsets *t, int64_t *cnt, const se_comp *c, int draw) {
    SE_FOR_SUBSETS(t, c, draw, { (void)sign; cnt[index]++; })
}

/* Every completion of one player, ranked. */
static se_status se_side_build(const se_eq_prep *p, int player, se_side *side) {
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

/* One ranking (high, or low), over the completions each side keeps. */
static se_status se_sweep_run(const se_subsets *t, const se_side *A, const se_side *B,
                              int by_low, const uint8_t *keep_a, const uint8_t *keep_b,
                              se_sweep *out) {
    size_t na = 0, nb = 0;
    size_t *oa = se_order(A, by_low, keep_a), *ob = se_order(B, by_low, keep_b);
    int64_t *cnt = (int64_t *)calloc(t->total, sizeof(int64_t));
    se_status status = SE_OK;
    memset(out, 0, sizeof *out);
    if (oa == NULL || ob == NULL || cnt == NULL) {
        status = SE_NO_MEMORY;
        goto done;
    }
    for (size_t i = 0; i < A->n; i++) na += keep_a == NULL || keep_a[i];
    for (size_t i = 0; i < B->n; i++) nb += keep_b == NULL || keep_b[i];
    {
        size_t ia = 0, ib = 0;
        uint64_t better = 0, better_or_equal = 0;
        while (ia < na) {
            uint16_t key = by_low ? A->comp[oa[ia]].lo : A->comp[oa[ia]].hi;
            /* B's completions strictly better than this rank are in already. */
            while (ib < nb && (by_low ? B->comp[ob[ib]].lo : B->comp[ob[ib]].hi) < key) {
                se_insert(t, cnt, &B->comp[ob[ib]], B->draw);
                ib++;
            }
            size_t end = ia;
            while (end < na && (by_low ? A->comp[oa[end]].lo : A->comp[oa[end]].hi) == key) end++;
            for (size_t i = ia; i < end; i++) better += (uint64_t)se_query(t, cnt, &A->comp[oa[i]], A->draw);
            while (ib < nb && (by_low ? B->comp[ob[ib]].lo : B->comp[ob[ib]].hi) == key) {
                se_insert(t, cnt, &B->comp[ob[ib]], B->draw);
                ib++;
            }
            for (size_t i = ia; i < end; i++) {
                better_or_equal += (uint64_t)se_query(t, cnt, &A->comp[oa[i]], A->draw);
            }
            ia = end;
        }
        while (ib < nb) {
            se_insert(t, cnt, &B->comp[ob[ib]], B->draw);
            ib++;
        }
        for (size_t i = 0; i < na; i++) out->pairs += (uint64_t)se_query(t, cnt, &A->comp[oa[i]], A->draw);
        out->b_wins = better;
        out->ties = better_or_equal - better;
        out->a_wins = out->pairs - better_or_equal;
    }
done:
    free(oa);
    free(ob);
    free(cnt);
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
static se_status se_scoops(const se_subsets *t, const se_side *A, const se_side *B, int game,
                           size_t max_records, uint64_t *out) {
    size_t per_a = se_subset_count(t, A->draw), per_b = se_subset_count(t, B->draw);
    size_t n = A->n * per_a + B->n * per_b, at = 0;
    se_record *rec, *sorted;
    size_t *count;
    int64_t total = 0;
    uint32_t fen[SE_HU_KEYS + 2];
    if (n > max_records) return SE_TOO_BIG;
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
    for (size_t i = 0; i < A->n; i++) {
        const se_comp *c = &A->comp[i];
        SE_FOR_SUBSETS(t, c, A->draw, {
            rec[at].subset = (uint32_t)index;
            rec[at].hi = c->hi;
            rec[at].lo = c->lo;
            rec[at].sign = (int8_t)sign;
            at++;
        })
    }
    for (size_t i = 0; i < B->n; i++) {
        const se_comp *c = &B->comp[i];
        /* In stud8, B without a low loses the low to A without one too: a scoop
         * for A when A wins the high (nobody's low: the high takes all). */
        uint16_t lo = game == SE_GAME_STUD8 && c->lo == SE_LOW8_NONE ? SE_LOW8_NONE + 1 : c->lo;
        SE_FOR_SUBSETS(t, c, B->draw, {
            (void)sign;
            rec[at].subset = (uint32_t)index;
            rec[at].hi = c->hi;
            rec[at].lo = lo;
            rec[at].sign = 0;
            at++;
        })
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
    return SE_OK;
}

/* ---- putting it together -------------------------------------------------------- */

se_status se_equity_count_heads_up(const se_equity_spot *spot, size_t max_records,
                                   se_equity_counts *out) {
    se_eq_prep p;
    se_side side[2] = {{NULL, 0, 0}, {NULL, 0, 0}};
    se_subsets *t = NULL;
    uint8_t *unq[2] = {NULL, NULL};
    se_status status = se_eq_prepare(spot, &p);
    if (status != SE_OK) return status;
    if (out == NULL || p.players != 2 || p.community) return SE_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    t = (se_subsets *)malloc(sizeof *t);
    if (t == NULL) return SE_NO_MEMORY;
    se_subsets_init(t, p.n_unseen, p.need[0] < p.need[1] ? p.need[0] : p.need[1]);
    if (p.game == SE_GAME_STUD8 || p.game == SE_GAME_STUD_HILO_NOQ) {
        /* The scoop count's records, known before any work: refuse early. */
        size_t records = 0;
        for (int i = 0; i < 2; i++) {
            records += (size_t)se_binomial(p.n_unseen, p.need[i]) * se_subset_count(t, p.need[i]);
        }
        if (records > max_records) {
            status = SE_TOO_BIG;
            goto done;
        }
    }
    for (int i = 0; i < 2 && status == SE_OK; i++) status = se_side_build(&p, i, &side[i]);
    if (status != SE_OK) goto done;
    out->deals = side[0].n * se_binomial(p.n_unseen - p.need[0], p.need[1]);
    {
        const uint64_t U = SE_EQ_UNITS, H = SE_EQ_UNITS / 2, Q = SE_EQ_UNITS / 4;
        se_sweep hi = {0, 0, 0, 0}, lo = {0, 0, 0, 0}, uu = {0, 0, 0, 0};
        int uses_high = p.game != SE_GAME_RAZZ, uses_low = p.game != SE_GAME_STUD;
        if (uses_high && (status = se_sweep_run(t, &side[0], &side[1], 0, NULL, NULL, &hi))) goto done;
        if (uses_low && (status = se_sweep_run(t, &side[0], &side[1], 1, NULL, NULL, &lo))) goto done;
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
            for (int i = 0; i < 2; i++) {
                unq[i] = (uint8_t *)malloc(side[i].n > 0 ? side[i].n : 1);
                if (unq[i] == NULL) {
                    status = SE_NO_MEMORY;
                    goto done;
                }
                for (size_t j = 0; j < side[i].n; j++) unq[i][j] = side[i].comp[j].lo == SE_LOW8_NONE;
            }
            if ((status = se_sweep_run(t, &side[0], &side[1], 0, unq[0], unq[1], &uu))) goto done;
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
        if (p.game == SE_GAME_STUD) {
            out->scoop[0] = hi.a_wins;
            out->scoop[1] = hi.b_wins;
        } else if (p.game == SE_GAME_RAZZ) {
            out->scoop[0] = lo.a_wins;
            out->scoop[1] = lo.b_wins;
        } else {
            if ((status = se_scoops(t, &side[0], &side[1], p.game, max_records, &out->scoop[0])))
                goto done;
            if ((status = se_scoops(t, &side[1], &side[0], p.game, max_records, &out->scoop[1])))
                goto done;
        }
    }
done:
    free(side[0].comp);
    free(side[1].comp);
    free(unq[0]);
    free(unq[1]);
    free(t);
    return status;
}
