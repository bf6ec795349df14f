/* Exact equity against ranges: one exact count per choice of the ranged seats'
 * hidden cards (a tuple), the tuples spread over threads.
 *
 * Every tuple of one spot leaves the same number of unseen cards, so each has as
 * many deals; weighting the tuples' counts (done by the caller, who holds the
 * weights) gives the exact answer against the ranges. A tuple is small (a few
 * thousand deals from 5th street on), so each is counted on one thread and the
 * threads share the tuples: heads-up spots with many deals by counting
 * (se_equity_count_heads_up), others by walking every deal. Monte Carlo against
 * ranges is se_equity_sample_ranges in se_equity.c, beside the plain sampler
 * whose deal loop it shares. */
#include "studeval.h"

#include "equity/se_equity.h"
#include "base/se_threads.h"

#include <string.h>

/* From this many deals a tuple, heads-up tuples are counted rather than walked
 * (counting sorts each player's completions: dearer than walking a small spot). */
#define SE_RANGE_COUNT_FROM 200000.0

typedef struct se_eq_tuples {
    const se_equity_spot *spot;
    const int *seats, *widths;
    int n_seats, width;
    const uint8_t *cards;
    size_t max_records;
    int counted; /* heads-up by counting */
    se_progress *progress;
    se_equity_counts *out;
    volatile size_t failed; /* the first failing status, negated, plus one */
} se_eq_tuples;

static int se_eq_tuple_chunk(void *context, size_t begin, size_t end, int worker) {
    se_eq_tuples *t = (se_eq_tuples *)context;
    (void)worker;
    for (size_t k = begin; k < end; k++) {
        se_equity_spot spot = *t->spot;
        const uint8_t *cards = t->cards + k * (size_t)t->width;
        se_status status;
        if (se_eq_stopped(t->progress)) {
            se_store(&t->failed, (size_t)(-SE_STOPPED) + 1);
            return 1;
        }
        for (int s = 0; s < t->n_seats; s++) {
            int seat = t->seats[s];
            for (int j = 0; j < t->widths[s]; j++) spot.cards[seat][spot.known[seat]++] = *cards++;
        }
        if (t->counted) {
            status = se_equity_count_heads_up(&spot, t->max_records, 1, NULL, &t->out[k]);
        } else {
            status = se_eq_walk_spot(&spot, &t->out[k]);
        }
        if (status != SE_OK) {
            se_store(&t->failed, (size_t)(-status) + 1);
            return 1;
        }
    }
    se_eq_advance(t->progress, end - begin);
    return 0;
}

se_status se_equity_tuples(const se_equity_spot *spot, const int *seats, const int *widths,
                           int n_seats, const uint8_t *cards, size_t tuples,
                           size_t max_records, int threads, se_progress *progress,
                           se_equity_counts *out) {
    se_eq_tuples t;
    se_eq_prep prep;
    double deals = 0.0;
    int taken[SE_EQ_MAX_PLAYERS] = {0};
    se_status status;
    if (spot == NULL || seats == NULL || widths == NULL || out == NULL ||
        (tuples > 0 && cards == NULL) || n_seats < 1 || n_seats > SE_EQ_MAX_PLAYERS) {
        return SE_BAD_ARGUMENT;
    }
    if ((status = se_eq_prepare(spot, &prep)) != SE_OK) return status;
    memset(&t, 0, sizeof t);
    for (int s = 0; s < n_seats; s++) {
        int seat = seats[s];
        if (seat < 0 || seat >= spot->players || taken[seat] || widths[s] < 1 ||
            widths[s] > SE_RANGE_MAX_WIDTH || spot->known[seat] + widths[s] > 7) {
            return SE_BAD_ARGUMENT;
        }
        taken[seat] = 1;
        t.width += widths[s];
    }
    if (tuples == 0) return SE_OK;
    /* Every tuple has the first one's deal count; a bad tuple fails in its count. */
    {
        se_equity_spot first = *spot;
        const uint8_t *c = cards;
        for (int s = 0; s < n_seats; s++) {
            for (int j = 0; j < widths[s]; j++) {
                first.cards[seats[s]][first.known[seats[s]]++] = *c++;
            }
        }
        int community = 0;
        if ((status = se_equity_deals(&first, &deals, &community)) != SE_OK) return status;
        t.counted = spot->players == 2 && !community && deals >= SE_RANGE_COUNT_FROM;
    }
    t.spot = spot;
    t.seats = seats;
    t.widths = widths;
    t.n_seats = n_seats;
    t.cards = cards;
    t.max_records = max_records;
    t.progress = progress;
    t.out = out;
    se_eq_plan(progress, tuples);
    /* Chunks of a few tuples: small enough to share the work out evenly. */
    size_t chunk = deals < 1e4 ? 256 : deals < 1e6 ? 8 : 1;
    se_parallel_for(tuples, chunk, chunk, threads, se_eq_tuple_chunk, &t);
    size_t failed = se_load(&t.failed);
    if (failed) {
        memset(out, 0, tuples * sizeof *out);
        return (se_status)(-(int)(failed - 1));
    }
    return SE_OK;
}
