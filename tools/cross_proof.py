#!/usr/bin/env python3
"""Prove the Linux aarch64 wheel on an x86_64 machine: cross-built, emulated, tested.

    python tools/wheel_proof.py --target aarch64     # the whole proof (calls this)
    python tools/cross_proof.py --help

Steps, each failing the command when it fails:

1. The tools: qemu-user-static, binfmt-support and debootstrap from apt (when
   missing, as root), and the ``qemu-aarch64`` binfmt handler switched on so an arm64
   program runs in a chroot as if natively.
2. An arm64 Debian 12 root file system with python3-dev and python3-venv, and a venv
   in it with numpy, pytest and hypothesis: made once by debootstrap into a cache
   directory outside the checkout (``$STUDEVAL_CACHE``, else ``~/.cache/studeval``)
   and reused, so a rerun costs minutes.
3. The wheel, cross-compiled by ``zig cc -target aarch64-linux-gnu.2.17`` against the
   target's own Python headers (copied aside: Debian's ``pyconfig.h`` picks its
   architecture through a subdirectory, and the rest of the rootfs's ``/usr/include``
   would bring glibc 2.36's headers over zig's 2.17), with the target's extension
   suffix; tagged ``linux_aarch64`` and repaired by auditwheel to the lowest honest
   manylinux tag (``--plat auto``: an x86_64 host refuses to name an aarch64 one).
4. The wheel installed into the rootfs's venv (nothing fetched: numpy is there) and
   the test suite run there under emulation: every test file that needs neither a C
   compiler nor a peer library nor a terminal.
5. 100,000 random hands ranked (high, A-5 low, 8-or-better) on the host and under
   emulation, on QEMU's default CPU and on a baseline Cortex-A53: byte-identical.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import stat
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from wheel_proof import (
    ProofError,
    Report,
    auditwheel_show,
    base_env,
    check_wheel,
    clean_copy,
    log,
    run,
    tools_python,
    zig_binary,
)

ROOT = Path(__file__).resolve().parents[1]
SUITE = "bookworm"  # Debian 12: Python 3.11, as on the machines CI runs on
MIRROR = "http://deb.debian.org/debian"
ROOTFS_PACKAGES = "python3-dev,python3-venv,ca-certificates"
# The package's own dependencies (pyproject.toml) and the tests'.
VENV_PACKAGES = (
    "numpy>=1.24",
    "tqdm>=4.60",
    "pytest>=8",
    "pytest-xdist>=3.5",
    "hypothesis>=6.100",
    "pokerkit==0.7.7",
)
VENV = "/opt/studeval-venv"
TARGET = "aarch64-linux-gnu.2.17"
HANDS = 100_000
# Under emulation: the test files that need no compiler (the engine check skips), no
# peer but pokerkit and no terminal, and run in minutes there.
EMULATED_TESTS = (
    "test_core.py",
    "test_engine.py",
    "test_engine_machine.py",
    "test_errors.py",
    "test_games.py",
    "test_hand.py",
    "test_parse_hands.py",
    "test_parse_core.py",
    "test_rules.py",
    "test_rules_properties.py",
    "test_showdown.py",
    "test_stream.py",
    "test_engine_core.py",
    "test_phh.py",
    "test_settle_core.py",
    "test_tables.py",
)
# eval7 and pkrbot have no aarch64 wheels (pokerkit, pure Python, is installed). An
# address-space limit (RLIMIT_AS) caps QEMU itself, not the emulated program, which is
# killed before it can run out of memory: the out-of-memory test runs on the host.
EMULATED_DESELECT = (
    "test_parse_hands.py::test_card_objects_of_other_libraries[eval7]",
    "test_parse_hands.py::test_card_objects_of_other_libraries[pkrbot]",
    "test_tables.py::test_tables_out_of_memory_name_n",
)


def cache_dir() -> Path:
    base = os.environ.get("STUDEVAL_CACHE") or Path.home() / ".cache" / "studeval"
    return Path(base)


# ---- 1. the tools ----------------------------------------------------------------------


def ensure_host_tools() -> None:
    wanted = {"qemu-aarch64-static": "qemu-user-static", "debootstrap": "debootstrap",
              "update-binfmts": "binfmt-support"}  # fmt: skip
    missing = [pkg for tool, pkg in wanted.items() if shutil.which(tool) is None]
    if missing:
        if os.geteuid() != 0 or shutil.which("apt-get") is None:
            raise ProofError(f"the aarch64 proof needs {', '.join(missing)} (apt, as root)")
        log(f"   installing {' '.join(missing)} with apt-get")
        env = dict(base_env(), DEBIAN_FRONTEND="noninteractive")
        run(["apt-get", "install", "-y", "-qq", *missing], env=env, capture=True)
    handler = Path("/proc/sys/fs/binfmt_misc")
    if not (handler / "status").exists():
        run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(handler)], capture=True)
    if (
        not (handler / "qemu-aarch64").exists()
        or "enabled" not in (handler / "qemu-aarch64").read_text()
    ):
        run(["update-binfmts", "--enable", "qemu-aarch64"], capture=True)
    if "enabled" not in (handler / "qemu-aarch64").read_text():
        raise ProofError("the qemu-aarch64 binfmt handler could not be enabled")


# ---- 2. the root file system ------------------------------------------------------------


@contextmanager
def mounted(rootfs: Path) -> Iterator[None]:
    """/proc and /dev inside the rootfs while commands run there."""
    done: list[Path] = []
    try:
        for source, kind in (("/proc", "proc"), ("/dev", "bind")):
            point = rootfs / source.lstrip("/")
            point.mkdir(exist_ok=True)
            if kind == "proc":
                run(["mount", "-t", "proc", "proc", str(point)], capture=True)
            else:
                run(["mount", "--bind", source, str(point)], capture=True)
            done.append(point)
        yield
    finally:
        for point in reversed(done):
            subprocess.run(["umount", "-l", str(point)], check=False)


def target_env(**extra: str) -> dict[str, str]:
    """A clean environment for the rootfs: nothing of the host's pip or Python settings."""
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/root", "LANG": "C.UTF-8",
           "PYTHONDONTWRITEBYTECODE": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
           "PIP_NO_INPUT": "1"}  # fmt: skip
    env.update(extra)
    return env


