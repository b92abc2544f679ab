#!/usr/bin/python3
"""Plots of a clsa-bench CSV (see docs/bench/method.md).

    tools/bench/plot.py RESULTS.csv [-o OUTDIR] [--title TEXT] [--html | --markdown]
    (Debian /usr/bin/python3 with python3-matplotlib)

Writes into OUTDIR (default: the CSV's folder):
  throughput.png  MB/s vs input size, one line per input kind, one panel per
                  text operation (solid: host memory in/out, transfers
                  included; dashed: buffers already on the device)
  phases.png      stacked phase-time breakdown of each sa32 input kind at its
                  largest size (share of the profiled time; total ms at the right)
  scaling.png     sa32 time and peak device memory vs n for the scaling series
  speedup.png     sa32 speed ratio over libdivsufsort per input
  primitives.png  sorting primitives: GB/s next to the device's copy bandwidth
  anchors.png     speed ratio clsa / CUDA anchor per input (sa32 / libcubwt 1.0.0,
                  bwt / libcubwt 1.6.3, radix / CUB), transfers included and on
                  device (rows of a build with -DCLSA_BENCH_CUDA=ON)
With --markdown, prints the rows as markdown tables instead (for the run log, docs/bench/log).
With --html, also writes summary.html: the plots embedded, and per input clsa's
speed next to libcubwt's and libdivsufsort's with the ratios (one file to open).
Only rows with status ok are drawn.  Needs matplotlib only.
"""
import argparse
import base64
import csv
import html
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

# clsa op -> the CUDA anchor op it is compared with (tools/bench/ops_anchor.c)
ANCHOR_OF = {"sa32": "cubwt-sa", "bwt": "cubwt-bwt", "radix": "cub-radix"}
ANCHOR_NAME = {"cubwt-sa": "libcubwt 1.0.0", "cubwt-bwt": "libcubwt 1.6.3", "cub-radix": "CUB"}

PHASE_COLORS = {
    "transfer": "#7f7f7f", "initial_sort": "#1f77b4", "sort_s": "#2ca02c", "sort_m": "#98df8a",
    "sort_l": "#d62728", "isa_update": "#9467bd", "groups": "#ff7f0e", "primitive": "#8c564b",
    "index": "#e377c2",
}


def num(row, key):
    v = row.get(key, "")
    try:
        x = float(v)
        return x if math.isfinite(x) else None
    except ValueError:
        return None


def load(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r.get("op") != "op"]
    return rows


def ok(rows, op=None):
    return [r for r in rows if r["status"] == "ok" and (op is None or r["op"] == op)]


def subtitle(rows, extra):
    devs = sorted({r.get("device", "") for r in rows if r.get("device")})
    commits = sorted({r.get("commit", "") for r in rows if r.get("commit")})
    s = "; ".join(devs) or "unknown device"
    if commits:
        s += " | commit " + ", ".join(c[:20] for c in commits)
    return s + (" | " + extra if extra else "")


def human(n):
    for unit, div in (("G", 1e9), ("M", 1e6), ("K", 1e3)):
        if n >= div:
            return "%g%s" % (round(n / div, 1), unit)
    return "%d" % n


