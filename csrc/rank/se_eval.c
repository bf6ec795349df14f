/* Single-hand ranking, hand classes and status texts. */
#include "studeval.h"

#include "rank/se_hand.h"

/* Validates n cards; on success fills *out and returns SE_OK. */
static int se_prepare(const uint8_t *cards, int n, int min_cards, int max_cards, se_sums *out) {
    if (cards == NULL) {
        return SE_BAD_ARGUMENT;
    }
    if (n < min_cards || n > max_cards) {
        return SE_BAD_SIZE;
    }
    uint64_t seen;
    *out = se_sum_cards_seen(cards, n, &seen);
    if ((uint32_t)out->key & SE_BAD_CARD_BITS) { /* a code past 51 (the card table's) */
        return SE_INVALID_CARD;
    }
    if (out->mask != seen) { /* a repeated card carried */
        return SE_DUPLICATE_CARD;
    }
    return SE_OK;
}

int se_high_rank(const uint8_t *cards, int n) {
    se_sums s;
    int status = se_prepare(cards, n, 5, 7, &s);
    if (status != SE_OK) {
        return status;
    }
    if (n == 7) return se_high_in(s, se_high7_table, se_slot7(s.key)); /* the smaller tables */
    return se_high_of(s, se_slot(s.key));
}

int se_low_rank(const uint8_t *cards, int n) {
    se_sums s;
    int status = se_prepare(cards, n, 5, 7, &s);
    if (status != SE_OK) {
        return status;
    }
    return n == 7 ? se_low7_table[se_slot7(s.key)] : se_low_table[se_slot(s.key)];
}

int se_low8_rank(const uint8_t *cards, int n) {
    int low = se_low_rank(cards, n);
    return low < 0 ? low : se_low8_of((uint16_t)low);
}

int se_up_high_rank(const uint8_t *cards, int n) {
    se_sums s;
    int status = se_prepare(cards, n, 1, 4, &s);
    if (status != SE_OK) {
        return status;
    }
    return se_high_table[se_slot(s.key)];
}

int se_up_low_rank(const uint8_t *cards, int n) {
    se_sums s;
    int status = se_prepare(cards, n, 1, 4, &s);
    if (status != SE_OK) {
        return status;
    }
    return se_low_table[se_slot(s.key)];
}

/* Classes are packed as category << 20 | five 4-bit ranks, first rank highest. */
static int se_unpack_class(uint32_t packed, int ranks_out[5]) {
    if (ranks_out != NULL) {
        for (int i = 0; i < 5; i++) {
            ranks_out[i] = (int)((packed >> (16 - 4 * i)) & 0xFu);
        }
    }
    return (int)(packed >> 20);
}

int se_high_class(int rank, int ranks_out[5]) {
    if (rank < 1 || rank > SE_HIGH_CLASSES) {
        return SE_BAD_ARGUMENT;
    }
    return se_unpack_class(se_high_class_table[rank - 1], ranks_out);
}

int se_low_class(int rank, int ranks_out[5]) {
    if (rank < 1 || rank > SE_LOW_CLASSES) {
        return SE_BAD_ARGUMENT;
    }
    return se_unpack_class(se_low_class_table[rank - 1], ranks_out);
}

const char *se_status_text(int status) {
    switch (status) {
    case SE_OK:
        return "ok";
    case SE_BAD_SIZE:
        return "wrong number of cards";
    case SE_INVALID_CARD:
        return "card code outside 0..51";
    case SE_DUPLICATE_CARD:
        return "duplicate card";
    case SE_BAD_ARGUMENT:
        return "bad argument";
    case SE_INVALID_ROW:
        return "invalid row";
    case SE_NO_DEAL:
        return "the unseen cards cannot complete the hands";
    case SE_NO_MEMORY:
        return "out of memory";
    case SE_TOO_BIG:
        return "the exact count needs too much memory";
    case SE_STOPPED:
        return "stopped";
    case SE_ILLEGAL:
        return "not allowed now";
    case SE_NO_ROOM:
        return "the output has too little room";
    default:
        return "unknown status";
    }
}
