"""The decisions inside tools/wheel_proof.py: tags, sdist and wheel checks, clean copies.

The end-to-end proof (build, repair, fresh venvs) runs from .ci/run; these tests pin the
parts that decide what it accepts, so a change there cannot quietly weaken it.
"""

from __future__ import annotations

import importlib.util
import io
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from types import ModuleType

import pytest
from helpers import missing_tool

TOOL = Path(__file__).resolve().parent.parent / "tools" / "wheel_proof.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("wheel_proof", TOOL)
    assert spec is not None and spec.loader is not None, f"cannot load {TOOL}"
    module = importlib.util.module_from_spec(spec)
    # dataclasses resolve the module through sys.modules while the class is created.
    sys.modules["wheel_proof"] = module
    spec.loader.exec_module(module)
    return module


wp = _load()


@pytest.mark.parametrize(
    ("tag", "glibc"),
    [
        ("manylinux_2_17_x86_64", (2, 17)),
        ("manylinux_2_34_aarch64", (2, 34)),
        ("manylinux2014_x86_64", (2, 17)),
        ("manylinux1_x86_64", (2, 5)),
        ("manylinux2010_x86_64", (2, 12)),
    ],
)
def test_glibc_of_tags(tag: str, glibc: tuple[int, int]) -> None:
    assert wp.glibc_of(tag) == glibc


@pytest.mark.parametrize("tag", ["linux_x86_64", "musllinux_1_2_x86_64", "manylinux_x_y_z"])
def test_glibc_of_rejects_other_tags(tag: str) -> None:
    with pytest.raises(wp.ProofError, match="not a manylinux tag"):
        wp.glibc_of(tag)


def test_arch_of() -> None:
    assert wp.arch_of("manylinux_2_17_x86_64") == "x86_64"
    assert wp.arch_of("manylinux2014_aarch64") == "aarch64"
    with pytest.raises(wp.ProofError):
        wp.arch_of("linux_x86_64")


def test_zig_build_claims_no_glibc_older_than_it_targeted() -> None:
    # The symbol scan of a zig build can allow manylinux_2_5; the claim stays at 2.17.
    assert wp.choose_plat({"overall_tag": "manylinux_2_5_x86_64"}, "zig") == (
        "manylinux_2_17_x86_64"
    )
    assert wp.choose_plat({"overall_tag": "manylinux_2_17_x86_64"}, "zig") == (
        "manylinux_2_17_x86_64"
    )


def test_platform_build_takes_the_scanned_floor() -> None:
    assert wp.choose_plat({"overall_tag": "manylinux_2_34_x86_64"}, "cc") == (
        "manylinux_2_34_x86_64"
    )
    # A zig build whose symbols needed a newer glibc than targeted keeps the newer floor.
    assert wp.choose_plat({"overall_tag": "manylinux_2_28_aarch64"}, "zig") == (
        "manylinux_2_28_aarch64"
    )


def test_no_manylinux_policy_is_an_error() -> None:
    with pytest.raises(wp.ProofError, match="no manylinux policy"):
        wp.choose_plat({"overall_tag": "linux_x86_64"}, "cc")


def test_zig_targets() -> None:
    assert wp.zig_target("x86_64") == "x86_64-linux-gnu.2.17"
    assert wp.zig_target("AMD64") == "x86_64-linux-gnu.2.17"
    assert wp.zig_target("aarch64") == "aarch64-linux-gnu.2.17"
    with pytest.raises(wp.ProofError, match="ppc64le"):
        wp.zig_target("ppc64le")


GOOD_SDIST = {
    "pyproject.toml": "",
    "CMakeLists.txt": "",
    "LICENSE": "",
    "README.md": "",
    "PKG-INFO": "",
    "csrc/rank/se_eval.c": "",
    "src/studeval/__init__.py": "",
    "tests/test_core.py": "",
}


