#!/usr/bin/env python3
"""Offline compile of every clsa kernel program for GPUs nobody here runs.

Each program is built the way host/runtime/program.c builds it at run time:
common.cl, then the family's prelude for "prelude+file" programs, then the
file, with "-cl-std=CL1.2 -DCLSA_IDX64=0|1" and the program's -D options
(the variants below mirror the host code that picks them).  Targets:

  gfx90a, gfx1100  clang-15 -target amdgcn-amd-amdhsa with Debian's ROCm
                   device libraries (LLVM 15 bitcode, hence clang-15); the
                   resource use of every kernel comes from the code
                   object's amdhsa.kernels metadata
  spir64           clang-14 -target spir64 bitcode with every OpenCL
                   extension disabled (-cl-ext=-all: core 1.2 only), turned
                   into SPIR-V 1.0 by llvm-spirv-14 and checked by spirv-val

Any compiler error, an unresolved call in AMD code or an invalid SPIR-V
module fails the check.  --cache DIR also compiles every (program,
options) pair found in a clsa program cache (the test suite's) for spir64,
so options the host code produces that the list below lacks are checked too.
--doc rewrites the generated part of docs/KERNELS.md.

Before compiling, a lint (alone: --lint, no compilers needed; ctest
kernel_lint) fails on what broke buffers past 2^31 bytes: a signed 32-bit
int holding a global id or size in a kernel, a kernel argument named as an
offset, a byte count or n that is not 64-bit, and clEnqueueFillBuffer
anywhere in the C sources (NVIDIA's faults once a fill passes 2^31 bytes).

Usage: tools/kernel_check.sh [--doc] [--lint] [--cache DIR] [-j N]
"""
import argparse
import concurrent.futures as cf
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KDIR = os.path.join(ROOT, "cl_kernels")
# Every kernel file by its base name, in whichever folder of cl_kernels/.
KFILES = {f[:-3]: os.path.join(d, f) for d, _, fs in os.walk(KDIR) for f in fs
          if f.endswith(".cl")}
DOC = os.path.join(ROOT, "docs", "KERNELS.md")
BEGIN = "<!-- kernel_check.py: generated from here -->"
END = "<!-- kernel_check.py: generated up to here -->"
ROCM_BC = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"
AMD_CC, SPIR_CC, SPIRV, SPIRV_VAL = "clang-15", "clang-14", "llvm-spirv-14", "spirv-val"
AMD_TARGETS = ["gfx90a", "gfx1100"]
PRELUDES = {"common", "segsort_prelude", "groups"}

# Default GPU shapes (host/runtime/tuning.c): radix tiles of 128 x 32 keys,
# segmented-sort tiles of 2048 with 256 work-items (48-64 KiB of local
# memory), the group-size class threshold of host/sa/groups.h.
GRP = "-DGRP_TINY=8"
SEG = "-DTILE=2048 -DWG=256"


