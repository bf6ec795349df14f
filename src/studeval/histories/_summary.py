"""What a hand's summary says of each player (what it won, what it put in), and the
check of what it won against the hand's own lines where a room writes both."""

from __future__ import annotations

import re
from decimal import Decimal

from studeval.histories._record import Step, Transcript
from studeval.histories._text import money

__all__ = ["check_won", "summary_says"]


def check_won(transcript: Transcript, won: list[Step]) -> None:
    """A contradiction for each player whose summary line says it won other than the
    hand's lines of what it collected.

    >>> t = Transcript("Room", "1", "stud", Decimal(1), Decimal(2), [(1, "Ann", Decimal(9))])
    >>> t.steps = [Step(20, "collect", "Ann", Decimal("0.50"))]
    >>> check_won(t, [Step(30, "collect", "Ann", Decimal("5.00"), street=9)])
    >>> t.contradictions
    [(30, "the summary says Ann won 5.00; the hand's lines say 0.50")]
    """
    collected: dict[str | None, Decimal] = {}
    for step in transcript.steps:
        if step.kind == "collect" and step.amount is not None:
            collected[step.name] = collected.get(step.name, Decimal(0)) + step.amount
    said: dict[str | None, tuple[Decimal, int]] = {}
    for step in won:
        amount, line = said.get(step.name, (Decimal(0), step.line))
        said[step.name] = (amount + (step.amount or Decimal(0)), line)
    for name, (amount, line) in said.items():
        lines_say = collected.get(name, Decimal(0))
        if amount != lines_say:
            why = f"the summary says {name} won {amount}; the hand's lines say {lines_say}"
            transcript.contradictions.append((line, why))


def summary_says(transcript: Transcript, said: re.Match[str], line_no: int,
                  won: list[Step]) -> None:  # fmt: skip
    """What a summary line says one player won and put in."""
    groups = said.groupdict()
    if groups.get("won") is not None:
        won.append(Step(line_no, "collect", said["name"], money(groups["won"]), street=9))
    if groups.get("bet") is not None:
        if transcript.contributed is None:
            transcript.contributed = {}
        transcript.contributed[said["name"]] = money(groups["bet"])
