/* The engine's deck: dealing a street by hand or from a seeded shuffle, the
 * 7th-street community card, and (deck_reuses_muck) the burns and the new deck
 * made from the muck when the deck runs out. The betting is in se_engine.c. */
#include "studeval.h"

#include <string.h>

#include "engine/se_engine.h"
#include "base/se_random.h"

static int se_waiting(const se_hand *h) {
    int count = 0;
    for (int s = 0; s < h->rules.seats; s++) count += !h->out[s] && !h->dealt[s];
    return count;
}

static int se_cards_due(const se_hand *h) { return h->street == 3 ? 3 : 1; }

static int se_cards_may_be_dealt(const se_hand *h) {
    return !h->over && !h->showdown && !h->settle_due && h->actor == SE_NONE &&
           h->community == SE_NONE;
}

static int se_min_int(int a, int b) { return a < b ? a : b; }

/* Every card, in code order. */
static const uint8_t se_full_deck[52] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17,
    18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35,
    36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51};

/* The deck is shuffled as it is dealt: deck[0..deck_ready) is in its final order, and
 * the next place is fixed when a deal needs it, by the next step of a Fisher-Yates
 * shuffle from the front (a card drawn among those from that place on). A shuffle
 * of the whole deck would draw the same numbers for the same places; dealing stops
 * after about half the deck, so half the draws are never made. */
typedef char se_deck_random_fits[sizeof(se_rng) <= sizeof(((se_hand *)0)->deck_random) ? 1 : -1];

/* A new shuffle, by `seed`, of the deck as it stands. */
static void se_deck_shuffle(se_hand *h, uint64_t seed) {
    se_rng rng = se_rng_seeded(seed);
    memcpy(h->deck_random, &rng, sizeof rng);
    h->deck_ready = 0;
}

/* Fixes the deck's order up to place `end` (at most deck_count). */
static void se_deck_ready(se_hand *h, int end) {
    if (end > h->deck_count) end = h->deck_count; /* never past the cards left */
    if (h->deck_ready >= end) return;
    se_rng rng;
    memcpy(&rng, h->deck_random, sizeof rng);
    for (int i = h->deck_ready; i < end; i++) {
        int j = i + (int)se_below(&rng, (uint32_t)(h->deck_count - i));
        uint8_t t = h->deck[i];
        h->deck[i] = h->deck[j];
        h->deck[j] = t;
    }
    memcpy(h->deck_random, &rng, sizeof rng);
    h->deck_ready = end;
}

void se_hand_fix_deck(se_hand *h) {
    if (h != NULL && h->deck_count > 0) se_deck_ready(h, h->deck_count);
}

/* The first `count` cards leave the deck's front. */
static void se_deck_take(se_hand *h, int count) {
    memmove(h->deck, h->deck + count, (size_t)(h->deck_count - count));
    h->deck_count -= count;
    h->deck_ready = h->deck_ready > count ? h->deck_ready - count : 0;
}

/* ---- deck_reuses_muck: burns, and a new deck from the muck ---------------------------- */

/* The cards the deck can still give: the burns of this deck are gone from it. */
static int se_deck_left(const se_hand *h) { return 52 - h->cards_dealt - h->burned; }

/* The folded seats' cards not yet shuffled back (known ones as a bit mask, all of
 * them counted). */
static int se_folded_cards(const se_hand *h, uint64_t *known) {
    int count = 0;
    *known = 0;
    for (int s = 0; s < h->rules.seats; s++) {
        if (!h->folded[s] || h->recycled[s]) continue;
        count += h->card_count[s];
        for (int i = 0; i < h->card_count[s]; i++)
            if (h->cards[s][i] != SE_UNKNOWN_CARD) *known |= 1ull << h->cards[s][i];
    }
    return count;
}

/* Whether a deal of `count` cards now needs a new deck made from the muck (1), is
 * given by the deck as it is (0), or cannot be given even with the muck (-1). The
 * street's burn comes first; a burned card lies in the muck and comes back with it. */
static int se_refills(const se_hand *h, int count) {
    uint64_t ignored;
    int left = se_deck_left(h);
    if (count <= left - h->burn_due) return 0;
    return count <= left + h->burned + se_folded_cards(h, &ignored) ? 1 : -1;
}

/* Cards seen since the shuffle (dealt by hand, or the community card) leave
 * se_hand_deal_random's deck. */
static void se_deck_drop_known(se_hand *h) {
    /* The whole order first, as a shuffle all at once would have it: so the cards
     * dealt after never depend on how much of the shuffle was done before (by reading
     * the deck, se_hand_fix_deck). Runs after cards dealt by hand, a community card
     * and a new deck from the muck: not on the deals of a hand dealt at random. */
    se_deck_ready(h, h->deck_count);
    int n = 0;
    for (int i = 0; i < h->deck_count; i++)
        if (!(h->known & (1ull << h->deck[i]))) h->deck[n++] = h->deck[i];
    h->deck_count = n;
    h->deck_ready = n;
}

