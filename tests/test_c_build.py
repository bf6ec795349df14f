"""The C library built, installed and linked as README.md's "From C" says.

The library is configured with no build type (as the README's command does) in a
temporary directory, which must give an optimised build; then built once for this
module, installed with ``cmake --install --prefix`` into a temporary prefix, and a
small C program is linked against the installed library three ways (pkg-config,
``find_package(studeval)`` in a CMake project, and the plain link line) and run on
the hands in ``tests/data/known_hands.tsv``. Nothing is written into the tree.

CMake comes from the test extra (the ``cmake`` and ``ninja`` packages, found beside
this Python or on PATH). A missing cmake, compiler or pkg-config skips, with the
reason, and fails where STUDEVAL_REQUIRE_TOOLS is set (as CI sets it).
"""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import KNOWN_HANDS, REPO, find_compiler, missing_tool, run_checked

import studeval

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not (REPO / "CMakeLists.txt").is_file(),
        reason="CMakeLists.txt is not beside the tests (a copy of the tests only)",
    ),
    pytest.mark.skipif(
        sys.platform == "win32",
        reason="the README's C link lines are for Unix compilers (cc, -lpthread)",
    ),
]

BUILD_TIMEOUT_S = 600
STEP_TIMEOUT_S = 300

#: Ranks each hand of its arguments by the single-hand calls and by a batch of one
#: row, and prints "high low low8" for each: the two ways must agree.
RANKS_C = r"""
#include <stdio.h>
#include <string.h>

#include <studeval.h>

int main(int argc, char **argv) {
    int i;
    for (i = 1; i < argc; i++) {
        uint8_t codes[7];
        uint16_t high, low, low8;
        int n = se_parse_cards((const uint8_t *)argv[i], strlen(argv[i]), codes, 7);
        int h = se_high_rank(codes, n), l = se_low_rank(codes, n), l8 = se_low8_rank(codes, n);
        if (n < 5 || h < 0 || l < 0 || l8 < 0) {
            fprintf(stderr, "bad hand: %s\n", argv[i]);
            return 1;
        }
        if (se_rank_batch(codes, 1, 7, n, &high, &low, &low8, 1, 1, NULL) != SE_OK ||
            high != h || low != l || low8 != l8) {
            fprintf(stderr, "the batch disagrees on %s\n", argv[i]);
            return 1;
        }
        printf("%d %d %d\n", h, l, l8);
    }
    return 0;
}
"""

FIND_PACKAGE_PROJECT = """cmake_minimum_required(VERSION 3.21)
project(uses_studeval LANGUAGES C)
find_package(studeval {version} EXACT REQUIRED)
add_executable(ranks ranks.c)
target_link_libraries(ranks PRIVATE studeval::studeval_core)
"""

SE_NO_LOW = 65535
#: README.md's example: a royal flush, the best high hand.
README_HAND = "As Ks Qs Js Ts 2c 3d"


def _tool(name: str) -> str | None:
    """``name`` beside this Python (a venv's bin/, where the test extra puts cmake and
    ninja even when the venv is not activated), else on PATH."""
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.is_file() else shutil.which(name)


def _cmake() -> str:
    cmake = _tool("cmake")
    if cmake is None:
        missing_tool("no cmake found (beside Python or on PATH): install the test extra")
    return cmake


def _generator_args() -> list[str]:
    """The default generator where make is on PATH (as a user's `cmake -S . -B build`
    gets), else Ninja from the test extra."""
    if shutil.which("make"):
        return []
    ninja = _tool("ninja")
    if ninja is None:
        missing_tool("neither make nor ninja found: install the test extra")
    return ["-G", "Ninja", f"-DCMAKE_MAKE_PROGRAM={ninja}"]


@dataclass(frozen=True)
class Installed:
    """Where the README's build was installed, and a folder for more beside it."""

    prefix: Path
    libdir: Path
    work: Path