def plot_throughput(rows, out, extra):
    ops = [op for op in ("sa32", "sa64", "bwt", "lcp") if ok(rows, op)]
    if not ops:
        return None
    cols = 1 if len(ops) == 1 else 2
    nr = (len(ops) + cols - 1) // cols
    fig, axes = plt.subplots(nr, cols, figsize=(7 * cols, 4.8 * nr), squeeze=False)
    for ax in axes.flat[len(ops):]:
        ax.axis("off")
    ns = [float(r["n"]) for op in ops for r in ok(rows, op)]
    xlim = (min(ns) / 1.6, max(ns) * 1.6)
    for ax, op in zip(axes.flat, ops):
        kinds = {}
        for r in ok(rows, op):
            kinds.setdefault(r["kind"], []).append(r)
        cmap = plt.get_cmap("tab20")
        for i, (kind, rs) in enumerate(sorted(kinds.items())):
            rs.sort(key=lambda r: float(r["n"]))
            xs = [float(r["n"]) for r in rs]
            color = cmap(i % 20)
            ys = [num(r, "mb_s") for r in rs]
            yd = [num(r, "mb_s_dev") for r in rs]
            style = "-o" if len(rs) > 1 else "o"
            ax.plot([x for x, y in zip(xs, ys) if y], [y for y in ys if y], style, color=color,
                    label=kind, markersize=4)
            if any(yd):
                ax.plot([x for x, y in zip(xs, yd) if y], [y for y in yd if y],
                        "--" if len(rs) > 1 else "x", color=color, markersize=5)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(*xlim)
        ax.set_xlabel("input size n [bytes]")
        ax.set_ylabel("MB/s (10^6 input bytes per second)")
        dev = "LCP from an SA on the device" if op == "lcp" else "buffers on the device"
        ax.set_title("%s: solid/o = transfers included, dashed/x = %s" % (op, dev), fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
    fig.suptitle("Throughput vs input size per input kind\n" + subtitle(rows, extra), fontsize=10)
    fig.tight_layout()
    path = os.path.join(out, "throughput.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def phase_names(rows):
    return [k[3:-3] for k in rows[0].keys() if k.startswith("ph_") and k.endswith("_ms")]


def plot_phases(rows, out, extra, op="sa32"):
    # one bar per input kind: its largest size (a scaling series gives one bar)
    largest = {}
    for r in ok(rows, op):
        if (num(r, "profiled_ms") or 0) > 0 and (
                r["kind"] not in largest or float(r["n"]) > float(largest[r["kind"]]["n"])):
            largest[r["kind"]] = r
    rs = sorted(largest.values(), key=lambda r: r["kind"])
    if not rs:
        return None
    names = phase_names(rs)
    labels = ["%s (%s)" % (r["input"], human(float(r["n"]))) if r["input"].find("@") < 0
              else r["input"] for r in rs]
    fig, ax = plt.subplots(figsize=(11, 0.32 * len(rs) + 1.8))
    left = [0.0] * len(rs)
    for p in names:
        vals = [(num(r, "ph_%s_ms" % p) or 0) / num(r, "profiled_ms") * 100 for r in rs]
        if not any(v > 0.05 for v in vals):
            continue
        ax.barh(range(len(rs)), vals, left=left, color=PHASE_COLORS.get(p), label=p)
        left = [a + b for a, b in zip(left, vals)]
    for i, r in enumerate(rs):
        ax.text(101, i, "%.1f ms, %s passes" % (num(r, "profiled_ms"), r.get("passes", "?")),
                va="center", fontsize=7)
    ax.set_yticks(range(len(rs)))
    ax.set_yticklabels(labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, 125)
    ax.set_xticks([0, 20, 40, 60, 80, 100])
    ax.set_xlabel("share of profiled device time [%] (one profiled run; transfer = host<->device copies)")
    ax.legend(fontsize=7, ncol=5, loc="lower center", bbox_to_anchor=(0.45, 1.0))
    ax.set_title("%s phase breakdown per input\n%s" % (op, subtitle(rows, extra)), fontsize=9,
                 pad=28)
    fig.tight_layout()
    path = os.path.join(out, "phases.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_scaling(rows, out, extra, op="sa32"):
    kinds = {}
    for r in ok(rows, op):
        kinds.setdefault(r["kind"], []).append(r)
    kinds = {k: v for k, v in kinds.items() if len({r["n"] for r in v}) >= 3}
    if not kinds:
        return None
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(13, 5))
    for kind, rs in sorted(kinds.items()):
        rs.sort(key=lambda r: float(r["n"]))
        xs = [float(r["n"]) for r in rs]
        line, = a1.plot(xs, [num(r, "t_min_s") for r in rs], "-o", markersize=4,
                        label=kind + " (transfers incl.)")
        a1.plot(xs, [num(r, "t_dev_min_s") for r in rs], "--", color=line.get_color(),
                label=kind + " (on device)")
        ref = [(x, num(r, "ref_s")) for x, r in zip(xs, rs) if num(r, "ref_s")]
        if ref:
            a1.plot([x for x, _ in ref], [y for _, y in ref], ":", color=line.get_color(),
                    marker="s", markersize=3, label=kind + " (libdivsufsort, host)")
        a2.plot(xs, [(num(r, "peak_B_per_n") or 0) * x / 1e9 for x, r in zip(xs, rs)], "-o",
                markersize=4, color=line.get_color(), label=kind)
        for x, r in zip(xs, rs):
            if r is rs[-1]:
                a2.annotate("%.1f B/n" % (num(r, "peak_B_per_n") or 0), (x, (num(r, "peak_B_per_n") or 0) * x / 1e9),
                            fontsize=7, textcoords="offset points", xytext=(-40, 6))
    for ax in (a1, a2):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
        ax.set_xlabel("n [bytes]")
        ax.legend(fontsize=7)
    a1.set_ylabel("time [s] (min of repetitions)")
    a1.set_title("%s time vs n" % op, fontsize=10)
    a2.set_ylabel("peak device memory [GB] (library accounting)")
    a2.set_title("%s peak device memory vs n" % op, fontsize=10)
    fig.suptitle("Scaling\n" + subtitle(rows, extra), fontsize=10)
    fig.tight_layout()
    path = os.path.join(out, "scaling.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_speedup(rows, out, extra, op="sa32"):
    # largest size per kind, so a scaling series contributes one bar
    best = {}
    for r in ok(rows, op):
        if num(r, "x_ref") is None:
            continue
        if r["kind"] not in best or float(r["n"]) > float(best[r["kind"]]["n"]):
            best[r["kind"]] = r
    rs = sorted(best.values(), key=lambda r: num(r, "x_ref"))
    if not rs:
        return None
    fig, ax = plt.subplots(figsize=(10, 0.3 * len(rs) + 1.6))
    ax.barh(range(len(rs)), [num(r, "x_ref") for r in rs], color="#1f77b4",
            label="transfers included")
    dev = [num(r, "x_ref_dev") or 0 for r in rs]
    ax.scatter(dev, range(len(rs)), color="#d62728", marker="|", s=120, label="on device", zorder=3)
    ax.axvline(1, color="k", lw=0.8)
    ax.set_yticks(range(len(rs)))
    ax.set_yticklabels([r["input"] for r in rs], fontsize=7)
    ax.set_xscale("log")
    ax.set_xlabel("speed ratio: libdivsufsort time (1 host core) / clsa time")
    ax.legend(fontsize=7)
    ax.grid(True, axis="x", which="both", alpha=0.3)
    ax.set_title("%s vs libdivsufsort, same machine, same run\n%s" % (op, subtitle(rows, extra)),
                 fontsize=9)
    fig.tight_layout()
    path = os.path.join(out, "speedup.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_primitives(rows, out, extra):
    rs = [r for r in ok(rows) if r["op"] in ("radix", "segsort", "batched", "cub-radix")]
    if not rs:
        return None
    fig, ax = plt.subplots(figsize=(10, 1.1 * len(rs) + 1.6))
    ys = range(len(rs))
    ax.barh([y + 0.2 for y in ys], [num(r, "gb_s") or 0 for r in rs], height=0.4,
            label="primitive (payload bytes / time)")
    ax.barh([y - 0.2 for y in ys], [num(r, "copy_gb_s") or 0 for r in rs], height=0.4,
            color="#bbbbbb", label="clEnqueueCopyBuffer, same bytes")
    for y, r in zip(ys, rs):
        ax.text((num(r, "gb_s") or 0), y + 0.2, " %.3g elem/s" % (num(r, "elems_per_s") or 0),
                va="center", fontsize=7)
    ax.set_yticks(list(ys))
    ax.set_yticklabels(["%s\n%s" % (r["op"], r["input"][:40]) for r in rs], fontsize=7)
    ax.set_xscale("log")
    ax.set_xlabel("GB/s (device-resident buffers; log scale)")
    ax.legend(fontsize=7)
    ax.set_title("Sorting primitives\n" + subtitle(rows, extra), fontsize=9)
    fig.tight_layout()
    path = os.path.join(out, "primitives.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def compared(rows):
    """(clsa row, anchor row or None) for every clsa row that has an anchor op,
    in run order; the anchor row is the one on the same input and size."""
    out = []
    for r in rows:
        anchor = ANCHOR_OF.get(r["op"])
        if not anchor or r["status"] != "ok":
            continue
        a = [x for x in rows if x["op"] == anchor and x["input"] == r["input"] and x["n"] == r["n"]]
        out.append((r, a[-1] if a else None))
    return out


def plot_anchors(rows, out, extra):
    pairs = [(r, a) for r, a in compared(rows) if num(r, "x_anchor") or num(r, "x_anchor_dev")]
    if not pairs:
        return None
    fig, ax = plt.subplots(figsize=(10, 0.34 * len(pairs) + 1.8))
    ys = range(len(pairs))
    inc = [num(r, "x_anchor") or 0 for r, _ in pairs]
    dev = [num(r, "x_anchor_dev") for r, _ in pairs]
    ax.barh(list(ys), inc, color=["#2ca02c" if v >= 1 else "#d62728" for v in inc],
            label="transfers included (bar)")
    ax.scatter([d for d in dev if d], [y for y, d in zip(ys, dev) if d], color="k", marker="D",
               s=22, label="on device (diamond)", zorder=3)
    for y, v in zip(ys, inc):
        if v:
            ax.text(v, y, " %.2f" % v, va="center", fontsize=7)
    ax.axvline(1, color="k", lw=0.8)
    ax.set_yticks(list(ys))
    ax.set_yticklabels(["%s vs %s: %s" % (r["op"], ANCHOR_NAME.get(r["anchor"] or "", "?"),
                                          r["input"][:40]) for r, _ in pairs], fontsize=7)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    ax.xaxis.set_minor_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    ax.set_xlabel("speed ratio clsa / anchor = anchor time / clsa time (> 1: clsa faster), same run")
    ax.legend(fontsize=7, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2)
    ax.grid(True, axis="x", which="both", alpha=0.3)
    ax.set_title("clsa vs the CUDA anchors on the same GPU, input by input\n%s"
                 % subtitle(rows, extra), fontsize=9, pad=24)
    fig.tight_layout()
    path = os.path.join(out, "anchors.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def fmt(v, digits=3):
    if v is None:
        return "-"
    if v == 0 or abs(v) >= 100:
        return "%.0f" % v
    return "%.*g" % (digits, v)


def markdown(rows):
    """Markdown tables of a CSV, for the run log (docs/bench/log)."""
    out = []
    text = [r for r in rows if r["op"] not in ("radix", "segsort", "batched", "cub-radix", "input")]
    if text:
        out.append("| op | input | n | t_min s (transfers incl.) | MB/s | MB/s on device | "
                   "peak B/n | ref | ref s | x ref | x anchor | x anchor on device | passes | "
                   "check | status |")
        out.append("|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|---|")
        for r in text:
            out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                r["op"], r["input"], r["n"], fmt(num(r, "t_min_s"), 4), fmt(num(r, "mb_s")),
                fmt(num(r, "mb_s_dev")), fmt(num(r, "peak_B_per_n")), r["ref"],
                fmt(num(r, "ref_s")), fmt(num(r, "x_ref")), fmt(num(r, "x_anchor")),
                fmt(num(r, "x_anchor_dev")), r["passes"],
                {"1": "ok", "0": "WRONG"}.get(r["valid"], "-"),
                r["status"] + (": " + r["error"] if r["error"] else "")))
    prim = [r for r in rows if r["op"] in ("radix", "segsort", "batched", "cub-radix")]
    if prim:
        out.append("")
        out.append("| op | input | n | t on device s | elements/s | GB/s | copy GB/s | "
                   "t with transfers s | x anchor | x anchor on device | check | status |")
        out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
        for r in prim:
            out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                r["op"], r["input"] + (" (%s)" % r["note"] if r["note"] else ""), r["n"],
                fmt(num(r, "t_dev_min_s"), 4), fmt(num(r, "elems_per_s")), fmt(num(r, "gb_s")),
                fmt(num(r, "copy_gb_s")), fmt(num(r, "t_min_s"), 4), fmt(num(r, "x_anchor")),
                fmt(num(r, "x_anchor_dev")),
                {"1": "ok", "0": "WRONG"}.get(r["valid"], "-"),
                r["status"] + (": " + r["error"] if r["error"] else "")))
    return "\n".join(out) + "\n"


def run_meta(csv_path):
    """Date, commit and commands from results.json beside the CSV (device_run.sh), if any."""
    path = os.path.join(os.path.dirname(os.path.abspath(csv_path)), "results.json")
    try:
        with open(path) as f:
            stages = json.load(f).get("stages", {})
    except (OSError, ValueError):
        return []
    return [(name, m) for name, m in sorted(stages.items()) if isinstance(m, dict)]


def ratio_cell(v):
    if v is None:
        return "<td>-</td>"
    return '<td class="%s">%s</td>' % ("good" if v >= 1 else "bad", fmt(v))


def check_cell(r):
    v = {"1": "ok", "0": "WRONG"}.get(r["valid"] if r else "", "-")
    return '<td class="%s">%s</td>' % ("bad" if v == "WRONG" else "", v)


def html_summary(rows, pngs, meta, extra):
    """One self-contained page: ratios to libcubwt/CUB and libdivsufsort per input, plots."""
    e = html.escape
    out = ["<!doctype html><html><head><meta charset='utf-8'><title>clsa benchmark summary</title>",
           "<style>body{font:14px sans-serif;margin:2em;max-width:1400px}"
           "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
           "padding:3px 7px;text-align:right}td:nth-child(-n+2),th{text-align:left}"
           ".good{background:#d8f5d0}.bad{background:#f8d0d0}img{max-width:100%;"
           "border:1px solid #ddd;margin:.5em 0}small{color:#555}</style></head><body>",
           "<h1>clsa benchmark summary</h1>",
           "<p>%s</p>" % e(subtitle(rows, extra))]
    for name, m in meta:
        out.append("<p><small>stage %s: %s, %s; <code>%s</code></small></p>" % (
            e(name), e(str(m.get("date", "?"))), e(str(m.get("device", "?"))),
            e(str(m.get("command", "?")))))
    out.append("<p>Ratios are speed ratios, other time / clsa time: above 1 (green) clsa is "
               "faster. <b>transfers included</b>: host memory in and out (pageable buffers); "
               "<b>on device</b>: inputs and outputs already in device memory. Times are the "
               "minimum of the repetitions, all in the same run on the same GPU; libdivsufsort "
               "runs on one core of the same host. See docs/bench/method.md.</p>")
    pairs = compared(rows)
    if pairs:
        out.append("<h2>clsa vs the CUDA anchors, input by input</h2><table><tr><th>op</th>"
                   "<th>input</th><th>n</th><th>anchor</th><th>clsa s</th><th>anchor s</th>"
                   "<th>x anchor</th><th>clsa s on device</th><th>anchor s on device</th>"
                   "<th>x anchor on device</th><th>clsa MB/s</th><th>anchor MB/s</th>"
                   "<th>libdivsufsort s</th><th>clsa x libdivsufsort</th>"
                   "<th>anchor x libdivsufsort</th><th>peak B/n clsa / anchor</th>"
                   "<th>check clsa</th><th>check anchor</th></tr>")
        for r, a in pairs:
            ok_a = a is not None and a["status"] == "ok"
            out.append("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>%s"
                       "<td>%s</td><td>%s</td>%s<td>%s</td><td>%s</td><td>%s</td>%s%s"
                       "<td>%s / %s</td>%s%s</tr>" % (
                           e(r["op"]), e(r["input"]), e(r["n"]),
                           e(ANCHOR_NAME.get(ANCHOR_OF[r["op"]], "")) if a else "not run",
                           fmt(num(r, "t_min_s"), 4), fmt(num(a, "t_min_s"), 4) if a else "-",
                           ratio_cell(num(r, "x_anchor")),
                           fmt(num(r, "t_dev_min_s"), 4), fmt(num(a, "t_dev_min_s"), 4) if a else "-",
                           ratio_cell(num(r, "x_anchor_dev")),
                           fmt(num(r, "mb_s")), fmt(num(a, "mb_s")) if a else "-",
                           fmt(num(r, "ref_s")), ratio_cell(num(r, "x_ref")),
                           ratio_cell(num(a, "x_ref") if ok_a else None),
                           fmt(num(r, "peak_B_per_n")), fmt(num(a, "peak_B_per_n")) if a else "-",
                           check_cell(r), check_cell(a)))
        out.append("</table>")
    text = [r for r in ok(rows) if r["op"] in ("sa32", "sa64", "bwt", "lcp") and num(r, "ref_s")]
    if text:
        out.append("<h2>clsa vs libdivsufsort (one host core), every input</h2><table><tr>"
                   "<th>op</th><th>input</th><th>n</th><th>clsa s</th><th>MB/s</th>"
                   "<th>MB/s on device</th><th>ref</th><th>ref s</th><th>x ref</th>"
                   "<th>x ref on device</th><th>x anchor</th><th>check</th></tr>")
        for r in text:
            out.append("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
                       "<td>%s</td><td>%s</td>%s%s%s%s</tr>" % (
                           e(r["op"]), e(r["input"]), e(r["n"]), fmt(num(r, "t_min_s"), 4),
                           fmt(num(r, "mb_s")), fmt(num(r, "mb_s_dev")), e(r["ref"]),
                           fmt(num(r, "ref_s")), ratio_cell(num(r, "x_ref")),
                           ratio_cell(num(r, "x_ref_dev")), ratio_cell(num(r, "x_anchor")),
                           check_cell(r)))
        out.append("</table>")
    bad = [r for r in rows if r["status"] != "ok" or r["valid"] == "0"]
    if bad:
        out.append("<h2>Rows that failed, were skipped or are wrong</h2><ul>")
        for r in bad:
            out.append("<li>%s %s: %s %s</li>" % (e(r["op"]), e(r["input"]), e(r["status"]),
                                                   e(r["error"])))
        out.append("</ul>")
    for p in pngs:
        with open(p, "rb") as f:
            data = base64.b64encode(f.read()).decode("ascii")
        out.append("<h2>%s</h2><img alt='%s' src='data:image/png;base64,%s'>" % (
            e(os.path.basename(p)), e(os.path.basename(p)), data))
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("-o", "--out", help="output folder (default: next to the CSV)")
    ap.add_argument("--title", default="", help="extra text for every title")
    ap.add_argument("--markdown", action="store_true", help="print markdown tables, no plots")
    ap.add_argument("--html", action="store_true",
                    help="also write summary.html (tables + the plots embedded)")
    a = ap.parse_args()
    rows = load(a.csv)
    if not rows:
        sys.exit("no rows in %s" % a.csv)
    if a.markdown:
        sys.stdout.write(markdown(rows))
        return
    out = a.out or os.path.dirname(os.path.abspath(a.csv))
    os.makedirs(out, exist_ok=True)
    pngs = []
    for f in (plot_anchors, plot_throughput, plot_phases, plot_scaling, plot_speedup,
              plot_primitives):
        p = f(rows, out, a.title)
        print(p if p else "%s: nothing to plot" % f.__name__)
        if p:
            pngs.append(p)
    if a.html:
        path = os.path.join(out, "summary.html")
        with open(path, "w") as f:
            f.write(html_summary(rows, pngs, run_meta(a.csv), a.title))
        print(path)


if __name__ == "__main__":
    main()
