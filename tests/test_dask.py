"""studeval.dask on a real two-process Dask cluster, checked against the in-process batch."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import dask
import dask.array as da
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest
from distributed import Client, LocalCluster, get_task_stream

import studeval
import studeval.dask as sd
from studeval.stream import random_hands


@pytest.fixture(scope="module")
def client():
    # Two worker processes: the ranking functions and their inputs really travel
    # to other interpreters, as they would on a cluster.
    with (
        LocalCluster(
            n_workers=2,
            processes=True,
            threads_per_worker=1,
            dashboard_address=None,
            memory_limit="1GiB",
        ) as cluster,
        Client(cluster) as dask_client,
    ):
        yield dask_client


@pytest.fixture(scope="module")
def hands():
    return random_hands(40_000, seed=2024)


def test_array_ranks_match_batch_on_cluster(client, hands):
    cards = da.from_array(hands, chunks=(2_000, 7))
    lazy = sd.all_ranks(cards)
    with get_task_stream(client) as stream:
        high, low, low8 = client.compute(list(lazy), sync=True)
    expected = studeval.all_ranks(hands)
    np.testing.assert_array_equal(high, expected.high)
    np.testing.assert_array_equal(low, expected.low)
    np.testing.assert_array_equal(low8, expected.low8)
    assert high.dtype == np.uint16
    # Both workers took part: each ran some of the 20 ranking tasks.
    ranking = [t for t in stream.data if "_rank_block" in str(t["key"])]
    per_worker = Counter(t["worker"] for t in ranking)
    assert sum(per_worker.values()) >= 20, per_worker
    assert len(per_worker) == 2 and min(per_worker.values()) >= 1, per_worker


@pytest.mark.parametrize("name", ["high", "low", "low8"])
def test_single_rankings_match_batch(client, hands, name):
    cards = da.from_array(hands[:, :6].astype(np.int64), chunks=(5_000, 3))  # split rows too
    lazy = getattr(sd, f"{name}_ranks")(cards)
    assert lazy.shape == (40_000,)
    expected = getattr(studeval, f"{name}_ranks")(hands[:, :6])
    np.testing.assert_array_equal(client.compute(lazy, sync=True), expected)


def test_histogram_of_a_large_lazy_array(client):
    # The README pattern: count categories without materialising the ranks.
    cards = da.from_array(random_hands(30_000, seed=5), chunks=(10_000, 7))
    counts = da.bincount(sd.high_ranks(cards), minlength=7463)
    got = client.compute(counts, sync=True)
    expected = np.bincount(studeval.high_ranks(cards.compute()), minlength=7463)
    np.testing.assert_array_equal(got, expected)


def test_bad_row_raises_on_compute(client, hands):
    bad = hands.copy()
    bad[12_345, 1] = bad[12_345, 0]
    lazy = sd.high_ranks(da.from_array(bad, chunks=(10_000, 7)))
    with pytest.raises(studeval.DuplicateCardError):
        client.compute(lazy, sync=True)


def test_array_input_errors():
    with pytest.raises(studeval.BatchShapeError):
        sd.high_ranks(da.zeros((10, 4), dtype=np.uint8))
    with pytest.raises(studeval.BatchDtypeError):
        sd.high_ranks(da.zeros((10, 7), dtype=np.float64))


def test_dataframe_code_columns(client, hands):
    columns = [f"c{i}" for i in range(7)]
    frame = pd.DataFrame(hands, columns=columns)
    frame["id"] = np.arange(len(frame))
    ddf = dd.from_pandas(frame, npartitions=5)
    ranked = sd.rank_dataframe(ddf, columns, category="category")
    assert list(ranked.columns) == [*columns, "id", "high", "low", "low8", "category"]
    result = client.compute(ranked, sync=True).sort_values("id")
    expected = studeval.all_ranks(hands)
    np.testing.assert_array_equal(result["high"].to_numpy(), expected.high)
    np.testing.assert_array_equal(result["low"].to_numpy(), expected.low)
    np.testing.assert_array_equal(result["low8"].to_numpy(), expected.low8)
    assert result["high"].dtype == np.uint16
    names = [studeval.high_category(int(r)) for r in expected.high[:500]]
    assert result["category"].astype(str).tolist()[:500] == names


def test_card_columns_from_parquet_ranked_in_place(client, hands, tmp_path):
    # The frame of card columns alone, as Parquet gives it (uint8, one block): the core
    # reads the partition where it lies, and the partition comes back whole beside
    # the new columns; a rank column already there is replaced, not repeated.
    columns = [f"c{i}" for i in range(7)]
    frame = pd.DataFrame(hands.astype(np.uint8), columns=columns)
    frame.to_parquet(tmp_path / "cards.parquet")
    parts = dd.read_parquet(tmp_path / "cards.parquet", filesystem="arrow").repartition(
        npartitions=3
    )
    ranked = client.compute(sd.rank_dataframe(parts, columns, category="category"), sync=True)
    expected = studeval.all_ranks(hands)
    assert list(ranked.columns) == [*columns, "high", "low", "low8", "category"]
    np.testing.assert_array_equal(ranked[columns].to_numpy(), hands)
    np.testing.assert_array_equal(ranked["low8"].to_numpy(), expected.low8)
    twice = sd.rank_dataframe(dd.from_pandas(ranked, npartitions=2), columns,
                              names=("high", "l", "l8"))  # fmt: skip
    again = client.compute(twice, sync=True)
    assert list(again.columns) == [*columns, "high", "low", "low8", "category", "l", "l8"]
    np.testing.assert_array_equal(again["high"].to_numpy(), expected.high)
    np.testing.assert_array_equal(again["l"].to_numpy(), expected.low)


def test_dataframe_text_column_and_parquet(client, hands, tmp_path):
    # Hands stored as text in Parquet, read back lazily and ranked on the workers.
    names = [studeval.card_str(c) for c in range(52)]
    texts = [" ".join(names[c] for c in h) for h in hands[:5_000].tolist()]
    texts[7] = "AsKsQsJsTs"  # any card text works, and sizes may differ
    pd.DataFrame({"hand": texts}).to_parquet(tmp_path / "hands.parquet")
    ddf = dd.read_parquet(tmp_path / "hands.parquet").repartition(npartitions=4)
    ranked = sd.rank_dataframe(ddf, "hand", names=("h", "l", "l8"))
    result = client.compute(ranked, sync=True)
    assert result["h"].tolist() == [studeval.high_rank(t) for t in texts]
    assert result["l"].tolist() == [studeval.low_rank(t) for t in texts]
    assert result["l8"].tolist()[:100] == [
        studeval.NO_LOW if studeval.low8_rank(t) is None else studeval.low8_rank(t)
        for t in texts[:100]
    ]


@pytest.mark.parametrize(
    ("bad", "error"),
    [("As Ks", studeval.HandSizeError), ("Xx Ks Qs Js Ts", studeval.InvalidCardError),
     ("As As Qs Js Ts", studeval.DuplicateCardError)],
)  # fmt: skip
def test_dataframe_bad_text_raises_on_compute(client, bad, error):
    """The errors docs/dask.md names, each naming the row and the frame's index."""
    ddf = dd.from_pandas(pd.DataFrame({"hand": ["As Ks Qs Js Ts", bad]}), npartitions=1)
    with pytest.raises(error, match="row 1") as caught:
        client.compute(sd.rank_dataframe(ddf, "hand"), sync=True)
    assert "index 1" in str(caught.value)
    page = (Path(__file__).resolve().parents[1] / "docs" / "dask.md").read_text()
    assert f"`{error.__name__}`" in page or f"studeval.{error.__name__}" in page


def test_dataframe_argument_errors():
    ddf = dd.from_pandas(pd.DataFrame({"a": [1], "b": [2]}), npartitions=1)
    # Each a StudevalError that is also a ValueError, as every error of the package.
    with pytest.raises(studeval.OptionError, match="nope"):
        sd.rank_dataframe(ddf, ["nope"])
    with pytest.raises(studeval.OptionError, match="5 to 7"):
        sd.rank_dataframe(ddf, ["a", "b"])
    with pytest.raises(ValueError, match="three column names"):
        sd.rank_dataframe(ddf, "a", names=("x",))


def test_lazy_until_computed():
    calls = []

    def counting(block):
        calls.append(len(block))
        return block

    cards = da.from_array(random_hands(1000, seed=1), chunks=(250, 7)).map_blocks(
        counting,
        meta=np.empty((0, 0), np.uint8),  # meta given: dask need not call it early
    )
    lazy = sd.high_ranks(cards)
    assert calls == []
    with dask.config.set(scheduler="synchronous"):
        lazy.compute()
    assert calls == [250, 250, 250, 250]
