"""A table's rules as the compiled core takes them: the game's and the house's action
and settlement rules as flags (games are data), shared by StudHand and Tables."""

from __future__ import annotations

from functools import lru_cache

from studeval import _core
from studeval.games import get_game
from studeval.houserules import HouseRules

__all__ = ["core_table_rules", "settle_flags"]


@lru_cache(maxsize=256)
def core_table_rules(
    game: str, rules: HouseRules, seats: int, ante: int, bring_in: int, small_bet: int,
    big_bet: int, rake: int,
) -> _core.TableRules:  # fmt: skip
    """The table as the core takes it: the game's and the house's action rules as
    flags (games are data), with the seats, the stakes and the rake.

    >>> core_table_rules("razz", HouseRules.robert(), 2, 1, 2, 5, 10, 0).bring_in_highest
    True
    """
    spec = get_game(game)
    return _core.TableRules(
        seats=seats, ante=ante, bring_in=bring_in, small_bet=small_bet, big_bet=big_bet,
        rake=rake,
        bring_in_highest=spec.bring_in == "highest",
        ace_low=spec.card_order == "ace_low",
        board_low=spec.board == "low",
        open_pair=spec.open_pair and rules.open_pair_big_bet,
        bring_in_tie_position=rules.bring_in_tie == "position",
        action_tie_suit=rules.action_tie == "suit",
        short_all_in_full_bet=rules.short_all_in == "full_bet",
        bring_in_passes_left=rules.bring_in_all_in == "next_seat",
        cap_heads_up=rules.heads_up_cap == "kept",
        deck_reuses_muck=rules.deck_runs_out == "muck",
        short_bring_in_opens=rules.short_bring_in == "may_open",
        cap_skips_all_in=rules.heads_up_counts == "not_all_in",
    )  # fmt: skip


@lru_cache(maxsize=64)
def settle_flags(rules: HouseRules) -> tuple[bool, bool, bool, bool, bool]:
    """The house's options that touch a showdown's chips, as the core's settlement
    takes them (``_core.settle_payouts``, ``_core.CoreTables``).

    >>> settle_flags(HouseRules.robert()), settle_flags(HouseRules.pokerkit())[2:]
    ((False, False, False, False, False), (True, False, True))
    """
    return (rules.odd_chip_cards == "played", rules.odd_chip_low == "high_card",
            rules.odd_chips == "first_seat", rules.odd_chip_half == "low",
            rules.split_pots == "merged")  # fmt: skip