def chroot() -> str:
    # By its full path: the command runs with the target's PATH, which has no sbin.
    return shutil.which("chroot") or "/usr/sbin/chroot"


def in_rootfs(rootfs: Path, cmd: list[str], *, logfile: Path | None = None,
              env: dict[str, str] | None = None) -> str:  # fmt: skip
    return run([chroot(), str(rootfs), *cmd], env=env or target_env(), logfile=logfile,
               capture=logfile is None)  # fmt: skip


def ensure_rootfs(report: Report, work: Path) -> Path:
    """The cached arm64 rootfs with the test venv, made on first use."""
    rootfs = cache_dir() / f"aarch64-{SUITE}-rootfs"
    ready = rootfs / ".studeval-ready"
    if ready.exists():
        report.facts["rootfs"] = f"reused {rootfs}"
        return rootfs
    partial = rootfs.with_name(rootfs.name + ".partial")
    bootstrapped = partial / ".studeval-debootstrap-done"
    shutil.rmtree(rootfs, ignore_errors=True)
    if not bootstrapped.exists():  # else an earlier run got this far: go on from there
        shutil.rmtree(partial, ignore_errors=True)
        partial.parent.mkdir(parents=True, exist_ok=True)
        log(f"   debootstrap {SUITE} arm64 into {partial} (once; minutes)")
        run(["debootstrap", "--arch=arm64", "--variant=minbase",
             f"--include={ROOTFS_PACKAGES}", SUITE, str(partial), MIRROR], env=base_env(),
            logfile=work / "debootstrap.log")  # fmt: skip
        bootstrapped.write_text("debootstrap finished\n")
    with mounted(partial):
        in_rootfs(partial, ["/usr/bin/python3", "-m", "venv", VENV])
    partial.rename(rootfs)
    ready.write_text(f"{SUITE} arm64, {time.strftime('%Y-%m-%d')}\n")
    report.facts["rootfs"] = f"made {rootfs}"
    return rootfs


