/* Card-room text histories, the replay: a hand se_history.c read and prepared,
 * played step by step on the engine as studeval/histories/_replay.py plays a
 * transcript, giving up (SE_HIST_UNSURE) wherever that would raise an error. */

#include <string.h>

#include "history/se_history_text.h"
#include "studeval.h"

/* Where it gave up: this file's line, plus 10000. */
#define SE_HIST_BAIL(h) return ((h)->unsure_at = 10000 + __LINE__, SE_HIST_UNSURE)

/* ---- the replay --------------------------------------------------------------------- */

/* The down cards a player's shown cards reveal: those shown less its up cards. */
static int se_downs(const se_hist_hand *h, int listed, uint8_t *out) {
    int n = 0;
    for (int k = 0; k < h->revealed_count[listed]; k++) {
        uint8_t card = h->revealed[listed][k];
        int up = 0;
        for (int u = 0; u < h->up_count[listed] && !up; u++) up = h->up[listed][u] == card;
        if (!up) out[n++] = card;
    }
    return n;
}

/* Deals the street the hand waits for from what the text showed: how many deals
 * that made (0: none, and the hand is stuck), or -1: not read here. */
static int se_deal_street(se_hist_hand *h) {
    se_hand *hand = h->hand;
    int street = hand->street, deals = 0;
    for (int seat = 0; seat < h->players; seat++) {
        if (hand->folded[seat] || h->streets_dealt[seat] >= street) continue;
        int listed = h->player[seat];
        const se_hist_step *shown = h->dealt[seat][street] ? &h->step[h->dealt[seat][street] - 1] : NULL;
        int count = shown ? shown->card_count : 0;
        uint8_t downs[SE_HIST_MAX_CARDS], cards[3];
        int down_count = se_downs(h, listed, downs), n;
        if (street == 3) {
            if (count == 3) {
                memcpy(cards, shown->cards, 3);
            } else if (count == 1) {
                cards[0] = down_count > 0 ? downs[0] : SE_UNKNOWN_CARD;
                cards[1] = down_count > 1 ? downs[1] : SE_UNKNOWN_CARD;
                cards[2] = shown->cards[0];
            } else {
                return (h->unsure_at = 10000 + __LINE__, -1);
            }
            n = 3;
        } else if (street == 7) {
            uint8_t known = count ? shown->cards[0] : SE_UNKNOWN_CARD;
            cards[0] = known != SE_UNKNOWN_CARD ? known : down_count > 2 ? downs[2] : SE_UNKNOWN_CARD;
            n = 1;
        } else {
            if (count != 1) return (h->unsure_at = 10000 + __LINE__, -1);
            cards[0] = shown->cards[0];
            n = 1;
        }
        if (se_hand_deal(hand, seat, cards, n) != SE_OK) return (h->unsure_at = 10000 + __LINE__, -1);
        h->streets_dealt[seat] = street;
        deals++;
    }
    return deals;
}

/* Deals what is due before an action (streets before `before`). */
static int se_ready(se_hist_hand *h, int before) {
    se_hand *hand = h->hand;
    while (hand->actor < 0 && !hand->over && !hand->showdown && hand->street < before) {
        int deals = se_deal_street(h);
        if (deals < 0) return deals;
        if (deals == 0) SE_HIST_BAIL(h);
    }
    return SE_OK;
}

static int se_in(const int64_t *list, int count, int64_t value) {
    for (int i = 0; i < count; i++)
        if (list[i] == value) return 1;
    return 0;
}

