/*
 * studeval: Seven Card Stud hand ranking in C99.
 *
 * Cards
 *   A card is the code rank * 4 + suit, rank 0..12 = 2,3,...,K,A and suit 0..3 =
 *   clubs, diamonds, hearts, spades. Codes 0..51 are cards; every other value is
 *   invalid. Code order is stud's card order (2c = 0 lowest, As = 51 highest).
 *
 * Ranks
 *   Every ranking is a position in an ordering: 1 is the best hand, a lower rank
 *   always wins and equal ranks tie. Each ranking uses the best five of the 5, 6
 *   or 7 cards given.
 *     high  1..7462   1 = royal flush, 7462 = 7-5-4-3-2 unsuited (the Cactus Kev
 *                     numbering). Ace plays high or low in straights.
 *     low   1..6175   ace-to-five low (Razz): ace is low, straights and flushes do
 *                     not count, pairs count against. 1 = 5-4-3-2-A,
 *                     6175 = K-K-K-K-Q.
 *     low8  1..56     8-or-better: the low rank when the best low is five distinct
 *                     ranks of 8 or lower, otherwise SE_NO_LOW.
 *   Up-card rankings rank 1..4 cards for the stud action rules: pairs, two pair,
 *   trips and quads count, straights and flushes never do. They are positions
 *   among hands of the same size only (1 = A for one card, AA for two...).
 *
 * Thread safety
 *   All tables are const data built by the generator at compile time, so every
 *   function here is thread-safe and needs no initialisation.
 */
#ifndef STUDEVAL_H
#define STUDEVAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SE_HIGH_CLASSES 7462
#define SE_LOW_CLASSES 6175
#define SE_LOW8_CLASSES 56
/* The low8 value of a hand without a qualifying low; loses to every low. */
#define SE_NO_LOW 65535
/* The most threads one call uses; larger thread counts are capped to it. */
#define SE_MAX_THREADS 256

/* Status codes. Functions that return a rank return one of these (all negative)
 * on bad input instead; batch functions return them directly. */
typedef enum se_status {
    SE_OK = 0,
    SE_BAD_SIZE = -1,      /* card count outside the function's domain */
    SE_INVALID_CARD = -2,  /* a code outside 0..51 */
    SE_DUPLICATE_CARD = -3,/* the same code twice in one hand */
    SE_BAD_ARGUMENT = -4,  /* NULL pointer, bad stride, unknown ranking */
    SE_INVALID_ROW = -5,   /* batch with check: some row is invalid (see first_bad_row) */
    SE_NO_DEAL = -6,       /* equity: the unseen cards cannot complete the hands */
    SE_NO_MEMORY = -7,     /* an allocation failed */
    SE_TOO_BIG = -8,       /* equity: an exact count would need more memory than allowed */
    SE_STOPPED = -9        /* equity: stopped early through se_progress.stop */
} se_status;

/* Which rankings a batch fills; OR them together. */
enum se_ranking {
    SE_RANK_HIGH = 1,
    SE_RANK_LOW = 2,
    SE_RANK_LOW8 = 4
};

/* Hand categories of the high ranking, best first. */
typedef enum se_category {
    SE_STRAIGHT_FLUSH = 0,
    SE_FOUR_OF_A_KIND,
    SE_FULL_HOUSE,
    SE_FLUSH,
    SE_STRAIGHT,
    SE_THREE_OF_A_KIND,
    SE_TWO_PAIR,
    SE_ONE_PAIR,
    SE_HIGH_CARD
} se_category;

/* ---- Single hands -------------------------------------------------------
 * cards: n codes in any order. Each function validates its input: n outside
 * 5..7 gives SE_BAD_SIZE, a code outside 0..51 SE_INVALID_CARD, a repeated code
 * SE_DUPLICATE_CARD. */
int se_high_rank(const uint8_t *cards, int n);
int se_low_rank(const uint8_t *cards, int n);
/* 1..56, SE_NO_LOW, or a negative status. */
int se_low8_rank(const uint8_t *cards, int n);

/* Up cards (1..4 codes; SE_BAD_SIZE otherwise). High: quads, two pair, trips,
 * pair, high cards, comparing ranks from the top (ace high). Low: the A-5
 * order (ace low, fewer pairs first, then ranks from the top). */
int se_up_high_rank(const uint8_t *cards, int n);
int se_up_low_rank(const uint8_t *cards, int n);

/* ---- Batches -------------------------------------------------------------
 * Ranks `rows` hands of k cards (5..7). Row r starts at cards + r * row_stride
 * (row_stride >= k) and its k codes are consecutive bytes.
 * Each of high, low, low8 may be NULL (that ranking is skipped) or point to
 * `rows` uint16 outputs, none overlapping the cards or each other. threads <= 0
 * means one per online CPU. Threads take rows in chunks from a shared counter,
 * and a batch uses no more threads than rows / se_batch_min_rows_per_thread().
 *
 * check != 0: a row with a code outside 0..51 or a repeated code makes the call
 *   return SE_INVALID_ROW with *first_bad_row set to the smallest such row
 *   index (first_bad_row may be NULL); the outputs are then unspecified.
 * check == 0: no validation. Any byte values are still safe: every table index
 *   is masked into range, so the call never reads or writes out of bounds, but
 *   ranks of invalid rows are meaningless.
 * If a worker thread cannot be started, the threads that did start rank its
 * rows, so the result is always complete.
 * Returns SE_OK, SE_BAD_SIZE, SE_BAD_ARGUMENT or SE_INVALID_ROW. */
se_status se_rank_batch(const uint8_t *cards, size_t rows, size_t row_stride, int k,
                        uint16_t *high, uint16_t *low, uint16_t *low8, int threads,
                        int check, size_t *first_bad_row);

