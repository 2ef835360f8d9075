#!/usr/bin/env python3
"""A crude but real audit of perfgate's sources for two classes of injection.

1. SQL: every call that hands SQL text to SQLite (sqlite3_exec, sqlite3_prepare*, and the
   store's wrappers .exec(…) / .query(…)) must pass text that is not built at run time
   (no '+', fmt::format, to_string, append, <<). Values go through bound parameters.
2. Shell: no system(), popen(), "sh -c" or execl* in C/C++ code (argument vectors only,
   core/process.hpp), and no `eval` in scripts.

usage: source_audit.py SOURCE_DIR ALLOWLIST
ALLOWLIST lines: "path<TAB>substring of the flagged call<TAB>why it is safe".
Prints each finding as path:line: text; exits 1 when one is not on the allowlist.
"""
import pathlib
import re
import sys

SQL_CALL = re.compile(r"\b(sqlite3_exec|sqlite3_prepare(?:_v2|_v3)?|\.exec|->exec|\.query|->query)\s*\(")
BUILT = re.compile(r"\+|fmt::format|\bformat\(|to_string\(|\.append\(|<<|\bstr\(\)")
SHELL_CALL = re.compile(r"(?<![\w.:>])(?:std::)?(?:system|popen)\s*\(|\bexecl[pe]?\s*\(")
SHELL_ARGV = re.compile(r"\"(?:/bin/)?(?:ba)?sh\"\s*,\s*\"-c\"")
SHELL_SCRIPT = re.compile(r"^\s*[^#]*\beval\b")
SKIP_DIRS = {"build", ".git", "tests"}


def call_argument(text, start):
    """The text between the '(' at `start`-1 and its matching ')'."""
    depth, i, in_str = 1, start, None
    while i < len(text) and depth:
        c = text[i]
        if in_str:
            if c == "\\":
                i += 1
            elif c == in_str:
                in_str = None
        elif c in "\"'":
            in_str = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        i += 1
    return text[start:i - 1]


def strip_literals(arg):
    return re.sub(r'"(?:[^"\\]|\\.)*"', '""', arg)


def sources(root, suffixes):
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root)
        if rel.parts and rel.parts[0] in SKIP_DIRS:
            continue
        if p.is_file() and p.suffix in suffixes:
            yield p, rel


def findings(root):
    for path, rel in sources(root, {".cpp", ".hpp", ".cu", ".cuh", ".h", ".cc"}):
        text = path.read_text(errors="replace")
        code = re.sub(r"//[^\n]*", "", text)
        for m in SQL_CALL.finditer(code):
            arg = call_argument(code, m.end())
            if BUILT.search(strip_literals(arg)):
                line = code.count("\n", 0, m.start()) + 1
                yield "sql", str(rel), line, " ".join((m.group(0) + arg + ")").split())
        bare = strip_literals(code)  # a word inside a message is not a call
        for pattern, where in ((SHELL_CALL, bare), (SHELL_ARGV, code)):
            for m in pattern.finditer(where):
                line = where.count("\n", 0, m.start()) + 1
                yield "shell", str(rel), line, where.splitlines()[line - 1].strip()
    for path, rel in sources(root, {".sh", ""}):
        if path.suffix == "" and not path.read_bytes()[:2] == b"#!":
            continue
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if SHELL_SCRIPT.search(line):
                yield "shell", str(rel), n, line.strip()


def main():
    root, allow_file = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    allow = []
    for line in allow_file.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            path, needle, _why = line.split("\t")
            allow.append((path, needle))
    bad = checked = 0
    for kind, rel, line, text in findings(root):
        checked += 1
        allowed = any(rel == p and n in text for p, n in allow)
        print(f"{'allowed' if allowed else 'FINDING'} {kind} {rel}:{line}: {text}")
        bad += not allowed
    print(f"source audit: {checked} flagged call(s), {bad} not on the allowlist")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