def _sdist(path: Path, files: dict[str, str]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"studeval-0.1.0/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def test_check_sdist_accepts_a_complete_sdist(tmp_path: Path) -> None:
    report = wp.Report(mode="quick", compiler="zig")
    wp.check_sdist(_sdist(tmp_path / "ok.tar.gz", GOOD_SDIST), report)
    assert report.facts["sdist_files"] == len(GOOD_SDIST)


@pytest.mark.parametrize(
    "extra",
    [
        "build/cp311/CMakeCache.txt",
        "src/studeval/_core.cpython-311-x86_64-linux-gnu.so",
        "src/studeval/__pycache__/cards.cpython-311.pyc",
        ".git/HEAD",
        "dist/studeval-0.1.0-cp311-cp311-linux_x86_64.whl",
    ],
)
def test_check_sdist_rejects_build_output(tmp_path: Path, extra: str) -> None:
    sdist = _sdist(tmp_path / "bad.tar.gz", {**GOOD_SDIST, extra: ""})
    with pytest.raises(wp.ProofError, match="build output or caches"):
        wp.check_sdist(sdist, wp.Report(mode="quick", compiler="zig"))


@pytest.mark.parametrize("missing", ["CMakeLists.txt", "csrc/rank/se_eval.c", "tests/test_core.py"])
def test_check_sdist_rejects_missing_parts(tmp_path: Path, missing: str) -> None:
    files = {k: v for k, v in GOOD_SDIST.items() if k != missing}
    with pytest.raises(wp.ProofError, match="sdist lacks"):
        wp.check_sdist(_sdist(tmp_path / "short.tar.gz", files), wp.Report("quick", "zig"))


def _wheel(path: Path, names: list[str]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name in names:
            zf.writestr(name, "")
    return path


WHEEL = [
    "studeval/__init__.py",
    "studeval/_core.cpython-311-x86_64-linux-gnu.so",
    "studeval-0.1.0.dist-info/licenses/LICENSE",
]


def test_check_wheel(tmp_path: Path) -> None:
    report = wp.Report(mode="quick", compiler="zig")
    wp.check_wheel(_wheel(tmp_path / "ok.whl", WHEEL), report)
    assert report.facts["wheel_files"] == 3
    with pytest.raises(wp.ProofError, match="no compiled"):
        wp.check_wheel(_wheel(tmp_path / "pure.whl", [WHEEL[0], WHEEL[2]]), report)
    with pytest.raises(wp.ProofError, match="build sources"):
        wp.check_wheel(_wheel(tmp_path / "pyx.whl", [*WHEEL, "studeval/_core.pyx"]), report)
    with pytest.raises(wp.ProofError, match="LICENSE"):
        wp.check_wheel(_wheel(tmp_path / "nolicense.whl", WHEEL[:2]), report)


def test_clean_copy_of_a_git_tree_leaves_ignored_files(tmp_path: Path) -> None:
    git = shutil.which("git")
    if git is None:
        missing_tool("git is needed to make the test repository")
    src = tmp_path / "repo"
    (src / "src").mkdir(parents=True)
    (src / ".gitignore").write_text("/build/\n*.so\n")
    (src / "src" / "kept.py").write_text("tracked\n")
    (src / "src" / "gone.py").write_text("tracked, then deleted\n")
    subprocess.run([git, "init", "-q", str(src)], check=True)
    subprocess.run([git, "-C", str(src), "add", "-A"], check=True)
    (src / "src" / "gone.py").unlink()
    (src / "new.txt").write_text("untracked, not ignored\n")
    (src / "build").mkdir()
    (src / "build" / "cache.txt").write_text("ignored\n")
    (src / "src" / "_core.so").write_text("ignored\n")

    dest = tmp_path / "copy"
    count = wp.clean_copy(src, dest)
    copied = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
    assert copied == [".gitignore", "new.txt", "src/kept.py"]
    assert count == 3


def test_clean_copy_without_git_skips_build_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "plain"
    for rel in ("pyproject.toml", "src/studeval/cards.py", "build/x.o", "venv/bin/python"):
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text("x\n")
    (src / "src" / "studeval" / "__pycache__").mkdir()
    (src / "src" / "studeval" / "__pycache__" / "cards.pyc").write_text("x\n")

    def no_git(*args: object, **kwargs: object) -> None:
        raise FileNotFoundError("git")

    # As on a machine without git (or a tree that is no work tree): the ignore list applies.
    monkeypatch.setattr(wp.subprocess, "run", no_git)
    dest = tmp_path / "copy"
    wp.clean_copy(src, dest)
    copied = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
    assert copied == ["pyproject.toml", "src/studeval/cards.py"]


def test_quick_selection_leaves_out_the_exhaustive_check(tmp_path: Path) -> None:
    (tmp_path / "test_exhaustive.py").write_text("")
    (tmp_path / "test_core.py").write_text("")
    slow = ["-m", "not slow"]
    assert wp.quick_selection(tmp_path) == ["--ignore=tests/test_exhaustive.py", *slow]
    (tmp_path / "test_exhaustive.py").unlink()
    assert wp.quick_selection(tmp_path) == slow
    assert wp.smoke_selection(tmp_path) == ["tests/test_core.py"]  # those it has


def test_the_aarch64_proof_checks_its_host_python_first(tmp_path: Path) -> None:
    """It compares the wheel under emulation with this interpreter's studeval: one
    without studeval is refused at once, not after minutes of building."""
    import venv

    spec = importlib.util.spec_from_file_location("cross_proof", TOOL.with_name("cross_proof.py"))
    assert spec is not None and spec.loader is not None
    cross = importlib.util.module_from_spec(spec)
    sys.modules["cross_proof"] = cross
    spec.loader.exec_module(cross)
    cross.check_host_python(sys.executable)  # this one has both
    venv.create(tmp_path / "bare", with_pip=False)
    bare = tmp_path / "bare" / "bin" / "python"
    with pytest.raises(cross.ProofError, match="cannot import studeval and numpy"):
        cross.check_host_python(str(bare))
