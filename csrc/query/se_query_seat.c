/* What a stud player sees, and what it can still get: see se_query_seat.h.
 *
 * The nuts: for each other player, its up cards are fixed and its hidden cards may
 * be any it could hold among those p has not seen. A high or low made of ranks
 * alone depends on which ranks the hidden cards have, not on which cards of a
 * rank: every multiset of ranks is tried once (at most 455 for three hidden cards,
 * not the 10,660 sets of cards). Flushes are then tried suit by suit, from that
 * suit's unseen cards: a flush beats anything else seven cards can hold, and more
 * cards of the suit never make it worse. */
#include "query/se_query_seat.h"

#include <stdlib.h>
#include <string.h>

#include "equity/se_equity.h"
#include "rank/se_hand.h"

#define SE_Q_ALL_CARDS ((1ull << 52) - 1)
/* Draws of the others' ranges for one runout before it counts as colliding. */
#define SE_Q_MOST_REDRAWS 1000000

int se_q_paired(const uint8_t *cards, int n) {
    int count[13] = {0}, pairs = 0, most = 0;
    for (int i = 0; i < n; i++) count[cards[i] >> 2]++;
    for (int r = 0; r < 13; r++) {
        pairs += count[r] == 2;
        if (count[r] > most) most = count[r];
    }
    if (most == 4) return 7;
    if (most == 3) return 3;
    return pairs == 2 ? 2 : pairs;
}

int se_q_type_of(const uint8_t *cards, int n) {
    if (n < 5) return se_q_paired(cards, n);
    se_sums s = se_sum_cards(cards, n);
    return SE_HIGH_CARD - se_high_class(se_high_of(s, se_slot(s.key)), NULL);
}

/* Where a player's up cards dealt by `street` end (they start at place 2). */
static int se_q_up_end(int street) {
    return street < 6 ? street : 6;
}

/* Can up[i..n) take the elements of want not in `used`, one each? */
static int se_q_match(const uint8_t *up, const int *want, int n, int i, unsigned used) {
    if (i == n) return 1;
    for (int j = 0; j < n; j++) {
        int rank = want[j] / 5, suit = want[j] % 5;
        if (!(used >> j & 1) && (rank == 13 || rank == up[i] >> 2) &&
            (suit == 4 || suit == (up[i] & 3)) && se_q_match(up, want, n, i + 1, used | 1u << j))
            return 1;
    }
    return 0;
}

int se_q_up_in(const uint8_t *cards, int street, double pattern) {
    int n = se_q_up_end(street) - 2, want[4];
    uint32_t code = (uint32_t)pattern; /* checked: a whole number below 70^4 */
    for (int i = 0; i < n; i++) want[i] = (int)(code % 70), code /= 70;
    return se_q_match(cards + 2, want, n, 0, 0);
}

uint64_t se_q_unseen(const se_q_view *v, int p, int street) {
    uint64_t seen = v->dead;
    for (int k = 0; k < v->players; k++) {
        int from = k == p ? 0 : 2, to = k == p ? street : se_q_up_end(street);
        for (int i = from; i < to; i++) seen |= 1ull << v->cards[k][i];
    }
    return ~seen & SE_Q_ALL_CARDS;
}

/* ---- the nuts ------------------------------------------------------------------- */

/* A search for a hand better than `target` among an opponent's possible hands. */
typedef struct se_q_hunt {
    int low;         /* 0: the high; SE_GAME_RAZZ or SE_GAME_STUD8: that game's low */
    uint16_t target; /* the rank to beat (1 best) */
    uint8_t by_rank[13][4];
    int avail[13];   /* the unseen cards of each rank */
} se_q_hunt;

static int se_q_beats(const se_q_hunt *h, se_sums s) {
    uint32_t slot = se_slot(s.key);
    if (h->low == 0) return se_high_of(s, slot) < h->target;
    uint16_t low = se_low_table[slot];
    if (h->low == SE_GAME_STUD8) low = se_low8_of(low);
    return low < h->target;
}

/* Adds `left` more ranks, from `rank` down (`taken` of `rank`'s cards in already):
 * is some choice better than the target? */
static int se_q_hunt_ranks(const se_q_hunt *h, se_sums s, int left, int rank, int taken) {
    if (left == 0) return se_q_beats(h, s);
    for (int r = rank; r >= 0; r--) {
        int t = r == rank ? taken : 0;
        if (t < h->avail[r] &&
            se_q_hunt_ranks(h, se_eq_add(s, h->by_rank[r][t]), left - 1, r, t + 1))
            return 1;
    }
    return 0;
}

/* Every choice of `left` more cards of suited[from..n): is some flush better than
 * the target? */
static int se_q_hunt_suit(const se_q_hunt *h, se_sums s, const uint8_t *suited, int n, int from,
                          int left) {
    if (left == 0) return se_q_beats(h, s);
    for (int i = from; i <= n - left; i++)
        if (se_q_hunt_suit(h, se_eq_add(s, suited[i]), suited, n, i + 1, left - 1)) return 1;
    return 0;
}

