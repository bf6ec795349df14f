/* Stud equity: who is ahead, by Monte Carlo, by enumeration, and heads-up by counting.
 *
 * Every deal is scored the same way whatever the method (se_score_deal): each
 * player's share of the pot in integer units (SE_EQ_UNITS per pot, divisible by
 * every split of 1..8 winners in each half), whether they won or tied the high
 * and the low, and whether they took the whole pot alone. Sums of integers are
 * exact and can be merged across threads and runs.
 *
 * Heads-up exact counting: rank every completion of each player once, sort by
 * rank, and sweep from the best rank to the worst, keeping counters cnt[S] of
 * the other player's completions that hold each small card subset S. By
 * inclusion-exclusion, the completions Y disjoint from X among those counted are
 * sum over S subset of X of (-1)^|S| cnt[S]. That counts the 1.8e10 deals of a
 * third-street spot with a few million counter updates. Scoops (better high and
 * better low at once) are 2-D dominance counts, done per subset S by sorting the
 * completions that hold S and sweeping a Fenwick tree over the low ranks. */
#include "studeval.h"

#include "equity/se_equity.h"
#include "equity/se_equity_score.h"
#include "rank/se_hand.h"
#include "base/se_random.h"
#include "base/se_threads.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

/* A Monte Carlo run starts a thread only for at least this many chunks of deals. */
#define SE_EQ_MIN_CHUNKS_PER_THREAD 2

/* Monte Carlo deals are drawn, then ranked, this many at a time (a chunk is
 * a whole number of batches). */
#define SE_EQ_MC_BATCH 32
/* Mixed into the odd deals' generator's seed (se_eq_odd_seed). */
#define SE_EQ_ODD_DECK 0x6A09E667F3BCC909ull
typedef char se_eq_batches_fill_a_chunk[SE_EQ_CHUNK_SAMPLES % SE_EQ_MC_BATCH == 0 ? 1 : -1];
/* The two decks deal a batch's deals in pairs: its rows come in pairs. */
typedef char se_eq_batches_are_even[SE_EQ_MC_BATCH % 2 == 0 ? 1 : -1];
/* A multiway deal's winners (se_eq_winners) index the histogram: eight seats' bits fit. */
typedef char se_eq_winners_fit[(1u << SE_EQ_MAX_PLAYERS) <= SE_EQ_WINNER_OUTCOMES ? 1 : -1];

/* The odd deals' generator's seed: a mix of the even deals' seed (a plain XOR would make
 * seeds s and s ^ SE_EQ_ODD_DECK swap their decks, and give one answer). */
static uint64_t se_eq_odd_seed(uint64_t seed) {
    uint64_t state = seed ^ SE_EQ_ODD_DECK;
    return se_splitmix(&state);
}

/* ---- validation -------------------------------------------------------------- */

se_status se_eq_prepare(const se_equity_spot *spot, se_eq_prep *p) {
    uint64_t seen = 0;
    int own = 7, total = 0;
    if (spot == NULL || spot->game < SE_GAME_STUD || spot->game > SE_GAME_STUD_HILO_NOQ ||
        spot->players < 2 || spot->players > SE_EQ_MAX_PLAYERS || spot->dead_count < 0 ||
        spot->dead_count > 52 || spot->dead_unknown < 0 || spot->dead_unknown > 52) {
        return SE_BAD_ARGUMENT;
    }
    memset(p, 0, sizeof *p);
    p->game = spot->game;
    p->players = spot->players;
    for (int i = 0; i < spot->players; i++) {
        if (spot->known[i] < 0 || spot->known[i] > 7) return SE_BAD_SIZE;
        for (int j = 0; j < spot->known[i]; j++) {
            uint8_t c = spot->cards[i][j];
            if (c >= 52) return SE_INVALID_CARD;
            if (seen >> c & 1) return SE_DUPLICATE_CARD;
            seen |= 1ull << c;
        }
    }
    for (int j = 0; j < spot->dead_count; j++) {
        uint8_t c = spot->dead[j];
        if (c >= 52) return SE_INVALID_CARD;
        if (seen >> c & 1) return SE_DUPLICATE_CARD;
        seen |= 1ull << c;
    }
    for (int c = 0; c < 52; c++) {
        if (!(seen >> c & 1)) p->unseen[p->n_unseen++] = (uint8_t)c;
    }
    /* The unknown dead cards are a uniform random part of the unseen ones, so dealing
     * from all the unseen gives every hand the same chances; they only leave less
     * room before the deck runs out. */
    int room = p->n_unseen - spot->dead_unknown;
    for (int i = 0; i < spot->players; i++) total += 7 - spot->known[i];
    if (total > room) {
        /* The deck runs out: the seventh card is one community card for all. */
        p->community = 1;
        own = 6;
        total = 1;
        for (int i = 0; i < spot->players; i++) {
            if (spot->known[i] > 6) return SE_NO_DEAL;
            total += 6 - spot->known[i];
        }
        if (total > room) return SE_NO_DEAL;
    }
    p->total_need = total;
    for (int i = 0; i < spot->players; i++) {
        p->need[i] = own - spot->known[i];
        p->base[i] = se_sum_cards(spot->cards[i], spot->known[i]);
    }
    return SE_OK;
}