def _configure(source: Path, build: Path, *options: str) -> None:
    run_checked([_cmake(), "-S", str(source), "-B", str(build), *_generator_args(),
                 f"-DPython_EXECUTABLE={sys.executable}", *options],
                "cmake configure", STEP_TIMEOUT_S)  # fmt: skip


def _install(build: Path, prefix: Path) -> None:
    run_checked([_cmake(), "--install", str(build), "--prefix", str(prefix)], "cmake --install",
                STEP_TIMEOUT_S)  # fmt: skip


def _cache(build: Path, name: str) -> str | None:
    """A variable's value in build/CMakeCache.txt; None when the cache lacks it."""
    for line in (build / "CMakeCache.txt").read_text().splitlines():
        key, sep, value = line.partition("=")
        if sep and key.split(":")[0] == name:
            return value
    return None


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The build folder of the README's commands, configured with no build type."""
    find_compiler()
    build = tmp_path_factory.mktemp("c_build") / "build"
    with pytest.MonkeyPatch.context() as env:
        env.delenv("CMAKE_BUILD_TYPE", raising=False)  # the README names none
        _configure(REPO, build, "-DSTUDEVAL_PYTHON=OFF", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON")
    run_checked(
        [_cmake(), "--build", str(build), "--parallel", "2"], "cmake --build", BUILD_TIMEOUT_S
    )
    return build


@pytest.fixture(scope="module")
def installed(built: Path) -> Installed:
    """The build installed with `cmake --install --prefix` beside it."""
    build, work = built, built.parent
    prefix = work / "prefix"
    _install(build, prefix)
    libraries = sorted(prefix.glob("lib*/**/libstudeval_core.a"))
    assert len(libraries) == 1, f"installed libraries: {libraries}"
    return Installed(prefix, libraries[0].parent, work)


def _run_ranks(binary: Path) -> None:
    """Run the program on every known hand and README.md's, and compare the ranks."""
    hands = [hand.cards for hand in KNOWN_HANDS]
    proc = run_checked([str(binary), *hands, README_HAND], f"running {binary.name}",
                       STEP_TIMEOUT_S)  # fmt: skip
    lines = proc.stdout.splitlines()
    assert len(lines) == len(hands) + 1, proc.stdout
    assert lines.pop().split()[0] == "1", f"{README_HAND} is a royal flush"
    for hand, line in zip(KNOWN_HANDS, lines, strict=True):
        high, low, low8 = map(int, line.split())
        if hand.high is not None:
            assert high == hand.high, hand.cards
        if hand.low is not None:
            assert low == hand.low, hand.cards
        if hand.low8 is not None:
            assert low8 == (hand.low8 or SE_NO_LOW), hand.cards


def _ranks_source(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    source = directory / "ranks.c"
    source.write_text(RANKS_C)
    return source


def test_no_build_type_builds_optimised(built: Path) -> None:
    assert _cache(built, "CMAKE_BUILD_TYPE") == "Release"
    # The build holds one target, the library: every command compiles a part of it.
    commands = json.loads((built / "compile_commands.json").read_text())
    assert commands, "no compile commands"
    for entry in commands:
        flags = entry["command"].split()
        assert {"-O2", "-O3"} & set(flags), f"not optimised: {entry['command']}"


@pytest.mark.parametrize(
    ("options", "expected"),
    [(["-DCMAKE_BUILD_TYPE=Debug"], "Debug"), (["-DCMAKE_BUILD_TYPE="], "")],
    ids=["debug", "empty"],
)
def test_a_build_type_given_is_kept(tmp_path: Path, options: list[str], expected: str) -> None:
    find_compiler()
    build = tmp_path / "build"
    _configure(REPO, build, "-DSTUDEVAL_PYTHON=OFF", *options)
    assert _cache(build, "CMAKE_BUILD_TYPE") == expected


def test_a_multi_config_generator_gets_no_build_type(tmp_path: Path) -> None:
    find_compiler()
    ninja = _tool("ninja")
    if ninja is None:
        missing_tool("no ninja found: install the test extra")
    build = tmp_path / "build"
    run_checked([_cmake(), "-S", str(REPO), "-B", str(build), "-G", "Ninja Multi-Config",
                 f"-DCMAKE_MAKE_PROGRAM={ninja}", f"-DPython_EXECUTABLE={sys.executable}",
                 "-DSTUDEVAL_PYTHON=OFF"], "cmake configure (Ninja Multi-Config)",
                STEP_TIMEOUT_S)  # fmt: skip
    assert not _cache(build, "CMAKE_BUILD_TYPE")


def test_install_lays_out_library_header_and_packages(installed: Installed) -> None:
    prefix, libdir = installed.prefix, installed.libdir
    assert {path for path in prefix.rglob("*") if path.is_file()} == {
        prefix / "include" / "studeval.h",
        libdir / "libstudeval_core.a",
        libdir / "pkgconfig" / "studeval.pc",
        *(libdir / "cmake" / "studeval" / name
          for name in ("studevalConfig.cmake", "studevalConfigVersion.cmake",
                       "studevalTargets.cmake", "studevalTargets-release.cmake")),
    }  # fmt: skip
    header = (prefix / "include" / "studeval.h").read_bytes()
    assert header == (REPO / "csrc" / "include" / "studeval.h").read_bytes()
    pc = (libdir / "pkgconfig" / "studeval.pc").read_text()
    assert f"Version: {studeval.__version__}" in pc


def test_wheel_builds_install_nothing_of_the_c_library(tmp_path: Path) -> None:
    """scikit-build-core (SKBUILD) packs whatever install() names into the wheel."""
    find_compiler()
    build, prefix = tmp_path / "build", tmp_path / "prefix"
    _configure(REPO, build, "-DSTUDEVAL_PYTHON=OFF", "-DSKBUILD=ON")
    _install(build, prefix)
    assert not [path for path in prefix.rglob("*") if path.is_file()]


def test_link_with_pkg_config(installed: Installed, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg_config = _tool("pkg-config") or _tool("pkgconf")
    if pkg_config is None:
        missing_tool("no pkg-config found: install pkg-config (or pkgconf)")
    monkeypatch.setenv("PKG_CONFIG_PATH", str(installed.libdir / "pkgconfig"))
    flags = run_checked([pkg_config, "--cflags", "--libs", "studeval"], "pkg-config",
                        STEP_TIMEOUT_S).stdout.split()  # fmt: skip
    source = _ranks_source(installed.work / "pkg-config")
    binary = source.with_suffix("")
    run_checked([*find_compiler().split(), "-std=c99", "-Wall", "-Wextra", "-Werror",
                 str(source), *flags, "-o", str(binary)], "cc with pkg-config's flags",
                STEP_TIMEOUT_S)  # fmt: skip
    _run_ranks(binary)


def test_link_with_find_package(installed: Installed) -> None:
    project = installed.work / "find-package"
    _ranks_source(project)
    (project / "CMakeLists.txt").write_text(
        FIND_PACKAGE_PROJECT.format(version=studeval.__version__)
    )
    build = project / "build"
    run_checked([_cmake(), "-S", str(project), "-B", str(build), *_generator_args(),
                 f"-DCMAKE_PREFIX_PATH={installed.prefix}"], "cmake configure (find_package)",
                STEP_TIMEOUT_S)  # fmt: skip
    run_checked([_cmake(), "--build", str(build)], "cmake --build (find_package)", STEP_TIMEOUT_S)
    _run_ranks(build / "ranks")


def test_link_with_the_plain_link_line(installed: Installed) -> None:
    source = _ranks_source(installed.work / "plain")
    binary = source.with_suffix("")
    run_checked([*find_compiler().split(), "-std=c99", "-Wall", "-Wextra", "-Werror",
                 str(source), f"-I{installed.prefix / 'include'}", f"-L{installed.libdir}",
                 "-lstudeval_core", "-lpthread", "-o", str(binary)], "cc, the plain link line",
                STEP_TIMEOUT_S)  # fmt: skip
    _run_ranks(binary)
