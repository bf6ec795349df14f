"""The SQL that compares a batch's copies of a hand (by room and hand id) with the
hand kept (stored before, else the batch's first copy): which copies are another
hand (``CONFLICTS``), the cards a copy gives the hand kept (``MERGED_CARDS``), and
the rounds in which a batch's copies are stored (``COPY_ROUNDS``), so that a copy is
judged as a later import would judge it. ``store()`` runs them (``_store``).

>>> "copy_rounds" in COPY_ROUNDS and "UPDATE cards" in MERGED_CARDS
True
"""

from __future__ import annotations

from studeval.db._schema import card_text

__all__ = ["CONFLICTS", "COPY_ROUNDS", "MERGED_CARDS", "MOST_COPIES", "ROUND_KEYS"]

#: The batch's copies of a hand (by room and hand id) that differ from the hand kept
#: (the one stored before, else the batch's first copy) in what every copy of one hand
#: shares: the players dealt in, each player's net, and each card that both copies
#: know (up cards, and down cards both show; a copy from another player's seat knows
#: other down cards, and is a copy). Other hands under the same numbers: refused.
#: (Both keys are hand_key: a stored hand's is this database's, a batch's its own
#: number; "stored" says which.)
CONFLICTS = f"""
WITH batch AS (  -- (a batch of hands no room numbered has a site of no type: NULL)
    SELECT hand_key, site::VARCHAR AS site, hand_id, source, line,
        row_number() OVER (PARTITION BY site, hand_id ORDER BY hand_key) AS copy
    FROM batch_hands),
stored AS (
    SELECT h.hand_key, h.site, h.hand_id, h.source, h.line FROM hands h
    WHERE EXISTS (SELECT 1 FROM batch b WHERE b.hand_id = h.hand_id
                  AND b.site IS NOT DISTINCT FROM h.site)),
pairs AS (
    SELECT b.hand_key AS copy_key, s.hand_key AS first_key, TRUE AS first_stored, b.site,
        b.hand_id, b.source, b.line, s.source AS first_source, s.line AS first_line
    FROM batch b JOIN stored s ON s.hand_id = b.hand_id AND s.site IS NOT DISTINCT FROM b.site
    UNION ALL
    SELECT b.hand_key, f.hand_key, FALSE, b.site, b.hand_id, b.source, b.line, f.source,
        f.line
    FROM batch b JOIN batch f
        ON f.hand_id = b.hand_id AND f.site IS NOT DISTINCT FROM b.site AND f.copy = 1
    WHERE b.copy > 1 AND NOT EXISTS (SELECT 1 FROM stored s WHERE s.hand_id = b.hand_id
                                     AND s.site IS NOT DISTINCT FROM b.site)),
in_batch AS (SELECT copy_key AS hand_key FROM pairs
             UNION SELECT first_key FROM pairs WHERE NOT first_stored),
in_store AS (SELECT first_key AS hand_key FROM pairs WHERE first_stored),
players AS (
    SELECT s.hand_key, FALSE AS stored, list(s.player ORDER BY s.player) AS players,
        list((s.player, r.net_chips * h.unit::DECIMAL(38, 18)) ORDER BY s.player) AS nets,
        any_value(h.money) AS money, any_value(h.game) AS game,
        list((s.player, s.stack * h.unit::DECIMAL(38, 18)) ORDER BY s.player) AS stacks
    FROM batch_seats s JOIN batch_results r ON r.hand_key = s.hand_key AND r.seat = s.seat
        JOIN batch_hands h ON h.hand_key = s.hand_key
    WHERE s.hand_key IN (SELECT hand_key FROM in_batch)
    GROUP BY s.hand_key
    UNION ALL
    SELECT s.hand_key, TRUE, list(s.player ORDER BY s.player),
        list((s.player, r.net) ORDER BY s.player), any_value(h.money), any_value(h.game),
        list((s.player, s.stack * h.unit) ORDER BY s.player)
    FROM seats s JOIN results r ON r.hand_key = s.hand_key AND r.seat = s.seat
        JOIN hands h ON h.hand_key = s.hand_key
    WHERE s.hand_key IN (SELECT hand_key FROM in_store) GROUP BY s.hand_key),
known AS (  -- every card a copy knows, by player: up cards by place, down cards as a
            -- set (a text shows down cards in any order); the community card's player
            -- is NULL (it has no seat)
    SELECT c.hand AS hand_key, FALSE AS stored, s.player, c.up::BOOLEAN AS up,
        CASE WHEN c.up::BOOLEAN THEN c.position END AS position, {card_text("c.card")} AS card
    FROM batch_cards c LEFT JOIN batch_seats s ON s.hand_key = c.hand AND s.seat = c.seat
    WHERE c.card >= 0 AND c.hand IN (SELECT hand_key FROM in_batch)
    UNION ALL
    SELECT c.hand_key, TRUE, s.player, c.up, CASE WHEN c.up THEN c.position END, c.card
    FROM cards c LEFT JOIN seats s ON s.hand_key = c.hand_key AND s.seat = c.seat
    WHERE c.card IS NOT NULL AND c.hand_key IN (SELECT hand_key FROM in_store)),
-- The cards compared copy by copy: each side's keyed by its copy (cards joined by
-- player alone had paired every hand of a player with every other: the square of
-- the batch in time and memory).
copy_cards AS (
    SELECT p.copy_key, a.player, a.up, a.position, a.card FROM pairs p
        JOIN known a ON a.hand_key = p.copy_key AND NOT a.stored),
first_cards AS (
    SELECT p.copy_key, b.player, b.up, b.position, b.card FROM pairs p
        JOIN known b ON b.hand_key = p.first_key AND b.stored = p.first_stored),
copy_downs AS (
    SELECT copy_key, player, list(card) AS cards FROM copy_cards WHERE NOT up GROUP BY ALL),
first_downs AS (
    SELECT copy_key, player, list(card) AS cards FROM first_cards WHERE NOT up GROUP BY ALL),
other_cards AS (
    SELECT a.copy_key FROM copy_cards a JOIN first_cards b ON b.copy_key = a.copy_key
        AND a.player IS NOT DISTINCT FROM b.player AND a.position = b.position
    WHERE a.up AND b.up AND a.card <> b.card
    UNION  -- down cards: one copy's known set within the other's
    SELECT a.copy_key FROM copy_downs a JOIN first_downs b ON b.copy_key = a.copy_key
        AND a.player IS NOT DISTINCT FROM b.player
    WHERE NOT list_has_all(a.cards, b.cards) AND NOT list_has_all(b.cards, a.cards))
SELECT p.site, p.hand_id, p.source, p.line, p.first_source, p.first_line,
    CASE WHEN m.players <> f.players THEN 'dealt to other players'
         WHEN m.money <> f.money THEN 'in other money'
         WHEN m.game <> f.game THEN 'in another game'
         WHEN m.nets <> f.nets THEN 'with other results'
         WHEN m.stacks <> f.stacks THEN 'with other stacks' ELSE 'with other cards' END,
    p.copy_key
FROM pairs p JOIN players m ON m.hand_key = p.copy_key AND NOT m.stored
    JOIN players f ON f.hand_key = p.first_key AND f.stored = p.first_stored
WHERE m.players <> f.players OR m.money <> f.money OR m.game <> f.game
    OR m.stacks <> f.stacks OR m.nets <> f.nets
    OR p.copy_key IN (SELECT copy_key FROM other_cards)
ORDER BY p.copy_key"""