/* ---- Monte Carlo ------------------------------------------------------------------ */

/* One chunk's deals, each drawn uniformly without replacement from the unseen
 * cards by a partial Fisher-Yates shuffle of the first total_need places, each
 * card added to its player's sums as it is drawn. The deck stays a permutation,
 * so nothing is reset between deals, and no branch depends on the cards drawn
 * (picking a card and picking again when it is already out in this deal would
 * mispredict a branch about every other heads-up deal).
 *
 * Two decks, each with its own generator, deal the even and the odd deals, a card
 * from one and then a card from the other: a draw is a chain of dependent steps
 * (the random place, the card there, the swap, the card's sums), and one deck
 * makes every draw wait for the one before; two chains keep the CPU busy in each
 * other's waits. */
SE_INLINE void se_eq_mc_deals(const se_eq_prep *p, uint64_t seed, int count, se_eq_acc *acc,
                              const int game, const int players) {
    /* The generators and the decks are locals, so the compiler keeps them in
     * registers where it can: through a pointer, every byte stored into a deck
     * could alias them and force a reload. */
    se_rng even = se_rng_seeded(seed), odd = se_rng_seeded(se_eq_odd_seed(seed));
    uint8_t even_deck[52], odd_deck[52];
    const uint32_t unseen = (uint32_t)p->n_unseen;
    memcpy(even_deck, p->unseen, (size_t)p->n_unseen);
    memcpy(odd_deck, p->unseen, (size_t)p->n_unseen);
    for (int sample = 0; sample < count; sample += SE_EQ_MC_BATCH) {
        /* Deal a batch, then rank it: the table lookups of one deal then wait
         * on nothing from the next deal's shuffle, so the CPU overlaps them. (A
         * chunk's first deals are the same whatever count asks for; an odd
         * count's last odd deal is drawn and not counted.) */
        se_sums sums[SE_EQ_MC_BATCH][SE_EQ_MAX_PLAYERS];
        int batch = count - sample < SE_EQ_MC_BATCH ? count - sample : SE_EQ_MC_BATCH;
        for (int d = 0; d < batch; d += 2) { /* SE_EQ_MC_BATCH is even: d + 1 is a row */
            uint32_t j = 0;
            for (int i = 0; i < players; i++) {
                se_sums a = p->base[i], b = p->base[i];
                for (uint32_t end = j + (uint32_t)p->need[i]; j < end; j++) {
                    a = se_eq_add(a, se_eq_draw(even_deck, j, se_below(&even, unseen - j)));
                    b = se_eq_add(b, se_eq_draw(odd_deck, j, se_below(&odd, unseen - j)));
                }
                sums[d][i] = a;
                sums[d + 1][i] = b;
            }
            if (p->community) { /* the last draw, shared by all */
                uint8_t card = se_eq_draw(even_deck, j, se_below(&even, unseen - j));
                uint8_t other = se_eq_draw(odd_deck, j, se_below(&odd, unseen - j));
                for (int i = 0; i < players; i++) {
                    sums[d][i] = se_eq_add(sums[d][i], card);
                    sums[d + 1][i] = se_eq_add(sums[d + 1][i], other);
                }
            }
        }
        for (int d = 0; d < batch; d++) se_eq_score_sums(sums[d], acc, 1, game, players);
    }
}

