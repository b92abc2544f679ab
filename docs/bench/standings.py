#!/usr/bin/python3
"""Draws the plots of docs/BENCHMARKS.md from the figures recorded in the run log.

  /usr/bin/python3 docs/bench/standings.py      (Debian's python3-matplotlib)

writes docs/bench/vs-libcubwt.png and docs/bench/by-size.png.  The numbers
below are copied from docs/bench/log/runs-34-39.md (runs 36d and 39); change
them only together with the tables of docs/BENCHMARKS.md.
"""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# Run 36d (H200, 5ea297a): x = libcubwt time / clsa time, with transfers and
# on the device.  Rows measured twice (text@1M, xml) plot the mean of the two.
VS_LIBCUBWT = [
    ("text 1 MB", (0.65 + 0.64) / 2, (0.59 + 0.60) / 2),
    ("text 10 MB", 1.93, 1.40),
    ("xml 16 MiB", (1.41 + 1.64) / 2, (1.17 + 1.18) / 2),
    ("English 40 MB", 1.78, 1.39),
    ("text 100 MB", 1.87, 1.23),
    ("random DNA 100 MB", 2.45, 2.40),
    ("random DNA 400 MB", 2.71, 2.44),
    ("real DNA 32 MiB", 1.96, 1.87),
    ("random bytes 100 MB", 3.06, 1.42),
    ("mutated 50 MB", 1.87, 1.65),
    ("Fibonacci 16 MB", 1.58, 1.56),
    ("Fibonacci 100 MB", 1.55, 1.48),
    ("BWT, text 100 MB", 1.22, 0.92),
    ("BWT, random DNA 100 MB", 1.68, 1.24),
]
PERIODIC = ("periodic:2 100 MB", 27.6, 30.2)  # off the scale: printed, not drawn

# Run 39 (H200, library code of a5ba324), round 2 with the defaults: MB/s of
# the real text cut at each size, with transfers and on the device.
SIZES_MB = [1, 2, 4, 10]
BY_SIZE = {
    "clsa, with transfers": [536, 788, 1168, 1580],
    "clsa, on device": [754, 1091, 1712, 2215],
    "libcubwt, with transfers": [824, 915, 1100, 854],
    "libcubwt, on device": [1220, 1726, 1918, 1605],
}


def plot_vs_libcubwt(path):
    names = [r[0] for r in VS_LIBCUBWT][::-1]
    xt = [r[1] for r in VS_LIBCUBWT][::-1]
    xd = [r[2] for r in VS_LIBCUBWT][::-1]
    fig, ax = plt.subplots(figsize=(7, 5.2))
    y = range(len(names))
    h = 0.38
    ax.barh([i + h / 2 for i in y], xt, h, label="transfers included", color="#4878a8")
    ax.barh([i - h / 2 for i in y], xd, h, label="on the device", color="#e0a040")
    ax.axvline(1.0, color="black", lw=1)
    ax.set_yticks(list(y))
    ax.set_yticklabels(names, fontsize=8)
    ax.set_xlabel("libcubwt time / clsa time  (> 1: clsa faster)")
    ax.set_title("clsa against libcubwt, NVIDIA H200 (run 36d, 5ea297a)\n"
                 "%s: %.1fx / %.1fx (not drawn)" % PERIODIC, fontsize=9)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=72)
    plt.close(fig)


def plot_by_size(path):
    fig, ax = plt.subplots(figsize=(6, 3.6))
    styles = {"clsa": ("#4878a8", "o"), "libcubwt": ("#c04040", "s")}
    for label, mbs in BY_SIZE.items():
        color, marker = styles[label.split(",")[0]]
        dash = "-" if "device" in label else "--"
        ax.plot(SIZES_MB, mbs, dash, color=color, marker=marker, label=label)
    ax.set_xscale("log")
    ax.set_xticks(SIZES_MB)
    ax.set_xticklabels([str(s) for s in SIZES_MB])
    ax.set_xlabel("real text, MB")
    ax.set_ylabel("suffix array, MB/s")
    ax.set_title("Small inputs, NVIDIA H200 (run 39, a5ba324)", fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=72)
    plt.close(fig)


if __name__ == "__main__":
    plot_vs_libcubwt(os.path.join(HERE, "vs-libcubwt.png"))
    plot_by_size(os.path.join(HERE, "by-size.png"))
