# include_cycles.py -- finds include circles between modules, for tests/integration/include_cycles.sh.
# A module is a file stem: x.c and x.h are one module, and a private header x_int.h belongs to
# module x. Module A depends on module B when a file of A has `#include "B's header"`. A circle is
# a strongly connected set of two or more modules (Tarjan); for each one it prints the modules and
# every include that ties them (file:line -> header), so a reader knows where to cut.
# Usage: include_cycles.py ROOT PART... (the folders under ROOT to read). Exit 1 when any circle.
import os
import re
import sys

INCLUDE = re.compile(r'^#include "([^"]+)"', re.M)


def module(path):
    stem = path.rsplit('.', 1)[0]
    return stem[:-4] if stem.endswith('_int') else stem


def read_includes(root, parts):
    """{file: [(line, header)]} for every .c and .h under ROOT/PART, paths relative to ROOT"""
    files = {}
    for part in parts:
        for folder, _, names in os.walk(os.path.join(root, part)):
            for name in names:
                if not name.endswith(('.c', '.h')):
                    continue
                full = os.path.join(folder, name)
                text = open(full, encoding='utf-8', errors='replace').read()
                files[os.path.relpath(full, root)] = [
                    (text.count('\n', 0, m.start()) + 1, m.group(1)) for m in INCLUDE.finditer(text)]
    return files


def module_graph(files):
    graph = {}
    for f, incs in files.items():
        edges = graph.setdefault(module(f), set())
        edges.update(module(h) for _, h in incs if h in files and module(h) != module(f))
    return graph


def circles(graph):
    """the strongly connected components of two or more modules, each sorted (Tarjan)"""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def ties(files, comp):
    """the includes between different modules of COMP: "file:line -> header" each"""
    members = set(comp)
    found = sorted((f, line, h) for f, incs in files.items() if module(f) in members
                   for line, h in incs
                   if h in files and module(h) in members and module(h) != module(f))
    return [f"{f}:{line} -> {h}" for f, line, h in found]


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: include_cycles.py ROOT PART...")
    files = read_includes(sys.argv[1], sys.argv[2:])
    found = circles(module_graph(files))
    for n, comp in enumerate(found, 1):
        print(f"circle {n} ({len(comp)} modules): {' '.join(comp)}")
        for tie in ties(files, comp):
            print(f"  {tie}")
    print(f"{len(found)} circle(s) among {len(files)} files")
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
