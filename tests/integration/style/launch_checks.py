#!/usr/bin/env python3
"""Prints every CUDA kernel launch (`<<<...>>>(...);`) under the given paths whose next
statement is not PERFGATE_CHECK_LAUNCH(...): a launch error (bad configuration, too much shared
memory) would otherwise surface at some later, unrelated call. One "file:line" per finding."""
import pathlib
import re
import sys

COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def blank_comments(text):
    # Same length, newlines kept, so offsets still give line numbers.
    return COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def statement_end(text, start):
    """Offset just past the ';' that ends the statement containing offset `start`."""
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == ";" and depth <= 0:
            return i + 1
    return len(text)


def unchecked(path):
    text = blank_comments(path.read_text())
    for m in re.finditer(r"<<<", text):
        rest = text[statement_end(text, m.end()):].lstrip()
        if not rest.startswith("PERFGATE_CHECK_LAUNCH("):
            yield text.count("\n", 0, m.start()) + 1


def main(paths):
    findings = []
    for root in map(pathlib.Path, paths):
        files = [root] if root.is_file() else sorted(
            p for p in root.rglob("*") if p.suffix in (".cu", ".cuh", ".cpp"))
        for f in files:
            findings += [f"{f}:{line}" for line in unchecked(f)]
    print("\n".join(findings))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