def ensure_venv_packages(rootfs: Path, work: Path) -> None:
    """The test venv's packages: the host downloads the arm64 wheels (its pip has the
    host's index and certificates), the rootfs installs them with no index at all.
    Both are no-ops once done."""
    wheels = rootfs / "opt" / "wheels"
    version = target_python(rootfs)[0]
    run([sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:",
         "--platform", "manylinux2014_aarch64", "--python-version", version,
         "--implementation", "cp", "-d", str(wheels), *VENV_PACKAGES],
        env=base_env(), logfile=work / "rootfs-download.log")  # fmt: skip
    in_rootfs(rootfs, [f"{VENV}/bin/pip", "install", "--quiet", "--no-index", "--find-links",
                       "/opt/wheels", *VENV_PACKAGES], logfile=work / "rootfs-pip.log")  # fmt: skip


# ---- 3. the cross-built wheel --------------------------------------------------------------


def target_python(rootfs: Path) -> tuple[str, Path]:
    """The target's Python version and a copy of its headers that stands alone."""
    include = sorted((rootfs / "usr" / "include").glob("python3.*"))
    if not include:
        raise ProofError(f"no Python headers in {rootfs}/usr/include (python3-dev)")
    version = include[-1].name.removeprefix("python")
    host = f"{sys.version_info.major}.{sys.version_info.minor}"
    if version != host:
        raise ProofError(
            f"the host Python is {host} but the target's headers are {version}: run the "
            f"proof with python{version}, whose Cython and build tools must match them"
        )
    return version, include[-1]


def standalone_headers(rootfs: Path, include: Path, dest: Path) -> Path:
    out = dest / include.name
    shutil.copytree(include, out)
    # Debian's pyconfig.h includes <aarch64-linux-gnu/python3.X/pyconfig.h>: use that.
    arch_config = rootfs / "usr" / "include" / "aarch64-linux-gnu" / include.name / "pyconfig.h"
    shutil.copy(arch_config, out / "pyconfig.h")
    return out


def cross_wheel(src: Path, work: Path, tools: Path, rootfs: Path, report: Report) -> Path:
    version, include = target_python(rootfs)
    headers = standalone_headers(rootfs, include, work / "target-include")
    tag = version.replace(".", "")
    suffix = f".cpython-{tag}-aarch64-linux-gnu.so"
    zig = zig_binary(tools)
    wrappers = work / "zig-aarch64"
    wrappers.mkdir()
    env = base_env()
    for name, driver in (("CC", "cc"), ("CXX", "c++")):
        script = wrappers / f"zig-{driver}"
        script.write_text(f'#!/bin/sh\nexec "{zig}" {driver} -target {TARGET} "$@"\n')
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
        env[name] = str(script)
    env["ZIG_LOCAL_CACHE_DIR"] = str(work / "zig-local-cache")
    dist = work / "dist-aarch64"
    settings = [f"-Ccmake.define.Python_INCLUDE_DIR={headers}",
                f"-Ccmake.define.STUDEVAL_EXTENSION_SUFFIX={suffix}"]  # fmt: skip
    run([tools, "-m", "build", "--wheel", "--outdir", dist, *settings, src], env=env,
        logfile=work / "build-aarch64.log")  # fmt: skip
    (raw,) = dist.glob("*.whl")
    host_plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    run([tools, "-m", "wheel", "tags", "--platform-tag", "linux_aarch64", "--remove",
         str(raw)], env=env, capture=True)  # fmt: skip
    (tagged,) = dist.glob("*linux_aarch64.whl")
    log(f"   cross-built {tagged.name} (from a {host_plat} host)")
    env["PATH"] = f"{tools.parent}{os.pathsep}{env.get('PATH', '')}"
    repaired_dir = work / "wheelhouse-aarch64"
    run([tools, "-m", "auditwheel", "repair", "--plat", "auto", "-w", str(repaired_dir),
         str(tagged)], env=env, logfile=work / "auditwheel-aarch64.log")  # fmt: skip
    (repaired,) = repaired_dir.glob("*.whl")
    show = auditwheel_show(tools, repaired, env)
    check_wheel(repaired, report)
    if "aarch64" not in repaired.name or "manylinux" not in repaired.name:
        raise ProofError(f"auditwheel gave {repaired.name}")
    report.facts["aarch64_wheel"] = repaired.name
    report.facts["aarch64_scan_tag"] = show["overall_tag"]
    return repaired


