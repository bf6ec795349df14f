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
 * Return conventions, one per kind of call
 *   - A call that answers one number about one hand or one rank (se_high_rank,
 *     se_high_class, ...) returns it (0 or more), or a negative se_status for bad
 *     input.
 *   - Every other call that can fail returns an se_status and writes its results
 *     through pointer arguments (batches, text, equity, the engine).
 *   - A call that cannot fail returns its value (or nothing).
 *
 * Thread safety
 *   The lookup tables are const data written by the generator at build time, so
 *   nothing needs initialising, and every call that takes no state of the caller's
 *   (ranking, batches, text, equity) may run on any number of threads at once. A
 *   caller's state is one thread's at a time: an se_hand, and the outputs of a
 *   call while it runs. se_progress is the exception, made to be shared: see there.
 */
#ifndef STUDEVAL_H
#define STUDEVAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the library, the same as the Python package's. */
#define SE_VERSION_MAJOR 0
#define SE_VERSION_MINOR 1
#define SE_VERSION_PATCH 0
#define SE_VERSION "0.1.0"

#define SE_HIGH_CLASSES 7462
#define SE_LOW_CLASSES 6175
#define SE_LOW8_CLASSES 56
/* The low8 value of a hand without a qualifying low; loses to every low. */
#define SE_NO_LOW 65535
/* The most threads one call uses; larger thread counts are capped to it. */
#define SE_MAX_THREADS 256

