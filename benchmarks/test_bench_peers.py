"""The peers' per-hand calls on the same hands, checked against studeval first.

pkrbot, eval7, phevaluator, treys and pokerkit, each with the inputs it expects built
once before timing (building Card objects costs more than evaluating them). A peer that
is not installed is skipped. Score conventions differ (pkrbot and eval7: higher wins;
phevaluator and treys: 1..7462, 1 wins, the numbering studeval uses; pokerkit: hand
objects, greater wins), so each is mapped to "lower wins" and compared with studeval's
order on the same hands before it is timed.
"""

from __future__ import annotations

import pytest

from studeval import bench

PEERS = bench.peer_calls()


@pytest.mark.parametrize("peer", PEERS, ids=[p.key for p in PEERS])
def test_peer(benchmark, peer: bench.PeerCall, hands, reference) -> None:
    pytest.importorskip(peer.module)
    sample = hands[: peer.max_hands]
    runner = peer.build(sample)
    ours = {"high": reference.high, "low": reference.low, "low8": reference.low8}[peer.ranking]
    bench.check_same_order(
        peer.call, ours[: len(sample)], peer.order_keys(runner()), sample, exact=peer.exact
    )
    benchmark.group = "high per hand" if peer.ranking == "high" else f"{peer.ranking} per hand"
    benchmark.extra_info.update(hands_per_call=len(sample), version=peer.version)
    assert len(benchmark(runner)) == len(sample)
