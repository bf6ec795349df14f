/* The heads-up counting method against a plain walk over every deal.
 *
 * Random heads-up spots in every game, at 5th to 7th street (both players
 * drawing 0..3 cards, with and without dead cards, including spots with an
 * unknown hole card), are counted both ways, and counted again with the
 * players swapped; every count must agree exactly.
 * Also checks that Monte Carlo sums do not depend on the thread count and that
 * shares add up to the deals. Usage: equity_check [spots] [seed]. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "studeval.h"

static unsigned long long rng_state = 0x1234567ull;
static unsigned next_u(unsigned n) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % n);
}

static int same(const se_equity_counts *a, const se_equity_counts *b, int n, const char **what) {
    if (a->deals != b->deals) return *what = "deals", 0;
    for (int i = 0; i < n; i++) {
        if (a->share[i] != b->share[i]) return *what = "share", 0;
        if (a->high_win[i] != b->high_win[i]) return *what = "high_win", 0;
        if (a->high_tie[i] != b->high_tie[i]) return *what = "high_tie", 0;
        if (a->low_win[i] != b->low_win[i]) return *what = "low_win", 0;
        if (a->low_tie[i] != b->low_tie[i]) return *what = "low_tie", 0;
        if (a->scoop[i] != b->scoop[i]) return *what = "scoop", 0;
        if (a->low_share[i] != b->low_share[i]) return *what = "low_share", 0;
    }
    return 1;
}

static void print_spot(const se_equity_spot *s) {
    fprintf(stderr, "game %d:", s->game);
    for (int i = 0; i < s->players; i++) {
        fprintf(stderr, " [");
        for (int j = 0; j < s->known[i]; j++) fprintf(stderr, "%s%d", j ? " " : "", s->cards[i][j]);
        fprintf(stderr, "]");
    }
    fprintf(stderr, " dead %d\n", s->dead_count);
}

int main(int argc, char **argv) {
    int spots = argc > 1 ? atoi(argv[1]) : 200;
    if (argc > 2) rng_state = strtoull(argv[2], NULL, 10) | 1;
    int checked = 0, with_dead = 0, unknown = 0, ties = 0, scoops = 0, swaps = 0, by_class = 0;
    unsigned long long deals = 0;
    for (int n = 0; n < spots; n++) {
        se_equity_spot s;
        uint8_t deck[52];
        int at = 0;
        memset(&s, 0, sizeof s);
        for (int c = 0; c < 52; c++) deck[c] = (uint8_t)c;
        for (int c = 51; c > 0; c--) {
            int r = (int)next_u((unsigned)c + 1);
            uint8_t t = deck[c];
            deck[c] = deck[r];
            deck[r] = t;
        }
        s.game = (se_game)(n % 4);
        s.players = 2;
        for (int i = 0; i < 2; i++) {
            s.known[i] = 4 + (int)next_u(4); /* 4..7 known: 5th street to the river */
            if (n % 7 == 3 && i == 1) s.known[i] -= 2; /* a player whose hole cards are unknown */
            for (int j = 0; j < s.known[i]; j++) s.cards[i][j] = deck[at++];
        }
        if (n % 3 == 0) {
            s.dead_count = (int)next_u(12);
            for (int j = 0; j < s.dead_count; j++) s.dead[j] = deck[at++];
        }
        double spot_deals = 0; /* not `deals`: that one sums the deals of every spot */
        if (se_equity_deals(&s, &spot_deals, NULL) != SE_OK || spot_deals > 3e6) { /* keep the walk quick: redraw */
            n--;
            continue;
        }
        se_equity_counts walk, count;
        if (se_equity_enumerate(&s, 2, NULL, &walk) != SE_OK) {
            print_spot(&s);
            fprintf(stderr, "FAIL enumerate returned an error\n");
            return 1;
        }
        /* Counted as dealt, and with the players swapped (the counting picks
         * which side to sweep by its number of completions). */
        int st = se_equity_count_heads_up(&s, (size_t)1 << 26, 2, NULL, &count);
        const char *what = "";
        if (st == SE_OK && same(&walk, &count, 2, &what) && s.game == SE_GAME_STUD_HILO_NOQ) {
            /* No room for scoop records: the no-qualifier game counts by class. */
            st = se_equity_count_heads_up(&s, 0, 2, NULL, &count);
            by_class += st == SE_OK && same(&walk, &count, 2, &what);
        }
        if (st == SE_OK && same(&walk, &count, 2, &what)) {
            se_equity_spot swapped = s;
            se_equity_counts back, mirror;
            se_progress watch = {0, 0, 0};
            swapped.known[0] = s.known[1];
            swapped.known[1] = s.known[0];
            memcpy(swapped.cards[0], s.cards[1], 7);
            memcpy(swapped.cards[1], s.cards[0], 7);
            st = se_equity_count_heads_up(&swapped, (size_t)1 << 26, 2, &watch, &back);
            mirror = back;
            mirror.share[0] = back.share[1], mirror.share[1] = back.share[0];
            mirror.high_win[0] = back.high_win[1], mirror.high_win[1] = back.high_win[0];
            mirror.high_tie[0] = back.high_tie[1], mirror.high_tie[1] = back.high_tie[0];
            mirror.low_win[0] = back.low_win[1], mirror.low_win[1] = back.low_win[0];
            mirror.low_tie[0] = back.low_tie[1], mirror.low_tie[1] = back.low_tie[0];
            mirror.scoop[0] = back.scoop[1], mirror.scoop[1] = back.scoop[0];
            mirror.low_share[0] = back.low_share[1], mirror.low_share[1] = back.low_share[0];
            if (st == SE_OK && (watch.done != watch.total || watch.total == 0)) {
                print_spot(&swapped);
                fprintf(stderr, "FAIL progress ended at %zu of %zu\n", watch.done, watch.total);
                return 1;
            }
            if (st == SE_OK && same(&walk, &mirror, 2, &what)) {
                swaps++;
            } else {
                count = mirror;
                what = "swapped";
            }
        }
        if (st != SE_OK || !same(&walk, &count, 2, &what)) {
            print_spot(&s);
            fprintf(stderr, "FAIL counting vs walking: status %d, %s differs\n", st, what);
            for (int i = 0; i < 2; i++)
                fprintf(stderr, "  p%d share %llu/%llu hw %llu/%llu ht %llu/%llu lw %llu/%llu lt %llu/%llu sc %llu/%llu\n", i,
                        (unsigned long long)walk.share[i], (unsigned long long)count.share[i],
                        (unsigned long long)walk.high_win[i], (unsigned long long)count.high_win[i],
                        (unsigned long long)walk.high_tie[i], (unsigned long long)count.high_tie[i],
                        (unsigned long long)walk.low_win[i], (unsigned long long)count.low_win[i],
                        (unsigned long long)walk.low_tie[i], (unsigned long long)count.low_tie[i],
                        (unsigned long long)walk.scoop[i], (unsigned long long)count.scoop[i]);
            return 1;
        }
        if (walk.share[0] + walk.share[1] != walk.deals * SE_EQ_UNITS) {
            fprintf(stderr, "FAIL shares do not add up to the pot\n");
            return 1;
        }
        unknown += n % 7 == 3;
        with_dead += s.dead_count > 0;
        ties += walk.high_tie[0] > 0 || walk.low_tie[0] > 0;
        scoops += walk.scoop[0] > 0 && walk.scoop[1] > 0;
        deals += walk.deals;
        checked++;
    }
    /* Progress: a walk reports all of its work, and a stop asked for before
     * either exact method starts stops it with no counts. */
    {
        se_equity_spot s;
        se_equity_counts counts;
        se_progress watch = {0, 0, 0}, stop = {0, 0, 1};
        memset(&s, 0, sizeof s);
        s.game = SE_GAME_STUD8;
        s.players = 3;
        s.known[0] = s.known[1] = s.known[2] = 5;
        uint8_t cards[15] = {48, 1, 6, 44, 45, 40, 20, 21, 30, 31, 2, 3, 12, 13, 14};
        for (int i = 0; i < 3; i++) memcpy(s.cards[i], cards + 5 * i, 5);
        if (se_equity_enumerate(&s, 2, &watch, &counts) != SE_OK || watch.total == 0 ||
            watch.done != watch.total) {
            fprintf(stderr, "FAIL walk progress ended at %zu of %zu\n", watch.done, watch.total);
            return 1;
        }
        if (se_equity_enumerate(&s, 2, &stop, &counts) != SE_STOPPED || counts.deals != 0) {
            fprintf(stderr, "FAIL a stopped walk did not stop\n");
            return 1;
        }
        s.players = 2;
        s.known[1] = 1;
        if (se_equity_count_heads_up(&s, (size_t)1 << 26, 2, &stop, &counts) != SE_STOPPED ||
            counts.deals != 0) {
            fprintf(stderr, "FAIL a stopped count did not stop\n");
            return 1;
        }
    }
    /* Monte Carlo: the same seed gives the same sums on 1 and 3 threads. */
    {
        se_equity_spot s;
        se_equity_counts one, three;
        memset(&s, 0, sizeof s);
        s.game = SE_GAME_STUD8;
        s.players = 3;
        s.known[0] = 3, s.known[1] = 3, s.known[2] = 1;
        uint8_t cards[7] = {48, 1, 6, 44, 45, 40, 20};
        memcpy(s.cards[0], cards, 3);
        memcpy(s.cards[1], cards + 3, 3);
        s.cards[2][0] = cards[6];
        if (se_equity_sample(&s, 7, 0, 40, 1, &one) || se_equity_sample(&s, 7, 0, 40, 3, &three)) {
            fprintf(stderr, "FAIL sample returned an error\n");
            return 1;
        }
        const char *what = "";
        if (!same(&one, &three, 3, &what) || one.deals != 40ull * SE_EQ_CHUNK_SAMPLES) {
            fprintf(stderr, "FAIL Monte Carlo differs between 1 and 3 threads (%s)\n", what);
            return 1;
        }
        /* A part as long as a chunk is that chunk; a shorter one is its first deals. */
        se_equity_counts chunk, part;
        if (se_equity_sample(&s, 7, 5, 1, 1, &chunk) ||
            se_equity_sample_part(&s, 7, 5, SE_EQ_CHUNK_SAMPLES, &part) ||
            !same(&chunk, &part, 3, &what)) {
            fprintf(stderr, "FAIL a whole chunk's part differs from the chunk (%s)\n", what);
            return 1;
        }
        if (se_equity_sample_part(&s, 7, 5, 33, &part) || part.deals != 33 ||
            se_equity_sample_part(&s, 7, 5, 0, &part) != SE_BAD_ARGUMENT ||
            se_equity_sample_part(&s, 7, 5, SE_EQ_CHUNK_SAMPLES + 1, &part) != SE_BAD_ARGUMENT) {
            fprintf(stderr, "FAIL a chunk's first deals\n");
            return 1;
        }
        /* To a precision: the sums of the chunks' first deals, stopping where each
         * share's standard error (its square, recomputed here) first reaches the target;
         * a target of 0 draws them all; bad steps, limits and targets refused. */
        for (int t = 0; t < 3; t++) {
            const double targets[3] = {0.02, 0.0, 1.0};
            const int step = 300;
            const uint64_t most = 1000;
            se_equity_counts steps, sum, one_part;
            memset(&sum, 0, sizeof sum);
            for (uint64_t chunk = 0; sum.deals < most; chunk++) {
                int deals = most - sum.deals < (uint64_t)step ? (int)(most - sum.deals) : step;
                if (se_equity_sample_part(&s, 9, chunk, deals, &one_part)) return 1;
                sum.deals += one_part.deals;
                int precise = 1;
                for (int i = 0; i < 3; i++) {
                    sum.share[i] += one_part.share[i], sum.share_sq[i] += one_part.share_sq[i];
                    sum.high_win[i] += one_part.high_win[i];
                    sum.high_tie[i] += one_part.high_tie[i];
                    sum.low_win[i] += one_part.low_win[i], sum.low_tie[i] += one_part.low_tie[i];
                    sum.scoop[i] += one_part.scoop[i], sum.low_share[i] += one_part.low_share[i];
                    double n = (double)sum.deals, mean = sum.share[i] / (SE_EQ_UNITS * n);
                    double sq = sum.share_sq[i] / ((double)SE_EQ_UNITS * SE_EQ_UNITS * n);
                    double variance = sq > mean * mean ? sq - mean * mean : 0.0;
                    precise &= variance / n <= targets[t] * targets[t];
                }
                if (precise) break;
            }
            if (se_equity_sample_steps(&s, 9, step, most, targets[t], &steps) ||
                !same(&steps, &sum, 3, &what) ||
                steps.deals != (t == 0 ? 600u : t == 1 ? 1000u : 300u)) {
                fprintf(stderr, "FAIL steps to a precision of %g: %llu deals (%s)\n", targets[t],
                        (unsigned long long)steps.deals, what);
                return 1;
            }
        }
        if (se_equity_sample_steps(&s, 9, 0, 100, 0.01, &part) != SE_BAD_ARGUMENT ||
            se_equity_sample_steps(&s, 9, SE_EQ_CHUNK_SAMPLES + 1, 100, 0.01, &part) !=
                SE_BAD_ARGUMENT ||
            se_equity_sample_steps(&s, 9, 10, 0, 0.01, &part) != SE_BAD_ARGUMENT ||
            se_equity_sample_steps(&s, 9, 10, 100, -1.0, &part) != SE_BAD_ARGUMENT ||
            se_equity_sample_steps(&s, 9, 10, 100, NAN, &part) != SE_BAD_ARGUMENT ||
            se_equity_sample_steps(&s, 9, 10, 100, 0.01, NULL) != SE_BAD_ARGUMENT) {
            fprintf(stderr, "FAIL steps to a precision take bad arguments\n");
            return 1;
        }
    }
    /* Ranges: each tuple's exact counts equal a walk (or count) of the spot with its
     * hidden cards filled in, on 1 and 2 threads; the range sampler gives the same
     * sums on 1 and 3 threads, refuses a combination holding a known card, and says
     * SE_NO_DEAL for ranges that always collide. */
    {
        se_equity_spot s;
        memset(&s, 0, sizeof s);
        s.game = SE_GAME_STUD8;
        s.players = 3;
        s.known[0] = 6, s.known[1] = 4, s.known[2] = 4;
        uint8_t known[14] = {48, 1, 6, 11, 12, 44, 45, 40, 20, 21, 30, 31, 2, 3};
        memcpy(s.cards[0], known, 6);
        memcpy(s.cards[1], known + 6, 4);
        memcpy(s.cards[2], known + 10, 4);
        uint8_t tuples[6 * 4] = {50, 51, 46, 47, 50, 49, 46, 47, 5, 9, 46, 47,
                                 5, 9, 13, 14, 22, 23, 24, 25, 33, 34, 35, 36};
        int seats[2] = {1, 2}, widths[2] = {2, 2};
        se_equity_counts per[6], again[6], filled;
        if (se_equity_tuples(&s, seats, widths, 2, tuples, 6, (size_t)1 << 20, 1, NULL, per) ||
            se_equity_tuples(&s, seats, widths, 2, tuples, 6, (size_t)1 << 20, 2, NULL, again)) {
            fprintf(stderr, "FAIL equity over tuples returned an error\n");
            return 1;
        }
        for (int t = 0; t < 6; t++) {
            se_equity_spot f = s;
            const char *what = "";
            memcpy(f.cards[1] + 4, tuples + 4 * t, 2);
            memcpy(f.cards[2] + 4, tuples + 4 * t + 2, 2);
            f.known[1] = f.known[2] = 6;
            if (se_equity_enumerate(&f, 1, NULL, &filled) || !same(&per[t], &filled, 3, &what) ||
                !same(&per[t], &again[t], 3, &what)) {
                fprintf(stderr, "FAIL tuple %d differs from its spot walked (%s)\n", t, what);
                return 1;
            }
        }
        uint8_t clash[4] = {50, 51, 48, 47}; /* 48 is player 0's */
        if (se_equity_tuples(&s, seats, widths, 2, clash, 1, 0, 1, NULL, per) !=
            SE_DUPLICATE_CARD) {
            fprintf(stderr, "FAIL a tuple holding a known card was counted\n");
            return 1;
        }
        double weights[3] = {0.5, 2.0, 1.0};
        uint8_t combos[6] = {50, 51, 46, 47, 5, 9};
        se_equity_range ranges[2] = {{1, 2, 3, combos, weights}, {2, 2, 3, combos, NULL}};
        se_equity_counts one, three;
        const char *what = "";
        if (se_equity_sample_ranges(&s, ranges, 2, 5, 0, 24, 1, &one) ||
            se_equity_sample_ranges(&s, ranges, 2, 5, 0, 24, 3, &three) ||
            !same(&one, &three, 3, &what) || one.deals != 24ull * SE_EQ_CHUNK_SAMPLES) {
            fprintf(stderr, "FAIL ranges by sampling differ between 1 and 3 threads (%s)\n", what);
            return 1;
        }
        se_equity_range held = {1, 2, 1, known, NULL};
        if (se_equity_sample_ranges(&s, &held, 1, 5, 0, 1, 1, &one) != SE_DUPLICATE_CARD) {
            fprintf(stderr, "FAIL a combination holding a known card was drawn\n");
            return 1;
        }
        se_equity_range same_one[2] = {{1, 2, 1, combos, NULL}, {2, 2, 1, combos, NULL}};
        if (se_equity_sample_ranges(&s, same_one, 2, 5, 0, 1, 1, &one) != SE_NO_DEAL) {
            fprintf(stderr, "FAIL ranges that always collide were not refused\n");
            return 1;
        }
    }
    printf("ok %d heads-up spots (%d with dead cards, %d with unknown hole cards, %d with ties, "
           "%d where both scoop sometimes, %d also with the players swapped, %d no-qualifier "
           "spots also by low class), %llu deals, "
           "counting == walking; ranges: tuples == their spots walked\n",
           checked, with_dead, unknown, ties, scoops, swaps, by_class, deals);
    return 0;
}
