#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fail on a cycle between the sub-areas of monitor/ (docs/architecture.md).

Two graphs, one edge A -> B per reason: a file of A includes a header of B, or an object
of A uses a symbol that an object of B defines (each file compiled alone for the host, so
the calls are what the source says, not what inlining left). Any strongly connected set
of two or more areas is a cycle: printed with the files and symbols that make it."""
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MONITOR = ROOT / "monitor"


def areas():
    return sorted(p.name for p in MONITOR.iterdir() if p.is_dir())


def area_of_file():
    owner = {}
    for area in areas():
        for f in (MONITOR / area).iterdir():
            if f.suffix in (".c", ".h"):
                owner[f] = area
    return owner


def include_edges(owner):
    by_name = {f.name: a for f, a in owner.items() if f.suffix == ".h"}
    edges = defaultdict(set)
    for f, a in owner.items():
        for line in f.read_text().splitlines():
            line = line.strip()
            if line.startswith("#include \""):
                name = line.split('"')[1]
                b = by_name.get(name)
                if b and b != a:
                    edges[(a, b)].add(f"{f.relative_to(ROOT)} includes {name}")
    return edges


def symbol_edges(owner, cc, flags):
    defined, used = {}, defaultdict(set)
    with tempfile.TemporaryDirectory() as tmp:
        for f, a in owner.items():
            if f.suffix != ".c":
                continue
            obj = Path(tmp) / (f.stem + f"_{a}.o")
            subprocess.run([cc, "-c", "-O0", "-w", *flags, str(f), "-o", str(obj)], check=True)
            out = subprocess.run(["nm", str(obj)], check=True, capture_output=True,
                                 text=True).stdout
            for line in out.splitlines():
                parts = line.split()
                if len(parts) == 2 and parts[0] == "U":
                    used[f].add(parts[1])
                elif len(parts) == 3 and parts[1] in "TDBRC":
                    defined[parts[2]] = (f, a)
    edges = defaultdict(set)
    for f, syms in used.items():
        a = owner[f]
        for s in syms:
            if s in defined and defined[s][1] != a:
                edges[(a, defined[s][1])].add(f"{f.relative_to(ROOT)} uses {s}")
    return edges


def cycles(nodes, edges):
    """Strongly connected sets of more than one node (Tarjan)."""
    succ = defaultdict(set)
    for a, b in edges:
        succ[a].add(b)
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            if len(scc) > 1:
                out.append(sorted(scc))

    for v in nodes:
        if v not in index:
            visit(v)
    return out


def main():
    verbose = "-v" in sys.argv[1:]
    flags = [a for a in sys.argv[1:] if a != "-v"]  # the rest are the compiler's
    owner = area_of_file()
    failed = False
    for kind, edges in (("include", include_edges(owner)),
                        ("call", symbol_edges(owner, "gcc", flags))):
        for scc in cycles(areas(), edges):
            failed = True
            print(f"error: {kind} cycle between monitor/ areas: {' '.join(scc)}")
            for (a, b), why in sorted(edges.items()):
                if a in scc and b in scc:
                    for w in sorted(why)[:4]:
                        print(f"  {a} -> {b}: {w}")
        layers = sorted(f"{a}->{b}" for a, b in edges)
        if verbose:
            print(kind, " ".join(layers))
    if failed:
        return 1
    print(f"layers: no include or call cycle between monitor/ areas ({', '.join(areas())})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
