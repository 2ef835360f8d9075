#!/usr/bin/env bash
# Every C++ and CUDA source follows the repository's .clang-format. First proves the check
# catches a planted, badly formatted file; then requires the real tree to be clean.
source "$(dirname "$0")/../lib.sh"
command -v clang-format >/dev/null || fail "clang-format is not installed (scripts/setup installs it)"

# Lists the sources under $1 (tracked files in a git checkout, else every file) and prints the
# ones clang-format would change, read from its one-line-per-finding diagnostics.
sources() {
  if git -C "$1" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$1" ls-files -- '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h'
  else
    (cd "$1" && find . -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' -o -name '*.h' \) -printf '%P\n')
  fi
}
unformatted() {
  # xargs exits 123 when clang-format finds something: the findings are the answer, not a failure.
  (cd "$1" && sources . | { xargs -r clang-format --style=file --dry-run --Werror 2>&1 >/dev/null || true; } |
    sed -nE 's/^(.+):[0-9]+:[0-9]+: error: code should be clang-formatted.*/\1/p' | sort -u)
}

mkdir planted
cp "$SOURCE_DIR/.clang-format" planted/
printf 'int  f( int x ){return x*2;}\n' >planted/bad.cpp
printf 'int f(int x) {\n  return x * 2;\n}\n' >planted/good.cpp
[ "$(unformatted planted)" = "bad.cpp" ] || fail "the check did not single out planted/bad.cpp"

bad=$(unformatted "$SOURCE_DIR")
if [ -n "$bad" ]; then
  echo "$bad"
  fail "$(echo "$bad" | wc -l) source file(s) differ from .clang-format; run: clang-format -i <file>"
fi
echo "source_format: $(sources "$SOURCE_DIR" | wc -l) files ok"