# ---- 4-5. under emulation ---------------------------------------------------------------------

_RANK = """
import sys, numpy as np, studeval
from studeval.play import random_hand
hands = np.load(sys.argv[1])
np.save(sys.argv[2], np.stack([studeval.high_ranks(hands), studeval.low_ranks(hands),
                               studeval.low8_ranks(hands)]))
# Equity (exact by counting, exact by walking, seeded Monte Carlo) and seeded engine
# hands: integers and events, so any difference between machines shows.
spots = [(["As Ks Qd", "Jc Jd 2h"], "stud8", "exact"),
         (["As Ks Qd 7h 8h 9h", "Jc Jd 2h 3h 4d 5s", "7c 6c 5c Tc Qh Kd"], "stud", "exact"),
         (["As Ks Qd", "Jc Jd 2h", "7c 6c 5c"], "razz", "mc")]
for cards, game, method in spots:
    options = {"samples": 20000, "seed": 3} if method == "mc" else {}
    print(studeval.equity(cards, game, method=method, **options).counts)
for seed in range(20):
    hand = random_hand("stud_hilo_noq", 2 + seed % 7, seed)
    print(hand.stacks, [(e.kind, e.seat, e.amount, e.cards) for e in hand.events])
"""


def check_host_python(python: str) -> None:
    """The proof ends by comparing the wheel's answers under emulation with this
    interpreter's own studeval: check up front, before minutes of building, that it
    has studeval and numpy to compare with."""
    probe = subprocess.run([python, "-c", "import numpy, studeval"], capture_output=True,
                           text=True, check=False)  # fmt: skip
    if probe.returncode != 0:
        missing = probe.stderr.strip().splitlines()[-1:] or ["import failed"]
        raise ProofError(
            f"{python} cannot import studeval and numpy ({missing[0]}), which the proof "
            "compares the aarch64 wheel with: run it from an environment where "
            "`pip install .` installed this checkout"
        )


def host_ranks(hands_path: Path, out: Path) -> str:
    """Random 7-card hands (a shuffled deck per row) ranked here; the equity and
    engine lines printed here."""
    import numpy as np

    rng = np.random.default_rng(2026)
    deck = np.argsort(rng.random((HANDS, 52)), axis=1).astype(np.uint8)
    np.save(hands_path, deck[:, :7])
    return run([sys.executable, "-c", _RANK, str(hands_path), str(out)], env=base_env(),
               capture=True)  # fmt: skip


