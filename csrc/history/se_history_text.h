/* The words of a card room's line (se_history_text.c), for the reader of a hand's
 * lines (se_history.c): not part of the public API. */
#ifndef SE_HISTORY_TEXT_H
#define SE_HISTORY_TEXT_H

#include <string.h>

#include "base/se_inline.h"
#include "studeval.h"

/* What a template's match captured. */
typedef struct se_capture {
    const char *name;
    int name_len;
    const char *cards;
    int cards_len;
    se_hist_money amount, to, fee, part;
    const char *rest; /* where {rest} began */
    int has_amount, has_to, has_fee, has_part, flag, seat;
    int unsure; /* an amount too long to hold: the line cannot be read here */
    const char *no_close; /* no "]" from here to the line's end */
    const char *only_name; /* set before matching: {name} reads this name only */
    int only_name_len;
} se_capture;

/* Money at s[0..len): the bytes read, 0 for no amount, -1 for one too long to hold. */
int se_read_money(const char *s, int len, se_hist_money *out);
/* The amount in chips of 10^-places money; -1 when not whole or too large. */
int64_t se_chips_of(se_hist_money m, int places);
/* Whether two amounts are one number. */
int se_same_money(se_hist_money a, se_hist_money b);
/* The cards of bracketed groups in s[0..len), every group or the last one only:
 * the count, or -1 for a word that is no card or more cards than `room`. */
int se_read_cards(const char *s, int len, int last_only, uint8_t *out, int room);
/* Whether the slot text t (after its "{") is `name`. Inline, as a matcher asks it
 * of every slot it meets: with `name` a literal the compiler compares in place. */
SE_INLINE int se_slot_is(const char *t, const char *name) {
    size_t n = strlen(name);
    /* Byte by byte, not strncmp: a loop of known length the compiler unrolls. A
     * mismatch stops it, the template's NUL included (no name holds one). */
    for (size_t k = 0; k < n; k++)
        if (t[k] != name[k]) return 0;
    return t[n] == '}';
}
/* Template t against the line s[0..len) from its start: 1 it matches, 0 not. */
int se_match(const char *t, const char *s, int len, se_capture *cap);
/* a + b, as the general reader adds two Decimals; 0, or -1 when too large. */
int se_add_money(se_hist_money a, se_hist_money b, se_hist_money *sum);

#endif