/* Status codes (see the return conventions above). */
typedef enum se_status {
    SE_OK = 0,
    SE_BAD_SIZE = -1,      /* card count (or, for the solver, an array's length) outside
                              the function's domain */
    SE_INVALID_CARD = -2,  /* a code outside 0..51 */
    SE_DUPLICATE_CARD = -3,/* the same code twice in one hand */
    SE_BAD_ARGUMENT = -4,  /* NULL pointer, bad stride, unknown ranking */
    SE_INVALID_ROW = -5,   /* batch with check: some row is invalid (see first_bad_row) */
    SE_NO_DEAL = -6,       /* equity: the unseen cards cannot complete the hands */
    SE_NO_MEMORY = -7,     /* an allocation failed */
    SE_TOO_BIG = -8,       /* equity: an exact count would need more memory than allowed */
    SE_STOPPED = -9,       /* equity: stopped early through se_progress.stop */
    SE_ILLEGAL = -10,      /* engine: not allowed in the hand's present state */
    SE_NO_ROOM = -11       /* an output the caller gave is too small (text and lines) */
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
/* The same for rows whose k cards are col_stride bytes apart (col_stride >= 1;
 * row_stride >= 1, and >= k when col_stride is 1): row r's card i is at
 * cards[r * row_stride + i * col_stride], as in a column-major (Fortran-order)
 * array or a strided view, read where it lies without a copy. */
se_status se_rank_batch_strided(const uint8_t *cards, size_t rows, size_t row_stride,
                                size_t col_stride, int k, uint16_t *high, uint16_t *low,
                                uint16_t *low8, int threads, int check,
                                size_t *first_bad_row);

/* ---- Classes --------------------------------------------------------------
 * The five ranks (0 = deuce .. 12 = ace) that define a class, most significant
 * first: for high, the grouped ranks as a player reads them (quads, then the
 * kicker; for straights the top card, 5 for the wheel, with ace written as 12
 * last); for low, the same with ace low written as 12. Returns the category
 * (se_category for high; 0 no pair .. 5 quads for low) or SE_BAD_ARGUMENT when
 * rank is out of range. */
int se_high_class(int rank, int ranks_out[5]);
int se_low_class(int rank, int ranks_out[5]);

/* The batch kernel this process uses, chosen once at the first batch among those
 * the CPU runs: "avx512" or "avx512_loads" (AVX-512 F, BW, VBMI and BITALG; tables
 * read by gathers or by scalar loads), "avx2" or "scalar". By default it is timed on
 * warm tables (random hands generated here, thread CPU time, the best of interleaved
 * rounds; calls for the high rank alone and calls with a low apart: "X/Y" when they
 * differ, X for the high rank alone), and a vector kernel is taken only when it is
 * clearly faster than the scalar loop, so that the default is never slower than it.
 * STUDEVAL_KERNEL=scalar, avx2, avx512 or avx512_loads takes that one (the scalar
 * loop where the CPU lacks it); STUDEVAL_KERNELS=scalar,avx2 (a list) keeps only
 * those to choose among. se_batch_kernel_why: the timings, the rules or the setting
 * that chose it, as text. */
const char *se_batch_kernel(void);
const char *se_batch_kernel_why(void);
/* The kernels this CPU runs, by spaces: "scalar", then "avx2", "avx512", "avx512_loads". */
const char *se_batch_kernels(void);

/* Number of online CPUs (at least 1), asked of the system once per process. */
int se_cpu_count(void);

/* ---- Threads: tuning and diagnostics ---------------------------------------
 * A batch starts a thread only for at least this many rows per thread (default
 * 65536: fewer rows cost more to hand over than to rank on a shared 2-core machine,
 * where starting and joining a thread took 50-100 us and a row 1.4 ns;
 * benchmarks/small_batch_report.py). Tests lower it to run
 * small batches on several threads. Values below 1 count as 1. */
void se_set_batch_min_rows_per_thread(size_t rows);
size_t se_batch_min_rows_per_thread(void);
/* How many worker threads (besides the callers' own) the library has started
 * in this process so far. */
size_t se_threads_started(void);

/* A short text for a status code. */
const char *se_status_text(int status);

/* ---- Random hands -------------------------------------------------------------
 * count rows of `size` distinct cards (1..52), every set of cards equally likely
 * (Floyd's subset sampling), row r at out + r * row_stride (row_stride >= size).
 * The same seed gives the same hands on every machine. */
se_status se_random_hands(uint64_t seed, size_t count, int size, uint8_t *out,
                          size_t row_stride);

/* ---- Hand text -----------------------------------------------------------------
 * Reads hand text, one hand per line: text[0 .. length) split at each '\n' (a last
 * line without one counts; nothing after a final '\n' is a line). A line this
 * reads holds 5 to 7 distinct cards, each a rank (2..9, T, J, Q, K, A in either
 * case, or "10") then a suit (c, d, h, s in either case, or a symbol U+2660 ..
 * U+2667 in UTF-8), with or without ASCII whitespace and commas between cards.
 * status[i] is line i's card count, 5..7, and row i of cards (SE_PARSE_ROW bytes
 * at cards + i * SE_PARSE_ROW) its codes in order, then SE_PARSE_PAD; or
 * SE_LINE_BLANK (nothing but ASCII whitespace), or SE_LINE_OTHER for every other
 * line: other text, a bad card, too few or too many cards, a repeat. Those are the
 * caller's to read or report, and their rows may hold anything. counts[s] is how
 * many lines have status s. Sets *lines; SE_NO_ROOM when the text has more than
 * max_lines lines (length + 1 is always enough). */
#define SE_PARSE_ROW 7
#define SE_PARSE_PAD 255
#define SE_LINE_BLANK 0
#define SE_LINE_OTHER 8
se_status se_parse_lines(const uint8_t *text, size_t length, uint8_t *cards, uint8_t *status,
                         size_t max_lines, size_t *lines, size_t counts[SE_LINE_OTHER + 1]);
/* One hand's cards, read by the same rules (a newline separates cards too) into
 * codes[0 .. max_cards), in order and unchecked for repeats. Returns how many
 * (0..max_cards); SE_INVALID_CARD when some text is not a card, SE_BAD_SIZE when
 * there are more than max_cards. */
int se_parse_cards(const uint8_t *text, size_t length, uint8_t *codes, int max_cards);

/* ---- Text rows ------------------------------------------------------------------
 * Row r of the output is the concatenation, field by field, of the text each
 * field's table gives for the row's index in that field: table entry i is
 * text[offsets[i] .. offsets[i + 1]) (offsets has count + 1 entries, never
 * falling), and the index of row r is the uint8 or uint16 (index_bytes 1 or 2,
 * native order) at index + r * index_stride; text_size is the bytes text holds.
 * Sets *written: the output's length. The bytes from there to `room` may be
 * overwritten too (short texts are copied in fixed-size blocks where the room and
 * the text allow), so give some slack (64 bytes) for speed, and pad each text
 * likewise. SE_INVALID_ROW (with *bad_row) when an index is outside its table,
 * SE_NO_ROOM when the room runs out (the rows before it are written). */
#define SE_MAX_TEXT_FIELDS 16
typedef struct se_text_field {
    const char *text;
    size_t text_size;
    const uint32_t *offsets;
    uint32_t count;
    const void *index;
    size_t index_stride;
    int index_bytes;
} se_text_field;

se_status se_format_rows(const se_text_field *fields, int field_count, size_t rows, char *out,
                         size_t room, size_t *written, size_t *bad_row);

/* ---- Equity --------------------------------------------------------------------
 * A spot: the game, 2..8 players with 0..7 known cards each (codes 0..51, all
 * distinct), dead cards (known to be out of play) and a count of unknown ones (out
 * of play, but not known which). Every missing card is
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
/* Monte Carlo deals per chunk; each chunk draws from its own generators. */
#define SE_EQ_CHUNK_SAMPLES 4096

typedef struct se_equity_spot {
    se_game game;
    int players;
    int known[SE_EQ_MAX_PLAYERS];
    uint8_t cards[SE_EQ_MAX_PLAYERS][7];
    int dead_count;
    uint8_t dead[52];
    /* Cards known to be out of play but not which (a folded seat's unseen down
     * cards): no deal uses them, so they change no share, only whether the deck
     * runs out and the seventh card is a community card. */
    int dead_unknown;
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
    /* The part of share won with a low: the low half in stud8 and the no-qualifier
     * game, the whole pot in razz, 0 in stud. share - low_share is won with a high. */
    uint64_t low_share[SE_EQ_MAX_PLAYERS];
} se_equity_counts;

/* Sets *deals to the number of deals of a spot (a double: it may exceed 2^64) and
 * *community (may be NULL) to whether a community card is dealt. SE_NO_DEAL when
 * the unseen cards cannot complete the hands, SE_BAD_ARGUMENT for a bad spot. */
se_status se_equity_deals(const se_equity_spot *spot, double *deals, int *community);

/* Monte Carlo: chunks first_chunk .. first_chunk + chunks - 1 of SE_EQ_CHUNK_SAMPLES
 * deals each. A chunk's deals depend only on (seed, chunk index), so any thread
 * count, and any split of the chunks over calls, gives the same sums. */
se_status se_equity_sample(const se_equity_spot *spot, uint64_t seed, uint64_t first_chunk,
                           uint64_t chunks, int threads, se_equity_counts *out);
/* The first `samples` (1 .. SE_EQ_CHUNK_SAMPLES) deals of chunk `chunk`, on the calling
 * thread: the deals that se_equity_sample's chunk starts with, for a run that asks
 * for fewer than a whole chunk more. */
se_status se_equity_sample_part(const se_equity_spot *spot, uint64_t seed, uint64_t chunk,
                                int samples, se_equity_counts *out);
/* Monte Carlo to a precision, on the calling thread: the first `step` (1 ..
 * SE_EQ_CHUNK_SAMPLES) deals of chunk 0, then those of chunk 1, and so on (the last
 * step cut to `most`), summed, until every player's share has an estimated standard
 * error sqrt((mean of squares - square of mean) / deals) of at most `target_se` (a
 * share as a fraction of the pot), or `most` (>= 1) deals are drawn. The sums are
 * those of the se_equity_sample_part calls it makes. SE_BAD_ARGUMENT for a step, a
 * most or a target_se (negative, NaN) out of range. */
se_status se_equity_sample_steps(const se_equity_spot *spot, uint64_t seed, int step,
                                 uint64_t most, double target_se, se_equity_counts *out);

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
 * always by class. Each side's card subsets (4 bytes each) are kept while they
 * fit in max_records and 32 MiB, else made again at each step (slower).
 * SE_TOO_BIG when counting the scoops by class would take more than about 20 s
 * (both players' hole cards unknown, and earlier);
 * SE_BAD_ARGUMENT for other spots. share_sq is left 0. */
se_status se_equity_count_heads_up(const se_equity_spot *spot, size_t max_records, int threads,
                                   se_progress *progress, se_equity_counts *out);

/* ---- Equity against ranges ------------------------------------------------------
 * A range is what one seat may hold: `count` combinations of its `width` hidden
 * cards (codes, one combination after another), each with a weight (NULL: all
 * alike). The spot holds the seat's up cards only; the combination adds the rest.
 * A combination holding a card of the spot (a known or dead card) is
 * SE_DUPLICATE_CARD: remove those first (they are impossible, not unlikely). */
#define SE_RANGE_MAX_COMBOS 65536 /* per range: every 3-card 7th-street range fits */
#define SE_RANGE_MAX_WIDTH 3      /* two down cards, and the 7th-street card */

typedef struct se_equity_range {
    int seat;
    int width;
    size_t count;
    const uint8_t *cards;  /* count * width codes */
    const double *weights; /* count finite weights >= 0 with a finite sum > 0; NULL: all 1 */
} se_equity_range;

/* Monte Carlo as se_equity_sample, with the hidden cards of each ranged seat
 * drawn from its range by weight (Walker's alias tables, exact to double
 * precision), the ranges jointly: a draw whose combinations share a card is
 * drawn again, which weighs every collision-free choice by its weights'
 * product. The other cards are drawn uniformly from the rest. SE_NO_DEAL when
 * the ranges kept colliding (a million draws in a row). */
se_status se_equity_sample_ranges(const se_equity_spot *spot, const se_equity_range *ranges,
                                  int n_ranges, uint64_t seed, uint64_t first_chunk,
                                  uint64_t chunks, int threads, se_equity_counts *out);

/* Exact counts of a spot for each of `tuples` choices of hidden cards: tuple t
 * gives seat seats[k] the next widths[k] cards of cards[t * sum(widths) ...],
 * after its known ones. out[t] (tuples entries) holds tuple t's counts, each
 * counted on one thread (heads-up by counting when it has many deals, else by
 * walking them), the tuples spread over `threads`. A tuple whose cards collide
 * with each other or with the spot is SE_DUPLICATE_CARD. */
se_status se_equity_tuples(const se_equity_spot *spot, const int *seats, const int *widths,
                           int n_seats, const uint8_t *cards, size_t tuples,
                           size_t max_records, int threads, se_progress *progress,
                           se_equity_counts *out);

/* ---- Queries (PQL for stud) --------------------------------------------------
 * A trial deals every player seven cards in dealing order (two down, the door
 * card, three more up, the last down); a program of operations then computes
 * each of its outputs from the trial. se_query_sample deals the trials (a chunk
 * of 4096 trials depends only on the seed and its index: any thread count gives
 * the same outputs); se_query_eval takes them from the caller (an enumeration).
 * out holds trials * n_outputs doubles, trial after trial. */
#define SE_QUERY_MAX_PLAYERS 7 /* seven cards each from one deck */
#define SE_QUERY_MAX_OPS 256
#define SE_QUERY_MAX_OUTPUTS 16
/* A street equity's runouts: every one where they are at most this many ... */
#define SE_QUERY_EXACT_RUNOUTS 4096
/* ... else this many drawn, in each trial (a trial's standard error <= 0.5/32). */
#define SE_QUERY_RUNOUTS 1024

typedef enum se_query_code {
    SE_Q_CONST = 0, /* value */
    SE_Q_ADD, SE_Q_SUB, SE_Q_MUL, SE_Q_DIV, SE_Q_NEG,
    SE_Q_LT, SE_Q_LE, SE_Q_GT, SE_Q_GE, SE_Q_EQ, SE_Q_NE, /* 1 or 0 */
    SE_Q_AND, SE_Q_OR, SE_Q_NOT,
    /* A player's first `street` cards (3..7): */
    SE_Q_HI_RATING,  /* 65536 - the high rank: higher is better */
    SE_Q_LO_RATING,  /* 65536 - the game's low rank (stud8: qualifying), 0 for none */
    SE_Q_HAND_TYPE,  /* 0 high card, 1 pair, 2 two pair, 3 trips, 4 straight, 5 flush,
                        6 full house, 7 quads, 8 straight flush */
    SE_Q_BEST_HI,    /* 1 when no other player's high is better */
    SE_Q_BEST_LO,    /* 1 when the player has a low and no other's is better */
    /* The showdown, every player's seven cards: */
    SE_Q_EQUITY,     /* the player's share of the pot */
    SE_Q_WINS_HI, SE_Q_TIES_HI, SE_Q_WINS_LO, SE_Q_TIES_LO, /* the half alone, or shared */
    SE_Q_SCOOPS,     /* the whole pot alone */
    SE_Q_WINNING_TYPE, /* the best high hand's type */
    SE_Q_UP_TYPE,      /* the player's up cards by `street` (its board): 0 none paired,
                          1 pair, 2 two pair, 3 trips, 7 quads */
    /* What the player sees by `street`: its own cards, the others' up cards dealt
     * by then and the dead cards; every other card is unseen. */
    SE_Q_LOW_TYPE,     /* (fifth street on) the game's low: 0 none (stud8), 1 one holding
                          a pair (razz),
                          else by its highest card: 2 king low .. 10 five low */
    SE_Q_NUT_HI,       /* 1 when no other player can hold a better high (its hidden
                          cards any unseen ones) */
    SE_Q_NUT_LO,       /* the same for the game's low (fifth street on; 0 when the
                          player has none) */
    SE_Q_OUTS,         /* how many unseen cards, as its next, make the player's hand
                          of type `value` and better (0 at seventh street) */
    SE_Q_HVH_EQUITY,   /* the share of the pot over the rest of the deal, given every
                          player's cards by `street`: exact where the runouts are at
                          most SE_QUERY_EXACT_RUNOUTS, else SE_QUERY_RUNOUTS drawn */
    SE_Q_STREET_EQUITY, /* the same given what the player sees: the others' hidden cards
                          from their ranges (se_query_sample) or the unseen cards
                          (se_query_eval), SE_QUERY_RUNOUTS drawn */
    SE_Q_UP_IN         /* 1 when the player's up cards by `street` match, in some order,
                          the pattern `value`: one element an up card, in base 70 from
                          the door card's: rank (0 deuce .. 12 ace, 13 any) * 5 + suit
                          (0 clubs, 1 diamonds, 2 hearts, 3 spades, 4 any) */
} se_query_code;

typedef struct se_query_op {
    int code;      /* se_query_code */
    int a, b;      /* operands: earlier operations' indexes, -1 for none */
    int player;    /* 0 .. players - 1 */
    int street;    /* 3 (third street) .. 7 (seventh) */
    double value;  /* SE_Q_CONST's */
} se_query_op;

typedef struct se_query_program {
    int n_ops;
    const se_query_op *ops; /* operation i writes result i */
    int n_outputs;
    const int *outputs;     /* the operations whose results a trial writes out */
} se_query_program;

typedef struct se_query_player {
    int n_up;
    uint8_t up[4];         /* the up cards known, from the door card on */
    int width;             /* 0: the down cards are dealt; 2 or 3 (with 4 up cards): a range */
    size_t count;          /* the range: count combinations of width codes, the down cards */
    const uint8_t *combos; /* (the third is the seventh-street card) none holding a known card */
    const double *weights; /* NULL: all alike */
} se_query_player;

typedef struct se_query_spot {
    se_game game;           /* stud, stud8 or razz */
    int players;
    se_query_player player[SE_QUERY_MAX_PLAYERS];
    int n_dead;
    const uint8_t *dead;
} se_query_spot;

/* SE_BAD_ARGUMENT for a bad program or spot (first_trial a multiple of 4096),
 * SE_INVALID_CARD / SE_DUPLICATE_CARD for bad cards, SE_NO_DEAL when the deck
 * cannot give every player seven cards or the ranges kept colliding. */
se_status se_query_sample(const se_query_spot *spot, const se_query_program *program,
                          uint64_t seed, uint64_t first_trial, size_t trials, int threads,
                          double *out);
/* cards: trials * players * 7 codes, each trial's players in order, none of them
 * among the n_dead dead cards. Drawn runouts depend on the trial's index alone. */
se_status se_query_eval(int game, int players, const se_query_program *program,
                        const uint8_t *dead, int n_dead, const uint8_t *cards, size_t trials,
                        int threads, double *out);

/* ---- Solving a street (heads-up fixed limit) -------------------------------------
 * The end of a heads-up hand: each seat's four up cards known to both, its three
 * hidden cards one combination of its range. The caller builds the betting tree (the
 * rules are the caller's): action nodes, folds and showdowns, with what each seat has
 * put in since the root. Sixth street is solved with seventh by giving each seat's
 * combinations as its two down cards and each seventh card it may be dealt, grouped by
 * the two: a node that is `tied` (sixth street's) has one strategy a group, as the
 * seat does not know its seventh card yet. Every deal of the six cards is alike, so
 * the seventh cards need no weights of their own.
 * se_solve_run runs CFR+ (regrets floored at zero, the seats updated in turn, the
 * average strategy weighted by iteration) over both whole ranges at once. A showdown
 * is settled for every pair of combinations that share no card: ranks are computed
 * once, and each combination's share against the other range comes from sweeps over
 * both ranges sorted by rank, card removal by inclusion-exclusion over the cards they
 * could share. se_solve_best_response is separate code: each seat's best value
 * against the other's given strategy.
 * Earlier streets deal up cards between two streets' betting: public chance. The spot
 * then gives its boards (every deal to come, each a whole board: both seats' four up
 * cards), equally likely, and the tree has chance nodes; a chance node's children
 * split its boards into equal consecutive shares, in order (the root holds them all),
 * so a board's deals are the path to it. A showdown's node has one board; a fold
 * settles each board of its node. A combination holding a card of a board is not
 * dealt with that board (the game deals the boards and the hidden cards together);
 * without boards, a combination holding an up card is refused. */
#define SE_SOLVE_MAX_NODES (1 << 20)
#define SE_SOLVE_MAX_COMBOS 1000000
#define SE_SOLVE_MAX_BOARDS 65536
/* The pot and the rake's cap are below this many chips (doubles stay exact). */
#define SE_SOLVE_MAX_CHIPS 1000000000000000LL

typedef enum se_solve_kind {
    SE_SOLVE_ACT = 0,     /* a seat chooses among its children */
    SE_SOLVE_FOLD = 1,    /* `seat` folded: the other takes the pot */
    SE_SOLVE_SHOWDOWN = 2, /* the pot is settled by the hands */
    SE_SOLVE_CHANCE = 3    /* up cards are dealt: a child a share of the node's boards */
} se_solve_kind;

typedef struct se_solve_node {
    int kind;        /* se_solve_kind */
    int seat;        /* SE_SOLVE_ACT: who acts; SE_SOLVE_FOLD: who folded; else unread */
    int first_child; /* SE_SOLVE_ACT: its children, nodes first_child .. + n_children - 1, */
    int n_children;  /*   2 or 3 (a chance node: 1 .. its boards), after it in the array */
    int tied;        /* SE_SOLVE_ACT: 1 for one strategy a group of combinations */
    double put[2];   /* at a fold or showdown: what each seat put in since the root */
} se_solve_node;

typedef struct se_solve_spot {
    se_game game;             /* stud, stud8 or razz */
    double pot;               /* in the pot at the root */
    double rake_rate, rake_cap; /* the house takes rate * the pot, at most cap, from every
                                   pot won (a fold or a showdown); 0 and 0: no rake */
    uint8_t up[2][4];         /* each seat's up cards */
    int count[2];             /* each seat's combinations, 1 .. SE_SOLVE_MAX_COMBOS */
    const uint8_t *hidden[2]; /* count * 3 codes, a combination after another */
    const double *weights[2]; /* each combination's weight, 0 .. 1e12 (NULL: alike); at a
                                 tied node a member counts by its weight */
    const int *group[2];      /* each combination's group, 0 .. n_groups - 1 (NULL: its own) */
    int n_groups[2];
    int n_nodes;              /* 1 .. SE_SOLVE_MAX_NODES */
    const se_solve_node *nodes; /* node 0 the root */
    int n_boards;             /* 0: the one board is `up`; else 1 .. SE_SOLVE_MAX_BOARDS */
    const uint8_t *boards;    /* n_boards * 8 codes: a board's seat 0 up cards, then seat 1's */
} se_solve_spot;

typedef struct se_solver se_solver;

/* A solver for the spot (copied: the caller's arrays may go). SE_BAD_ARGUMENT for a
 * bad tree, weights or groups, SE_INVALID_CARD / SE_DUPLICATE_CARD for bad cards (a
 * combination holding an up card, or a card twice), SE_NO_DEAL when no two
 * combinations can be dealt together. */
se_status se_solve_new(const se_solve_spot *spot, se_solver **out);
/* `iterations` more iterations on up to `threads` threads (0: every core, or one for
 * a tree too small to pay for threads); progress
 * counts iterations and may stop the run between two (SE_STOPPED, the iterations
 * done kept). */
se_status se_solve_run(se_solver *s, int iterations, int threads, se_progress *progress);
int se_solve_iterations(const se_solver *s);
/* The average strategy at action node `node`: a row of n_children probabilities for
 * each combination of the acting seat, or each group at a tied node (uniform where it
 * never reaches the node). `size`: out's doubles, which must be rows x n_children
 * (SE_BAD_SIZE otherwise). */
se_status se_solve_strategy(const se_solver *s, int node, double *out, size_t size);
/* Under the average strategies: each seat's value (its expected chips from the pot,
 * less what it puts in: value[0] + value[1] = pot less the rake) and, where the arrays are not
 * NULL, each combination's value given that it is held (ev) and the other seat's
 * weight of the combinations dealt with it (met: how likely it is held, times the
 * seat's own weight). size[p]: the length of seat p's arrays, which must be its
 * combinations' count where either is given (SE_BAD_SIZE otherwise); NULL when none is. */
se_status se_solve_values(se_solver *s, double value[2], double *ev0, double *ev1,
                          double *met0, double *met1, const size_t size[2]);
void se_solve_free(se_solver *s);
/* Each seat's value when it plays its best against the other seat's `strategy`:
 * every action node's rows, node after node, as se_solve_strategy gives them. At a
 * tied node a group chooses one action for all its combinations. `size`: the
 * strategy's doubles, which must be every action node's rows (SE_BAD_SIZE otherwise). */
se_status se_solve_best_response(const se_solve_spot *spot, const double *strategy,
                                 size_t size, double value[2]);

/* ---- The fixed-limit engine -----------------------------------------------------
 * One hand of fixed-limit stud, action by action, by the betting rules of
 * Robert's Rules of Poker: antes, the bring-in or its completion, one bet and
 * three raises a round (no cap when two players, seats not folded, are left before
 * the third raise), small bets on 3rd and 4th street and big ones from 5th, the
 * 4th-street open pair, all-ins for less than half a bet that do not reopen the
 * betting, the community card when the deck runs out, and the showdown order.
 *
 * Chips are int64_t; se_hand_init refuses any stake or total of stacks of
 * SE_ENGINE_MAX_CHIPS or more, so no sum the engine forms can overflow. Seats are
 * clockwise from the dealer's left. A card is a code 0..51, or SE_UNKNOWN_CARD
 * for a down card dealt face down and not known (hand histories have them).
 *
 * Every function checks its arguments and the state: a call that is not allowed
 * returns a negative status and changes nothing. A hand that wins by folds pays
 * out at once; a showdown ends with settle_due set, and the caller settles the
 * pots (side pots, split halves, odd chips) and passes the payouts to
 * se_hand_pay. A hand is not thread-safe: one thread at a time. */
#define SE_ENGINE_MAX_SEATS 8
#define SE_UNKNOWN_CARD 255
#define SE_ENGINE_MAX_CHIPS ((int64_t)1 << 60)

typedef enum se_action {
    SE_ACT_FOLD = 0,
    SE_ACT_CHECK = 1,
    SE_ACT_CALL = 2,
    SE_ACT_BRING_IN = 3,
    SE_ACT_COMPLETE = 4,
    SE_ACT_BET = 5,
    SE_ACT_RAISE = 6
} se_action;

/* What the event log records: an action (the same codes as se_action) or a deal,
 * a post or a showdown step. */
typedef enum se_event_kind {
    SE_EVENT_FOLD = SE_ACT_FOLD,
    SE_EVENT_CHECK = SE_ACT_CHECK,
    SE_EVENT_CALL = SE_ACT_CALL,
    SE_EVENT_BRING_IN = SE_ACT_BRING_IN,
    SE_EVENT_COMPLETE = SE_ACT_COMPLETE,
    SE_EVENT_BET = SE_ACT_BET,
    SE_EVENT_RAISE = SE_ACT_RAISE,
    SE_EVENT_ANTE = 7,
    SE_EVENT_DEAL = 8,
    SE_EVENT_COMMUNITY = 9,
    SE_EVENT_SHOW = 10,
    SE_EVENT_MUCK = 11
} se_event_kind;

/* The table: the game's action rules as data, the stakes and the house's choices. */
typedef struct se_table_rules {
    int seats;                 /* 2..SE_ENGINE_MAX_SEATS */
    int64_t ante, bring_in, small_bet, big_bet;
    int64_t rake;              /* the most the house takes from the main pot */
    int bring_in_highest;      /* the highest door card brings in (else the lowest) */
    int ace_low;               /* single cards rank ace lowest (else ace highest) */
    int board_low;             /* the best A-5 low board acts first (else the best high) */
    int open_pair;             /* a 4th-street open pair allows the big bet */
    int bring_in_tie_position; /* door cards of one rank: the seat nearest the dealer's
                                  left brings in (else the lower suit, by card order) */
    int action_tie_suit;       /* tied boards: by the cards' suits (else the first seat
                                  clockwise from the dealer) */
    int short_all_in_full_bet; /* a seat may raise only when it faces the round's largest
                                  increment or more, a raise goes a full increment on top
                                  of the highest total, and every wager counts toward the
                                  cap (pokerkit's reading); else an all-in of half a bet
                                  reopens the betting and a shorter one is completed */
    int bring_in_passes_left;  /* the bring-in's seat all in for the ante: the next seat
                                  clockwise brings in (else nobody does) */
    int cap_heads_up;          /* the cap holds also when two players are left (else no
                                  cap for two players left before the third raise) */
    int deck_reuses_muck;      /* a card is burned before each of 4th-7th street, and when
                                  the deck runs out the burned and folded cards make a new
                                  one (else the 7th-street community card) */
    int short_bring_in_opens;  /* the seat to bring in has no more than the bring-in: it may
                                  also wager it all as the round's opening bet, which a
                                  raise tops (pokerkit's reading; else it brings in only) */
    int cap_skips_all_in;      /* "two players left" for the cap counts only the seats not
                                  all in (else every seat not folded: an all-in seat is a
                                  player, and two betting beside it stay capped) */
} se_table_rules;

/* What the seat to act may do. Totals ("_to") are the seat's chips in this street
 * after the action, every legal one, smallest first; call is the chips a call
 * costs, -1 when there is nothing to call; bring_in is -1 when not due. */
typedef struct se_legal {
    int fold, check;
    int64_t call, bring_in;
    int complete_count, bet_count, raise_count;
    int64_t complete_to[2], bet_to[2], raise_to[2];
} se_legal;

typedef struct se_event {
    se_event_kind kind;
    int8_t seat;    /* -1 for the community card */
    uint8_t street; /* 3..7 */
    uint8_t card_count;
    uint8_t cards[7];
    int64_t amount; /* chips put in (antes and actions) */
    int64_t to;     /* the seat's street total after a bet, call or raise; -1 if none */
} se_event;

/* The state. Read it freely; change it only through the functions below. What
 * every action reads or writes comes first, together (engine/se_tables.c fetches those
 * lines of the tables ahead); the deal's and the showdown's fields follow. */
typedef struct se_hand {
    se_table_rules rules;
    int street;        /* 3..7 */
    int actor;         /* the seat to act or to show, -1 when none */
    int showdown;      /* the betting is over: actor shows or mucks */
    int over;          /* settled: stacks are the final stacks */
    int settle_due;    /* every seat has shown or mucked: call se_hand_pay */
    int community;     /* the community card, -1 when none */
    int64_t stacks[SE_ENGINE_MAX_SEATS];
    int64_t contributions[SE_ENGINE_MAX_SEATS];
    int64_t pot;       /* the contributions' sum: every chip put in this hand */
    /* The betting round. */
    int64_t street_bets[SE_ENGINE_MAX_SEATS];
    int64_t acted_at[SE_ENGINE_MAX_SEATS]; /* the full level a seat last acted at; -1 not yet */
    int64_t level, full_level; /* the highest street total; the last one a full bet made */
    int bets;          /* full bets and raises this round (the completion is the bet;
                          with short_all_in_full_bet every wager) */
    int64_t max_raise; /* short_all_in_full_bet: the largest wager increment this round */
    int uncapped, big_seen, bring_in_due, open_pair_round;
    int last_aggressor, round_aggressor, first_actor;
    uint8_t folded[SE_ENGINE_MAX_SEATS], out[SE_ENGINE_MAX_SEATS]; /* out: folded or mucked */
    uint8_t dealt[SE_ENGINE_MAX_SEATS];
    int cards_dealt;   /* cards given out, unknown ones and the community card included */
    uint64_t known;    /* every card dealt face up, or known, as a bit mask */
    se_event *events;  /* the log, events_count long */
    size_t events_count, events_capacity;
    /* The cards. */
    uint8_t cards[SE_ENGINE_MAX_SEATS][7]; /* in deal order; SE_UNKNOWN_CARD when unknown */
    int card_count[SE_ENGINE_MAX_SEATS];
    uint8_t up[SE_ENGINE_MAX_SEATS][4];
    int up_count[SE_ENGINE_MAX_SEATS];
    uint8_t deck[52];
    int deck_count;    /* -1 until the first se_hand_deal_random shuffles */
    int deck_ready;    /* deck[0..deck_ready) is in its shuffled order; the rest is
                          shuffled as it is dealt (se_hand_fix_deck: all of it) */
    uint64_t deck_known; /* known when the deck last held no known card */
    uint64_t deck_random[6]; /* the shuffle's random generator, where it stands */
    /* deck_reuses_muck: cards burned since the deck was last made anew, whether the
     * street's burn is still due, and the folded seats whose cards went back. */
    int burned, burn_due;
    uint8_t recycled[SE_ENGINE_MAX_SEATS];
    /* The showdown and the end. */
    uint8_t shown[SE_ENGINE_MAX_SEATS];
    int show_order[SE_ENGINE_MAX_SEATS], show_count;
    int64_t payouts[SE_ENGINE_MAX_SEATS];
    int64_t rake_taken;
} se_hand;

/* The bytes of se_hand that every action touches (the rest: deals, showdowns). */
#define SE_HAND_HOT_BYTES offsetof(se_hand, cards)

/* Sets up a hand and posts the antes (a stack shorter than the ante posts all of
 * it). SE_BAD_ARGUMENT for bad rules or stacks, SE_NO_MEMORY. Call se_hand_free
 * after any call that returned SE_OK. */
se_status se_hand_init(se_hand *hand, const se_table_rules *rules, const int64_t *stacks);
/* se_hand_init for a hand that holds a log already (a finished hand, say): the log's
 * memory is kept for the new hand. se_hand_free frees it, whatever the status. */
se_status se_hand_restart(se_hand *hand, const se_table_rules *rules, const int64_t *stacks);
void se_hand_free(se_hand *hand);
/* Makes dst an independent copy of src (its own event log); free both. */
se_status se_hand_copy(se_hand *dst, const se_hand *src);
/* Sets the cards se_hand_deal_random deals next, in order (as if shuffled so):
 * distinct cards not yet seen, at least as many as are not yet dealt (those past
 * that number are dropped; fewer is SE_BAD_SIZE). For restoring a saved hand. */
se_status se_hand_set_deck(se_hand *hand, const uint8_t *cards, int count);
/* Puts the whole deck in the order se_hand_deal_random deals it (the shuffle is
 * otherwise carried out card by card as cards are dealt; the cards dealt are the
 * same either way), so that hand->deck[0..deck_count) can be read. */
void se_hand_fix_deck(se_hand *hand);

/* Deals `seat` its cards for the street: 3 on 3rd (down, down, up), 1 up card on
 * 4th-6th, 1 down card on 7th. Down cards may be SE_UNKNOWN_CARD. SE_NO_DEAL when
 * the deck has too few cards left (on 7th street: for every seat still waiting,
 * when the community card must be dealt instead). */
se_status se_hand_deal(se_hand *hand, int seat, const uint8_t *cards, int count);
/* Whether `card` may be one of a deal of `count` cards to a seat now: not yet
 * seen, or (deck_reuses_muck) a folded seat's card that this deal shuffles back. */
int se_hand_card_free(const se_hand *hand, int card, int count);
/* The 7th-street community card, when the deck cannot give each live seat one. */
se_status se_hand_deal_community(se_hand *hand, int card);
/* Deals every live seat the street from the rest of the deck, shuffled by the
 * first call's seed; the community card when the deck runs out on 7th street. */
se_status se_hand_deal_random(se_hand *hand, uint64_t seed);

/* Fills *legal for the seat to act (all empty when none is). */
void se_hand_legal(const se_hand *hand, se_legal *legal);
/* The seat to act does `action`; `to` is its street total after a bring-in,
 * completion, bet or raise (one of the legal totals, or negative for the
 * smallest), ignored otherwise. */
se_status se_hand_act(se_hand *hand, se_action action, int64_t to);

/* At the showdown the seat to act shows (down: its down cards in deal order,
 * needed for those dealt unknown; NULL keeps the cards dealt) or mucks. */
se_status se_hand_show(se_hand *hand, const uint8_t *down, int count);
se_status se_hand_muck(se_hand *hand);
/* Settles a showdown (settle_due): payouts per seat, the rake taken from the
 * main pot (at most the table's rake); they must sum to the contributions. */
se_status se_hand_pay(se_hand *hand, const int64_t *payouts, int64_t rake);

/* ---- Settlement ----------------------------------------------------------------
 * The payouts of a showdown, as studeval.settle() (Python) makes them, for callers
 * that play whole hands in C (se_settle.c). The house's options are those of
 * studeval.HouseRules that touch the chips. */
typedef struct se_settle_rules {
    se_game game;
    int64_t chip;               /* the smallest chip: contributions, rake and shares are
                                   whole numbers of it */
    int64_t rake;               /* taken from the main pot before it is split */
    int rake_at_most;           /* a smaller main pot pays what it holds (else an error) */
    int odd_chip_played;        /* tied winners ordered by their five played cards (else
                                   all their cards) */
    int odd_chip_low_high_card; /* a low half's odd chips to the highest card by suit
                                   (else the lowest, ace low) */
    int odd_chips_first_seat;   /* every odd chip of a tie to the first tied seat (else
                                   one each, in card order) */
    int odd_chip_half_low;      /* a hi/lo split's odd chip to the low half */
    int split_pots_merged;      /* pots in a row with the same winners split as one */
} se_settle_rules;

/* Settles `seats` (2..8) seats: cards[s] the 7 cards of each seat with live[s] set
 * (its first 6 and `community`, when community >= 0), contributions the chips each
 * put in (folded seats too). Fills payouts and returned (the chips nobody matched,
 * inside payouts) and *rake_taken. SE_OK; SE_BAD_ARGUMENT for bad rules, chips that
 * are not whole chips, no live seat, or a rake over the main pot without
 * rake_at_most; a card status for a bad live hand. */
se_status se_settle(const se_settle_rules *rules, int seats, const uint8_t (*cards)[7],
                    const uint8_t *live, int community, const int64_t *contributions,
                    int64_t *payouts, int64_t *returned, int64_t *rake_taken);

/* ---- A finished hand's seats -----------------------------------------------------
 * What a tracker keeps of each seat of a finished hand (engine/se_hand_summary.c). */
typedef struct se_seat_summary {
    int64_t returned;     /* its chips nobody matched, given back */
    int64_t showdown_won; /* chips won from the pots contested at the showdown: those two
                             or more seats that reached it (showing or mucking) were in */
    int8_t showdown;      /* it reached the showdown */
    int8_t scooped;       /* with scoops set, at the showdown: it won every contested pot
                             it was in whole (1) or not (0); -1 otherwise */
} se_seat_summary;

/* Fills out[0 .. seats - 1] for a finished hand (h->over); `scoops`: the game splits
 * pots high and low, and scoops are counted. Returns 1 when a seat put its whole
 * stack in (an all-in, whose expected chips an analysis finds), else 0. */
int se_hand_summary(const se_hand *h, int scoops, se_seat_summary *out);

/* ---- Tables ------------------------------------------------------------------------
 * n tables of the same game, stakes and starting stacks, each playing hand after
 * hand on the engine: dealt from its own seeded shuffle (a hand's seed mixes the
 * tables' seed, the table and its hand count), every live seat showing at the
 * showdown, settled by se_settle. A step plays one discrete action on every table
 * (every table always has a seat to act) and writes each table's state into the
 * caller's arrays (se_tables_view); a hand that ends writes its chips won or lost
 * into rewards, sets done, is kept as the table's last hand, and a new one starts
 * with the same stacks. Each stack must be above the ante, so that every hand has
 * a decision. Actions: */
#define SE_TABLE_FOLD 0
#define SE_TABLE_CHECK_CALL 1  /* check, or call (all in for less when short) */
#define SE_TABLE_BRING_IN 2
#define SE_TABLE_SMALL 3       /* complete, bet or raise by the small bet */
#define SE_TABLE_BIG 4         /* bet or raise by the big bet: 5th street on, and a
                                  4th street with an open pair */
#define SE_TABLE_ACTIONS 5
#define SE_TABLE_HISTORY 48    /* actions of a street the history keeps */
#define SE_TABLES_PER_THREAD 1024 /* the least tables that pay for a thread */

/* The five actions of a table for `hand` as it stands: allowed or not, the street
 * total each goes to (-1 if none) and the se_action each is (-1 if none). */
void se_hand_table_choices(const se_hand *hand, uint8_t *legal, int64_t *totals, int *kinds);

/* The caller's arrays, n rows each (seats: the table's seats), rewritten every step. */
typedef struct se_tables_view {
    int8_t *actor;           /* n: the seat to act */
    uint8_t *legal;          /* n x 5: which actions are allowed */
    int64_t *totals;         /* n x 5: the actor's street total after each, -1 if none */
    int8_t *street;          /* n: 3..7 */
    int64_t *pot;            /* n: every chip put in this hand, antes included */
    int64_t *to_call;        /* n: what a call costs the actor (0: nothing to call) */
    int64_t *stacks;         /* n x seats: chips behind */
    int64_t *bets;           /* n x seats: put in on this street */
    uint8_t *folded;         /* n x seats */
    uint8_t *cards;          /* n x seats x 7: in deal order, SE_UNKNOWN_CARD past the dealt */
    uint8_t *up;             /* n x seats x 7: dealt face up */
    uint8_t *history;        /* n x 5 x SE_TABLE_HISTORY: each street's actions in order,
                                1 + seat * 5 + action each, 0 after the last */
    int64_t *rewards;        /* n x seats: chips won less chips put in, for a hand that
                                ended this step; 0 otherwise */
    uint8_t *done;           /* n: a hand ended this step */
    uint64_t *hands_played;  /* n: hands finished */
} se_tables_view;

typedef struct se_table_choice se_table_choice; /* engine/se_tables.c's own */

typedef struct se_tables {
    size_t n;
    se_table_rules rules;
    se_settle_rules settle;
    int64_t stacks[SE_ENGINE_MAX_SEATS];
    uint64_t seed;
    se_hand *hands;           /* two a table: the hand in play (current) and the last one */
    se_table_choice *choices; /* each table's actions now, as last written */
    uint8_t *current, *history_count;
    int *cards_shown;         /* cards each table's arrays show, -1: write them all */
    uint64_t *played;
    se_tables_view view;
    struct se_team *team;     /* worker threads kept between steps (se_threads.c) */
} se_tables;

/* Sets up n tables (rules: the seats, the stakes, the rake and the game's flags;
 * settle: the game and the house's odd-chip options; its rake is the rules').
 * SE_OK, SE_BAD_ARGUMENT, SE_NO_MEMORY. Then se_tables_start; se_tables_free. */
se_status se_tables_init(se_tables *tables, size_t n, const se_table_rules *rules,
                         const se_settle_rules *settle, uint64_t seed,
                         const se_tables_view *view);
/* Deals every table its first hand (stacks: one per seat, each above the ante). */
se_status se_tables_start(se_tables *tables, const int64_t *stacks);
/* Every table's hand dealt afresh from `seed`, as se_tables_init and se_tables_start
 * with that seed deal them: no hand played, none last, the history, rewards and done
 * cleared; the memory kept. On an error other than SE_BAD_ARGUMENT, only
 * se_tables_free may follow. */
se_status se_tables_reset(se_tables *tables, uint64_t seed);
/* SE_OK when actions[i] is allowed on every table i; else SE_ILLEGAL, *bad the first
 * table where it is not. */
se_status se_tables_check(const se_tables *tables, const int64_t *actions, size_t *bad);
/* Checks, then plays actions[i] on every table i, on up to `threads` threads (see
 * se_parallel_for; *workers: how many ran). Nothing changes when the check fails. */
se_status se_tables_step(se_tables *tables, const int64_t *actions, int threads, int *workers,
                         size_t *bad);
/* Table i's last finished hand (*hand NULL before its first ends). */
se_status se_tables_last(const se_tables *tables, size_t i, const se_hand **hand);
void se_tables_free(se_tables *tables);

/* ---- Hand histories ----------------------------------------------------------------
 * One hand of a card room's text history, read by the room's templates and played
 * through the engine, every amount checked against it (se_history.c reads,
 * se_history_replay.c plays). This is a
 * fast path: what it does not read with certainty (a line no template knows, a
 * disagreement with the engine, text it does not split as Python does) returns
 * SE_HIST_UNSURE, and the caller reads the hand its general way, which names the
 * reason. A template is the line's text with slots:
 *   {name}     a player's name, the shortest that lets the line match
 *   {seat}     digits                {amount}, {to}  money: "$" or none, a space or
 *   {cards}    "[" to the first "]"                  none, digits, thousands commas,
 *                                                    decimals; "€" or "£" before, or a
 *                                                    sign after (a space or none first)
 *   {allcards} "[" to a "]", the last one first      {notparen} text up to a ")"
 *   {text}     any text, the shortest                {rest} the rest of the line
 *   {money}    money as {amount} reads it, not kept (an amount the room writes that
 *              is not to be trusted: Winning's A of "raises A to B")
 *   {spaces}   spaces, as many as there are first   {code} 3 or 4 capitals ("EURO"),
 *                                                    {code?} the same or none
 *   {?x}       the literal x if it is there, and then the step is all in ("and is all in")
 *   {~x}       the literal x if it is there (a "." some lines end with)
 *   {+x}       the literal x once or more, as many as there are first ("------")
 *   {fee}      money added to the rake (a summary's total line: a jackpot fee)
 *   {part}     money added to the total pot (a summary's line of one of many pots)
 *   {number}   digits, not kept
 * A line matches a template whole, trailing spaces aside. */
#define SE_HIST_MAX_LISTED 10   /* seat lines of one hand */
#define SE_HIST_MAX_STEPS 400   /* lines that move chips or deal cards */
#define SE_HIST_MAX_CARDS 8     /* cards one player's lines reveal */
#define SE_HIST_MAX_TEXT (1 << 20)
#define SE_HIST_UNSURE 1        /* not read here: read it the general way */
#define SE_HIST_SETTLE 2        /* played to the showdown: settle, se_hand_pay, check_end */

/* What a template's line is. The step kinds come first, wagers in one run. */
typedef enum se_hist_role {
    SE_HIST_ANTE = 0,
    SE_HIST_DEAL,
    SE_HIST_BRING_IN,
    SE_HIST_COMPLETE,
    SE_HIST_BET,
    SE_HIST_RAISE,
    SE_HIST_CALL,
    SE_HIST_CHECK,
    SE_HIST_FOLD,
    SE_HIST_ALL_IN,  /* every chip left, {amount} what it puts in (or its street total):
                        a call where that is all the call costs, else the wager to it */
    SE_HIST_RETURN,  /* an uncalled bet given back */
    SE_HIST_SHOW,
    SE_HIST_MUCK,
    SE_HIST_COLLECT, /* chips taken from a pot */
    SE_HIST_STREET,  /* a street marker; value: 3..7, 8 the showdown, 9 the summary */
    SE_HIST_SEAT,    /* a seat line: {seat}, {name}, {amount} the stack */
    SE_HIST_REVEAL,  /* cards shown, on any line: {name}, {cards} */
    SE_HIST_TOTAL,   /* the summary's total pot {amount} and rake {to} (and {fee}) */
    SE_HIST_STRICT,  /* text after a player's name that starts only lines a template
                        knows (else a line no template knows is passed over) */
    SE_HIST_WON,     /* a summary line: what {name} won, {amount}; counted as collected
                        only in a hand with no collect line (Winning writes a pot won
                        without a showdown only there); and what it bet, {to}, if said
                        (the uncalled bet given back not counted, unless the room
                        writes it as won). Value 1: found anywhere in a line, as often as
                        it is there ("won by A ($1), B ($1)"; all such templates one
                        alternation, tried at each place in turn; each ends in {rest}) */
    SE_HIST_NAME     /* what every name looks like, matched whole against each seat line's
                        name ("Seat+{seat}": its {seat} is the seat's number) */
} se_hist_role;

/* se_hist_grammar.flags: how a room writes what the templates cannot say. */
#define SE_HIST_POT_AFTER_RAKE 1    /* the total pot written is what was left after the rake */
#define SE_HIST_RETURNS_UNWRITTEN 2 /* no line for an uncalled bet given back */
#define SE_HIST_COLLECTS_RETURNS 4  /* an uncalled bet given back is written as won */
#define SE_HIST_FIRST_STREET_3 8    /* no 3rd-street marker: the lines before the first
                                       marker are 3rd street's */
#define SE_HIST_DEALS_REPEAT_ALL 16 /* a deal line lists all the player's cards so far, the
                                       new ones last (one with none new is passed over) */
#define SE_HIST_RAKE_UNWRITTEN 32   /* no rake written (nor a total pot): the rake is what
                                       the pots paid less what was collected
                                       (se_hist_unwritten_rake) */
#define SE_HIST_STREETS_BY_DEALS 128 /* no line between streets: a street begins where a
                                        player is dealt again, or a deal follows an action */
#define SE_HIST_HERO_MARKED 256    /* the hero is the seat line whose optional literal
                                       {?x} is there ("Seat+5 [ME]: $200 in chips"); the
                                       XML readers set it, the hero being theirs to say */
#define SE_HIST_CARD_BY_CARD 64     /* each card dealt has a line of its own (one naming
                                       no card deals one face down), joined to the
                                       player's other cards of the street */

/* se_hist_money.sign and se_hist_hand.signs: the currency signs amounts were written
 * with (the caller checks them against the header's currency). */
#define SE_HIST_SIGN_DOLLAR 1
#define SE_HIST_SIGN_EURO 2
#define SE_HIST_SIGN_POUND 4

typedef struct se_hist_template {
    int role;
    int value;
    const char *text; /* UTF-8, NUL-terminated */
    uint64_t need[4]; /* every byte of its literal text (se_hist_compile) */
} se_hist_template;

/* A room's lines, tried in order: the first template of a role that matches. */
#define SE_HIST_MAX_TEMPLATES 128

typedef struct se_hist_grammar {
    se_hist_template *templates;
    int count;     /* at most SE_HIST_MAX_TEMPLATES */
    int flags;     /* SE_HIST_POT_AFTER_RAKE */
    /* Set by se_hist_compile, which se_hist_read needs first: the templates by
     * role (the steps' roles as one, in their order), group g at
     * by_role[group_start[g]..group_start[g + 1]). */
    int compiled;
    int16_t by_role[SE_HIST_MAX_TEMPLATES];
    int16_t group_start[9];
    /* The bytes every template of group g needs (se_hist_template.need, and-ed): a
     * line without one is no line of the group, passed over in one test. */
    uint64_t group_need[8][4];
} se_hist_grammar;

/* An amount as written: its digits, and how many of them are decimals. */
typedef struct se_hist_money {
    int64_t digits;
    int places;
    int sign; /* SE_HIST_SIGN_*: the signs written before and after it; 0 for none */
} se_hist_money;

typedef struct se_hist_step {
    uint8_t kind;       /* se_hist_role, SE_HIST_STREET included */
    int8_t player;      /* the seat line's index (-1 for a street marker) */
    uint8_t street;     /* the street its line is in (0 before the first marker) */
    uint8_t all_in, has_amount, has_to, card_count;
    uint8_t cards[7];   /* SE_UNKNOWN_CARD for a hidden one */
    se_hist_money amount, to;
    int64_t amount_chips, to_chips; /* after se_hist_prepare; -1 when none */
} se_hist_step;

/* One hand as read and played. The text stays the caller's while the hand is used. */
typedef struct se_hist_hand {
    const char *text;
    int unsure_at;      /* where the reader gave up, for tests: the line of se_history.c,
                           or 10000 + that of se_history_replay.c */
    int header_end;     /* the byte offset of the first seat line */
    /* The seat lines, as listed. */
    int listed;
    int seat_number[SE_HIST_MAX_LISTED], name_at[SE_HIST_MAX_LISTED], name_len[SE_HIST_MAX_LISTED];
    se_hist_money stack[SE_HIST_MAX_LISTED];
    uint8_t in_hand[SE_HIST_MAX_LISTED];   /* has a line of its own */
    uint8_t revealed_set[SE_HIST_MAX_LISTED], revealed_count[SE_HIST_MAX_LISTED];
    uint8_t revealed[SE_HIST_MAX_LISTED][SE_HIST_MAX_CARDS];
    uint8_t up_count[SE_HIST_MAX_LISTED], up[SE_HIST_MAX_LISTED][SE_HIST_MAX_CARDS];
    int has_total, has_rake, rake_unwritten; /* rake_unwritten: none written, and the
                                                  grammar's SE_HIST_RAKE_UNWRITTEN */
    int flags;          /* the grammar's */
    int signs;          /* after se_hist_prepare: every kept amount's sign, or-ed */
    int stack_signs;    /* after se_hist_prepare: the seat lines' stacks' signs, or-ed
                           (a cash game's header naming no currency: the stacks' is it) */
    se_hist_money total_pot, rake_text;
    /* What the summary says each seat line's player bet (SE_HIST_WON's {to}). */
    uint8_t has_bet[SE_HIST_MAX_LISTED];
    se_hist_money bet_text[SE_HIST_MAX_LISTED];
    /* After se_hist_prepare: the chip is 10^-places of the money; the players are the
     * seats dealt in, by seat number (player[p] their seat line). */
    int places, players, hero;  /* hero: a seat line's index, or -1 */
    int player[SE_ENGINE_MAX_SEATS], seat_of[SE_HIST_MAX_LISTED];
    int64_t stacks[SE_ENGINE_MAX_SEATS];
    int64_t ante, bring_in, small_bet, big_bet, rake, total_pot_chips;
    /* The replay. */
    se_hand *hand;      /* the caller's, given to se_hist_play */
    int streets_dealt[SE_ENGINE_MAX_SEATS];
    uint16_t dealt[SE_ENGINE_MAX_SEATS][8]; /* the deal step (its index + 1) of each street */
    int round_street;
    int64_t round_start[SE_ENGINE_MAX_SEATS];
    int64_t collected[SE_ENGINE_MAX_SEATS];
    int steps;
    se_hist_step step[SE_HIST_MAX_STEPS];
} se_hist_hand;

/* Where a hand's id and time are in its first line, as a room's header writes them
 * hand after hand: `prefix`, the id's digits, ":", white space or none, then the
 * rest, in which the first time "2026/12/02 9:05:00" (four digits of year, which may
 * end a longer run of digits; one or two of month, day and hour; two of minute and
 * second) with the capital letters after one space as its zone word (" CET", any
 * such word), and right after it " [<a time> ET]", the time in ET (not checked to
 * be the same instant). Offsets are from the line's start; the rest is the caller's
 * to read (a room's reader keys what a table's headers share by the line with these
 * cut out). */
typedef struct se_hist_stamp {
    int32_t id_at, id_end;       /* the hand id's digits */
    int32_t rest_at;             /* after the ":" and the white space after it */
    int32_t time_at, time_end;   /* the first time, its zone word included */
    int32_t zone_at, zone_end;   /* its zone word; both -1 where none is written */
    int32_t again_at, again_end; /* the time in ET, from its year to "ET"; -1: none */
    int32_t clock[6];            /* the first time's year, month, day, hour, minute,
                                    second, as written (not checked as a date) */
} se_hist_stamp;
/* Fills *out for the first line of text[0..size) (up to its first '\n'): SE_OK;
 * SE_HIST_UNSURE where the line is not of that form, has no time, is longer than
 * SE_HIST_MAX_TEXT, or holds a byte of 0x80 or more or a control byte other than
 * Python's ASCII white space ('\t', '\v', '\f', '\r', 0x1c-0x1f; DEL is an ordinary
 * byte): a reader of Unicode digits and spaces reads it instead; SE_BAD_ARGUMENT for
 * a NULL argument. *out is meaningful only after SE_OK. */
int se_hist_stamp_of(const char *text, size_t size, const char *prefix,
                     se_hist_stamp *out);
/* The most heads se_hist_line_starts looks for. */
#define SE_HIST_MAX_HEADS 1024
/* The lines of text[0..size) from offset `at` on that start with one of the `count`
 * heads (heads[h], sizes[h] bytes, none empty; at most SE_HIST_MAX_HEADS), as a
 * room's first line would: each
 * line's offset into starts[] and its number into numbers[] (the line that holds
 * `at` is line `first_line`), the first `room` of them. A line starts at `at` when
 * `at` is 0 or follows a '\n', and after each '\n' but one that ends the text.
 * Returns how many lines start so (more than `room`: the rest not written; call
 * with room 0 to count them), or -1 for a bad argument. */
int64_t se_hist_line_starts(const char *text, size_t size, size_t at, const char *const *heads,
                            const size_t *sizes, int count, int64_t first_line, int64_t *starts,
                            int64_t *numbers, size_t room);
/* Fills each template's `need`: SE_OK, or SE_BAD_ARGUMENT for a slot not known. */
int se_hist_compile(se_hist_grammar *grammar);
/* Reads the hand text[0..size) (from its first line to its last, '\n' between
 * lines) into *hand: the seat lines and every step. SE_OK, SE_HIST_UNSURE, or
 * SE_BAD_ARGUMENT. The caller reads the header, text[0..header_end). */
int se_hist_read(const se_hist_grammar *grammar, const char *text, size_t size,
                 se_hist_hand *hand);
/* The limits the header names, as written (e.g. "$0.04"): the chip, the players,
 * their stacks, the ante, the bring-in, the rake and the hero. SE_OK or
 * SE_HIST_UNSURE. */
int se_hist_prepare(se_hist_hand *hand, const char *small_bet, int small_len,
                    const char *big_bet, int big_len);
/* Plays every step on `table`, a hand the caller has just made (se_hand_init) for
 * the players, stacks and stakes se_hist_prepare found and the game's rules: SE_OK
 * when the hand is over, SE_HIST_SETTLE when its showdown is to be settled (the
 * caller settles it, se_hand_pay), SE_HIST_UNSURE. */
int se_hist_play(se_hist_hand *hand, se_hand *table);
/* For a grammar with SE_HIST_RAKE_UNWRITTEN and a hand that writes no rake, after
 * se_hist_play (and the settlement): the rake the hand took, what the pots paid less
 * what the lines say was collected, when above the rake it was played with (the
 * caller plays it again on a table taking that rake, and se_hist_check_end checks
 * it); else 0. `returned` as se_hist_check_end's. */
int64_t se_hist_unwritten_rake(se_hist_hand *hand, const int64_t *returned);
/* Reads one iPoker <game> element's text[0..size) into *hand as se_hist_read reads a
 * text room's hand (studeval/histories/rooms/ipoker.py's rules: rounds by number,
 * actions by their order, the players' "bet" and "win" as what each put in and
 * collected, the rake what was bet less what was won, none in a `tournament`);
 * `hero`: the session's nickname (NULL: none). Then se_hist_prepare (the session's
 * limits, or "" for a tournament's), se_hist_play and se_hist_check_end as for a
 * text. SE_OK, SE_HIST_UNSURE (unsure_at: 20000 + the line of se_history_xml.c),
 * or SE_BAD_ARGUMENT. */
int se_hist_read_ipoker(const char *text, size_t size, const char *hero, int hero_len,
                        int tournament, se_hist_hand *hand);
/* The same for one Merge <game> element (studeval/histories/rooms/merge.py's rules:
 * the rounds in order, their events by sequence, each seat's cards so far after a
 * deal, a bet, completion or raise its street total, the winners' amounts what was
 * collected, the rake what went in less what came out; a `tournament`'s balances
 * written after the antes). */
int se_hist_read_merge(const char *text, size_t size, int tournament, se_hist_hand *hand);
/* Checks the uncalled bets given back, the chips collected, the total pot and the
 * rake against the finished table; `returned`: the chips each seat got back
 * unmatched (NULL when the hand was won by folds: found here). Fills collected. */
int se_hist_check_end(se_hist_hand *hand, const int64_t *returned);

#ifdef __cplusplus
}
#endif

#endif /* STUDEVAL_H */