#: The cards that a batch's copies of a hand kept (stored before, or stored now from
#: the batch's first copy) know and the hand kept does not: each player's down cards
#: from the copy that knows most of them, where it knows more (a player's own export
#: shows its own down cards; a text shows them in any order, so a player's are taken
#: whole from one copy), and an up card (or the community card) the hand kept lacks.
#: A copy that differs (a conflict: its keys the parameter) gives none.
MERGED_CARDS = f"""
UPDATE cards SET card = m.card FROM (
WITH copies AS (
    SELECT b.hand_key AS copy_key, h.hand_key AS kept_key
    FROM batch_hands b JOIN hands h ON h.hand_id = b.hand_id AND h.site IS NOT DISTINCT FROM b.site
    WHERE b.hand_key NOT IN (SELECT batch_key FROM new_keys)
        AND NOT list_contains(?::BIGINT[], b.hand_key)),
copy_cards AS (
    SELECT p.kept_key, p.copy_key, s.player, c.position, c.up::BOOLEAN AS up,
        {card_text("c.card")} AS card
    FROM copies p JOIN batch_cards c ON c.hand = p.copy_key
        LEFT JOIN batch_seats s ON s.hand_key = c.hand AND s.seat = c.seat),
kept AS (
    SELECT c.hand_key AS kept_key, s.player, c.seat, c.position, c.up, c.card
    FROM cards c LEFT JOIN seats s ON s.hand_key = c.hand_key AND s.seat = c.seat
    WHERE c.hand_key IN (SELECT kept_key FROM copies)),
kept_downs AS (
    SELECT kept_key, player, count(card) AS known FROM kept WHERE NOT up GROUP BY ALL),
best AS (  -- the copy that knows most of a player's down cards (the first of those)
    SELECT kept_key, player, arg_max(copy_key, (known, -copy_key)) AS copy_key,
        max(known) AS known
    FROM (SELECT kept_key, copy_key, player, count(card) AS known FROM copy_cards
          WHERE NOT up GROUP BY ALL)
    GROUP BY ALL),
merged AS (
    SELECT k.kept_key, k.seat, k.position, c.card
    FROM best b JOIN kept_downs d ON d.kept_key = b.kept_key AND d.player = b.player
        AND b.known > d.known
    JOIN copy_cards c ON c.copy_key = b.copy_key AND c.player = b.player AND NOT c.up
    JOIN kept k ON k.kept_key = b.kept_key AND k.player = b.player
        AND k.position = c.position AND NOT k.up
    UNION ALL
    SELECT k.kept_key, k.seat, k.position, arg_min(c.card, c.copy_key)
    FROM kept k JOIN copy_cards c ON c.kept_key = k.kept_key
        AND c.player IS NOT DISTINCT FROM k.player AND c.position = k.position AND c.up
    WHERE k.up AND k.card IS NULL AND c.card IS NOT NULL GROUP BY ALL)
SELECT * FROM merged) m
WHERE cards.hand_key = m.kept_key AND cards.seat IS NOT DISTINCT FROM m.seat
    AND cards.position = m.position AND cards.card IS DISTINCT FROM m.card"""