#define SE_EQ_GAMES(N)                                                                   \
    case N:                                                                              \
        switch (p->game) {                                                               \
        case SE_GAME_STUD: se_eq_mc_deals(p, seed, count, acc, SE_GAME_STUD, N); break;  \
        case SE_GAME_STUD8: se_eq_mc_deals(p, seed, count, acc, SE_GAME_STUD8, N); break; \
        case SE_GAME_RAZZ: se_eq_mc_deals(p, seed, count, acc, SE_GAME_RAZZ, N); break;  \
        default: se_eq_mc_deals(p, seed, count, acc, SE_GAME_STUD_HILO_NOQ, N); break;   \
        }                                                                                \
        break;

/* The first `count` deals of the chunk whose generator `seed` starts. */
static void se_eq_mc_chunk(const se_eq_prep *p, uint64_t seed, int count, se_eq_acc *acc) {
    switch (p->players) {
        SE_EQ_GAMES(2)
        SE_EQ_GAMES(3)
        SE_EQ_GAMES(4)
        SE_EQ_GAMES(5)
        SE_EQ_GAMES(6)
        SE_EQ_GAMES(7)
        SE_EQ_GAMES(8)
    }
}

/* Chunk `chunk`'s generator's seed: its deals depend on (seed, chunk) only. */
static uint64_t se_eq_chunk_seed(uint64_t seed, uint64_t chunk) {
    return seed ^ (0xD1B54A32D192ED03ull * (chunk + 1));
}

typedef struct se_eq_mc {
    const se_eq_prep *prep;
    uint64_t seed, first_chunk;
    se_eq_acc *acc; /* one a worker */
} se_eq_mc;

static int se_eq_mc_chunks(void *context, size_t begin, size_t end, int worker) {
    se_eq_mc *mc = (se_eq_mc *)context;
    const se_eq_prep *p = mc->prep;
    se_eq_acc *acc = &mc->acc[worker];
    for (size_t chunk = begin; chunk < end; chunk++) {
        /* The chunk's generator depends on (seed, chunk) only, never on the
         * thread that runs it: any thread count gives the same answer. */
        se_eq_mc_chunk(p, se_eq_chunk_seed(mc->seed, mc->first_chunk + chunk), SE_EQ_CHUNK_SAMPLES,
                       acc);
    }
    return 0;
}

se_status se_equity_sample(const se_equity_spot *spot, uint64_t seed, uint64_t first_chunk,
                           uint64_t chunks, int threads, se_equity_counts *out) {
    se_eq_prep prep;
    se_eq_mc *mc;
    se_status status = se_eq_prepare(spot, &prep);
    if (status != SE_OK) return status;
    if (out == NULL) return SE_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    out->community = prep.community;
    /* An accumulator a worker that runs, not SE_MAX_THREADS of them (each holds the
     * outcome counts: kilobytes); the count passed on, so no other worker starts. */
    int workers = se_workers_for((size_t)chunks, SE_EQ_MIN_CHUNKS_PER_THREAD, threads);
    mc = (se_eq_mc *)calloc(1, sizeof *mc);
    if (mc == NULL) return SE_NO_MEMORY;
    mc->acc = (se_eq_acc *)calloc((size_t)workers, sizeof *mc->acc);
    if (mc->acc == NULL) {
        free(mc);
        return SE_NO_MEMORY;
    }
    mc->prep = &prep;
    mc->seed = seed;
    mc->first_chunk = first_chunk;
    workers = se_parallel_for((size_t)chunks, 1, SE_EQ_MIN_CHUNKS_PER_THREAD, workers,
                              se_eq_mc_chunks, mc);
    for (int w = 0; w < workers; w++) se_eq_merge(out, &mc->acc[w], prep.game, prep.players);
    free(mc->acc);
    free(mc);
    return SE_OK;
}

