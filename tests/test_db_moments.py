"""The database's times in UTC (``db._schema``): a file's times converted without
``astimezone`` (``stored_moments``) are each time's own conversion
(``stored_moment``), through every clock change of zones that change by an hour,
by half an hour, and at odd minutes, both sides of each repeated hour."""

from __future__ import annotations

import datetime
import random
import zoneinfo

import pytest

from studeval.db._schema import stored_moment, stored_moments

_ZONES = ("America/New_York", "Europe/Paris", "Australia/Lord_Howe", "America/St_Johns",
          "Pacific/Chatham", "Africa/Casablanca", "America/Santiago", "Asia/Kolkata")  # fmt: skip


@pytest.mark.parametrize("name", _ZONES)
def test_a_zones_times_are_each_times_own(name: str) -> None:
    zone = zoneinfo.ZoneInfo(name)
    # Every 7 minutes of a year (each clock change among them), both folds.
    moments: list[object] = []
    moment = datetime.datetime(2026, 1, 1, tzinfo=zone)
    while moment.year == 2026:
        moments += [moment, moment.replace(fold=1)]
        moment += datetime.timedelta(minutes=7)
    rng = random.Random(name)
    moments += [datetime.datetime(rng.randint(1975, 2037), rng.randint(1, 12), rng.randint(1, 28),
                                  rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59),
                                  rng.choice([0, 500_000, 999_999]), tzinfo=zone,
                                  fold=rng.randint(0, 1)) for _ in range(5_000)]  # fmt: skip
    expected = [stored_moment(m) for m in moments]
    assert stored_moments(moments) == expected
    # The year's clock changes were among the times.
    offsets = {m.utcoffset() for m in moments if isinstance(m, datetime.datetime)}
    assert len(offsets) >= (1 if name == "Asia/Kolkata" else 2)


def test_other_times_are_stored_as_one_at_a_time() -> None:
    east = datetime.timezone(datetime.timedelta(hours=5))
    moments: list[object] = [
        None,
        "2026-12-02",
        datetime.datetime(2026, 12, 2, 9),  # naive: as written
        datetime.datetime(9999, 12, 31, 23, tzinfo=zoneinfo.ZoneInfo("America/New_York")),
        datetime.datetime(1, 1, 1, 1, tzinfo=east),  # before the year 1 in UTC
        datetime.datetime(2026, 12, 2, 9, 30, tzinfo=datetime.timezone.utc),
    ]
    found = stored_moments(moments)
    assert found == [stored_moment(m) for m in moments]
    assert found[3] == (datetime.datetime(9999, 12, 31, 23), False)
    assert found[5] == (datetime.datetime(2026, 12, 2, 9, 30), True)


class _Raising(datetime.tzinfo):
    """A zone whose offset cannot be had (as ``astimezone`` meets it)."""

    def utcoffset(self, moment: datetime.datetime | None) -> datetime.timedelta:
        raise OverflowError("no offset")


class _Later(datetime.datetime):
    """A datetime that works out its own offset."""

    def utcoffset(self) -> datetime.timedelta:
        return datetime.timedelta(hours=3)


def test_odd_zones_and_datetimes_as_one_at_a_time() -> None:
    moments: list[object] = [
        datetime.datetime(2026, 12, 2, 9, tzinfo=_Raising()),
        _Later(2026, 12, 2, 9, tzinfo=datetime.timezone.utc),
    ]
    found = stored_moments(moments)
    assert found == [stored_moment(m) for m in moments]
    assert [type(m) for m, _ in found] == [datetime.datetime, _Later]