static int se_act(se_hist_hand *h, const se_hist_step *s) {
    se_hand *hand = h->hand;
    if (se_ready(h, 8) != SE_OK) return SE_HIST_UNSURE;
    if (h->round_street != hand->street) { /* the street's first action */
        h->round_street = hand->street;
        memcpy(h->round_start, hand->contributions, sizeof h->round_start);
    }
    int seat = h->seat_of[s->player];
    if (hand->over || hand->showdown || hand->actor != seat) SE_HIST_BAIL(h);
    se_legal legal;
    se_hand_legal(hand, &legal);
    se_action action;
    int64_t to = -1;
    int kind = s->kind;
    se_hist_step all_in; /* an all-in read as the call or the wager it is */
    if (kind == SE_HIST_ALL_IN) {
        int64_t stack = hand->stacks[seat], mine = hand->contributions[seat] - h->round_start[seat];
        int64_t paid = s->has_amount ? s->amount_chips : stack;
        if (paid != stack && paid != mine + stack) SE_HIST_BAIL(h);
        all_in = *s;
        if (legal.call >= 0 && legal.call == stack) {
            all_in.kind = SE_HIST_CALL; /* what it put in must be the call */
        } else {
            all_in.kind = SE_HIST_RAISE;
            all_in.has_amount = 0, all_in.has_to = 1, all_in.to_chips = mine + stack;
        }
        s = &all_in;
        kind = all_in.kind;
    }
    switch (kind) {
    case SE_HIST_FOLD: action = SE_ACT_FOLD; break;
    case SE_HIST_CHECK: action = SE_ACT_CHECK; break;
    case SE_HIST_CALL:
    case SE_HIST_BRING_IN: {
        int64_t due = kind == SE_HIST_CALL ? legal.call : legal.bring_in;
        int64_t given = s->has_amount ? s->amount_chips : due;
        if (kind == SE_HIST_CALL && !s->has_amount && s->has_to) /* "calls to" a street total */
            given = s->to_chips - (hand->contributions[seat] - h->round_start[seat]);
        if (due < 0 || given != due) SE_HIST_BAIL(h);
        action = kind == SE_HIST_CALL ? SE_ACT_CALL : SE_ACT_BRING_IN;
        break;
    }
    default: {
        if (s->has_to) to = s->to_chips;
        else if (s->has_amount) to = hand->contributions[seat] - h->round_start[seat] + s->amount_chips;
        else SE_HIST_BAIL(h);
        if (s->has_amount && s->has_to) { /* "raises X to Y": X is Y less the bet to call */
            int64_t level = 0;
            for (int p = 0; p < h->players; p++)
                if (hand->contributions[p] - h->round_start[p] > level)
                    level = hand->contributions[p] - h->round_start[p];
            if (s->amount_chips != to - level) SE_HIST_BAIL(h);
        }
        /* Rooms name a wager differently: the kind whose legal totals hold it. */
        int said = kind == SE_HIST_COMPLETE ? 0 : kind == SE_HIST_BET ? 1 : 2;
        int order[4] = {said, 0, 1, 2};
        int chosen = -1;
        for (int i = 0; i < 4 && chosen < 0; i++) {
            int k = order[i];
            const int64_t *list = k == 0 ? legal.complete_to : k == 1 ? legal.bet_to : legal.raise_to;
            int count = k == 0 ? legal.complete_count : k == 1 ? legal.bet_count : legal.raise_count;
            if (se_in(list, count, to)) chosen = k;
        }
        if (chosen < 0) SE_HIST_BAIL(h);
        action = chosen == 0 ? SE_ACT_COMPLETE : chosen == 1 ? SE_ACT_BET : SE_ACT_RAISE;
    }
    }
    if (se_hand_act(hand, action, to) != SE_OK) SE_HIST_BAIL(h);
    if (s->all_in && hand->stacks[seat] != 0) SE_HIST_BAIL(h); /* all in, chips left */
    return SE_OK;
}

/* Whether the cards shown agree with the deal lines: no more than three down
 * cards besides a player's up cards, and no card another player holds face up or
 * showed. */
static int se_shows_agree(const se_hist_hand *h) {
    for (int p = 0; p < h->listed; p++) {
        uint8_t downs[SE_HIST_MAX_CARDS];
        int n = se_downs(h, p, downs), distinct = 0;
        for (int i = 0; i < n; i++) {
            int earlier = 0;
            for (int k = 0; k < i && !earlier; k++) earlier = downs[k] == downs[i];
            distinct += !earlier;
        }
        if (distinct > 3) return 0;
        for (int k = 0; k < h->revealed_count[p]; k++) {
            uint8_t card = h->revealed[p][k];
            for (int q = 0; q < h->listed; q++) {
                if (q == p) continue;
                for (int u = 0; u < h->up_count[q]; u++)
                    if (h->up[q][u] == card) return 0;
                for (int u = 0; u < h->revealed_count[q]; u++)
                    if (h->revealed[q][u] == card) return 0;
            }
        }
    }
    return 1;
}