/* The deck ran out: the burned cards and the folded seats' cards join what is left
 * of it, shuffled (the known ones join se_hand_deal_random's deck too). */
static void se_refill(se_hand *h, uint64_t seed) {
    uint64_t back;
    int count = se_folded_cards(h, &back);
    if (h->deck_count >= 0) {
        se_deck_drop_known(h);
        int n = h->deck_count;
        for (int c = 0; c < 52; c++)
            if (back & (1ull << c)) h->deck[n++] = (uint8_t)c;
        h->deck_count = n;
        se_deck_shuffle(h, seed);
    }
    for (int s = 0; s < h->rules.seats; s++) h->recycled[s] |= h->folded[s];
    h->known &= ~back;
    h->cards_dealt -= count;
    h->burned = 0;
}

/* Before a deal of `count` cards (se_refills said it can be done): the burn when
 * due, and a new deck whenever the old one cannot give a card. */
static void se_burn_and_refill(se_hand *h, int count, uint64_t seed) {
    if (!h->rules.deck_reuses_muck) return;
    if (h->burn_due) {
        if (se_deck_left(h) == 0) se_refill(h, seed);
        h->burned++;
        h->burn_due = 0;
    }
    if (count > se_deck_left(h)) se_refill(h, seed ^ 0x5bd1e995u);
}

int se_hand_card_free(const se_hand *h, int card, int count) {
    if (h == NULL || card < 0 || card > 51) return 0;
    if (!(h->known & (1ull << card))) return 1;
    if (!h->rules.deck_reuses_muck || se_refills(h, count) <= 0) return 0;
    uint64_t back;
    se_folded_cards(h, &back);
    return (back >> card) & 1;
}

/* Deals checked cards to one seat. */
static void se_give(se_hand *h, int seat, const uint8_t *cards, int count) {
    for (int i = 0; i < count; i++) {
        uint8_t code = cards[i];
        h->cards[seat][h->card_count[seat]++] = code;
        if (code != SE_UNKNOWN_CARD) {
            h->known |= 1ull << code;
            if (h->street != 7 && (h->street != 3 || i == 2)) h->up[seat][h->up_count[seat]++] = code;
        }
    }
    h->dealt[seat] = 1;
    h->cards_dealt += count;
    se_log(h, SE_EVENT_DEAL, seat, 0, -1, cards, count);
}

se_status se_hand_deal(se_hand *h, int seat, const uint8_t *cards, int count) {
    if (h == NULL || cards == NULL) return SE_BAD_ARGUMENT;
    if (seat < 0 || seat >= h->rules.seats) return SE_BAD_ARGUMENT;
    if (!se_cards_may_be_dealt(h) || h->out[seat] || h->dealt[seat]) return SE_ILLEGAL;
    if (count != se_cards_due(h)) return SE_BAD_SIZE;
    /* Never more cards than a deck has; on 7th street, a seat takes its own card
     * only while every seat still waiting can have one too (else the community
     * card is dealt instead). */
    int left = 52 - h->cards_dealt;
    uint64_t seen = h->known;
    if (h->rules.deck_reuses_muck) {
        int refills = se_refills(h, count);
        if (refills < 0 || (h->street == 7 && se_refills(h, se_waiting(h)) < 0)) return SE_NO_DEAL;
        if (refills > 0) { /* the folded seats' cards come back into play */
            uint64_t back;
            se_folded_cards(h, &back);
            seen &= ~back;
        }
    } else if (count > left || (h->street == 7 && left < se_waiting(h))) {
        return SE_NO_DEAL;
    }
    for (int i = 0; i < count; i++) {
        int down = h->street == 7 || (h->street == 3 && i < 2);
        if (cards[i] == SE_UNKNOWN_CARD) {
            if (!down) return SE_ILLEGAL; /* an up card is always seen */
            continue;
        }
        if (cards[i] > 51) return SE_INVALID_CARD;
        if (seen & (1ull << cards[i])) return SE_DUPLICATE_CARD;
        seen |= 1ull << cards[i];
    }
    if (se_reserve(h, 1) != SE_OK) return SE_NO_MEMORY;
    se_burn_and_refill(h, count, h->known ^ (uint64_t)h->cards_dealt);
    se_give(h, seat, cards, count);
    if (se_waiting(h) == 0) se_start_betting(h);
    return SE_OK;
}