se_status se_equity_sample_part(const se_equity_spot *spot, uint64_t seed, uint64_t chunk,
                                int samples, se_equity_counts *out) {
    se_eq_prep prep;
    se_eq_acc acc;
    if (out == NULL || samples < 1 || samples > SE_EQ_CHUNK_SAMPLES) return SE_BAD_ARGUMENT;
    se_status status = se_eq_prepare(spot, &prep);
    if (status != SE_OK) return status;
    memset(out, 0, sizeof *out);
    memset(&acc, 0, sizeof acc);
    out->community = prep.community;
    se_eq_mc_chunk(&prep, se_eq_chunk_seed(seed, chunk), samples, &acc);
    se_eq_merge(out, &acc, prep.game, prep.players);
    return SE_OK;
}

/* ---- Monte Carlo against ranges ------------------------------------------------------ */

/* A range made ready for drawing: each combination's card sums and mask, and
 * Walker's alias table (prob NULL when every weight is alike). */
typedef struct se_eq_ranged {
    int seat;
    uint32_t count;
    se_sums *sums;
    uint64_t *mask;
    double *prob;
    uint32_t *alias;
} se_eq_ranged;

typedef struct se_eq_rmc {
    se_eq_prep prep; /* need[] without the ranged cards */
    int n_ranges;
    se_eq_ranged r[SE_EQ_MAX_PLAYERS];
    int ranged_of[SE_EQ_MAX_PLAYERS]; /* seat -> range index, -1 for none */
    uint64_t seed, first_chunk;
    volatile size_t failed;
    se_eq_acc *acc; /* one a worker */
} se_eq_rmc;

/* How many draws in a row may collide before the ranges are called incompatible. */
#define SE_EQ_MAX_COLLISIONS 1000000

SE_INLINE uint32_t se_eq_pick(se_rng *rng, const se_eq_ranged *r) {
    uint32_t i = se_below(rng, r->count);
    if (r->prob == NULL) return i;
    double u = (double)(se_next(&rng->x) >> 11) * 0x1.0p-53;
    return u < r->prob[i] ? i : r->alias[i];
}

/* One chunk: for each deal, the ranged seats' combinations (drawn again while
 * they share a card), then everyone's other cards by a partial Fisher-Yates
 * shuffle of the unseen cards that passes over the chosen ones: a card drawn
 * that a combination holds is set aside and another drawn, so each draw is
 * uniform over the cards still free. (Moving the chosen cards out of the deck
 * first costs more: their places must be tracked through every swap.) */
SE_INLINE int se_eq_rmc_deals(se_eq_rmc *m, uint64_t seed, se_eq_acc *acc, const int game,
                              const int players) {
    const se_eq_prep *p = &m->prep;
    se_rng rng = se_rng_seeded(seed);
    uint8_t deck[52];
    const uint32_t unseen = (uint32_t)p->n_unseen;
    memcpy(deck, p->unseen, (size_t)p->n_unseen);
    for (int sample = 0; sample < SE_EQ_CHUNK_SAMPLES; sample += SE_EQ_MC_BATCH) {
        se_sums sums[SE_EQ_MC_BATCH][SE_EQ_MAX_PLAYERS];
        for (int d = 0; d < SE_EQ_MC_BATCH; d++) {
            uint32_t chosen[SE_EQ_MAX_PLAYERS];
            uint64_t used;
            int collisions = 0;
            for (;;) {
                used = 0;
                int clash = 0;
                for (int k = 0; k < m->n_ranges; k++) {
                    chosen[k] = se_eq_pick(&rng, &m->r[k]);
                    uint64_t mask = m->r[k].mask[chosen[k]];
                    clash |= (used & mask) != 0;
                    used |= mask;
                }
                if (!clash) break;
                if (++collisions >= SE_EQ_MAX_COLLISIONS) return 1;
            }
            uint32_t j = 0;
            for (int i = 0; i < players; i++) {
                se_sums s = p->base[i];
                int k = m->ranged_of[i];
                if (k >= 0) {
                    se_sums h = m->r[k].sums[chosen[k]];
                    s.key += h.key;
                    s.mask += h.mask;
                }
                for (int left = p->need[i]; left > 0; left--) {
                    uint8_t card;
                    do {
                        card = se_eq_draw(deck, j, se_below(&rng, unseen - j));
                        j++;
                    } while (used >> card & 1);
                    s = se_eq_add(s, card);
                }
                sums[d][i] = s;
            }
            if (p->community) {
                uint8_t card;
                do {
                    card = se_eq_draw(deck, j, se_below(&rng, unseen - j));
                    j++;
                } while (used >> card & 1);
                for (int i = 0; i < players; i++) sums[d][i] = se_eq_add(sums[d][i], card);
            }
        }
        for (int d = 0; d < SE_EQ_MC_BATCH; d++) se_eq_score_sums(sums[d], acc, 1, game, players);
    }
    return 0;
}

