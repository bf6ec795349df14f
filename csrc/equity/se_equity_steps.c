/* Monte Carlo to a precision: a chunk's first deals at a time, until every share's
 * standard error is small enough. Built on se_equity_sample_part alone. */
#include <string.h>

#include "studeval.h"

/* The squared standard error of player i's share (of a pot, 0..1) estimated from the
 * sums, (E[x^2] - E[x]^2) / n: the square of studeval.equity_runs.std_error's figure,
 * compared with the target's square (no libm for C users to link). */
static double se_eq_variance_of_mean(const se_equity_counts *c, int i) {
    double n = (double)c->deals;
    double mean = (double)c->share[i] / SE_EQ_UNITS / n;
    double second = (double)c->share_sq[i] / ((double)SE_EQ_UNITS * SE_EQ_UNITS) / n;
    double variance = second - mean * mean;
    return (variance > 0.0 ? variance : 0.0) / n;
}

static void se_eq_add_counts(se_equity_counts *sum, const se_equity_counts *part) {
    sum->deals += part->deals;
    sum->community = part->community;
    for (int i = 0; i < SE_EQ_MAX_PLAYERS; i++) {
        sum->share[i] += part->share[i];
        sum->share_sq[i] += part->share_sq[i];
        sum->high_win[i] += part->high_win[i];
        sum->high_tie[i] += part->high_tie[i];
        sum->low_win[i] += part->low_win[i];
        sum->low_tie[i] += part->low_tie[i];
        sum->scoop[i] += part->scoop[i];
        sum->low_share[i] += part->low_share[i];
    }
}

se_status se_equity_sample_steps(const se_equity_spot *spot, uint64_t seed, int step,
                                 uint64_t most, double target_se, se_equity_counts *out) {
    /* !(target_se >= 0): NaN refused too. */
    if (out == NULL || spot == NULL || step < 1 || step > SE_EQ_CHUNK_SAMPLES || most < 1 ||
        !(target_se >= 0.0))
        return SE_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    for (uint64_t chunk = 0; out->deals < most; chunk++) {
        uint64_t left = most - out->deals;
        se_equity_counts part;
        se_status status = se_equity_sample_part(
            spot, seed, chunk, left < (uint64_t)step ? (int)left : step, &part);
        if (status != SE_OK) {
            memset(out, 0, sizeof *out);
            return status;
        }
        se_eq_add_counts(out, &part);
        int precise = 1;
        for (int i = 0; i < spot->players && precise; i++)
            precise = se_eq_variance_of_mean(out, i) <= target_se * target_se;
        if (precise) break;
    }
    return SE_OK;
}