se_status se_hand_deal_community(se_hand *h, int card) {
    if (h == NULL) return SE_BAD_ARGUMENT;
    if (h->street != 7 || !se_cards_may_be_dealt(h)) return SE_ILLEGAL;
    for (int s = 0; s < h->rules.seats; s++)
        if (!h->out[s] && h->dealt[s]) return SE_ILLEGAL; /* seats took their own 7th card */
    if (card < 0 || card > 51) return SE_INVALID_CARD;
    if (h->known & (1ull << card)) return SE_DUPLICATE_CARD;
    if (se_reserve(h, 1) != SE_OK) return SE_NO_MEMORY;
    if (h->rules.deck_reuses_muck ? se_refills(h, 1) < 0 : h->cards_dealt >= 52)
        return SE_NO_DEAL;
    se_burn_and_refill(h, 1, h->known);
    uint8_t code = (uint8_t)card;
    h->cards_dealt++;
    h->community = card;
    h->known |= 1ull << card;
    for (int s = 0; s < h->rules.seats; s++)
        if (!h->out[s]) h->dealt[s] = 1;
    se_log(h, SE_EVENT_COMMUNITY, -1, 0, -1, &code, 1);
    se_start_betting(h);
    return SE_OK;
}

se_status se_hand_deal_random(se_hand *h, uint64_t seed) {
    if (h == NULL) return SE_BAD_ARGUMENT;
    if (!se_cards_may_be_dealt(h) || se_waiting(h) == 0) return SE_ILLEGAL;
    if (h->deck_count < 0) {
        /* Shuffle the cards not yet seen, once; later calls deal on from it. */
        int n = 0;
        if (h->known == 0) { /* nothing seen yet (a table's every hand) */
            memcpy(h->deck, se_full_deck, 52);
            n = 52;
        } else {
            for (int c = 0; c < 52; c++)
                if (!(h->known & (1ull << c))) h->deck[n++] = (uint8_t)c;
        }
        h->deck_count = n;
        se_deck_shuffle(h, seed);
        h->deck_known = h->known;
    }
    /* Only cards known since the last deal can be in the deck (dealt by hand or
     * shown); a hand dealt only from here skips the search. */
    if (h->known != h->deck_known) se_deck_drop_known(h);
    int n = h->deck_count;
    /* Cards dealt face down and unknown are gone from the deck too, though not
     * which ones: only so many of the cards left can still be dealt. Under
     * deck_reuses_muck a burn is one card less to deal (which unseen card it was
     * does not matter until a refill brings it back). */
    int waiting = se_waiting(h), due = se_cards_due(h), enough;
    if (h->rules.deck_reuses_muck) {
        enough = se_refills(h, waiting * due) >= 0;
    } else {
        enough = se_min_int(n, 52 - h->cards_dealt) >= waiting * due;
    }
    if (!enough) {
        if (h->street != 7 || n == 0) return SE_NO_DEAL;
        se_deck_ready(h, 1);
        se_status status = se_hand_deal_community(h, h->deck[0]);
        se_deck_drop_known(h); /* by value: a new deck from the muck may have moved it */
        return status;
    }
    if (se_reserve(h, (size_t)waiting) != SE_OK) return SE_NO_MEMORY;
    int taken = 0; /* cards given from the deck's front, removed at the end */
    if (!h->rules.deck_reuses_muck) se_deck_ready(h, waiting * due);
    for (int s = 0; s < h->rules.seats; s++) {
        if (h->out[s] || h->dealt[s]) continue;
        if (h->rules.deck_reuses_muck) {
            se_burn_and_refill(h, due, seed + (uint64_t)s); /* refills the deck when it runs out */
            se_deck_ready(h, due);
            se_give(h, s, h->deck, due);
            se_deck_take(h, due);
        } else {
            se_give(h, s, h->deck + taken, due);
            taken += due;
        }
    }
    se_deck_take(h, taken);
    h->deck_known = h->known;
    se_start_betting(h);
    return SE_OK;
}

se_status se_hand_set_deck(se_hand *h, const uint8_t *cards, int count) {
    if (h == NULL || (cards == NULL && count > 0) || count < 0 || count > 52)
        return SE_BAD_ARGUMENT;
    /* Every card not yet dealt, at least (the rest is never dealt): a shorter deck
     * would run out under the cards the hand still needs. */
    if (count < 52 - h->cards_dealt) return SE_BAD_SIZE;
    count = 52 - h->cards_dealt;
    uint64_t seen = h->known;
    for (int i = 0; i < count; i++) {
        if (cards[i] > 51) return SE_INVALID_CARD;
        if (seen & (1ull << cards[i])) return SE_DUPLICATE_CARD;
        seen |= 1ull << cards[i];
    }
    if (count > 0) memcpy(h->deck, cards, (size_t)count);
    h->deck_count = count;
    h->deck_ready = count; /* in the order given */
    return SE_OK;
}