#define SE_EQ_RANGE_GAMES(N)                                                             \
    case N:                                                                              \
        switch (m->prep.game) {                                                          \
        case SE_GAME_STUD: return se_eq_rmc_deals(m, seed, acc, SE_GAME_STUD, N);        \
        case SE_GAME_STUD8: return se_eq_rmc_deals(m, seed, acc, SE_GAME_STUD8, N);      \
        case SE_GAME_RAZZ: return se_eq_rmc_deals(m, seed, acc, SE_GAME_RAZZ, N);        \
        default: return se_eq_rmc_deals(m, seed, acc, SE_GAME_STUD_HILO_NOQ, N);         \
        }

static int se_eq_rmc_chunk(se_eq_rmc *m, uint64_t seed, se_eq_acc *acc) {
    switch (m->prep.players) {
        SE_EQ_RANGE_GAMES(2)
        SE_EQ_RANGE_GAMES(3)
        SE_EQ_RANGE_GAMES(4)
        SE_EQ_RANGE_GAMES(5)
        SE_EQ_RANGE_GAMES(6)
        SE_EQ_RANGE_GAMES(7)
        SE_EQ_RANGE_GAMES(8)
    }
    return 1;
}

static int se_eq_rmc_chunks(void *context, size_t begin, size_t end, int worker) {
    se_eq_rmc *m = (se_eq_rmc *)context;
    for (size_t chunk = begin; chunk < end; chunk++) {
        /* As se_eq_mc_chunks: the chunk's deals depend on (seed, chunk) only. */
        uint64_t seed = se_eq_chunk_seed(m->seed, m->first_chunk + chunk);
        if (se_eq_rmc_chunk(m, seed, &m->acc[worker])) {
            se_store(&m->failed, 1);
            return 1;
        }
    }
    return 0;
}

/* Walker's alias table for weights w[0..n-1] (finite, >= 0, sum `total` > 0): draw i
 * uniformly, keep it with probability prob[i], else take alias[i]. work: 2n entries. */
static void se_eq_alias(const double *w, uint32_t n, double total, double *prob,
                        uint32_t *alias, uint32_t *work) {
    uint32_t *small = work, *large = work + n;
    uint32_t ns = 0, nl = 0;
    for (uint32_t i = 0; i < n; i++) {
        prob[i] = w[i] * (double)n / total;
        alias[i] = i;
        if (prob[i] < 1.0) small[ns++] = i;
        else large[nl++] = i;
    }
    while (ns > 0 && nl > 0) {
        uint32_t s = small[--ns], l = large[nl - 1];
        alias[s] = l;
        prob[l] -= 1.0 - prob[s];
        if (prob[l] < 1.0) {
            nl--;
            small[ns++] = l;
        }
    }
    /* What is left is 1 up to rounding. */
    while (nl > 0) prob[large[--nl]] = 1.0;
    while (ns > 0) prob[small[--ns]] = 1.0;
}

