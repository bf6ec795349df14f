#!/usr/bin/env bash
# Build the documentation site with warnings as errors.
#
#   tools/build_docs.sh [SITE_DIR]
#
# 1. Runs the examples in docs/index.md as doctests (the getting-started page must not lie).
# 2. Runs `mkdocs build --strict` into SITE_DIR (default: a temp dir, removed afterwards,
#    so a CI run leaves the checkout untouched).
#
# Needs studeval importable (installed: the API reference reads the compiled module's
# docstrings) and the docs tools: pip install -e ".[docs]". PYTHON picks the interpreter
# (default: python3 on PATH).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON="${PYTHON:-python3}"
export PYTHONDONTWRITEBYTECODE=1
# mkdocs-material prints a multi-line notice about its successor on every build.
export NO_MKDOCS_2_WARNING=1

for module in studeval mkdocs material mkdocstrings_handlers.python; do
    if ! "$PYTHON" -c "import $module" 2>/dev/null; then
        echo "build_docs: '$PYTHON' cannot import $module; run: pip install -e '.[docs]'" >&2
        exit 2
    fi
done

echo "== doctests in docs/index.md and docs/equity.md"
"$PYTHON" - <<'EOF'
import doctest
import sys

flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
failed = False
for page in ("docs/index.md", "docs/equity.md"):
    result = doctest.testfile(page, module_relative=False, optionflags=flags)
    if result.attempted and not result.failed:
        print(f"{page}: all {result.attempted} examples give the output shown")
    failed |= bool(result.failed or not result.attempted)
sys.exit(1 if failed else 0)
EOF

if [[ $# -ge 1 ]]; then
    site_dir="$1"
else
    site_dir="$(mktemp -d "${TMPDIR:-/tmp}/studeval-site.XXXXXX")"
    trap 'rm -rf "$site_dir"' EXIT
fi

echo "== mkdocs build --strict -> $site_dir"
"$PYTHON" -m mkdocs build --strict --clean --site-dir "$site_dir"
# Sphinx roles in a docstring (":func:`x`") would be printed raw on the page.
if grep -rlE ':(func|class|meth|data|attr|mod|exc|obj):`' "$site_dir" --include='*.html'; then
    echo "build_docs: raw Sphinx roles in the pages above" >&2
    exit 1
fi
# The API page: the fields of Ranks, signatures formatted on several lines (black),
# and the public types in signatures rather than the stub's private aliases.
"$PYTHON" - "$site_dir/api/index.html" <<'EOF'
import re
import sys

page = open(sys.argv[1], encoding="utf-8").read()
fields = ("studeval.batch.Ranks.high", "studeval.batch.Ranks.low", "studeval.batch.Ranks.low8")
problems = [f"no entry for {anchor}" for anchor in fields if f'id="{anchor}"' not in page]
if not re.search(r'all_ranks</span><span class="p">\(</span>\n', page):
    problems.append("long signatures are not formatted (is black installed?)")
if "studeval._core.Hand" in page:
    problems.append("a signature points at the stub's private Hand alias")
if problems:
    sys.exit("build_docs: " + "; ".join(problems))
print("api page: Ranks fields, formatted signatures, public types")
EOF
echo "docs built: $(find "$site_dir" -name '*.html' | wc -l) pages"