static int se_showdown(se_hist_hand *h) {
    se_hand *hand = h->hand;
    int shows[SE_HIST_MAX_LISTED] = {0}, mucks[SE_HIST_MAX_LISTED] = {0};
    for (int i = 0; i < h->steps; i++) {
        if (h->step[i].kind == SE_HIST_SHOW) shows[h->step[i].player] = 1;
        if (h->step[i].kind == SE_HIST_MUCK) mucks[h->step[i].player] = 1;
    }
    while (hand->showdown && !hand->settle_due && !hand->over) {
        int seat = hand->actor;
        if (seat < 0) SE_HIST_BAIL(h);
        int listed = h->player[seat];
        int show = shows[listed] || (h->revealed_set[listed] && !mucks[listed]);
        se_status status;
        if (!show) {
            status = se_hand_muck(hand);
        } else {
            uint8_t downs[SE_HIST_MAX_CARDS], cards[3];
            int down_count = se_downs(h, listed, downs), places = 0, unknown = 0;
            uint8_t at[3];
            for (int i = 0; i < hand->card_count[seat]; i++) {
                if (i < 2 || i == 6) {
                    at[places] = hand->cards[seat][i];
                    unknown |= at[places] == SE_UNKNOWN_CARD;
                    places++;
                }
            }
            /* A card shown down that the deal lines did not deal (the hero's own,
             * say): the text contradicts itself; the general reader says so. */
            int missing = 0, extra = 0;
            for (int p = 0; p < places; p++) missing += at[p] == SE_UNKNOWN_CARD;
            for (int i = 0; i < down_count; i++) {
                int seen = 0;
                for (int q = 0; q < places; q++) seen |= at[q] == downs[i];
                for (int k = 0; k < i; k++) seen |= downs[k] == downs[i];
                extra += !seen;
            }
            if (extra > missing) SE_HIST_BAIL(h);
            if (!unknown) {
                status = se_hand_show(hand, NULL, 0);
            } else {
                int next = 0;
                for (int p = 0; p < places; p++) {
                    if (at[p] != SE_UNKNOWN_CARD) {
                        cards[p] = at[p];
                        continue;
                    }
                    /* The next shown down card that is none of the known ones. */
                    for (;;) {
                        if (next >= down_count) SE_HIST_BAIL(h);
                        uint8_t c = downs[next++];
                        int known = 0;
                        for (int q = 0; q < places; q++) known |= at[q] == c;
                        if (!known) {
                            cards[p] = c;
                            break;
                        }
                    }
                }
                status = se_hand_show(hand, cards, places);
            }
        }
        if (status != SE_OK) SE_HIST_BAIL(h);
    }
    return SE_OK;
}

int se_hist_play(se_hist_hand *h, se_hand *hand) {
    if (h == NULL || hand == NULL) return SE_BAD_ARGUMENT;
    /* A hand just made for these players: antes posted, nothing dealt. */
    if (hand->rules.seats != h->players || hand->cards_dealt != 0 || hand->over) SE_HIST_BAIL(h);
    for (int p = 0; p < h->players; p++)
        if (hand->stacks[p] + hand->contributions[p] != h->stacks[p]) SE_HIST_BAIL(h);
    h->hand = hand;
    /* What an earlier play of the hand left (se_hist_unwritten_rake: played again). */
    memset(h->streets_dealt, 0, sizeof h->streets_dealt);
    memset(h->dealt, 0, sizeof h->dealt);
    h->round_street = 0;
    /* Up cards from every deal line (3rd street's is the last of its cards). */
    for (int i = 0; i < h->steps; i++) {
        const se_hist_step *s = &h->step[i];
        if (s->kind != SE_HIST_DEAL || s->card_count == 0 || s->street < 3 || s->street > 6) continue;
        int p = s->player, found = 0;
        uint8_t up = s->cards[s->card_count - 1];
        for (int u = 0; u < h->up_count[p] && !found; u++) found = h->up[p][u] == up;
        if (found) continue;
        if (h->up_count[p] == SE_HIST_MAX_CARDS) SE_HIST_BAIL(h); /* more up cards than dealt */
        h->up[p][h->up_count[p]++] = up;
    }
    if (!se_shows_agree(h)) SE_HIST_BAIL(h);
    for (int i = 0; i < h->steps; i++) {
        const se_hist_step *s = &h->step[i];
        int seat = s->player >= 0 ? h->seat_of[s->player] : -1;
        switch (s->kind) {
        case SE_HIST_ANTE:
            if (s->has_amount && s->amount_chips != hand->contributions[seat]) SE_HIST_BAIL(h);
            if (s->all_in && hand->stacks[seat] != 0) SE_HIST_BAIL(h);
            break;
        case SE_HIST_STREET:
            if (!hand->over && se_ready(h, s->street) != SE_OK) return SE_HIST_UNSURE;
            break;
        case SE_HIST_DEAL:
            if (s->street > 7) SE_HIST_BAIL(h);
            h->dealt[seat][s->street] = (uint16_t)(i + 1);
            break;
        case SE_HIST_BRING_IN: case SE_HIST_COMPLETE: case SE_HIST_BET: case SE_HIST_RAISE:
        case SE_HIST_CALL: case SE_HIST_CHECK: case SE_HIST_FOLD: case SE_HIST_ALL_IN:
            if (se_act(h, s) != SE_OK) return SE_HIST_UNSURE;
            break;
        default:
            break;
        }
    }
    if (!hand->over) {
        if (se_ready(h, 8) != SE_OK || se_showdown(h) != SE_OK) return SE_HIST_UNSURE;
    }
    if (!hand->over && !hand->settle_due) SE_HIST_BAIL(h);
    return hand->over ? SE_OK : SE_HIST_SETTLE;
}

/* What each seat got back unmatched: `returned`, or (NULL: the hand was won by
 * folds) the one top contribution above the next. */
