#!/usr/bin/env python3
# file_names.py ROOT -- prints "file:line: name" for each file name that a comment, a doc or a
# script of ROOT mentions and the tree does not hold (tests/integration/file_names.sh).
import os, re, subprocess, sys

root = sys.argv[1]
files = subprocess.run(["git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard"],
                       capture_output=True, text=True, check=True).stdout.split()
files = [f for f in files if os.path.isfile(os.path.join(root, f))]
have = set(files)
bases = {os.path.basename(f) for f in files}
tops = {f.split("/")[0] for f in files if "/" in f}
NAME = re.compile(r"(?<![\w./<>$-])((?:[\w.-]+/)*[\w-]+(?:\.[\w-]+)*\.(?:c|h|sh|cmake|sql|py|inc|md))(?![\w/])")
# the lint tests plant names that do not exist on purpose
PLANTS = {"tests/integration/arrows.sh", "tests/integration/layout.sh", "tests/integration/include_cycles.sh",
          "tests/integration/doc_links.sh", "tests/integration/file_names.sh", "tests/integration/lib/file_names.py",
          "tests/integration/lib/include_cycles.py"}
# names of other projects' files (FreeRDP, xrdp, redis, SQLite, ...) that comments cite
ALLOW = os.path.join(root, "tests/integration/lib/foreign-names.txt")
foreign = set()
if os.path.exists(ALLOW):
    foreign = {l.split("#")[0].strip() for l in open(ALLOW) if l.split("#")[0].strip()}

def c_comments(text):
    """The comments of C source, with their line numbers (strings and code dropped)."""
    out, i, n, line = [], 0, len(text), 1
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k, part in enumerate(text[i:j].split("\n")):
                out.append((line + k, part))
            line += text.count("\n", i, j)
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append((line, text[i:j]))
            i = j
        elif text[i] == '"' or text[i] == "'":
            q, j = text[i], i + 1
            while j < n and text[j] != q and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            if text[i] == "\n":
                line += 1
            i += 1
    return out

def lines_of(path, text):
    if re.search(r"\.(c|h)(\.in)?$", path):
        return c_comments(text)
    return list(enumerate(text.split("\n"), 1))

def exists(src, name):
    if "/" not in name:
        return name in bases or name + ".in" in bases or name in foreign
    if name.split("/")[0] not in tops and not name.startswith(("./", "../")):
        return True     # a path in someone else's tree
    rel = os.path.normpath(os.path.join(os.path.dirname(src), name))
    return (name in have or name + ".in" in have or rel in have or name in foreign or
            os.path.isdir(os.path.join(root, name)))

for f in files:
    if f in PLANTS or not re.search(r"(\.(c|h|sh|cmake|sql|py|inc|md|yaml|in)|CMakeLists\.txt|Makefile|/run|scripts/[\w-]+)$", f):
        continue
    try:
        text = open(os.path.join(root, f), encoding="utf-8").read()
    except (UnicodeDecodeError, OSError):
        continue
    for n, line in lines_of(f, text):
        if re.match(r"\s*#\s*include\s*<", line):
            continue
        for m in NAME.finditer(line):
            if not exists(f, m.group(1)):
                print(f"{f}:{n}: {m.group(1)}")
