#!/usr/bin/env python3
"""Issue 6: every CUDA, cuBLAS, cuDNN and NCCL call checked, and the last error checked after each
kernel launch. Prints one "file:line: what" per finding in the sources given (files or folders):
- a launch (`<<<...>>>(...);`) whose next statement is not PERFGATE_CHECK_LAUNCH(...);
- a library call made as a statement of its own, its status thrown away. Calls whose status is
  used (wrapped in a check macro, assigned, compared, returned) pass, and so do the release calls
  (…Destroy…, …Free…, …Abort, …EndCapture) that destructors and error paths make, where there
  is nothing left to do about a failure."""
import pathlib
import re
import sys

# Comments and literals (raw strings, strings, characters), whichever starts first: a call named
# in a message ("ncclCommRegister (-R 1)") is text, not a call.
NOT_CODE = re.compile(
    r'//[^\n]*|/\*.*?\*/|R"([^()\\\s]{0,16})\(.*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
    re.S)
API_CALL = re.compile(r"\b(?:cuda|cublas|cudnn|nccl)[A-Z]\w*(?=\s*\()")
RELEASE = re.compile(r"Destroy|Free|Abort|EndCapture")


def blank_comments(text):
    # Same length, newlines kept, so offsets still give line numbers.
    return NOT_CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


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


def starts_statement(text, at):
    """Whether the token at `at` begins a statement: after ; { } or the ) of an if/else head,
    but not after a (void) cast, which discards the status on purpose."""
    before = text[:at].rstrip()
    if re.search(r"\(\s*void\s*\)$", before):
        return False
    return before == "" or before[-1] in ";{}:" or before.endswith(")") or before.endswith("else")


def findings(path):
    text = blank_comments(path.read_text())
    line = lambda offset: text.count("\n", 0, offset) + 1
    for m in re.finditer(r"<<<", text):
        if not text[statement_end(text, m.end()):].lstrip().startswith("PERFGATE_CHECK_LAUNCH("):
            yield f"{path}:{line(m.start())}: kernel launch without PERFGATE_CHECK_LAUNCH"
    for m in API_CALL.finditer(text):
        if text[text.rfind("\n", 0, m.start()) + 1:m.start()].lstrip().startswith("#"):
            continue  # a macro definition
        if starts_statement(text, m.start()) and not RELEASE.search(m.group(0)):
            yield f"{path}:{line(m.start())}: {m.group(0)} status not checked"


def main(paths):
    out = []
    for root in map(pathlib.Path, paths):
        files = [root] if root.is_file() else sorted(
            p for p in root.rglob("*") if p.suffix in (".cu", ".cuh", ".cpp", ".hpp"))
        for f in files:
            out += findings(f)
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