def emulated(src: Path, wheel: Path, rootfs: Path, work: Path, report: Report) -> None:
    import numpy as np

    proof = rootfs / "opt" / "proof"
    shutil.rmtree(proof, ignore_errors=True)
    proof.mkdir(parents=True)
    shutil.copy(wheel, proof / wheel.name)
    for name in ("tests", "csrc", "README.md", "pyproject.toml", "docs"):
        source = src / name
        if source.is_dir():
            shutil.copytree(source, proof / name)
        elif source.exists():
            shutil.copy(source, proof / name)
    with mounted(rootfs):
        ensure_venv_packages(rootfs, work)
        started = time.perf_counter()
        in_rootfs(rootfs, [f"{VENV}/bin/pip", "uninstall", "--quiet", "-y", "studeval"],
                  logfile=work / "uninstall.log")  # fmt: skip
        in_rootfs(rootfs, [f"{VENV}/bin/pip", "install", "--no-index", f"/opt/proof/{wheel.name}"],
                  logfile=work / "install-aarch64.log")  # fmt: skip
        arch = in_rootfs(rootfs, [f"{VENV}/bin/python", "-c", "import platform, studeval; "
                                  "print(platform.machine(), studeval.__version__)"])  # fmt: skip
        report.facts["emulated_python"] = arch.strip()
        if not arch.startswith("aarch64"):
            raise ProofError(f"the rootfs's Python is not aarch64: {arch}")
        tests = [f"tests/{name}" for name in EMULATED_TESTS]
        tests += [f"--deselect=tests/{test}" for test in EMULATED_DESELECT]
        log(f"   pytest under emulation: {len(tests)} test files")
        proc = subprocess.run(
            [chroot(), str(rootfs), "/bin/sh", "-c",
             f"cd /opt/proof && {VENV}/bin/python -m pytest -n auto -q -p no:cacheprovider "
             + " ".join(tests)],
            env=target_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        (work / "pytest-aarch64.log").write_text(proc.stdout)
        print(proc.stdout[-2000:], end="", flush=True)
        summary = [ln for ln in proc.stdout.splitlines() if " passed" in ln or " failed" in ln]
        if proc.returncode != 0:
            raise ProofError(f"tests failed under emulation: {summary[-1:] or proc.returncode}")
        report.facts["emulated_tests"] = summary[-1].strip("= ") if summary else "?"
        report.steps["tests under emulation"] = round(time.perf_counter() - started, 1)

        host_lines = host_ranks(proof / "hands.npy", work / "host-ranks.npy")
        expected = np.load(work / "host-ranks.npy")
        for cpu in ("max", "cortex-a53"):
            out = f"/opt/proof/ranks-{cpu}.npy"
            lines = in_rootfs(rootfs, [f"{VENV}/bin/python", "-c", _RANK,
                                       "/opt/proof/hands.npy", out],
                              env=target_env(QEMU_CPU=cpu))  # fmt: skip
            got = np.load(rootfs / out.lstrip("/"))
            if got.shape != expected.shape or not np.array_equal(got, expected):
                bad = int(np.argmax((got != expected).any(axis=0)))
                raise ProofError(f"aarch64 ({cpu}) ranks differ from the host's at hand {bad}")
            if lines != host_lines:
                raise ProofError(f"aarch64 ({cpu}) equity or engine hands differ from the host's")
        report.facts["ranks_compared"] = (
            f"{HANDS:,} hands x 3 rankings, 3 equity spots and 20 seeded engine hands "
            f"identical to {platform.machine()} (QEMU's max CPU and a Cortex-A53)"
        )


def prove_aarch64(args: argparse.Namespace, report: Report) -> None:
    """The whole aarch64 proof (step numbers as in the module text)."""
    if platform.machine() not in ("x86_64", "AMD64"):
        raise ProofError("the aarch64 proof cross-builds from an x86_64 host")
    check_host_python(sys.executable)
    work = Path(args.work)
    with report.timed("aarch64: host tools and binfmt"):
        ensure_host_tools()
    with report.timed("aarch64: rootfs (cached)"):
        rootfs = ensure_rootfs(report, work)
    with report.timed("aarch64: tools and clean checkout"):
        tools = tools_python(work, True, report)
        run([tools, "-m", "pip", "install", "--quiet", "wheel>=0.42"], env=base_env())
        src = work / "src-aarch64"
        clean_copy(args.source, src)
    with report.timed("aarch64: cross-build and repair"):
        wheel = cross_wheel(src, work, tools, rootfs, report)
    with report.timed("aarch64: install, tests and ranks under emulation"):
        emulated(src, wheel, rootfs, work, report)


def main(argv: list[str] | None = None) -> int:
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=ROOT, help="checkout to prove")
    parser.add_argument("--keep", action="store_true", help="keep the work dir")
    args = parser.parse_args(argv)
    report = Report(mode="aarch64", compiler="zig")
    args.work = tempfile.mkdtemp(prefix="studeval-aarch64-")
    started = time.perf_counter()
    try:
        prove_aarch64(args, report)
    except ProofError as exc:
        print(f"aarch64 proof FAILED: {exc}", file=sys.stderr, flush=True)
        return 1
    finally:
        report.steps["total"] = round(time.perf_counter() - started, 1)
        if not args.keep:
            shutil.rmtree(args.work, ignore_errors=True)
    log("\n== aarch64 proof summary")
    for key, value in report.facts.items():
        if key != "versioned_symbols":
            log(f"  {key}: {value}")
    for name, secs in report.steps.items():
        log(f"  {name:<50} {secs:7.1f} s")
    log("aarch64 proof passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