def variants():
    v = []
    for f in ["buffer", "compact", "unbwt", "text_pack", "batch", "dc_bwt"]:
        v.append((f, 0, ""))
    for f in ["scan", "isa", "lcp", "bwt", "bwa", "lcs", "rmq"]:
        v += [(f, 0, ""), (f, 1, "")]
    for w, b in [(2, 64), (4, 128), (8, 128)]:
        v += [("fm_index", i, "-DFM_W=%d -DFM_B=%d" % (w, b)) for i in (0, 1)]
    for f in ["scan+groups+pd_split", "groups+pd_sort", "pd_init", "pd_lazy", "pd_pass",
              "pd_invert", "pd_part"]:
        v += [(f, 0, GRP), (f, 1, GRP)]
    v.append(("skew", 0, GRP + " -DCLSA_PTX_LOAD=0"))  # 32-bit indices at every width
    v.append(("runlen", 0, GRP + " -DCLSA_PTX_LOAD=0"))
    v.append(("sa_small", 0, GRP + " -DCLSA_PTX_LOAD=0"))  # n <= small_max: 32-bit
    def radix(kb, vb, items=32):
        return "-DKEY_BYTES=%d -DVAL_BYTES=%d -DRADIX_ITEMS=%d -DRADIX_SUB=4" % (kb, vb, items)
    for kb in (4, 8):
        for vb in (0, 4, 8):
            v.append(("radix_rank+radix_sort", 0, radix(kb, vb)))
            # the warp ranking as emulated with barriers; RADIX_WARP=1 is
            # NVIDIA PTX, built only by NVIDIA's compiler (the host falls
            # back to the split rounds where it fails)
            v.append(("radix_rank+radix_sort", 0, radix(kb, vb) + " -DRADIX_WARP=2"))
            if vb:  # the values in a local tile of their own
                v.append(("radix_rank+radix_sort", 0,
                          radix(kb, vb) + " -DRADIX_WARP=2 -DRADIX_VTILE=1 -DRADIX_MATCH=3"))
    # The single-pass sort (the default only where NVIDIA's PTX warp ranking
    # runs): two layouts (its shared code is radix_rank.cl's, compiled in all
    # six above), by split rounds and by warps, and the tests' injected fault.
    for kv in ((4, 4), (8, 8)):
        v.append(("radix_rank+radix_onesweep", 0, radix(*kv)))
        v.append(("radix_rank+radix_onesweep", 0, radix(*kv) + " -DRADIX_WARP=2 -DLOOKBACK=4"))
        v.append(("radix_rank+radix_onesweep", 0,
                  radix(*kv) + " -DRADIX_WARP=2 -DRADIX_VTILE=1 -DRADIX_MATCH=3"))
    v.append(("radix_rank+radix_onesweep", 0, radix(4, 4) + " -DRADIX_WARP=2 -DONESWEEP_FAULT=2"))
    # NVIDIA's shape: 20 keys a work-item, the warp counters in the value tile
    v.append(("radix_rank+radix_onesweep", 0, radix(4, 4, 20) +
              " -DRADIX_WARP=2 -DRADIX_VTILE=1 -DRADIX_MATCH=3 -DWC_IN_VTILE=1"))
    # Segmented-sort layouts: clsa__segmented_sort (key = value width =
    # index width, values or none) and clsa_batched_sort (u32/float keys,
    # CSR, 64-bit offsets).
    layouts = [(4, 4, 0, 0, 0), (4, 0, 0, 0, 0), (8, 8, 0, 0, 1), (8, 0, 0, 0, 1),
               (4, 4, 0, 1, 1), (4, 0, 0, 1, 1), (4, 4, 1, 1, 1), (4, 0, 1, 1, 1)]
    for f in ["segmented_sort", "bitonic_segsort", "merge_segsort"]:
        for kb, vb, flt, csr, i64 in layouts:
            v.append(("segsort_prelude+" + f, i64,
                      "-DKEY_BYTES=%d -DVAL_BYTES=%d -DKEY_FLOAT=%d -DSEG_CSR=%d %s"
                      % (kb, vb, flt, csr, SEG)))
    return v


# Signed 32-bit holders of a global id/size ("int i = get_global_id(0)",
# "(int)get_global_id"): they wrap at 2^31 work-items.
INT_GID = re.compile(r"(\bint\s+\w+\s*=\s*(\(\s*\w+\s*\))?\s*|\(\s*int\s*\)\s*)"
                     r"get_global_(id|size|offset)\b")
KERNEL = re.compile(r"__kernel\s+void\s+(\w+)\s*\(([^)]*)\)")
# Kernel arguments that hold positions or sizes of whole buffers: 64-bit.
WIDE_NAME = re.compile(r"^(n|\w*off(set)?|\w*bytes)$")
WIDE_TYPES = {"ulong", "long", "size_t", "idx_t"}
# Kernel files whose sizes are bounded by a tuning key's range, with the bound.
NARROW_OK = {"cl_kernels/sa/sa_small.cl": "n <= small_max <= 2^24 (host/runtime/tuning_keys.c)"}
FILL = re.compile(r"\bclEnqueueFillBuffer\s*\(")
# The loader and the tests' fault injector wrap the entry point; no call.
FILL_OK = {"host/runtime/cl_loader.c", "host/runtime/cl_loader.h", "tests/fault_inject.c"}


def strip_comments(s):
    s = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), s, flags=re.S)
    return re.sub(r"//[^\n]*", "", s)


def lint_kernels():
    bad = []
    for dirpath, _, names in os.walk(KDIR):
        for f in sorted(n for n in names if n.endswith(".cl")):
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, ROOT)
            src = strip_comments(open(path).read())
            for i, line in enumerate(src.split("\n"), 1):
                if INT_GID.search(line):
                    bad.append("%s:%d: a global id or size in a signed 32-bit int" % (rel, i))
            for m in KERNEL.finditer(src):
                line = src.count("\n", 0, m.start()) + 1
                for arg in m.group(2).split(","):
                    words = arg.replace("*", " * ").split()
                    if len(words) < 2 or "*" in words or words[-1] == "void":
                        continue
                    if rel in NARROW_OK:
                        continue
                    if WIDE_NAME.match(words[-1]) and not WIDE_TYPES & set(words[:-1]):
                        bad.append("%s:%d: kernel %s: argument '%s' is a position or size: "
                                   "make it 64-bit" % (rel, line, m.group(1), " ".join(words)))
    return bad


