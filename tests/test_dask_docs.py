"""docs/dask.md's examples, run as a user runs them: each from a script in the folder
that holds the data, scaled down, on a local cluster."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("dask.dataframe")
pytest.importorskip("distributed")
pytest.importorskip("pyarrow")

PAGE = Path(__file__).resolve().parents[1] / "docs" / "dask.md"


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.DOTALL)


def _block(starting: str) -> str:
    found = [b for b in _blocks() if starting in b]
    assert len(found) == 1, (starting, len(found))
    return found[0]


def _run(script: str, folder: Path) -> str:
    (folder / "example.py").write_text(script, encoding="utf-8")
    done = subprocess.run([sys.executable, "example.py"], cwd=folder, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_parquet_recipe_and_the_cluster_example_run_as_written(tmp_path: Path) -> None:
    make = _block("from studeval.stream import random_hands")
    scaled = make.replace("n_blocks, per_block = 100, 10_000_000", "n_blocks, per_block = 4, 5_000")
    assert scaled != make
    _run(scaled, tmp_path)
    assert len(list((tmp_path / "hands").glob("*.parquet"))) == 4

    cluster = _block("from dask.distributed import Client")
    local = 'Client(n_workers=2, threads_per_worker=1, dashboard_address=None, memory_limit="1GiB")'
    script = cluster.replace('Client("tcp://scheduler:8786")', local)
    assert script != cluster
    out = _run(script, tmp_path)
    # The histogram adds up to the 20,000 hands; the ranks were written beside them.
    counts = [int(n) for n in re.findall(r"^[A-Z][a-z][^\n]*? +(\d+)$", out, re.MULTILINE)]
    assert sum(counts) == 20_000, out
    assert list((tmp_path / "ranked").glob("*.parquet"))


def test_the_text_column_example_runs_as_written(tmp_path: Path) -> None:
    import pandas as pd

    from studeval.stream import random_hands

    names = [f"{'23456789TJQKA'[c // 4]}{'cdhs'[c % 4]}" for c in range(52)]
    hands = [" ".join(names[c] for c in row) for row in random_hands(300, seed=4).tolist()]
    (tmp_path / "hand_histories").mkdir()
    pd.DataFrame({"hand": hands}).to_parquet(tmp_path / "hand_histories" / "part.0.parquet")
    example = _block('sd.rank_dataframe(hands, "hand")')
    script = (
        "import dask.dataframe as dd\nimport studeval.dask as sd\n\n"
        + example
        + "\nprint(len(ranked.compute()), int(ranked['high'].min().compute()) >= 1)\n"
    )
    assert _run(script, tmp_path).split() == ["300", "True"]


def test_the_zarr_example_runs_as_written(tmp_path: Path) -> None:
    pytest.importorskip("zarr")
    import dask.array as da

    from studeval.stream import random_hands

    da.from_array(random_hands(1000, seed=5), chunks=(250, 7)).to_zarr(str(tmp_path / "hands.zarr"))
    example = _block('da.from_zarr("hands.zarr")')
    out = _run(example.replace("counts.compute()", "print(counts.compute().sum())"), tmp_path)
    assert out.split() == ["1000"]
