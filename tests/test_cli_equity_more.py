"""studeval equity's progress bar: no estimate from the quick first phase of a count."""

from __future__ import annotations

from typing import Any, ClassVar

import studeval.cli.equity as equity_cli
from studeval import equity_calculator
from studeval.cli import main


class Recorder:
    updates: ClassVar[list[object]] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        Recorder.updates = []

    def update(self, amount: int) -> None:
        Recorder.updates.append(amount)

    def restart(self, percent: int) -> None:
        Recorder.updates.append(("restart", percent))

    def close(self) -> None:
        pass


def _count_reporting(*fractions: float) -> Any:
    real = equity_calculator.equity

    def count(hands: Any, game: str, **kwargs: Any) -> Any:
        progress = kwargs.pop("progress")
        for fraction in fractions:
            progress(fraction)
        return real(hands, game, **{**kwargs, "method": "mc", "samples": 10})

    return count


def test_the_quick_first_phase_is_not_timed(monkeypatch, capsys) -> None:
    """A heads-up count ranks both sides' hands first: half its units at once, then a
    crawl. The bar that showed them at once promised a tenth of the true time; now
    its clock starts when that phase is over."""
    monkeypatch.setattr(equity_calculator, "equity", _count_reporting(0.3, 0.5, 0.51, 1.0))
    monkeypatch.setattr(equity_cli, "_Bar", Recorder)
    assert main(["equity", "As Ad 7c", "Ks Kd Qh", "--seed", "1"]) == 0
    assert Recorder.updates == [("restart", 51), 49]
    assert "Seven Card Stud" in capsys.readouterr().out


def test_a_small_quick_phase_shows_nothing_in_the_first_seconds(monkeypatch) -> None:
    monkeypatch.setattr(equity_calculator, "equity", _count_reporting(0.05, 0.11, 0.12, 1.0))
    monkeypatch.setattr(equity_cli, "_Bar", Recorder)
    assert main(["equity", "As Ad 7c", "Ks Kd Qh", "--seed", "1"]) == 0
    assert Recorder.updates == [100]  # only once done


def test_after_the_quiet_time_progress_is_shown() -> None:
    now = [0.0]
    advance = equity_cli.Advance(Recorder(), clock=lambda: now[0])
    advance(0.05)
    advance(0.11)
    advance(0.12)  # a quick phase of a tenth: not left out of the rate, but not shown
    now[0] = equity_cli.QUIET_S + 0.01
    advance(0.35)
    advance(0.35)  # no repeat
    advance(0.9)
    assert Recorder.updates == [35, 55]


def test_the_bar_restarts_its_clock_from_the_work_done(monkeypatch) -> None:
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    bar = equity_cli._Bar(100, "%", smoothing=0)
    try:
        bar.update(50)
        bar.restart(50)
        assert bar.bar.n == bar.bar.initial == 50
        bar.update(10)
        shown = bar.bar.format_dict
        assert shown["n"] == 60 and shown["initial"] == 50  # rate: 10 since the restart
    finally:
        bar.close()
    equity_cli._Bar(100, "%").restart(3)  # no terminal, no bar: nothing to do