#: The most copies of one hand (by room and hand id) in the batch.
MOST_COPIES = """SELECT coalesce(max(n), 1)
    FROM (SELECT count(*) AS n FROM batch_hands GROUP BY site, hand_id)"""


#: The round of each copy of a hand the batch holds more than once. A copy whose
#: players, money, game, nets, stacks or up cards (every copy sees them) are not the
#: hand kept's (stored before, else the batch's first copy) is compared in the first
#: round: no card a copy before it gave changes what it is (a room that numbers each
#: table's hands from 1 gives thousands of other hands under one number, and a round
#: each had cost a minute a thousand). The others, which differ at most in the down
#: cards they know, share a round where they know the same cards (by seat and
#: place), numbered in the order of the first of them.
COPY_ROUNDS = f"""CREATE OR REPLACE TEMP TABLE copy_rounds AS
WITH copied AS (
    SELECT hand_key, site, hand_id FROM whole_hands
    QUALIFY count(*) OVER (PARTITION BY site, hand_id) > 1),
ups AS (
    SELECT hand AS hand_key, list((seat, position, {card_text("card")}) ORDER BY seat, position)
        AS ups
    FROM whole_cards WHERE up::BOOLEAN AND hand IN (SELECT hand_key FROM copied) GROUP BY ALL),
facts AS (
    SELECT s.hand_key, any_value(h.site) AS site, any_value(h.hand_id) AS hand_id,
        (any_value(h.money), any_value(h.game),
         list((s.player, r.net_chips * h.unit::DECIMAL(38, 18),
               s.stack * h.unit::DECIMAL(38, 18)) ORDER BY s.player), any_value(u.ups)) AS facts
    FROM whole_seats s JOIN whole_results r ON r.hand_key = s.hand_key AND r.seat = s.seat
        JOIN whole_hands h ON h.hand_key = s.hand_key LEFT JOIN ups u ON u.hand_key = s.hand_key
    WHERE s.hand_key IN (SELECT hand_key FROM copied) GROUP BY s.hand_key),
stored AS (
    SELECT any_value(h.site) AS site, any_value(h.hand_id) AS hand_id,
        (any_value(h.money), any_value(h.game),
         list((s.player, r.net, s.stack * h.unit) ORDER BY s.player),
         any_value((SELECT list((c.seat, c.position, c.card) ORDER BY c.seat, c.position)
                    FROM cards c WHERE c.hand_key = h.hand_key AND c.up))) AS facts
    FROM hands h JOIN seats s ON s.hand_key = h.hand_key
        JOIN results r ON r.hand_key = s.hand_key AND r.seat = s.seat
    WHERE EXISTS (SELECT 1 FROM copied c WHERE c.hand_id = h.hand_id
                  AND c.site IS NOT DISTINCT FROM h.site)
    GROUP BY h.hand_key),
kept AS (
    SELECT site, hand_id, facts FROM stored
    UNION ALL
    SELECT f.site, f.hand_id, f.facts FROM facts f
    WHERE NOT EXISTS (SELECT 1 FROM stored s WHERE s.hand_id = f.hand_id
                      AND s.site IS NOT DISTINCT FROM f.site)
    QUALIFY row_number() OVER (PARTITION BY f.site, f.hand_id ORDER BY f.hand_key) = 1),
known AS (
    SELECT hand AS hand_key, list((seat, position, card) ORDER BY seat, position) AS cards
    FROM whole_cards WHERE card >= 0 AND hand IN (SELECT hand_key FROM copied) GROUP BY ALL),
signed AS (
    SELECT f.hand_key, f.site, f.hand_id, f.facts IS NOT DISTINCT FROM k.facts AS same,
        min(f.hand_key) OVER (PARTITION BY f.site, f.hand_id,
                              f.facts IS NOT DISTINCT FROM k.facts, n.cards) AS first_key
    FROM facts f JOIN kept k ON k.hand_id = f.hand_id AND k.site IS NOT DISTINCT FROM f.site
        LEFT JOIN known n ON n.hand_key = f.hand_key)
SELECT hand_key, CASE WHEN same THEN dense_rank() OVER (PARTITION BY site, hand_id, same
                                                        ORDER BY first_key) ELSE 1 END AS round
FROM signed"""

#: The batch's hands of the round that is the parameter (a hand of one copy: the first).
ROUND_KEYS = """SELECT h.hand_key FROM whole_hands h LEFT JOIN copy_rounds r USING (hand_key)
    WHERE coalesce(r.round, 1) = ?"""