def lint_host():
    bad = []
    for top in ("host", "tools", "tests", "python", "samples"):
        for dirpath, _, names in os.walk(os.path.join(ROOT, top)):
            for f in sorted(n for n in names if n.endswith((".c", ".h", ".cu"))):
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, ROOT)
                if rel in FILL_OK:
                    continue
                src = strip_comments(open(path, errors="replace").read())
                for i, line in enumerate(src.split("\n"), 1):
                    if FILL.search(line):
                        bad.append("%s:%d: clEnqueueFillBuffer (faults on NVIDIA past 2^31 "
                                   "bytes): use clsa__fill_zero or a write" % (rel, i))
    return bad


def lint():
    bad = lint_kernels() + lint_host()
    for b in bad:
        print("LINT " + b, file=sys.stderr)
    print("kernel_check: lint: %d problem(s)" % len(bad))
    return len(bad)


def options(idx64, extra):
    return ("-cl-std=CL1.2 -DCLSA_IDX64=%d %s" % (idx64, extra)).strip()


def source(program, tmp):
    parts = ["common"] + program.split("+")
    path = os.path.join(tmp, program.replace("+", "_") + ".cl")
    if not os.path.exists(path):
        with open(path, "wb") as out:
            for p in parts:  # clCreateProgramWithSource: the strings back to back
                with open(KFILES[p], "rb") as f:
                    out.write(f.read())
    return path


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return r.returncode, r.stdout


def amd_metadata(asm):
    """Kernel-level fields of the amdhsa.kernels metadata, per kernel."""
    m = re.search(r"\.amdgpu_metadata\n(.*?)\.end_amdgpu_metadata", asm, re.S)
    kernels, cur = [], None
    for line in (m.group(1) if m else "").splitlines():
        k = re.match(r"^(  - |    )\.(\w+):\s*(.*)$", line)
        if not k:
            continue
        if k.group(1) == "  - ":
            cur = {}
            kernels.append(cur)
        if cur is not None:
            cur[k.group(2)] = k.group(3).strip()
    return {k["name"]: k for k in kernels if "name" in k}


def unresolved_calls(asm):
    called = set(re.findall(r"s_(?:add|addc)_u32\s+s\d+, s\d+, ([\w.$]+)@rel32", asm))
    defined = set(re.findall(r"^([\w.$]+):", asm, re.M))
    return sorted(called - defined)


def compile_one(job, tmp, rocm):
    program, idx64, extra, target = job
    src = source(program, tmp)
    opts = options(idx64, extra).split()
    tag = "%s_%d_%s_%s" % (program.replace("+", "_"), idx64,
                           re.sub(r"[^A-Za-z0-9]+", "_", extra), target)
    out = os.path.join(tmp, tag)
    if target == "spir64":
        cmd = [SPIR_CC, "-x", "cl", "-Xclang", "-finclude-default-header", "-Xclang",
               "-cl-ext=-all", "-target", "spir64", "-O0", "-emit-llvm", "-c", "-Wno-pass-failed",
               "-o", out + ".bc", src] + opts
        rc, log = run(cmd)
        if rc == 0:
            rc, l2 = run([SPIRV, "--spirv-max-version=1.0", out + ".bc", "-o", out + ".spv"])
            log += l2
        if rc == 0:
            rc, l2 = run([SPIRV_VAL, "--target-env", "opencl1.2", out + ".spv"])
            log += l2
        return job, rc, log, None
    cmd = [AMD_CC, "-x", "cl", "-Xclang", "-finclude-default-header", "-target",
           "amdgcn-amd-amdhsa", "-mcpu=" + target, "--rocm-device-lib-path=" + rocm, "-O2",
           "-Wno-pass-failed", "-S", "-o", out + ".s", src] + opts
    rc, log = run(cmd)
    meta = None
    if rc == 0:
        with open(out + ".s") as f:
            asm = f.read()
        meta = amd_metadata(asm)
        calls = unresolved_calls(asm)
        if calls:
            rc, log = 1, log + "unresolved calls: " + " ".join(calls) + "\n"
        elif not meta:
            rc, log = 1, log + "no amdhsa.kernels metadata\n"
    return job, rc, log, meta