se_status se_eq_alias_new(const double *w, uint32_t n, double **prob, uint32_t **alias) {
    *prob = NULL, *alias = NULL;
    if (w == NULL) return SE_OK;
    double total = 0.0;
    int alike = 1;
    for (uint32_t i = 0; i < n; i++) {
        if (!(w[i] >= 0.0) || w[i] > DBL_MAX) return SE_BAD_ARGUMENT; /* NaN, < 0, inf */
        total += w[i];
        alike &= w[i] == w[0];
    }
    if (!(total > 0.0 && total <= DBL_MAX)) return SE_BAD_ARGUMENT;
    if (alike) return SE_OK;
    uint32_t *work = (uint32_t *)malloc(2 * (size_t)n * sizeof *work);
    *prob = (double *)malloc(n * sizeof **prob);
    *alias = (uint32_t *)malloc(n * sizeof **alias);
    if (work == NULL || *prob == NULL || *alias == NULL) {
        free(work);
        return SE_NO_MEMORY; /* the caller frees *prob and *alias, as on success */
    }
    se_eq_alias(w, n, total, *prob, *alias, work);
    free(work);
    return SE_OK;
}

static void se_eq_rmc_free(se_eq_rmc *m) {
    if (m == NULL) return;
    for (int k = 0; k < m->n_ranges; k++) {
        free(m->r[k].sums);
        free(m->r[k].mask);
        free(m->r[k].prob);
        free(m->r[k].alias);
    }
    free(m->acc);
    free(m);
}

/* Checks the ranges against the spot and makes them ready to draw from. */
static se_status se_eq_rmc_ready(se_eq_rmc *m, const se_equity_spot *spot,
                                 const se_equity_range *ranges, int n_ranges) {
    uint64_t seen = 0;
    if (n_ranges < 0 || n_ranges > spot->players || (n_ranges > 0 && ranges == NULL)) {
        return SE_BAD_ARGUMENT;
    }
    for (int i = 0; i < spot->players; i++) {
        m->ranged_of[i] = -1;
        for (int j = 0; j < spot->known[i]; j++) seen |= 1ull << spot->cards[i][j];
    }
    for (int j = 0; j < spot->dead_count; j++) seen |= 1ull << spot->dead[j];
    m->n_ranges = n_ranges;
    for (int k = 0; k < n_ranges; k++) {
        const se_equity_range *g = &ranges[k];
        se_eq_ranged *r = &m->r[k];
        if (g->seat < 0 || g->seat >= spot->players || m->ranged_of[g->seat] >= 0 ||
            g->width < 1 || g->width > SE_RANGE_MAX_WIDTH || g->count < 1 ||
            g->count > SE_RANGE_MAX_COMBOS || g->cards == NULL ||
            g->width > m->prep.need[g->seat]) {
            return SE_BAD_ARGUMENT;
        }
        m->ranged_of[g->seat] = k;
        m->prep.need[g->seat] -= g->width;
        r->seat = g->seat;
        r->count = (uint32_t)g->count;
        r->sums = (se_sums *)malloc(g->count * sizeof *r->sums);
        r->mask = (uint64_t *)malloc(g->count * sizeof *r->mask);
        if (r->sums == NULL || r->mask == NULL) return SE_NO_MEMORY;
        for (size_t c = 0; c < g->count; c++) {
            const uint8_t *cards = g->cards + c * (size_t)g->width;
            uint64_t mask = 0;
            for (int j = 0; j < g->width; j++) {
                if (cards[j] >= 52) return SE_INVALID_CARD;
                if ((mask | seen) >> cards[j] & 1) return SE_DUPLICATE_CARD;
                mask |= 1ull << cards[j];
            }
            r->mask[c] = mask;
            r->sums[c] = se_sum_cards(cards, g->width);
            /* The card sums are offsets from the empty hand's: keep only the cards'. */
            se_sums empty = se_sum_cards(cards, 0);
            r->sums[c].key -= empty.key;
            r->sums[c].mask -= empty.mask;
        }
        se_status status = se_eq_alias_new(g->weights, r->count, &r->prob, &r->alias);
        if (status != SE_OK) return status;
    }
    return SE_OK;
}