/* Can player k, its up cards as dealt and the rest of its `street` cards among
 * `unseen`, hold a hand better than h->target? */
static int se_q_can_beat(se_q_hunt *h, const uint8_t *cards, int street, uint64_t unseen) {
    int up_end = se_q_up_end(street), hidden = street - (up_end - 2);
    se_sums base = se_sum_cards(cards + 2, up_end - 2);
    memset(h->avail, 0, sizeof h->avail);
    for (int c = 0; c < 52; c++)
        if (unseen >> c & 1) h->by_rank[c >> 2][h->avail[c >> 2]++] = (uint8_t)c;
    if (se_q_hunt_ranks(h, base, hidden, 12, 0)) return 1;
    if (h->low != 0 || street < 5) return 0;
    for (int suit = 0; suit < 4; suit++) {
        uint8_t suited[13], filler[3];
        int n = 0, up_suited = 0, n_filler = 0;
        for (int i = 2; i < up_end; i++) up_suited += (cards[i] & 3) == suit;
        for (int c = suit; c < 52; c += 4)
            if (unseen >> c & 1) suited[n++] = (uint8_t)c;
        int take = n < hidden ? n : hidden;
        if (up_suited + take < 5) continue;
        /* Fewer of the suit than hidden cards: the rest are any others (they do not
         * change a flush). */
        for (int c = 0; c < 52 && n_filler < hidden - take; c++)
            if ((unseen >> c & 1) && (c & 3) != suit) filler[n_filler++] = (uint8_t)c;
        if (n_filler < hidden - take) continue;
        se_sums padded = base;
        for (int i = 0; i < n_filler; i++) padded = se_eq_add(padded, filler[i]);
        if (se_q_hunt_suit(h, padded, suited, n, 0, take)) return 1;
    }
    return 0;
}

static int se_q_nuts(const se_q_view *v, int p, int street, int low, uint16_t mine) {
    se_q_hunt h;
    h.low = low;
    h.target = mine;
    uint64_t unseen = se_q_unseen(v, p, street);
    for (int k = 0; k < v->players; k++)
        if (k != p && se_q_can_beat(&h, v->cards[k], street, unseen)) return 0;
    return 1;
}

int se_q_nut_hi(const se_q_view *v, int p, int street) {
    se_sums s = se_sum_cards(v->cards[p], street);
    return se_q_nuts(v, p, street, 0, se_high_of(s, se_slot(s.key)));
}

int se_q_nut_lo(const se_q_view *v, int p, int street) {
    if (v->game == SE_GAME_STUD) return 0; /* stud has no low */
    se_sums s = se_sum_cards(v->cards[p], street);
    uint16_t low = se_low_table[se_slot(s.key)];
    if (v->game == SE_GAME_STUD8) low = se_low8_of(low);
    if (low == SE_EQ_NONE) return 0;
    return se_q_nuts(v, p, street, v->game, low);
}

/* ---- outs ----------------------------------------------------------------------- */

int se_q_outs(const se_q_view *v, int p, int street, int type) {
    if (street >= 7) return 0;
    uint8_t hand[7];
    memcpy(hand, v->cards[p], (size_t)street);
    se_sums s = se_sum_cards(hand, street);
    uint16_t now = se_high_of(s, se_slot(s.key));
    int now_type = se_q_type_of(hand, street);
    uint64_t unseen = se_q_unseen(v, p, street);
    int outs = 0;
    for (int c = 0; c < 52; c++) {
        if (!(unseen >> c & 1)) continue;
        hand[street] = (uint8_t)c;
        if (se_q_type_of(hand, street + 1) != type) continue;
        /* Better: a higher type, or from five cards on the same type ranked higher
         * (ranks of fewer cards compare only within one count of cards). */
        se_sums next = se_eq_add(s, (uint8_t)c);
        outs += type > now_type || (street >= 5 && se_high_of(next, se_slot(next.key)) < now);
    }
    return outs;
}

/* ---- the equity a street gives ------------------------------------------------- */

/* Player p's share of the pot when every player holds cards[k][0..7). */
static double se_q_share_of(const uint8_t (*cards)[7], int players, int game, int p) {
    uint16_t hi[SE_QUERY_MAX_PLAYERS] = {0}, lo[SE_QUERY_MAX_PLAYERS] = {0};
    uint16_t best_hi = SE_EQ_NONE, best_lo = SE_EQ_NONE;
    int n_hi = 0, n_lo = 0;
    for (int k = 0; k < players; k++) {
        se_eq_rank(game, se_sum_cards(cards[k], 7), &hi[k], &lo[k]);
        if (hi[k] < best_hi) best_hi = hi[k], n_hi = 0;
        n_hi += hi[k] == best_hi;
        if (lo[k] < best_lo) best_lo = lo[k], n_lo = 0;
        n_lo += lo[k] == best_lo;
    }
    int hi_p = game != SE_GAME_RAZZ && hi[p] == best_hi;
    int lo_p = game != SE_GAME_STUD && best_lo != SE_EQ_NONE && lo[p] == best_lo;
    if (game == SE_GAME_RAZZ) return lo_p ? 1.0 / n_lo : 0.0;
    if (game == SE_GAME_STUD || best_lo == SE_EQ_NONE) return hi_p ? 1.0 / n_hi : 0.0;
    return (hi_p ? 0.5 / n_hi : 0.0) + (lo_p ? 0.5 / n_lo : 0.0);
}

