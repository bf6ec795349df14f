/* libFuzzer harness over queries (se_query_sample and se_query_eval).
 *
 * The input chooses the game and the player count (now and then out of range), each
 * player's up cards, range (width, combinations and weights: any bytes and doubles)
 * and the dead cards, a program of operations (any codes, operands, players,
 * streets and constants) with its outputs, and trials given as card bytes. The C
 * core must refuse what is bad with a status and never touch memory outside the
 * arrays it is given (AddressSanitizer watches; every array is an exact-size heap
 * block). When a call succeeds, each output of a showdown, a comparison or a test is
 * 0 or 1 (a share within it), and a hand type is 0..8.
 * Build and run: tools/fuzz.py (clang -fsanitize=fuzzer,address,undefined). */
#include "studeval.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what) {
    fprintf(stderr, "fuzz_query: %s\n", what);
    abort();
}

/* Reads the next byte, 0 when the input is used up. */
static uint8_t next(const uint8_t **data, size_t *size) {
    if (*size == 0) return 0;
    (*size)--;
    return *(*data)++;
}

static double next_double(const uint8_t **data, size_t *size) {
    uint8_t raw[8];
    double value;
    for (int b = 0; b < 8; b++) raw[b] = next(data, size);
    memcpy(&value, raw, sizeof value);
    return value;
}

/* What a successful call's outputs must hold, by the operation that made each. */
static void check_outputs(const se_query_program *program, const double *out, size_t trials) {
    for (size_t t = 0; t < trials; t++) {
        for (int k = 0; k < program->n_outputs; k++) {
            int code = program->ops[program->outputs[k]].code;
            double v = out[t * (size_t)program->n_outputs + (size_t)k];
            int type = code == SE_Q_HAND_TYPE || code == SE_Q_WINNING_TYPE || code == SE_Q_UP_TYPE;
            int counted = code == SE_Q_LOW_TYPE || code == SE_Q_OUTS;
            if (code >= SE_Q_LT && code != SE_Q_HI_RATING && code != SE_Q_LO_RATING && !type &&
                !counted && !(v >= 0.0 && v <= 1.0))
                die("a share, comparison or test outside 0..1");
            if (type && !(v >= 0.0 && v <= 8.0)) die("a hand type outside 0..8");
            if (code == SE_Q_LOW_TYPE && !(v >= 0.0 && v <= 10.0)) die("a low type outside 0..10");
            if (code == SE_Q_OUTS && !(v >= 0.0 && v <= 52.0 && v == (int)v)) die("outs");
            if ((code == SE_Q_HI_RATING || code == SE_Q_LO_RATING) && !(v >= 0.0 && v < 65536.0))
                die("a rating outside its scale");
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    se_query_spot spot;
    memset(&spot, 0, sizeof spot);
    int game = next(&data, &size) % 5; /* 3 and 4: no such game here */
    spot.game = (se_game)game;
    spot.players = next(&data, &size) % (SE_QUERY_MAX_PLAYERS + 2); /* 0 and 8: refused */
    int seated = spot.players <= SE_QUERY_MAX_PLAYERS ? spot.players : SE_QUERY_MAX_PLAYERS;
    uint8_t *combos[SE_QUERY_MAX_PLAYERS] = {NULL};
    double *weights[SE_QUERY_MAX_PLAYERS] = {NULL};
    for (int p = 0; p < seated; p++) {
        se_query_player *player = &spot.player[p];
        player->n_up = next(&data, &size) % 6; /* 5: refused */
        for (int u = 0; u < player->n_up && u < 4; u++) player->up[u] = next(&data, &size);
        player->width = next(&data, &size) % 5; /* 1 and 4: refused */
        if (player->width > 0) {
            player->count = 1 + next(&data, &size) % 8;
            combos[p] = (uint8_t *)malloc(player->count * (size_t)player->width);
            for (size_t c = 0; c < player->count * (size_t)player->width; c++)
                combos[p][c] = next(&data, &size);
            player->combos = combos[p];
            if (next(&data, &size) & 1) {
                weights[p] = (double *)malloc(player->count * sizeof(double));
                for (size_t c = 0; c < player->count; c++) weights[p][c] = next_double(&data, &size);
                player->weights = weights[p];
            }
        }
    }
    spot.n_dead = next(&data, &size) % 12;
    uint8_t *dead = (uint8_t *)malloc(spot.n_dead > 0 ? (size_t)spot.n_dead : 1);
    for (int j = 0; j < spot.n_dead; j++) dead[j] = next(&data, &size);
    spot.dead = dead;

    int n_ops = next(&data, &size) % 12; /* 0: refused */
    int n_outputs = next(&data, &size) % 5;
    se_query_op *ops = (se_query_op *)malloc((n_ops > 0 ? (size_t)n_ops : 1) * sizeof *ops);
    int *outputs = (int *)malloc((n_outputs > 0 ? (size_t)n_outputs : 1) * sizeof *outputs);
    for (int i = 0; i < n_ops; i++) {
        ops[i].code = next(&data, &size) % 37; /* past SE_Q_UP_IN: refused */
        ops[i].a = (int8_t)next(&data, &size) % 12;
        ops[i].b = (int8_t)next(&data, &size) % 12;
        ops[i].player = next(&data, &size) % 9;
        ops[i].street = next(&data, &size) % 9;
        /* A constant, SE_Q_OUTS's hand type or SE_Q_UP_IN's pattern (any double: bad
         * ones refused). */
        ops[i].value = ops[i].code == SE_Q_CONST || ops[i].code == SE_Q_OUTS ||
                           ops[i].code == SE_Q_UP_IN
                           ? next_double(&data, &size) : 0.0;
    }
    for (int k = 0; k < n_outputs; k++) outputs[k] = (int8_t)next(&data, &size) % 13;
    se_query_program program = {n_ops, ops, n_outputs, outputs};

    size_t trials = next(&data, &size) % 40;
    double *out = (double *)malloc((trials * (size_t)n_outputs > 0 ? trials * (size_t)n_outputs
                                                                    : 1) * sizeof(double));
    uint64_t first = (uint64_t)(next(&data, &size) % 3) * 2048; /* 2048: refused */
    if (se_query_sample(&spot, &program, 7, first, trials, 1, out) == SE_OK)
        check_outputs(&program, out, trials);

    /* The same program on trials given as bytes (any values: bad ones refused). */
    size_t given = next(&data, &size) % 4;
    size_t n_cards = given * 7 * (size_t)seated;
    uint8_t *cards = (uint8_t *)malloc(n_cards > 0 ? n_cards : 1);
    for (size_t c = 0; c < n_cards; c++) cards[c] = next(&data, &size) % 56;
    double *out_given = (double *)malloc((given * (size_t)n_outputs > 0 ? given * (size_t)n_outputs
                                                                         : 1) * sizeof(double));
    if (seated > 0 && se_query_eval(game, seated, &program, dead, spot.n_dead, cards, given, 1,
                                     out_given) == SE_OK)
        check_outputs(&program, out_given, given);

    for (int p = 0; p < SE_QUERY_MAX_PLAYERS; p++) {
        free(combos[p]);
        free(weights[p]);
    }
    free(dead);
    free(ops);
    free(outputs);
    free(out);
    free(cards);
    free(out_given);
    return 0;
}