se_status se_equity_sample_ranges(const se_equity_spot *spot, const se_equity_range *ranges,
                                  int n_ranges, uint64_t seed, uint64_t first_chunk,
                                  uint64_t chunks, int threads, se_equity_counts *out) {
    se_eq_rmc *m;
    se_status status;
    if (out == NULL) return SE_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    m = (se_eq_rmc *)calloc(1, sizeof *m);
    if (m == NULL) return SE_NO_MEMORY;
    status = se_eq_prepare(spot, &m->prep);
    if (status == SE_OK) status = se_eq_rmc_ready(m, spot, ranges, n_ranges);
    if (status != SE_OK) {
        se_eq_rmc_free(m);
        return status;
    }
    out->community = m->prep.community;
    m->seed = seed;
    m->first_chunk = first_chunk;
    /* An accumulator a worker that runs (see se_equity_sample). */
    int workers = se_workers_for((size_t)chunks, SE_EQ_MIN_CHUNKS_PER_THREAD, threads);
    m->acc = (se_eq_acc *)calloc((size_t)workers, sizeof *m->acc);
    if (m->acc == NULL) {
        se_eq_rmc_free(m);
        return SE_NO_MEMORY;
    }
    workers = se_parallel_for((size_t)chunks, 1, SE_EQ_MIN_CHUNKS_PER_THREAD, workers,
                              se_eq_rmc_chunks, m);
    if (se_load(&m->failed)) {
        status = SE_NO_DEAL;
    } else {
        for (int w = 0; w < workers; w++) se_eq_merge(out, &m->acc[w], m->prep.game, m->prep.players);
    }
    se_eq_rmc_free(m);
    return status;
}

/* ---- enumeration ------------------------------------------------------------------ */

uint64_t se_binomial(int n, int k) {
    uint64_t r = 1;
    if (k < 0 || k > n) return 0;
    for (int i = 1; i <= k; i++) r = r * (uint64_t)(n - k + i) / (uint64_t)i;
    return r;
}

se_status se_equity_deals(const se_equity_spot *spot, double *deals, int *community) {
    se_eq_prep p;
    double count = 1.0;
    int left;
    if (deals == NULL) return SE_BAD_ARGUMENT;
    se_status status = se_eq_prepare(spot, &p);
    if (status != SE_OK) return status;
    left = p.n_unseen;
    for (int i = 0; i < p.players; i++) {
        count *= (double)se_binomial(left, p.need[i]);
        left -= p.need[i];
    }
    if (p.community) count *= (double)left;
    *deals = count;
    if (community != NULL) *community = p.community;
    return SE_OK;
}

typedef struct se_eq_enum {
    const se_eq_prep *prep;
    int first_player; /* whose combinations are split over threads (-1: the community) */
    int first_need;
    se_progress *progress;
    volatile size_t skipped; /* a chunk was left undone on a stop */
    se_eq_acc *acc;          /* one a worker */
} se_eq_enum;

/* Draws for slot `slot` (players in order, then the community card) from the
 * cards not in `used`; scores each complete deal. */
static void se_eq_walk(const se_eq_prep *p, int slot, int from, int left, uint64_t used,
                       uint8_t *cards, int at, se_eq_acc *acc) {
    if (left == 0) {
        slot++;
        while (slot < p->players && p->need[slot] == 0) slot++;
        if (slot < p->players) {
            se_eq_walk(p, slot, 0, p->need[slot], used, cards, at, acc);
        } else if (p->community && slot == p->players) {
            se_eq_walk(p, slot, 0, 1, used, cards, at, acc);
        } else {
            se_eq_deal(p, cards, acc, 1);
        }
        return;
    }
    /* Combinations within one slot in increasing unseen index, so each set once. */
    for (int i = from; i <= p->n_unseen - left; i++) {
        if (used >> i & 1) continue;
        cards[at] = p->unseen[i];
        se_eq_walk(p, slot, i + 1, left - 1, used | 1ull << i, cards, at + 1, acc);
    }
}