def device_libs(tmp):
    """Debian's ROCm device libraries, plus the ISA-version constant of
    gfx1100, which ROCm 5.2's libraries predate."""
    d = os.path.join(tmp, "rocm-bitcode")
    os.makedirs(d)
    for f in os.listdir(ROCM_BC):
        os.symlink(os.path.join(ROCM_BC, f), os.path.join(d, f))
    for t in AMD_TARGETS:
        name = "oclc_isa_version_%s.bc" % t[3:]
        if os.path.exists(os.path.join(d, name)):
            continue
        ver = int(t[3:-2]) * 1000 + int(t[-2], 16) * 100 + int(t[-1], 16)
        ll = os.path.join(tmp, name[:-3] + ".ll")
        with open(ll, "w") as f:
            f.write('target triple = "amdgcn-amd-amdhsa"\n'
                    "@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr "
                    "addrspace(4) constant i32 %d, align 4\n" % ver)
        rc, log = run([AMD_CC, "-target", "amdgcn-amd-amdhsa", "-nogpulib", "-c", "-emit-llvm", "-o",
                       os.path.join(d, name), ll])
        if rc:
            sys.exit("kernel_check: cannot make %s:\n%s" % (name, log))
    return d


def current_shas(program):
    """The SHA-256s a cache key holds for program's files as they are now."""
    out = []
    for p in program.split("+"):
        if p not in KFILES:
            return "?"
        with open(KFILES[p], "rb") as f:
            out.append(hashlib.sha256(f.read()).hexdigest())
    return "+".join(out)


def cache_variants(cache):
    """(program, idx64, extra) of every entry of a clsa program cache."""
    found = set()
    if not cache or not os.path.isdir(cache):
        return found
    for name in os.listdir(cache):
        if not name.endswith(".bin"):
            continue
        with open(os.path.join(cache, name), "rb") as f:
            head = f.read(16)
            if len(head) < 16 or head[:8] != b"CLSABIN1":
                continue
            key = f.read(int.from_bytes(head[12:16], "little")).decode("utf-8", "replace")
        fields = key.split("|")
        if len(fields) < 5:
            continue
        program, opts = fields[2].split(" ")[0], fields[4].split()
        if fields[2] != program + " " + current_shas(program):
            continue  # built from other sources: its options may name old macros
        idx = [o for o in opts if o.startswith("-DCLSA_IDX64=")]
        extra = " ".join(o for o in opts if not o.startswith(("-cl-std=", "-DCLSA_IDX64=")))
        if idx:
            found.add((program, int(idx[0].split("=")[1]), extra))
    return found