/* ---- Classes --------------------------------------------------------------
 * The five ranks (0 = deuce .. 12 = ace) that define a class, most significant
 * first: for high, the grouped ranks as a player reads them (quads, then the
 * kicker; for straights the top card, 5 for the wheel, with ace written as 12
 * last); for low, the same with ace low written as 12. Returns the category
 * (se_category for high; 0 no pair .. 5 quads for low) or SE_BAD_ARGUMENT when
 * rank is out of range. */
int se_high_class(int rank, int ranks_out[5]);
int se_low_class(int rank, int ranks_out[5]);

/* Number of online CPUs (at least 1), asked of the system once per process. */
int se_cpu_count(void);

/* ---- Threads: tuning and diagnostics ---------------------------------------
 * A batch starts a thread only for at least this many rows per thread (default
 * 16384: fewer rows cost more to hand over than to rank). Tests lower it to run
 * small batches on several threads. Values below 1 count as 1. */
void se_set_batch_min_rows_per_thread(size_t rows);
size_t se_batch_min_rows_per_thread(void);
/* How many worker threads (besides the callers' own) the library has started
 * in this process so far. */
size_t se_threads_started(void);

/* A short text for a status code. */
const char *se_status_text(int status);

/* ---- Equity --------------------------------------------------------------------
 * A spot: the game, 2..8 players with 0..7 known cards each (codes 0..51, all
 * distinct), and dead cards (known to be out of play). Every missing card is
 * drawn uniformly from the unseen cards (the 52 less every known and dead card).
 * When the unseen cards cannot complete every hand, the seventh card is one
 * community card shared by all (each player then has at most 6 cards of their
 * own); when even that cannot be dealt, the functions return SE_NO_DEAL.
 *
 * Results are integer sums over the deals counted (or sampled): each player's
 * pot share in units of 1/SE_EQ_UNITS of a pot (and the sum of its squares, for
 * the standard error of a sample), and how often the player alone won, or tied
 * for, the best high and the best low (the qualifying low in stud8), and took
 * the whole pot alone (a scoop). Sums from several calls may be added. */
typedef enum se_game {
    SE_GAME_STUD = 0,          /* Seven Card Stud, high */
    SE_GAME_STUD8 = 1,         /* Stud Hi/Lo, 8 or better */
    SE_GAME_RAZZ = 2,          /* ace-to-five low */
    SE_GAME_STUD_HILO_NOQ = 3  /* Stud Hi/Lo, no low qualifier */
} se_game;

#define SE_EQ_MAX_PLAYERS 8
/* Share units per pot: every split of a pot or of a half among 1..8 is whole. */
#define SE_EQ_UNITS 1680
/* Monte Carlo deals per chunk; each chunk draws from its own generator. */
#define SE_EQ_CHUNK_SAMPLES 4096

typedef struct se_equity_spot {
    int game;
    int players;
    int known[SE_EQ_MAX_PLAYERS];
    uint8_t cards[SE_EQ_MAX_PLAYERS][7];
    int dead_count;
    uint8_t dead[52];
} se_equity_spot;

typedef struct se_equity_counts {
    uint64_t deals;
    int community; /* 1 when the deals share a community card */
    uint64_t share[SE_EQ_MAX_PLAYERS];
    uint64_t share_sq[SE_EQ_MAX_PLAYERS]; /* Monte Carlo and enumeration only */
    uint64_t high_win[SE_EQ_MAX_PLAYERS];
    uint64_t high_tie[SE_EQ_MAX_PLAYERS];
    uint64_t low_win[SE_EQ_MAX_PLAYERS];
    uint64_t low_tie[SE_EQ_MAX_PLAYERS];
    uint64_t scoop[SE_EQ_MAX_PLAYERS];
} se_equity_counts;

/* The number of deals of a spot (a double: it may exceed 2^64), or a negative
 * value for a bad spot; *community (may be NULL) says whether a community card
 * is dealt. */
double se_equity_deals(const se_equity_spot *spot, int *community);

/* Monte Carlo: chunks first_chunk .. first_chunk + chunks - 1 of SE_EQ_CHUNK_SAMPLES
 * deals each. A chunk's deals depend only on (seed, chunk index), so any thread
 * count, and any split of the chunks over calls, gives the same sums. */
se_status se_equity_sample(const se_equity_spot *spot, uint64_t seed, uint64_t first_chunk,
                           uint64_t chunks, int threads, se_equity_counts *out);

/* Progress of a long exact call, shared with the caller (pass NULL for none).
 * The core sets `total` when it starts and adds finished work to `done` (in
 * units of its own: done / total is the fraction done); it stops early, with
 * SE_STOPPED and no counts, once the caller makes `stop` nonzero. Zero the
 * struct before the call; from other threads, read and write it atomically. */
typedef struct se_progress {
    volatile size_t done;
    volatile size_t total;
    volatile size_t stop;
} se_progress;

/* Exact, by walking every deal (split over threads). */
se_status se_equity_enumerate(const se_equity_spot *spot, int threads, se_progress *progress,
                              se_equity_counts *out);

/* Exact heads-up, by counting (no community card): counts every deal without
 * walking the pairs, the scoops on up to `threads` threads (0: every core).
 * The no-qualifier game's scoops come from records (12 bytes each) while they
 * fit in max_records, else by low class (slower, little memory); stud8's are
 * always by class. SE_TOO_BIG when counting the scoops by class would take
 * more than about 20 s (both players' hole cards unknown, and earlier);
 * SE_BAD_ARGUMENT for other spots. share_sq is left 0. */
se_status se_equity_count_heads_up(const se_equity_spot *spot, size_t max_records, int threads,
                                   se_progress *progress, se_equity_counts *out);

#ifdef __cplusplus
}
#endif

#endif /* STUDEVAL_H */
