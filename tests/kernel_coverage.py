#!/usr/bin/env python3
"""tests/kernel_coverage.py PREFIX: Oclgrind's coverage of the kernels.

Oclgrind runs the tests on small inputs and one case per code path
(CLSA_TEST_LEAN); it is there to find races, out-of-bounds and
uninitialised reads, so every kernel must still run under it.  The suite
(tools/run_tests.sh, CLSA_TEST_LAUNCHES=PREFIX) leaves PREFIX.IMPL files of
"PROGRAM|OPTIONS|KERNEL" lines, one per kernel launched (host/runtime/launch.c).
Fails when, unless tests/kernel_coverage.txt names the kernel with the
reason (the library takes another path on Oclgrind, or only GPUs run it),
  - a kernel launched on PoCL or rusticl never ran on Oclgrind, or
  - a kernel of cl_kernels/ ran on no implementation.
Also prints, per program, how many option sets (-D variants) each
implementation launched, and the kernels of each implementation."""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def source_kernels():
    """Every kernel function of cl_kernels/, with its file."""
    found = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "cl_kernels", "**", "*.cl"), recursive=True)):
        text = open(path, encoding="utf-8").read()
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        text = re.sub(r"//[^\n]*", "", text)
        for name in re.findall(r"\b(?:__)?kernel\s+(?:__attribute__\s*\(\(.*?\)\)\s*)*void\s+(\w+)\s*\(",
                               text, flags=re.S):
            found[name] = os.path.relpath(path, ROOT)
    return found


def launches(prefix, impl):
    """(program, options, kernel) triples launched on impl; None if no file."""
    path = f"{prefix}.{impl}"
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8", errors="replace") as f:
        return {tuple(line.rstrip("\n").split("|", 2)) for line in f if line.count("|") >= 2}


def excused():
    """Kernels tests/kernel_coverage.txt excuses, with the reasons."""
    names = {}
    with open(os.path.join(ROOT, "tests", "kernel_coverage.txt"), encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, _, why = line.strip().partition(" ")
                names[name] = why.strip()
    return names


def variants(runs):
    """Per program, its option sets."""
    out = {}
    for prog, opts, _ in runs:
        out.setdefault(prog, set()).add(opts)
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: tests/kernel_coverage.py PREFIX")
    prefix = sys.argv[1]
    runs = {i: launches(prefix, i) for i in ("oclgrind", "pocl", "rusticl")}
    if runs["oclgrind"] is None:
        sys.exit(f"kernel coverage: no {prefix}.oclgrind (did the Oclgrind tests run?)")
    ran = {i: {k for _, _, k in r} for i, r in runs.items() if r is not None}
    src, ok = source_kernels(), excused()
    bad = []
    for impl in ("pocl", "rusticl"):
        for k in sorted(ran.get(impl, set()) - ran["oclgrind"] - set(ok)):
            bad.append(f"{k} ({src.get(k, '?')}) ran on {impl}, never on Oclgrind")
    anywhere = set().union(*ran.values())
    for k in sorted(set(src) - anywhere - set(ok)):
        bad.append(f"{k} ({src[k]}) ran on no implementation")
    for k in sorted(set(ok) & ran["oclgrind"]):
        print(f"kernel coverage: note: {k} ran on Oclgrind (tests/kernel_coverage.txt excuses it)")
    var = {i: variants(r) for i, r in runs.items() if r is not None}
    for prog in sorted(set().union(*[set(v) for v in var.values()])):
        print(f"kernel coverage: program {prog:24s} option sets " +
              "  ".join(f"{i} {len(v.get(prog, ()))}" for i, v in var.items()))
    print(f"kernel coverage: {len(src)} kernels in cl_kernels/, " +
          ", ".join(f"{len(r)} ran on {i}" for i, r in ran.items()) +
          f", {len(ok)} excused (tests/kernel_coverage.txt)")
    for line in bad:
        print("kernel coverage: FAIL: " + line)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
