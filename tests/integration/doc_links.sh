#!/usr/bin/env bash
# doc_links.sh -- no doc points at a file the repository does not ship: every markdown link
# [text](target) and image ![alt](target) of README.md and docs/*.md, outside code blocks and code
# spans, whose target is not http(s):, mailto: or a #anchor, names a file or folder of the tree
# (relative to the markdown file's folder, its #anchor stripped). First shown to catch a planted
# bad link in a scratch tree. Fails naming file:line and the link.
set -u
SRC=${SESSMAX_SOURCE_DIR:?SESSMAX_SOURCE_DIR not set}
. "$(dirname "$0")/lib/harness.sh"

# bad_links ROOT: "file:line: [text](target)" for each link of ROOT's docs that names nothing,
# then "checked N" (the relative links seen)
bad_links() {
    python3 - "$1" <<'PY'
import glob, os, re, sys
root = sys.argv[1]
checked = 0
link = re.compile(r'!?\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
for md in [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md"))):
    if not os.path.isfile(md):
        continue
    fence = None
    for n, line in enumerate(open(md, encoding="utf-8"), 1):
        m = re.match(r'\s*(```|~~~)', line)
        if m:
            fence = None if fence == m.group(1) else (fence or m.group(1))
            continue
        if fence:
            continue
        spans = [c.span() for c in re.finditer(r'`[^`]*`', line)]
        for m in link.finditer(line):
            if any(a <= m.start() < b for a, b in spans):
                continue
            text, target = m.groups()
            if re.match(r'(https?:|mailto:|#)', target):
                continue
            checked += 1
            path = target.split('#', 1)[0]
            if not os.path.exists(os.path.join(os.path.dirname(md), path)):
                print(f"{os.path.relpath(md, root)}:{n}: [{text}]({target})")
print("checked", checked)
PY
}

scratch_dir plant sessmax-doc-links
mkdir -p "$plant/docs" "$plant/common"
touch "$plant/common/log.c"
cat >"$plant/README.md" <<'MD'
See [the guide](docs/guide.md#start), [the log](common/log.c), [a folder](common/),
[the web](https://example.org/x.md), [mail](mailto:a@b.c), [here](#top) and ![logo](docs/logo.png).
`[not a link](nowhere.md)`
```
[in a code block](nowhere.md)
```
MD
cat >"$plant/docs/guide.md" <<'MD'
Back to [the README](../README.md "front door"); the [old contract](SIMHOST-CONTRACT.md#rules).
[`common/log.c`](../common/log.c)
MD
got=$(bad_links "$plant")
want="README.md:2: [logo](docs/logo.png)
docs/guide.md:1: [old contract](SIMHOST-CONTRACT.md#rules)
checked 7"
[ "$got" = "$want" ] || fail "the link check did not catch exactly the two planted bad links (got: ${got:-nothing})"
rm -rf "$plant"

out=$(bad_links "$SRC")
bad=$(grep -v '^checked ' <<<"$out")
if [ -n "$bad" ]; then
    echo "$bad" | sed 's/^/FAIL: /; s/$/: no such file or folder in the repository/'
    echo "$(echo "$bad" | wc -l) link(s) to nothing"
    exit 1
fi
echo "ok: the ${out##*checked } relative links of README.md and docs/*.md each name a file or folder of the repository"
