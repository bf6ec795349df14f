#!/usr/bin/env python3
"""Generate studeval's lookup tables as C source: se_lookup_tables.c and .h (named
apart from engine/se_tables.c, the API of many tables stepped together).

This script is the only source of the tables. CMake runs it at build time into
the build directory; the C tests run it into a temporary directory. It needs
nothing but the Python standard library.

How a hand is ranked (see csrc/rank/se_hand.h):

* Every card adds a 16-byte entry of ``se_card_table``: a 64-bit *key* and a
  64-bit *mask*. The key's high 32 bits add a per-rank random number
  (``RANK_KEY``), its low 16 bits count the suits in four nibbles. The mask sets
  bit ``16 * suit + rank``. A code past 51 adds only bit 16 to the key (nothing
  to the mask), so bits 16-31 of a sum count the bad codes.
* The rank part of the key identifies the hand's rank multiset (the generator
  proves that no two multisets of 1..7 cards share a sum), so a perfect hash
  of it (hash and displace: a bucket from the top bits, a displacement that
  moves the bucket's keys to free slots) finds the multiset's slot in
  ``se_high_table`` and ``se_low_table``. Those hold, for 5..7 cards, the best
  non-flush high rank and the best A-5 low rank, and for 1..4 cards the up-card
  rankings.
* Suit nibbles start at 3, so a nibble reaches 8 exactly when its suit has five
  cards: then ``se_flush_table`` ranks that suit's 13-bit rank mask.
* Seven cards, the hands stud ranks most, have a perfect hash of their own over the
  49,205 seven-card multisets alone, into 2**16 slots (``se_hash7_disp``,
  ``se_high7_table``, ``se_low7_table``, and ``se_hilo7_table`` holding both): 2**13
  16-bit displacements (16 KiB, half an L1), and tables a quarter the size of the
  general ones, so that all three rankings of 7-card batches read 292 KiB of
  tables (the card and flush tables counted), inside the 512 KiB L2 of most laptop
  and many server cores, where the general tables take 596.

The three rankings therefore share one key computation and one hash; they differ
only in which table values they read.

Usage: gen_tables.py --output DIR
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
from collections.abc import Iterator, Sequence

N_RANKS = 13
MAX_COUNT = 4  # four suits
MAX_CARDS = 7
ACE = 12

HASH_BITS = 17  # slots in the value tables: 2**17
BUCKET_BITS = 14  # buckets of the displacement table: 2**14
#: What a code past 51 adds to a key: bit 16, which no card sets (the suit nibbles
#: end at bit 15, the rank part starts at bit 32), so one test of the sum finds it.
BAD_CARD_KEY = 1 << 16
HASH7_BITS = 16  # slots of the seven-card tables: 2**16 (49,205 multisets)
# Buckets of the seven-card displacement table: 2**13 (16 KiB: with the card table,
# inside a 32 KiB L1; 2**12 buckets cannot all be placed by an XOR displacement).
BUCKET7_BITS = 13
SEED = 0x5EED_57D0
MASK64 = (1 << 64) - 1

# High categories, best first (matches se_category in studeval.h).
STRAIGHT_FLUSH, QUADS, FULL_HOUSE, FLUSH, STRAIGHT, TRIPS, TWO_PAIR, ONE_PAIR, HIGH_CARD = range(9)
# Low shapes, best first.
LOW_NO_PAIR, LOW_PAIR, LOW_TWO_PAIR, LOW_TRIPS, LOW_FULL_HOUSE, LOW_QUADS = range(6)
_LOW_SHAPE = {
    (1, 1, 1, 1, 1): LOW_NO_PAIR,
    (2, 1, 1, 1): LOW_PAIR,
    (2, 2, 1): LOW_TWO_PAIR,
    (3, 1, 1): LOW_TRIPS,
    (3, 2): LOW_FULL_HOUSE,
    (4, 1): LOW_QUADS,
}


def splitmix64(state: int) -> tuple[int, int]:
    """One step of splitmix64: returns (new state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def grouped(ranks: Sequence[int], value=lambda r: r) -> list[tuple[int, int]]:
    """(count, rank) groups, larger groups first, then higher value first."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    return sorted(
        ((c, r) for r, c in counts.items()), key=lambda g: (g[0], value(g[1])), reverse=True
    )


def straight_top(ranks: Sequence[int]) -> int | None:
    """Top rank of a five-rank straight (3 for the wheel), else None."""
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct[-1] - distinct[0] == 4:
        return distinct[-1]
    if distinct == [0, 1, 2, 3, ACE]:
        return 3
    return None


# ---------------------------------------------------------------- high classes
def high_class(ranks: Sequence[int], flush: bool) -> tuple[int, list[int]]:
    """Category and the five ranks as a player reads them (most significant first)."""
    top = straight_top(ranks)
    if top is not None:
        run = [top - i for i in range(4)] + [top - 4 if top > 3 else ACE]
        return (STRAIGHT_FLUSH if flush else STRAIGHT), run
    groups = grouped(ranks)
    shape = tuple(c for c, _ in groups)
    read = [r for c, r in groups for _ in range(c)]
    if flush:
        return FLUSH, read
    category = {
        (4, 1): QUADS,
        (3, 2): FULL_HOUSE,
        (3, 1, 1): TRIPS,
        (2, 2, 1): TWO_PAIR,
        (2, 1, 1, 1): ONE_PAIR,
        (1, 1, 1, 1, 1): HIGH_CARD,
    }[shape]
    return category, read


def high_order_key(category: int, read: list[int]) -> tuple[int, ...]:
    """Sort key: smaller is better."""
    if category in (STRAIGHT_FLUSH, STRAIGHT):
        return (category, -read[0])
    return (category, *(-r for r in read))


def multisets(total_max: int) -> Iterator[tuple[int, ...]]:
    """All rank-count vectors with counts 0..4 and 1..total_max cards."""

    def rec(rank: int, left: int, prefix: list[int]) -> Iterator[tuple[int, ...]]:
        if rank == N_RANKS:
            if sum(prefix):
                yield tuple(prefix)
            return
        for c in range(min(MAX_COUNT, left) + 1):
            prefix.append(c)
            yield from rec(rank + 1, left - c, prefix)
            prefix.pop()

    yield from rec(0, total_max, [])


def ranks_of(counts: Sequence[int]) -> list[int]:
    return [r for r in range(N_RANKS) for _ in range(counts[r])]


def build_high_classes() -> tuple[
    dict[tuple[tuple[int, ...], bool], int], list[tuple[int, list[int]]]
]:
    """Map (sorted five ranks, flush) -> rank 1..7462, and rank -> (category, read)."""
    entries = []
    for combo in itertools.combinations_with_replacement(range(N_RANKS), 5):
        if max(combo.count(r) for r in combo) > MAX_COUNT:
            continue
        entries.append((combo, False))
        if len(set(combo)) == 5:
            entries.append((combo, True))
    keyed = []
    for combo, flush in entries:
        category, read = high_class(combo, flush)
        keyed.append((high_order_key(category, read), combo, flush, category, read))
    keyed.sort()
    rank_of: dict[tuple[tuple[int, ...], bool], int] = {}
    classes: list[tuple[int, list[int]]] = []
    for rank, (_, combo, flush, category, read) in enumerate(keyed, start=1):
        rank_of[(combo, flush)] = rank
        classes.append((category, read))
    if len(classes) != 7462:
        raise SystemExit(f"expected 7462 high classes, got {len(classes)}")
    return rank_of, classes


# ----------------------------------------------------------------- low classes
def low_value(rank: int) -> int:
    """Ace-to-five value: ace 0, deuce 1, ..., king 12."""
    return 0 if rank == ACE else rank + 1


def low_class(ranks: Sequence[int]) -> tuple[int, list[int]]:
    groups = grouped(ranks, value=low_value)
    shape = _LOW_SHAPE[tuple(c for c, _ in groups)]
    read = [r for c, r in groups for _ in range(c)]
    return shape, read


def build_low_classes() -> tuple[dict[tuple[int, ...], int], list[tuple[int, list[int]]]]:
    keyed = []
    for combo in itertools.combinations_with_replacement(range(N_RANKS), 5):
        if max(combo.count(r) for r in combo) > MAX_COUNT:
            continue
        shape, read = low_class(combo)
        keyed.append(((shape, *(low_value(r) for r in read)), combo, shape, read))
    keyed.sort()
    rank_of = {combo: i for i, (_, combo, _, _) in enumerate(keyed, start=1)}
    classes = [(shape, read) for _, _, shape, read in keyed]
    if len(classes) != 6175:
        raise SystemExit(f"expected 6175 low classes, got {len(classes)}")
    qualifying = sum(
        1 for shape, read in classes[:56] if shape == LOW_NO_PAIR and low_value(read[0]) <= 7
    )
    if qualifying != 56 or (low_value(classes[56][1][0]) <= 7 and classes[56][0] == LOW_NO_PAIR):
        raise SystemExit("the 56 eight-or-better lows are not ranks 1..56")
    return rank_of, classes


# ------------------------------------------------------------ up-card rankings
def up_shape(counts: list[int]) -> int:
    """0 no pair, 1 pair, 2 two pair, 3 trips, 4 quads (larger is stronger for high)."""
    biggest = max(counts)
    if biggest >= 3:
        return biggest
    return sum(1 for c in counts if c == 2)


def build_up_rankings(all_sets: list[tuple[int, ...]]) -> tuple[dict, dict]:
    """Per size 1..4: multiset -> high rank, multiset -> low rank (1 = best)."""
    up_high: dict[tuple[int, ...], int] = {}
    up_low: dict[tuple[int, ...], int] = {}
    for size in range(1, 5):
        sized = [m for m in all_sets if sum(m) == size]

        def high_key(m: tuple[int, ...]) -> tuple[int, ...]:
            groups = grouped(ranks_of(m))
            counts = [c for c, _ in groups]
            return (-up_shape(counts), *(-r for c, r in groups for _ in range(c)))

        def low_key(m: tuple[int, ...]) -> tuple[int, ...]:
            groups = grouped(ranks_of(m), value=low_value)
            counts = [c for c, _ in groups]
            # A-5 order: no pair, pair, two pair, trips, quads.
            shape = up_shape(counts)
            return (shape, *(low_value(r) for c, r in groups for _ in range(c)))

        for key_fn, target in ((high_key, up_high), (low_key, up_low)):
            ordered = sorted(sized, key=key_fn)
            rank = 0
            previous = None
            for m in ordered:
                k = key_fn(m)
                if k != previous:
                    rank += 1
                    previous = k
                target[m] = rank
    return up_high, up_low


# ----------------------------------------------------------------- the tables
def best_over_subsets(all_sets, five_value, memo_name: str) -> dict[tuple[int, ...], int]:
    """Best (smallest) value over the five-card sub-multisets of every 5..7-card multiset."""
    best: dict[tuple[int, ...], int] = {}
    for size in range(5, MAX_CARDS + 1):
        for m in all_sets:
            if sum(m) != size:
                continue
            if size == 5:
                best[m] = five_value(m)
                continue
            value = None
            for r in range(N_RANKS):
                if m[r]:
                    sub = (*m[:r], m[r] - 1, *m[r + 1 :])
                    v = best[sub]
                    value = v if value is None or v < value else value
            best[m] = value  # type: ignore[assignment]
    if not best:
        raise SystemExit(f"no values for {memo_name}")
    return best


def choose_rank_keys(
    all_sets: list[tuple[int, ...]],
) -> tuple[list[int], dict[tuple[int, ...], int]]:
    """Random 32-bit rank keys whose multiset sums are all distinct, and whose
    seven-card sums differ in their low HASH7_BITS bits within each seven-card bucket
    (an XOR displacement cannot part two that agree there)."""
    state = SEED
    for _attempt in range(1000):
        keys = []
        for _ in range(N_RANKS):
            state, value = splitmix64(state)
            keys.append(value & 0xFFFFFFFF)
        sums = {m: sum(c * k for c, k in zip(m, keys, strict=True)) & 0xFFFFFFFF for m in all_sets}
        if len(set(sums.values())) != len(sums):
            continue
        seven = {(s >> (32 - BUCKET7_BITS), s & ((1 << HASH7_BITS) - 1))
                 for m, s in sums.items() if sum(m) == MAX_CARDS}  # fmt: skip
        if len(seven) == sum(1 for m in sums if sum(m) == MAX_CARDS):
            return keys, sums
    raise SystemExit("no collision-free rank keys found")


def build_hash(sums: list[int], hash_bits: int = HASH_BITS,
               bucket_bits: int = BUCKET_BITS) -> list[int]:  # fmt: skip
    """Displacements so that slot = (s ^ disp[s >> (32 - bucket_bits)]) & (2**hash_bits - 1)
    is injective on ``sums``."""
    n_slots = 1 << hash_bits
    slot_mask = n_slots - 1
    shift = 32 - bucket_bits
    buckets: list[list[int]] = [[] for _ in range(1 << bucket_bits)]
    for s in sums:
        buckets[s >> shift].append(s)
    order = sorted(range(len(buckets)), key=lambda b: len(buckets[b]), reverse=True)
    taken = bytearray(n_slots)
    disp = [0] * len(buckets)
    for b in order:
        members = buckets[b]
        if not members:
            break
        for d in range(n_slots):
            slots = {(s ^ d) & slot_mask for s in members}
            if len(slots) == len(members) and not any(taken[x] for x in slots):
                for x in slots:
                    taken[x] = 1
                disp[b] = d
                break
        else:
            raise SystemExit(f"bucket {b} could not be placed")
    return disp


def slot_of(s: int, disp: list[int], hash_bits: int = HASH_BITS,
            bucket_bits: int = BUCKET_BITS) -> int:  # fmt: skip
    return (s ^ disp[s >> (32 - bucket_bits)]) & ((1 << hash_bits) - 1)


def place(values: dict[tuple[int, ...], tuple[int, int, int]], disp: list[int],
          hash_bits: int = HASH_BITS, bucket_bits: int = BUCKET_BITS,
          ) -> tuple[list[int], list[int]]:  # fmt: skip
    """A hash's high and low tables: each multiset's (sum, high, low) at its sum's
    slot, no two in one slot."""
    high = [0] * (1 << hash_bits)
    low = [0] * (1 << hash_bits)
    used = set()
    for m, (s, h, lo) in values.items():
        slot = slot_of(s, disp, hash_bits, bucket_bits)
        if slot in used:
            raise SystemExit(f"perfect hash collision at slot {slot} ({m})")
        used.add(slot)
        high[slot], low[slot] = h, lo
    return high, low


def pack_class(category: int, read: list[int]) -> int:
    """Five 4-bit ranks (first in the high nibble) under the category in bits 20..23."""
    value = category
    for r in read:
        value = (value << 4) | r
    return value


def generate() -> dict[str, list[int]]:
    high_rank_of, high_classes = build_high_classes()
    low_rank_of, low_classes = build_low_classes()
    all_sets = list(multisets(MAX_CARDS))

    def five_high(m: tuple[int, ...]) -> int:
        return high_rank_of[(tuple(ranks_of(m)), False)]

    def five_low(m: tuple[int, ...]) -> int:
        return low_rank_of[tuple(ranks_of(m))]

    best_high = best_over_subsets(all_sets, five_high, "high")
    best_low = best_over_subsets(all_sets, five_low, "low")
    up_high, up_low = build_up_rankings(all_sets)

    rank_keys, sums = choose_rank_keys(all_sets)
    disp = build_hash(list(sums.values()))
    high_table, low_table = place(
        {m: (s, best_high[m], best_low[m]) if sum(m) >= 5 else (s, up_high[m], up_low[m])
         for m, s in sums.items()}, disp)  # fmt: skip

    # The seven-card hash: the same sums, their own slots.
    sevens = {m: s for m, s in sums.items() if sum(m) == MAX_CARDS}
    disp7 = build_hash(list(sevens.values()), HASH7_BITS, BUCKET7_BITS)
    high7_table, low7_table = place(
        {m: (s, best_high[m], best_low[m]) for m, s in sevens.items()}, disp7, HASH7_BITS,
        BUCKET7_BITS)  # fmt: skip

    # Flush table: best straight flush or flush among a suit's ranks (>= 5 of them).
    flush_table = [0] * (1 << N_RANKS)
    for bits in sorted(range(1 << N_RANKS), key=lambda b: bin(b).count("1")):
        n = bin(bits).count("1")
        if n < 5:
            continue
        if n == 5:
            ranks = tuple(r for r in range(N_RANKS) if bits >> r & 1)
            flush_table[bits] = high_rank_of[(ranks, True)]
        else:
            flush_table[bits] = min(
                flush_table[bits & ~(1 << r)] for r in range(N_RANKS) if bits >> r & 1
            )

    card_key = []
    card_mask = []
    for code in range(256):
        if code < 52:
            rank, suit = divmod(code, 4)
            card_key.append((rank_keys[rank] << 32) | (1 << (4 * suit)))
            card_mask.append(1 << (16 * suit + rank))
        else:  # nothing to the mask (a batch's bit count exposes it), bit 16 to the key
            card_key.append(BAD_CARD_KEY)
            card_mask.append(0)

    tables = {
        "card_key": card_key,
        "card_mask": card_mask,
        "disp": disp,
        "high": high_table,
        "low": low_table,
        "disp7": disp7,
        "high7": high7_table,
        "low7": low7_table,
        "hilo7": [high | low << 16 for high, low in zip(high7_table, low7_table, strict=True)],
        "flush": flush_table,
        "high_class": [pack_class(c, read) for c, read in high_classes],
        "low_class": [pack_class(c, read) for c, read in low_classes],
    }
    self_check(tables, all_sets, sums)
    return tables


def self_check(tables: dict[str, list[int]], all_sets, sums) -> None:
    """Counts the generated tables must show before anything is written."""
    five = [m for m in all_sets if sum(m) == 5]
    seven = [m for m in all_sets if sum(m) == 7]
    checks = {
        "five-card rank multisets": (len(five), 6175),
        "seven-card rank multisets": (len(seven), 49205),
        "distinct low values of five-card multisets": (
            len({tables["low"][slot_of(sums[m], tables["disp"])] for m in five}),
            6175,
        ),
        "flush classes": (len({v for v in tables["flush"] if v}), 1287),
        "high classes": (len(tables["high_class"]), 7462),
        "low classes": (len(tables["low_class"]), 6175),
        "royal flush": (tables["flush"][0x1F00], 1),
        "steel wheel": (tables["flush"][0x100F], 10),
    }
    for name, (got, want) in checks.items():
        if got != want:
            raise SystemExit(f"table self-check failed: {name}: got {got}, want {want}")
    non_flush_high = {tables["high"][slot_of(sums[m], tables["disp"])] for m in five}
    if len(non_flush_high) + 1287 != 7462:
        raise SystemExit("table self-check failed: high classes do not add up to 7462")
    # Every seven-card multiset reads the same values from both hashes.
    for m in seven:
        general = slot_of(sums[m], tables["disp"])
        own = slot_of(sums[m], tables["disp7"], HASH7_BITS, BUCKET7_BITS)
        if (tables["high7"][own], tables["low7"][own]) != (tables["high"][general],
                                                          tables["low"][general]):  # fmt: skip
            raise SystemExit(f"table self-check failed: seven-card slot of {m}")


def c_cards(keys: list[int], masks: list[int]) -> str:
    """The card table: key and mask side by side, so one 16-byte load serves a card."""
    lines = [
        f"    {{0x{k:016x}u, 0x{m:016x}u}}, /* code {code} */"
        for code, (k, m) in enumerate(zip(keys, masks, strict=True))
    ]
    return "const se_card se_card_table[256] = {\n" + "\n".join(lines) + "\n};\n"


def c_array(ctype: str, name: str, values: list[int], per_line: int, fmt: str = "{}") -> str:
    lines = []
    for i in range(0, len(values), per_line):
        lines.append("    " + ", ".join(fmt.format(v) for v in values[i : i + per_line]) + ",")
    return f"const {ctype} {name}[{len(values)}] = {{\n" + "\n".join(lines) + "\n};\n"


HEADER = """/* Generated by csrc/rank/gen/gen_tables.py: do not edit. */
#ifndef SE_LOOKUP_TABLES_H
#define SE_LOOKUP_TABLES_H

#include <stdint.h>

#define SE_HASH_BITS {hash_bits}
#define SE_BUCKET_BITS {bucket_bits}
#define SE_HASH_SLOTS (1u << SE_HASH_BITS)
#define SE_HASH7_BITS {hash7_bits}
#define SE_BUCKET7_BITS {bucket7_bits}
#define SE_HASH7_SLOTS (1u << SE_HASH7_BITS)
/* The key bits that count cards past 51 (bit 16 each: no card's key sets these). */
#define SE_BAD_CARD_BITS 0xFFFF0000u

/* Per card code: what it adds to a hand's key and mask (for codes >= 52: key bit 16
 * alone, SE_BAD_CARD_BITS).
 * Aligned to 16 bytes so that an SSE2 add takes an entry straight from memory. */
#if defined(_MSC_VER)
typedef __declspec(align(16)) struct se_card {{
#else
typedef struct __attribute__((aligned(16))) se_card {{
#endif
    uint64_t key;
    uint64_t mask;
}} se_card;

/* Hidden: the tables are the core's own, so position-independent code reaches them
 * at a fixed offset from itself, not through a load from the global offset table
 * in every hot loop. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(hidden)
#endif
extern const se_card se_card_table[256];
extern const uint32_t se_hash_disp[1u << SE_BUCKET_BITS];
extern const uint16_t se_high_table[SE_HASH_SLOTS];
extern const uint16_t se_low_table[SE_HASH_SLOTS];
/* The seven-card hash: 49,205 multisets in 2**16 slots, 16-bit displacements. */
extern const uint16_t se_hash7_disp[1u << SE_BUCKET7_BITS];
extern const uint16_t se_high7_table[SE_HASH7_SLOTS];
extern const uint16_t se_low7_table[SE_HASH7_SLOTS];
/* Both: high | low << 16, for calls that want the two (one cache line a hand, not two). */
extern const uint32_t se_hilo7_table[SE_HASH7_SLOTS];
extern const uint16_t se_flush_table[8192];
extern const uint32_t se_high_class_table[7462];
extern const uint32_t se_low_class_table[6175];
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#endif
"""


def write(output: str) -> None:
    tables = generate()
    os.makedirs(output, exist_ok=True)
    parts = [
        "/* Generated by csrc/rank/gen/gen_tables.py: do not edit. */\n",
        '#include "se_lookup_tables.h"\n\n',
        c_cards(tables["card_key"], tables["card_mask"]),
        c_array("uint32_t", "se_hash_disp", tables["disp"], 12),
        c_array("uint16_t", "se_high_table", tables["high"], 16),
        c_array("uint16_t", "se_low_table", tables["low"], 16),
        c_array("uint16_t", "se_hash7_disp", tables["disp7"], 16),
        c_array("uint16_t", "se_high7_table", tables["high7"], 16),
        c_array("uint16_t", "se_low7_table", tables["low7"], 16),
        c_array("uint16_t", "se_flush_table", tables["flush"], 16),
        c_array("uint32_t", "se_hilo7_table", tables["hilo7"], 8, "0x{:08x}"),
        c_array("uint32_t", "se_high_class_table", tables["high_class"], 8, "0x{:06x}"),
        c_array("uint32_t", "se_low_class_table", tables["low_class"], 8, "0x{:06x}"),
    ]
    _write_if_changed(os.path.join(output, "se_lookup_tables.c"), "".join(parts))
    _write_if_changed(
        os.path.join(output, "se_lookup_tables.h"),
        HEADER.format(
            hash_bits=HASH_BITS,
            bucket_bits=BUCKET_BITS,
            hash7_bits=HASH7_BITS,
            bucket7_bits=BUCKET7_BITS,
        ),
    )


def _write_if_changed(path: str, text: str) -> None:
    try:
        with open(path, encoding="ascii") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, "w", encoding="ascii", newline="\n") as f:
        f.write(text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", required=True, help="directory for se_lookup_tables.c/.h")
    args = parser.parse_args(argv)
    write(args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