static void se_returned(const se_hand *hand, int players, const int64_t *returned, int64_t *out) {
    if (returned != NULL) {
        memcpy(out, returned, (size_t)players * sizeof *out);
        return;
    }
    memset(out, 0, (size_t)players * sizeof *out);
    int top = 0, ties = 0;
    for (int s = 1; s < players; s++)
        if (hand->contributions[s] > hand->contributions[top]) top = s;
    int64_t second = 0;
    for (int s = 0; s < players; s++) {
        if (s == top) continue;
        if (hand->contributions[s] == hand->contributions[top]) ties = 1;
        if (hand->contributions[s] > second) second = hand->contributions[s];
    }
    if (!ties) out[top] = hand->contributions[top] - second;
}

/* The chips each seat collected and got back, as the lines say; 0, or -1 for a
 * line of a player not dealt in. */
static int se_taken(se_hist_hand *h, int64_t *back) {
    memset(h->collected, 0, sizeof h->collected);
    /* What the summary says was won stands only where no line says who collected. */
    int won_kind = SE_HIST_WON;
    for (int i = 0; i < h->steps && won_kind == SE_HIST_WON; i++)
        if (h->step[i].kind == SE_HIST_COLLECT) won_kind = SE_HIST_COLLECT;
    for (int i = 0; i < h->steps; i++) {
        const se_hist_step *s = &h->step[i];
        if (s->kind != SE_HIST_RETURN && s->kind != won_kind) continue;
        if (!s->has_amount) continue;
        int seat = h->seat_of[s->player];
        if (seat < 0) return -1; /* a summary's winner not dealt in */
        if (s->kind == SE_HIST_RETURN) back[seat] += s->amount_chips;
        else h->collected[seat] += s->amount_chips;
    }
    return 0;
}

int64_t se_hist_unwritten_rake(se_hist_hand *h, const int64_t *returned) {
    if (h == NULL || h->hand == NULL || !h->hand->over || !h->rake_unwritten) return 0;
    const se_hand *hand = h->hand;
    int64_t back[SE_ENGINE_MAX_SEATS] = {0}, unmatched[SE_ENGINE_MAX_SEATS];
    if (se_taken(h, back) != 0) return 0; /* se_hist_check_end gives up on it */
    se_returned(hand, h->players, returned, unmatched);
    /* As the general reader: what the pots paid, less the uncalled bets and what
     * the players collected. */
    int64_t rake = 0;
    for (int s = 0; s < h->players; s++) rake += hand->payouts[s] - unmatched[s] - h->collected[s];
    if (rake <= h->rake) return 0;
    h->rake = rake;
    return rake;
}

int se_hist_check_end(se_hist_hand *h, const int64_t *returned) {
    if (h == NULL || h->hand == NULL || !h->hand->over) return SE_BAD_ARGUMENT;
    const se_hand *hand = h->hand;
    int64_t back[SE_ENGINE_MAX_SEATS] = {0}, unmatched[SE_ENGINE_MAX_SEATS];
    if (se_taken(h, back) != 0) SE_HIST_BAIL(h);
    se_returned(hand, h->players, returned, unmatched);
    int64_t pot = h->flags & SE_HIST_POT_AFTER_RAKE ? 0 : hand->rake_taken;
    int collects_returns = (h->flags & SE_HIST_COLLECTS_RETURNS) != 0;
    int returns_unwritten = (h->flags & SE_HIST_RETURNS_UNWRITTEN) != 0;
    int64_t won_by_all = 0;
    for (int s = 0; s < h->players; s++) {
        /* What was won: with the uncalled bet given back, or apart from it. */
        int64_t won = hand->payouts[s] - (collects_returns ? 0 : unmatched[s]);
        won_by_all += won;
        if (!collects_returns && !returns_unwritten && back[s] != unmatched[s]) SE_HIST_BAIL(h);
        if (h->collected[s] != won) SE_HIST_BAIL(h);
        pot += won;
        /* What the summary says the player bet: all it put in, less the uncalled bet
         * given back where that is written apart. */
        int listed = h->player[s];
        if (h->has_bet[listed] &&
            se_chips_of(h->bet_text[listed], h->places) !=
                hand->contributions[s] - (collects_returns ? 0 : unmatched[s]))
            SE_HIST_BAIL(h);
    }
    if (h->has_total && h->total_pot_chips != pot) SE_HIST_BAIL(h);
    if (hand->rake_taken != h->rake) SE_HIST_BAIL(h);
    /* A rake found, not written, that took the whole pot (no room takes it all): a
     * text cut before its winner's line. The general reader refuses it. */
    if (!h->has_rake && won_by_all == 0 && hand->rake_taken > 0) SE_HIST_BAIL(h);
    return SE_OK;
}