/* Every runout, where they are few (hand against hand): se_eq_walk_spot. */
static int se_q_walk(const se_q_view *v, int p, int street, double *share) {
    se_equity_spot spot;
    se_equity_counts counts;
    double deals;
    memset(&spot, 0, sizeof spot);
    spot.game = (se_game)v->game;
    spot.players = v->players;
    for (int k = 0; k < v->players; k++) {
        spot.known[k] = street;
        memcpy(spot.cards[k], v->cards[k], 7);
    }
    for (int c = 0; c < 52; c++)
        if (v->dead >> c & 1) spot.dead[spot.dead_count++] = (uint8_t)c;
    if (se_equity_deals(&spot, &deals, NULL) != SE_OK || deals > SE_QUERY_EXACT_RUNOUTS)
        return 0;
    if (se_eq_walk_spot(&spot, &counts) != SE_OK || counts.deals == 0) return 0;
    *share = (double)counts.share[p] / ((double)counts.deals * SE_EQ_UNITS);
    return 1;
}

double se_q_street_equity(const se_q_view *v, int p, int street, int blind, se_rng *rng,
                          int *failed) {
    if (v->players == 1) return 1.0;
    double share = 0.0;
    if (!blind && se_q_walk(v, p, street, &share)) return share;
    /* Places known in every runout (by bit, a player's seven a byte), and the cards. */
    uint8_t deal[SE_QUERY_MAX_PLAYERS][7], deck[52];
    uint64_t known = v->dead;
    int n_deck = 0, up_end = se_q_up_end(street);
    uint8_t fixed[SE_QUERY_MAX_PLAYERS];
    for (int k = 0; k < v->players; k++) {
        fixed[k] = 0;
        for (int i = 0; i < 7; i++) {
            int seen = i < street && (!blind || k == p || (i >= 2 && i < up_end));
            if (!seen) continue;
            deal[k][i] = v->cards[k][i];
            fixed[k] |= (uint8_t)(1u << i);
            known |= 1ull << deal[k][i];
        }
    }
    for (int c = 0; c < 52; c++)
        if (!(known >> c & 1)) deck[n_deck++] = (uint8_t)c;
    double total = 0.0;
    for (int run = 0; run < SE_QUERY_RUNOUTS; run++) {
        uint64_t used = known;
        uint8_t filled[SE_QUERY_MAX_PLAYERS];
        memcpy(filled, fixed, sizeof filled);
        /* The others' hidden cards from their ranges (blind), drawn jointly. */
        for (int tries = 0; blind && v->seats != NULL; tries++) {
            if (tries == SE_Q_MOST_REDRAWS) {
                *failed = SE_NO_DEAL;
                return 0.0;
            }
            uint64_t drawn = used;
            int clash = 0;
            for (int k = 0; k < v->players && !clash; k++) {
                const se_q_seat *r = &v->seats[k];
                if (k == p || r->width == 0) continue;
                uint32_t i = se_below(rng, r->count);
                if (r->prob != NULL && (double)(se_next(&rng->x) >> 11) * 0x1.0p-53 >= r->prob[i])
                    i = r->alias[i];
                clash = (drawn & r->mask[i]) != 0;
                drawn |= r->mask[i];
                const uint8_t *c = r->combos + (size_t)i * (size_t)r->width;
                deal[k][0] = c[0], deal[k][1] = c[1];
                filled[k] = (uint8_t)(filled[k] | 3u);
                if (r->width == 3) deal[k][6] = c[2], filled[k] = (uint8_t)(filled[k] | 64u);
            }
            if (!clash) {
                used = drawn;
                break;
            }
            memcpy(filled, fixed, sizeof filled);
        }
        uint32_t j = 0;
        for (int k = 0; k < v->players; k++) {
            for (int i = 0; i < 7; i++) {
                if (filled[k] >> i & 1) continue;
                uint8_t card;
                do {
                    card = se_eq_draw(deck, j, se_below(rng, (uint32_t)n_deck - j));
                    j++;
                } while (used >> card & 1);
                deal[k][i] = card;
            }
        }
        total += se_q_share_of((const uint8_t(*)[7])deal, v->players, v->game, p);
    }
    return total / SE_QUERY_RUNOUTS;
}
