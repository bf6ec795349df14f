"""The installed ``studeval`` command in a real terminal, from a default install.

A command can crash only in a terminal (a progress bar that needs a package the
default install lacks) while every test passes, because the tests run with their
output redirected and with the test extras installed. These tests run the
console script under a pseudo-terminal,
from a virtual environment that holds studeval and its declared run-time
dependencies only: nothing the test extras bring in can be imported there.
"""

from __future__ import annotations

import importlib.metadata as metadata
import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from packaging.requirements import Requirement

if sys.platform == "win32":
    pytest.skip("Windows has no pseudo-terminals (pty)", allow_module_level=True)

from terminal import run_in_terminal


def _runtime_closure(name: str) -> list[metadata.Distribution]:
    """The distribution ``name`` and what it needs at run time, extras left out."""
    found: dict[str, metadata.Distribution] = {}
    todo = [name]
    while todo:
        dist = metadata.distribution(todo.pop())
        key = dist.metadata["Name"].lower().replace("_", "-")
        if key in found:
            continue
        found[key] = dist
        for text in dist.requires or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return list(found.values())


@pytest.fixture(scope="module")
def default_install(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv with only studeval and its run-time dependencies; returns its bin dir.

    The installed files are linked in from this environment (a second build of the
    package would take a minute), and the console script is this environment's
    own, pointed at the new interpreter.
    """
    root = tmp_path_factory.mktemp("default-install")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    purelib = sysconfig.get_path("purelib", vars={"base": str(root), "platbase": str(root)})
    site = Path(purelib)
    dists = _runtime_closure("studeval")
    names = sorted(d.metadata["Name"].lower() for d in dists)
    assert names == ["numpy", "studeval", "tqdm"], names
    for dist in dists:
        for file in dist.files or []:
            if ".." in file.parts or file.parts[0] in ("bin", "Scripts"):
                continue  # console scripts are written below
            target = site / file
            source = Path(str(dist.locate_file(file))).resolve()
            if source.is_file() and not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                target.symlink_to(source)
    bin_dir = root / "bin"
    script = Path(sys.executable).with_name("studeval")
    assert script.is_file(), f"the console script is not installed beside {sys.executable}"
    body = script.read_text().split("\n", 1)[1]
    (bin_dir / "studeval").write_text(f"#!{bin_dir / 'python'}\n{body}")
    (bin_dir / "studeval").chmod(0o755)
    return bin_dir


def _env(bin_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env.pop("VIRTUAL_ENV", None)
    env["TERM"] = "xterm-256color"
    return env


def test_the_venv_has_only_the_default_install(default_install: Path) -> None:
    probe = (
        "import importlib.metadata as m, importlib.util as u;"
        "print(sorted(d.metadata['Name'].lower() for d in m.distributions()));"
        "print([x for x in ('pytest', 'hypothesis', 'dask', 'eval7') if u.find_spec(x)])"
    )
    result = subprocess.run(
        [str(default_install / "python"), "-c", probe],
        capture_output=True, text=True, check=True, env=_env(default_install),
    )  # fmt: skip
    assert result.stdout.split("\n")[:2] == ["['numpy', 'studeval', 'tqdm']", "[]"]


def test_readme_command_in_a_terminal(default_install: Path) -> None:
    """README command 1, typed into a terminal: a bar while it runs, then the summary."""
    screen = run_in_terminal(
        [str(default_install / "studeval"), "rank", "--random", "3000000"],
        env=_env(default_install),
    )
    text = screen.text
    assert screen.status == 0, text
    assert "Traceback" not in text
    assert "ranked 3,000,000 random 7-card hands" in text
    assert "hands/s]" in text  # tqdm's bar was drawn on the terminal
    assert re.search(r"High Card\s+[\d,]+\s+1\d\.\d+%\s+17\.41\d%", text), text


def test_ctrl_c_exits_130_quietly_and_clears_the_bar(default_install: Path) -> None:
    screen = run_in_terminal(
        [str(default_install / "studeval"), "rank", "--random", "1G"],
        env=_env(default_install),
        # Type Ctrl-C once the bar has moved a few times.
        interrupt_after=lambda out: out.count(b"hands/s]") >= 3,
        timeout=60,
    )
    assert screen.interrupted
    assert screen.status == 130, screen.text
    assert "Traceback" not in screen.text and "KeyboardInterrupt" not in screen.text
    # What a person sees once it ended: the "^C" the terminal echoed, and no bar,
    # also not the line above (a bar as wide as the terminal pushed "^C" to a new
    # line, where the bar's wipe left the bar itself standing).
    shown = [line.rstrip() for line in _screen_lines(screen.output)]
    assert any(line.endswith("^C") for line in shown), shown
    assert not [line for line in shown if "hands/s" in line or "%|" in line], shown


def _screen_lines(output: bytes, columns: int = 100, rows: int = 30) -> list[str]:
    """The lines of a terminal screen after ``output`` was drawn on it."""
    import pyte

    screen = pyte.Screen(columns, rows)
    pyte.ByteStream(screen).feed(output)
    return list(screen.display)


def test_piped_hand_in_a_terminal_session(default_install: Path, tmp_path: Path) -> None:
    """`printf ... | studeval rank` with the terminal as stderr: the piped hand is ranked."""
    shell = f"printf 'As Kd 7h 2c 3s 9d Th\\n' | {default_install / 'studeval'} rank"
    screen = run_in_terminal(["/bin/sh", "-c", shell], env=_env(default_install))
    assert screen.status == 0, screen.text
    assert "As Kd 7h 2c 3s 9d Th  6267  High Card          72     -" in screen.text
    assert "random" not in screen.text


def test_replay_of_a_directory_of_room_histories_in_a_terminal(
    default_install: Path, tmp_path: Path
) -> None:
    """`studeval replay DIR` on 30 PokerStars files: the progress bar on the terminal,
    every hand replayed, the count at the end, no traceback."""
    from studeval.histories._writer import Table
    from studeval.histories.rooms import pokerstars
    from studeval.play import random_hand

    for number in range(30):
        hand = random_hand("stud8", 4, seed=number)
        text = pokerstars.write(hand, Table(names=["Ann", "Bob", "Cy", "Di"], hand_id=number))
        (tmp_path / f"HH{number:02}.txt").write_text(text)
    folder, out = tmp_path / "histories", tmp_path / "replayed.txt"
    folder.mkdir()
    for path in tmp_path.glob("HH*.txt"):
        path.rename(folder / path.name)
    shell = f"{default_install / 'studeval'} replay {folder} > {out}"
    screen = run_in_terminal(["/bin/sh", "-c", shell], env=_env(default_install))
    assert screen.status == 0, screen.text
    assert "Traceback" not in screen.text and "files/s" in screen.text  # the bar
    assert screen.text.rstrip().endswith("studeval: 30 hands replayed, 0 refused")
    assert out.read_text().count("== PokerStars hand ") == 30


def test_ctrl_c_stops_a_long_exact_equity_count(default_install: Path) -> None:
    """An exact heads-up count with an unknown hole card takes seconds: it draws a bar,
    and Ctrl-C stops the count in the core and exits 130 without a traceback."""
    screen = run_in_terminal(
        [str(default_install / "studeval"), "equity", "--game", "stud8", "As 2d 3h", "Kc"],
        env=_env(default_install),
        interrupt_after=lambda out: out.count(b"%/s]") + out.count(b"%]") >= 3,
        timeout=120,
    )
    assert screen.interrupted
    assert screen.status == 130, screen.text
    assert "Traceback" not in screen.text and "KeyboardInterrupt" not in screen.text
    assert "exact" not in screen.text  # stopped before any answer was printed
    shown = [line.rstrip() for line in _screen_lines(screen.output)]
    assert not [line for line in shown if "%|" in line or "%/s" in line], shown
