"""The slot notation (histories/_wording.py): one room's lines written once, read by
the general reader's patterns and the C reader's templates, and written by the
writer's phrases."""

from __future__ import annotations

import re

import pytest

from studeval.histories._wording import TemplateError, Wording, compile_line, hint
from studeval.histories.rooms import ROOMS

_WORDS = Wording(
    seat=("Seat {seat}: {name} ({stack} in chips{?, {notparen}})",),
    streets={3: ("*** 3rd ***{? [{cards}]}{rest}",), 9: ("*** SUMMARY ***{rest}",)},
    lines=(
        ("bet", "{name}: bets {amount}{all_in}"),
        ("raise", "{name}: raises {by} to {to}{all_in}"),
        ("fold", "{name}{:|} folds{? [{cards}]}"),
        ("collect", "{name} collected {amount} from {?the }{?main |side }pot{rest}"),
    ),
    totals=("Total pot {pot}{? {|} Rake {rake}}",),
    all_in=(" and is all-in", ", all in"),
)


def _read(kind: str, line: str) -> dict[str, str | None] | None:
    for k, _, pattern in _WORDS.patterns().lines:
        found = pattern.match(line)
        if k == kind and found:
            return found.groupdict()
    return None


def test_a_template_reads_its_slots_into_named_groups() -> None:
    assert _read("bet", "Ann B: bets $1,000.50, all in") == {
        "name": "Ann B", "amount": "$1,000.50", "all_in": ", all in"}  # fmt: skip
    assert _read("raise", "Cy: raises $2 to $4") == {
        "name": "Cy", "amount": "$2", "to": "$4", "all_in": None}  # fmt: skip
    assert _read("fold", "Cy folds [Ah 2c]") == {"name": "Cy", "cards": "[Ah 2c]"}
    assert _read("fold", "Cy: folds") == {"name": "Cy", "cards": None}
    assert _read("collect", "Di collected $3 from the side pot (x)") == {
        "name": "Di", "amount": "$3"}  # fmt: skip
    assert _read("collect", "Di collected $3 from a pot") is None
    assert _read("bet", "Ann: bets $1 and is all-in!") is None  # a line is read whole
    assert _read("bet", "Ann: bets $1   ") is not None  # trailing spaces aside
    total = _WORDS.patterns().totals[0].match("Total pot $9 | Rake $1")
    assert total is not None and total.groupdict() == {"pot": "$9", "rake": "$1"}
    marker = _WORDS.patterns().streets[0][1].match("*** 3rd *** [Kd] more")
    assert marker is not None and marker["cards"] == "[Kd]"


def test_the_writer_writes_the_first_way_and_leaves_out_what_is_optional() -> None:
    assert _WORDS.phrase("fold") == "{name}: folds"
    assert _WORDS.phrase("collect") == "{name} collected {amount} from pot"
    assert _WORDS.phrase("raise") == "{name}: raises {by} to {to}{all_in}"
    assert _WORDS.phrase("seat") == "Seat {seat}: {name} ({stack} in chips)"
    assert _WORDS.phrase("total") == "Total pot {pot}"
    with pytest.raises(TemplateError, match="no template of a check line"):
        _WORDS.phrase("check")


def test_the_c_templates_are_each_choice_made_each_way() -> None:
    assert _WORDS.c_templates(": ") == (
        ("seat", 0, "Seat {seat}: {name} ({amount} in chips, {notparen})"),
        ("seat", 0, "Seat {seat}: {name} ({amount} in chips)"),
        # A marker's community card is left to the general reader.
        ("street", 3, "*** 3rd ***{rest}"),
        ("street", 9, "*** SUMMARY ***{rest}"),
        ("total", 0, "Total pot {amount} | Rake {to}"),
        ("total", 0, "Total pot {amount}"),
        ("strict", 0, ": "),
        ("bet", 0, "{name}: bets {amount}{? and is all-in}"),
        ("bet", 0, "{name}: bets {amount}{?, all in}"),
        ("raise", 0, "{name}: raises {amount} to {to}{? and is all-in}"),
        ("raise", 0, "{name}: raises {amount} to {to}{?, all in}"),
        # A literal or nothing is C's optional literal: one template, not two.
        ("fold", 0, "{name}{~:} folds {cards}"),
        ("fold", 0, "{name}{~:} folds"),
        ("collect", 0, "{name} collected {amount} from {~the }main pot{rest}"),
        ("collect", 0, "{name} collected {amount} from {~the }side pot{rest}"),
        ("collect", 0, "{name} collected {amount} from {~the }pot{rest}"),
    )


def test_a_slot_the_notation_does_not_have_is_refused() -> None:
    with pytest.raises(TemplateError, match="no slot 'amont'"):
        compile_line("{name} bets {amont}", _WORDS)
    with pytest.raises(TemplateError, match="no closing brace"):
        compile_line("{name} bets {amount", _WORDS)


def test_a_hint_is_literal_text_every_line_of_the_template_holds() -> None:
    assert hint("{name}: posts the ante {amount}{all_in}") == ": posts the ante "
    assert hint("{name}{?:} shows [{cards}]{rest}") == " shows "
    assert hint(re.compile("x")) == ""
    # A choice of words, each longer than any literal: any of them.
    assert hint("{name} : {Showdown|Does not show|Mucks} [{cards}]{rest}") == (
        "Showdown", "Does not show", "Mucks")  # fmt: skip
    assert hint("{name} {?Shows|Mucks}") == " "  # an optional choice is no hint


def _rooms_words() -> list[tuple[str, Wording, object]]:
    """Each room's wordings beside the phrases its writer writes with."""
    import importlib

    found = []
    for room in ROOMS:
        module = (
            importlib.import_module(room.formats[0].header.__module__) if room.formats else None
        )
        for name in ("WORDS", "WORDS_2016"):
            words = getattr(module, name, None)
            phrases = getattr(module, name.replace("WORDS", "PHRASES"), None)
            if words is not None and phrases is not None:
                found.append((f"{room.site}.{name}", words, phrases))
    return found


_ROOM_WORDS = [pytest.param(*found, id=found[0]) for found in _rooms_words()]


@pytest.mark.parametrize(("room", "words", "phrases"), _ROOM_WORDS)
def test_every_phrase_a_room_writes_from_its_wording_reads_back(
    room: str, words: Wording, phrases: object
) -> None:
    """Each step phrase a room's writer takes from its wording, filled in, is read by
    the same wording's pattern as that kind of line, the same name and amount."""
    name = "Seat+2" if words.name_shape == "Seat+{seat}" else "Ann B"  # Bovada's seats
    values = {"name": name, "amount": "$1.50", "by": "$1.50", "added": "$1.50", "to": "$3",
              "in_hand": "$3", "all_in": "", "cards": "Ah 2c"}  # fmt: skip
    read = 0
    for field, kind in (("ante", "ante"), ("bring_in", "bring_in"), ("bet", "bet"),
                        ("call", "call"), ("check", "check"), ("fold", "fold"),
                        ("raise_", "raise"), ("show", "show"), ("muck", "muck")):  # fmt: skip
        written = getattr(phrases, field)
        templates = [t for k, t in words.lines if k == kind]
        if not templates or not written or written != words.phrase(kind):
            continue  # a phrase the room gives itself, or a line it does not have
        line = written.format(**values)
        compiled = [p for k, _, p in words.patterns().lines if k == kind]
        found = next((m for p in compiled if (m := p.match(line))), None)
        assert found is not None, (room, line)
        assert found["name"] == name, (room, line)
        read += 1
    assert read >= 5, room