def fmt_bytes(v):
    v = int(v)
    return "%d" % v if v < 1024 or v % 1024 else "%dK" % (v // 1024)


def table(results):
    """One row per (program, kernel): the largest use over the program's
    variants, per AMD target."""
    rows = {}
    for (program, idx64, extra, target), meta in results.items():
        for kname, m in (meta or {}).items():
            r = rows.setdefault((program, kname), {})
            t = r.setdefault(target, {"v": 0, "s": 0, "lds": 0, "scr": 0, "spill": 0, "n": 0})
            # gfx90a: vgpr_count is the unified file, AGPRs included.
            t["v"] = max(t["v"], int(m.get("vgpr_count", 0)))
            t["s"] = max(t["s"], int(m.get("sgpr_count", 0)))
            t["lds"] = max(t["lds"], int(m.get("group_segment_fixed_size", 0)))
            t["scr"] = max(t["scr"], int(m.get("private_segment_fixed_size", 0)))
            t["spill"] = max(t["spill"], int(m.get("vgpr_spill_count", 0)) +
                             int(m.get("sgpr_spill_count", 0)))
            t["n"] += 1
    head = "| program | kernel | variants |"
    sep = "|---|---|---|"
    for t in AMD_TARGETS:
        head += " %s VGPR | SGPR | LDS | scratch |" % t
        sep += "---:|---:|---:|---:|"
    lines = [head, sep]
    peak = {t: {"v": (0, ""), "lds": (0, ""), "scr": (0, ""), "spill": 0} for t in AMD_TARGETS}
    for (program, kname) in sorted(rows):
        r = rows[(program, kname)]
        n = max(x["n"] for x in r.values())
        line = "| %s | %s | %d |" % (program, kname, n)
        for t in AMD_TARGETS:
            x = r.get(t)
            if not x:
                line += " - | - | - | - |"
                continue
            sp = " (%d spilled)" % x["spill"] if x["spill"] else ""
            line += " %d%s | %d | %s | %s |" % (x["v"], sp, x["s"], fmt_bytes(x["lds"]),
                                              fmt_bytes(x["scr"]))
            p = peak[t]
            for key in ("v", "lds", "scr"):
                if x[key] > p[key][0]:
                    p[key] = (x[key], kname)
            p["spill"] += x["spill"]
        lines.append(line)
    summary = []
    for t in AMD_TARGETS:
        p = peak[t]
        summary.append("- %s: at most %d VGPRs (%s), %s bytes of static LDS (%s), %s bytes of "
                       "scratch%s; %s."
                       % (t, p["v"][0], p["v"][1], fmt_bytes(p["lds"][0]), p["lds"][1] or "-",
                          fmt_bytes(p["scr"][0]),
                          " (%s)" % p["scr"][1] if p["scr"][0] else "",
                          "%d registers spilled in all" % p["spill"] if p["spill"]
                          else "no register spills"))
    return summary, lines


def tool_version(cmd):
    rc, out = run(cmd)
    return out.splitlines()[0].strip() if rc == 0 and out else "?"


def write_doc(summary, lines, nvar, ncomp):
    with open(DOC) as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        sys.exit("kernel_check: %s lacks the generated-part markers" % DOC)
    gen = [BEGIN, "",
           "Generated by `tools/kernel_check.sh --doc` (%d program variants, %d compiles) with %s "
           "and ROCm device libraries from Debian's rocm-device-libs; numbers change with the "
           "compiler, so they are regenerated by hand, not in CI." % (nvar, ncomp,
                                                                     tool_version([AMD_CC, "--version"])),
           ""] + summary + [""] + lines + ["", END]
    head, rest = doc.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    with open(DOC, "w") as f:
        f.write(head + "\n".join(gen) + tail)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--doc", action="store_true", help="rewrite the table in docs/KERNELS.md")
    ap.add_argument("--cache", help="also compile the variants found in this program cache")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--keep", action="store_true", help="keep the outputs (printed path)")
    ap.add_argument("--lint", action="store_true", help="only the lint (no compilers)")
    a = ap.parse_args()
    bad = lint()
    if bad or a.lint:
        return 1 if bad else 0
    missing = [t for t in (AMD_CC, SPIR_CC, SPIRV, SPIRV_VAL) if not shutil.which(t)]
    if missing or not os.path.isdir(ROCM_BC):
        sys.exit("kernel_check: missing %s (tools/setup.sh installs them)"
                 % " ".join(missing + ([] if os.path.isdir(ROCM_BC) else [ROCM_BC])))
    base = variants()
    listed = {p for v in base for p in v[0].split("+")}
    files = set(KFILES)
    stray = sorted(files - listed - PRELUDES)
    if stray:
        sys.exit("kernel_check: no variant compiles %s.cl: add it to tools/kernel_check.py"
                 % ".cl, ".join(stray))
    extra = sorted(cache_variants(a.cache) - set(base))
    extra = [v for v in extra if all(p in KFILES for p in v[0].split("+"))]
    allv = base + extra
    # The cache's extra option sets: front-end errors are what they would
    # show, so the cheap spir64 compile only.
    jobs = [v + (t,) for v in base for t in AMD_TARGETS + ["spir64"]] + \
        [v + ("spir64",) for v in extra]
    tmp = tempfile.mkdtemp(prefix="clsa-kcheck.")
    failed, results = 0, {}
    try:
        rocm = device_libs(tmp)
        for v in allv:
            source(v[0], tmp)
        with cf.ThreadPoolExecutor(max_workers=max(1, a.j)) as ex:
            for job, rc, log, meta in ex.map(lambda j: compile_one(j, tmp, rocm), jobs):
                if rc:
                    failed += 1
                    print("FAIL %s [%s] for %s:\n%s" % (job[0], options(job[1], job[2]), job[3],
                                                        log.rstrip()), file=sys.stderr)
                elif job[3] != "spir64" and job[:3] in base:
                    results[job] = meta
    finally:
        if a.keep:
            print("kernel_check: outputs in %s" % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    summary, lines = table(results)
    print("kernel_check: %d variants (%d from the cache) x %s: %d compiles, %d failed"
          % (len(allv), len(extra), "+".join(AMD_TARGETS + ["spir64/SPIR-V"]), len(jobs), failed))
    for s in summary:
        print("kernel_check: " + s[2:])
    if a.doc and not failed:
        write_doc(summary, lines, len(base), len(base) * (len(AMD_TARGETS) + 1))
        print("kernel_check: wrote %s" % DOC)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
