/* Queries run on 1 and 2 threads: the same outputs for the same seed, every trial's
 * shares of the pot adding to 1, each output within its scale. Run by tools/fuzz.py
 * under AddressSanitizer+UBSan and ThreadSanitizer:
 *
 *     query_check TRIALS SEED    prints "ok ..." or fails
 */
#include "studeval.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what) {
    fprintf(stderr, "query_check: %s\n", what);
    exit(1);
}

int main(int argc, char **argv) {
    size_t trials = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 20000;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    /* Stud8, three players: one with Ac Ad down and the 2c up; one ranged (three
     * combinations, weights 1, 2, 3) with the Kh 7s up; one with nothing known. */
    static const uint8_t combos[] = {44, 45, 40, 41, 36, 37}; /* Kc Kd, Qc Qd, Jc Jd */
    static const double weights[] = {1.0, 2.0, 3.0};
    static const uint8_t fixed[] = {48, 49};
    static const uint8_t dead[] = {3, 7};
    se_query_spot spot;
    memset(&spot, 0, sizeof spot);
    spot.game = SE_GAME_STUD8;
    spot.players = 3;
    spot.player[0] = (se_query_player){1, {0}, 2, 1, fixed, NULL};
    spot.player[1] = (se_query_player){2, {46, 23}, 2, 3, combos, weights};
    spot.n_dead = 2;
    spot.dead = dead;
    /* Each player's share (0..2), then a hand type, an up-card type, a comparison
     * of ratings on fourth street and a sum of two shares. */
    se_query_op ops[] = {
        {SE_Q_EQUITY, -1, -1, 0, 7, 0.0},    {SE_Q_EQUITY, -1, -1, 1, 7, 0.0},
        {SE_Q_EQUITY, -1, -1, 2, 7, 0.0},    {SE_Q_HAND_TYPE, -1, -1, 1, 5, 0.0},
        {SE_Q_UP_TYPE, -1, -1, 2, 6, 0.0},   {SE_Q_HI_RATING, -1, -1, 0, 4, 0.0},
        {SE_Q_HI_RATING, -1, -1, 1, 4, 0.0}, {SE_Q_GT, 5, 6, 0, 7, 0.0},
        {SE_Q_ADD, 0, 1, 0, 7, 0.0},         {SE_Q_BEST_LO, -1, -1, 2, 5, 0.0},
        {SE_Q_STREET_EQUITY, -1, -1, 0, 5, 0.0}, {SE_Q_HVH_EQUITY, -1, -1, 1, 6, 0.0},
        {SE_Q_NUT_HI, -1, -1, 2, 6, 0.0},    {SE_Q_OUTS, -1, -1, 0, 4, 3.0},
    };
    int outputs[] = {0, 1, 2, 3, 4, 7, 8, 9, 10, 11, 12, 13};
    const int n_out = (int)(sizeof outputs / sizeof *outputs);
    se_query_program program = {(int)(sizeof ops / sizeof *ops), ops, n_out, outputs};
    double *one = malloc(trials * (size_t)n_out * sizeof *one);
    double *two = malloc(trials * (size_t)n_out * sizeof *two);
    if (one == NULL || two == NULL) fail("out of memory");
    if (se_query_sample(&spot, &program, seed, 0, trials, 1, one) != SE_OK) fail("one thread");
    if (se_query_sample(&spot, &program, seed, 0, trials, 2, two) != SE_OK) fail("two threads");
    if (memcmp(one, two, trials * (size_t)n_out * sizeof *one) != 0)
        fail("two threads' outputs differ from one thread's");
    for (size_t t = 0; t < trials; t++) {
        const double *row = one + t * (size_t)n_out;
        if (fabs(row[0] + row[1] + row[2] - 1.0) > 1e-12) fail("the shares do not add to 1");
        if (!(row[3] >= 0 && row[3] <= 8) || !(row[4] >= 0 && row[4] <= 7)) fail("a hand type");
        if ((row[5] != 0.0 && row[5] != 1.0) || (row[7] != 0.0 && row[7] != 1.0)) fail("a test");
        if (row[6] != row[0] + row[1]) fail("a sum");
        if (!(row[8] >= 0 && row[8] <= 1) || !(row[9] >= 0 && row[9] <= 1)) fail("an equity");
        if ((row[10] != 0.0 && row[10] != 1.0) || !(row[11] >= 0 && row[11] <= 52)) fail("nuts");
    }
    /* The same program on a deal given: four aces against two straights. */
    uint8_t given[3 * 7] = {48, 49, 0, 50, 44, 51, 45, 4, 9, 14, 19, 20, 25, 30,
                            6, 11, 13, 18, 22, 27, 33};
    double out[12];
    if (se_query_eval(SE_GAME_STUD, 3, &program, NULL, 0, given, 1, 2, out) != SE_OK) fail("eval");
    if (out[0] != 1.0 || out[1] != 0.0 || out[2] != 0.0) fail("the given deal's shares");
    free(one);
    free(two);
    printf("ok %zu trials equal on 1 and 2 threads\n", trials);
    return 0;
}