static int se_eq_enum_chunk(void *context, size_t begin, size_t end, int worker) {
    se_eq_enum *e = (se_eq_enum *)context;
    const se_eq_prep *p = e->prep;
    uint8_t cards[64];
    if (se_eq_stopped(e->progress)) {
        se_store(&e->skipped, 1);
        return 1;
    }
    /* Item i is the first slot's i-th combination: unrank it in colex order. */
    for (size_t item = begin; item < end; item++) {
        size_t rest = item;
        uint64_t used = 0;
        int k = e->first_need;
        int idx[7];
        for (int j = k; j >= 1; j--) {
            int c = j - 1;
            while (se_binomial(c + 1, j) <= rest) c++;
            rest -= se_binomial(c, j);
            idx[j - 1] = c;
        }
        for (int j = 0; j < k; j++) {
            cards[j] = p->unseen[idx[j]];
            used |= 1ull << idx[j];
        }
        int slot = e->first_player < 0 ? p->players : e->first_player;
        se_eq_walk(p, slot, p->n_unseen, 0, used, cards, k, &e->acc[worker]);
    }
    se_eq_advance(e->progress, end - begin);
    return 0;
}

se_status se_eq_walk_spot(const se_equity_spot *spot, se_equity_counts *out) {
    se_eq_prep prep;
    se_eq_acc acc;
    uint8_t cards[64];
    se_status status = se_eq_prepare(spot, &prep);
    if (status != SE_OK) return status;
    memset(out, 0, sizeof *out);
    memset(&acc, 0, sizeof acc);
    out->community = prep.community;
    int slot = 0;
    while (slot < prep.players && prep.need[slot] == 0) slot++;
    if (slot < prep.players) se_eq_walk(&prep, slot, 0, prep.need[slot], 0, cards, 0, &acc);
    else if (prep.community) se_eq_walk(&prep, slot, 0, 1, 0, cards, 0, &acc);
    else se_eq_deal(&prep, cards, &acc, 1);
    se_eq_merge(out, &acc, prep.game, prep.players);
    return SE_OK;
}

se_status se_equity_enumerate(const se_equity_spot *spot, int threads, se_progress *progress,
                              se_equity_counts *out) {
    se_eq_prep prep;
    se_eq_enum *e;
    se_status status = se_eq_prepare(spot, &prep);
    if (status != SE_OK) return status;
    if (out == NULL) return SE_BAD_ARGUMENT;
    memset(out, 0, sizeof *out);
    out->community = prep.community;
    e = (se_eq_enum *)calloc(1, sizeof *e);
    if (e == NULL) return SE_NO_MEMORY;
    e->prep = &prep;
    e->progress = progress;
    e->first_player = -1;
    e->first_need = prep.community ? 1 : 0;
    for (int i = 0; i < prep.players; i++) {
        if (prep.need[i] > 0) {
            e->first_player = i;
            e->first_need = prep.need[i];
            break;
        }
    }
    size_t items = prep.total_need == 0 ? 1 : (size_t)se_binomial(prep.n_unseen, e->first_need);
    /* An accumulator a worker that runs (see se_equity_sample). */
    int workers = se_workers_for(items, 64, threads);
    e->acc = (se_eq_acc *)calloc((size_t)workers, sizeof *e->acc);
    if (e->acc == NULL) {
        free(e);
        return SE_NO_MEMORY;
    }
    if (prep.total_need == 0) {
        uint8_t none[1] = {0};
        se_eq_deal(&prep, none, &e->acc[0], 1);
        se_eq_merge(out, &e->acc[0], prep.game, prep.players);
        free(e->acc);
        free(e);
        return SE_OK;
    }
    se_eq_plan(progress, items);
    workers = se_parallel_for(items, 16, 64, workers, se_eq_enum_chunk, e);
    for (int w = 0; w < workers; w++) se_eq_merge(out, &e->acc[w], prep.game, prep.players);
    size_t skipped = se_load(&e->skipped);
    free(e->acc);
    free(e);
    if (skipped) {
        memset(out, 0, sizeof *out);
        return SE_STOPPED;
    }
    return SE_OK;
}
