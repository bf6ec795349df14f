/* What each seat of a finished hand came away with, for a tracker's rows
 * (studeval.h, "A finished hand's seats"): its unmatched chips, whether it reached
 * the showdown, the chips it won from the pots contested there, and a hi/lo scoop.
 * tests/stats_reference.py counts the same chip level by chip level. */

#include "studeval.h"

int se_hand_summary(const se_hand *h, int scoops, se_seat_summary *out) {
    int seats = h->rules.seats, whole_stack = 0, showdown = 0;
    int64_t matched[SE_ENGINE_MAX_SEATS];
    for (int s = 0; s < seats; s++) {
        int64_t others = 0;
        for (int o = 0; o < seats; o++)
            if (o != s && h->contributions[o] > others) others = h->contributions[o];
        int64_t paid = h->contributions[s];
        matched[s] = paid < others ? paid : others;
        out[s].returned = paid - matched[s];
        out[s].showdown_won = 0;
        out[s].scooped = -1;
        /* Its whole stack went in when what it holds now all came back to it. */
        if (h->stacks[s] <= h->payouts[s]) whole_stack = 1;
        /* A showdown: a seat showed, or mucked there (out of the hand without folding). */
        if (h->shown[s] || (h->out[s] && !h->folded[s])) showdown = 1;
    }
    if (!showdown) {
        for (int s = 0; s < seats; s++) out[s].showdown = 0;
        return whole_stack;
    }
    /* Only the seat that matched the most of those at the showdown can win chips no
     * other seat there was in for: what it matched above the second most. */
    int top = -1;
    for (int s = 0; s < seats; s++) {
        out[s].showdown = !h->folded[s];
        if (out[s].showdown && (top < 0 || matched[s] > matched[top])) top = s;
    }
    int64_t second = 0, alone = 0;
    for (int s = 0; s < seats; s++)
        if (s != top && !h->folded[s] && matched[s] > second) second = matched[s];
    for (int s = 0; s < seats; s++) alone += matched[s] > second ? matched[s] - second : 0;
    for (int s = 0; s < seats; s++) {
        if (h->folded[s]) continue;
        int64_t won = h->payouts[s] - out[s].returned;
        if (s == top) won = won > alone ? won - alone : 0;
        out[s].showdown_won = won;
        if (!scoops) continue;
        /* Every contested pot it was in, less the rake (taken from the main pot). */
        int64_t reach = s == top ? second : matched[s], contested = -h->rake_taken;
        for (int o = 0; o < seats; o++) contested += matched[o] < reach ? matched[o] : reach;
        out[s].scooped = contested > 0 && won == contested;
    }
    return whole_stack;
}
