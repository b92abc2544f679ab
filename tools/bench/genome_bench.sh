#!/usr/bin/env bash
# genome_bench.sh - issue 44's genome-scale rows on one GPU: `clsa bwt` and
# `clsa index` of a genome-like text of GENOME_SIZE bases (default 3200M)
# and of that text followed by its reverse complement (2 x GENOME_SIZE, the
# text bwa indexes: 6.4 Gbp > 2^32 by default).  Builds nothing: expects a
# Release build in $BUILD (default build) with clsa and clsa_gen_genome.
#
#   bash tools/bench/genome_bench.sh                        # H200, < 8 minutes
#   GENOME_SIZE=2M CLSA_DEVICE=pocl bash tools/bench/genome_bench.sh   # smoke test
#
# One line a row, printed as it finishes:
#   row OP SIZE wall_s W lib_s L route "R" dev_B/n D rss_B R check C
# wall_s: the CLI's wall time (reading and writing files included); lib_s:
# the library call (--stats' wall); route: the plan lines of --stats;
# dev_B/n: peak device bytes per input byte; rss_B: host peak resident set
# (/usr/bin/time -v; "-" without it); check: each BWT inverted with
# `clsa unbwt` and compared with the text (cmp; past 2^32 only with
# GENOME_UNBWT_BIG=SECONDS: the inversion runs on one host thread there).
# Rows of the smaller text first; each row under `timeout`, all under
# GENOME_LIMIT seconds (default 450); a row with less than 15 s left is
# skipped.  Files (text 2 x SIZE,
# its first half, one output at a time) in GENOME_DIR (default ./out-genome:
# on disk, as /tmp may be memory), deleted as the rows go and at the end.
# Env: CLSA_DEVICE (default gpu), BUILD, GENOME_SIZE, GENOME_LIMIT,
# GENOME_DIR, GENOME_KEEP=1 (keep the files), GENOME_DC_CHECK=1,
# GENOME_BWA=1 and GENOME_LOCATE=K (rows described where they run),
# GENOME_BIG_ROWS (rows of the
# 2 x SIZE text: default "bwt index", in that order while time is left; on
# the H200 its bwt takes about 270 s out of core, so "index" alone times
# the FM-index there).
set -uo pipefail

ROOT=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
cd "$ROOT" || exit 3
BUILD=${BUILD:-build}
CLSA=$BUILD/clsa
GEN=$BUILD/clsa_gen_genome
SIZE=${GENOME_SIZE:-3200M}
LIMIT=${GENOME_LIMIT:-450}
# on the disk beside the repository, not /tmp (which may be memory)
DIR=${GENOME_DIR:-$ROOT/out-genome}
export CLSA_DEVICE=${CLSA_DEVICE:-gpu}
START=$(date +%s)
say() { echo "== [genome $(($(date +%s) - START))s/${LIMIT}s] $*"; }
left() { echo $((START + LIMIT - $(date +%s))); }
for x in "$CLSA" "$GEN"; do [ -x "$x" ] || { say "no $x: build first (Release)"; exit 3; }; done
mkdir -p "$DIR" || exit 3
cleanup() {
    [ "${GENOME_KEEP:-0}" = 1 ] && return
    rm -f "$DIR"/g.* "$DIR"/out.*
    rmdir "$DIR" 2>/dev/null
}
trap cleanup EXIT
TIMEV=()
[ -x /usr/bin/time ] && TIMEV=(/usr/bin/time -v)
say "device $CLSA_DEVICE, size $SIZE (+ reverse complement), dir $DIR ($(df -h "$DIR" | awk 'NR==2 {print $4 " free on " $6}'))"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
echo "host: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f", $2 * 1024}' /proc/meminfo) bytes"

# run NAME TIMEOUT CMD...: runs CMD under timeout and time -v, its stderr
# in $DIR/out.err and stdout in $DIR/out.log; sets WALL and RSS.
run() {
    local name=$1 cap=$2
    shift 2
    local t0 t1 rc
    t0=$(date +%s.%N)
    timeout "$cap" "${TIMEV[@]}" "$@" >"$DIR/out.log" 2>"$DIR/out.err"
    rc=$?
    t1=$(date +%s.%N)
    WALL=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}')
    RSS=-
    [ ${#TIMEV[@]} -gt 0 ] &&
        RSS=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 * 1024}' "$DIR/out.err")
    [ "$rc" = 0 ] || { say "$name: exit $rc"; grep -v '^\s' "$DIR/out.err" | grep -v '^stats: phase' | tail -8; }
    return "$rc"
}

# the --stats figures of the last run: library seconds, route, device B/n
lib_s() { sed -n 's/^stats: n [0-9]* bytes, wall \([0-9.]*\) s.*/\1/p' "$DIR/out.err"; }
route() { sed -n "s/^plan: route //p" "$DIR/out.err" | head -1; }
dev_bn() { sed -n 's/^stats: peak device memory [0-9]* bytes (\([0-9.]*\) bytes.*/\1/p' "$DIR/out.err"; }

row() { # row OP LABEL CHECK
    echo "row $1 $2 wall_s $WALL lib_s $(lib_s) route \"$(route)\" dev_B/n $(dev_bn) rss_B $RSS check $3"
}

# cap of a row: its share, at most what is left; 0 to skip
cap_of() {
    local want=$1 l
    l=$(left)
    [ "$l" -lt 15 ] && { echo 0; return; }
    [ "$want" -gt "$l" ] && want=$l
    echo "$want"
}

# GENOME_LOCATE=K: K 32-mers of the text at random positions (half of them
# past 2^32; none in an N gap) looked up in the index just built (`clsa
# locate`): each must list its own position
locate_check() {
    local text=$1 t0
    command -v python3 >/dev/null || { say "locate check: no python3"; return; }
    python3 - "$text" "$GENOME_LOCATE" "$DIR/out.pat" "$DIR/out.want" <<'PY'
import os, random, sys
path, k = sys.argv[1], int(sys.argv[2])
n = os.path.getsize(path)
rng = random.Random(44)
with open(path, "rb") as f, open(sys.argv[3], "wb") as pat, open(sys.argv[4], "w") as want:
    for i in range(k):
        for tries in range(100):  # not in an N gap (millions of occurrences)
            p = rng.randrange(0, n - 32) if i % 2 else rng.randrange(min(1 << 32, n - 33), n - 32)
            f.seek(p)
            s = f.read(32)
            if b"N" not in s:
                break
        pat.write(s + b"\n")
        want.write("%d\n" % p)
PY
    t0=$(date +%s.%N)
    if timeout "$(cap_of 120)" "$CLSA" locate "$DIR/out.fm" "$DIR/out.pat" >"$DIR/out.loc" 2>"$DIR/out.lerr"; then
        local bad
        bad=$(paste -d'|' "$DIR/out.want" "$DIR/out.loc" |
              awk -F'|' '{ n = split($2, a, " "); ok = 0; for (i = 1; i <= n; i++) if (a[i] == $1) ok = 1; if (!ok) b++ } END { print b + 0 }')
        echo "row locate $N2 patterns $GENOME_LOCATE wall_s $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}') check $([ "$bad" = 0 ] && echo ok || echo "$bad MISSING")"
    else
        echo "row locate $N2 failed: $(tail -1 "$DIR/out.lerr")"
    fi
    rm -f "$DIR"/out.pat "$DIR"/out.want "$DIR"/out.loc "$DIR"/out.lerr
}

rows_for() { # rows_for TEXT LABEL BWT_S UNBWT_S INDEX_S (caps; 0: skip the row)
    local text=$1 label=$2 cap primary check
    cap=0
    [ "$3" != 0 ] && cap=$(cap_of "$3")
    if [ "$cap" = 0 ]; then
        say "$label: bwt skipped (time or GENOME_BIG_ROWS)"
    else
        say "$label: clsa bwt"
    fi
    if [ "$cap" = 0 ]; then
        :
    elif run "bwt $label" "$cap" "$CLSA" bwt --stats -v "$text" "$DIR/out.bwt"; then
        [ "$label" = "$N2" ] && grep -E '^stats: (algorithm|phase)|^plan: bwt|^clsa: phase' "$DIR/out.err"
        primary=$(sed -n 's/^primary=//p' "$DIR/out.log")
        check=unchecked
        cap=0
        [ "$4" != 0 ] && cap=$(cap_of "$4")
        if [ "$cap" != 0 ]; then
            local w=$WALL r=$RSS e
            e=$(mktemp)
            cp "$DIR/out.err" "$e"
            if timeout "$cap" "$CLSA" unbwt --primary "$primary" "$DIR/out.bwt" "$DIR/out.inv" \
                2>"$DIR/out.unbwt"; then
                cmp -s "$text" "$DIR/out.inv" && check=ok || check=DIFFERS
            else
                check="unbwt-failed($(tail -1 "$DIR/out.unbwt"))"
            fi
            cp "$e" "$DIR/out.err"
            rm -f "$e" "$DIR/out.inv"
            WALL=$w RSS=$r
        fi
        row bwt "$label" "$check"
        [ "${GENOME_DC_CHECK:-0}" = 1 ] && [ "$label" = "$N" ] && mv "$DIR/out.bwt" "$DIR/out.ref" &&
            echo "$primary" >"$DIR/out.refp"
    else
        row bwt "$label" failed
    fi
    rm -f "$DIR/out.bwt" "$DIR/out.inv"
    cap=0
    [ "$5" != 0 ] && cap=$(cap_of "$5")
    [ "$cap" = 0 ] && { say "$label: index skipped (time or GENOME_BIG_ROWS)"; return; }
    say "$label: clsa index"
    if run "index $label" "$cap" "$CLSA" index --stats -v "$text" "$DIR/out.fm"; then
        row index "$label" "written $(stat -c %s "$DIR/out.fm") B"
        [ "$label" = "$N2" ] && grep -E '^stats: algorithm|^clsa: phase' "$DIR/out.err"
        [ "$label" = "$N2" ] && [ "${GENOME_LOCATE:-0}" -gt 0 ] && locate_check "$text"
    else
        row index "$label" failed
    fi
    rm -f "$DIR/out.fm"
}

say "generating $SIZE bases and their reverse complement"
t0=$(date +%s.%N)
"$GEN" --raw --revcomp "$SIZE" "$DIR/g.rc" || { say "generator failed"; exit 3; }
N2=$(stat -c %s "$DIR/g.rc")
N=$((N2 / 2))
head -c "$N" "$DIR/g.rc" >"$DIR/g.fwd"
say "generated $N + $N bytes in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}') s"
rows_for "$DIR/g.fwd" "$N" 90 60 90
# GENOME_DC_CHECK=1: the same BWT by buckets over a difference-cover
# sample (CLSA_TUNE dc_bwt=2, the route past the device's memory), timed
# and compared byte for byte with the in-memory route's
if [ -f "$DIR/out.ref" ] && [ "$(cap_of 120)" != 0 ]; then
    say "$N: clsa bwt by buckets (dc_bwt=2)"
    if CLSA_TUNE=dc_bwt=2 run "bwt-dc $N" "$(cap_of 120)" "$CLSA" bwt --stats -v "$DIR/g.fwd" "$DIR/out.bwt"; then
        cmp -s "$DIR/out.ref" "$DIR/out.bwt" && check=same || check=DIFFERS
        [ "$(sed -n 's/^primary=//p' "$DIR/out.log")" = "$(cat "$DIR/out.refp")" ] ||
            check="$check,primary-DIFFERS"
        row bwt-dc "$N" "$check"
        grep -E '^stats: (algorithm|phase)|^plan: bwt|^clsa: phase' "$DIR/out.err"
    else
        row bwt-dc "$N" failed
    fi
    rm -f "$DIR/out.ref" "$DIR/out.refp" "$DIR/out.bwt"
fi
rm -f "$DIR/g.fwd"
# past 2^32: the BWT first with what is left; the inversion runs on the
# host there (one thread, minutes at 6.4 Gbp): only with GENOME_UNBWT_BIG
BIG=${GENOME_BIG_ROWS:-bwt index}
big_bwt=0 big_index=0
case " $BIG " in *" bwt "*) big_bwt=400 ;; esac
case " $BIG " in *" index "*) big_index=400 ;; esac
rows_for "$DIR/g.rc" "$N2" "$big_bwt" "${GENOME_UNBWT_BIG:-0}" "$big_index"
rm -f "$DIR/g.rc"
# GENOME_BWA=1: `clsa index --format bwa` of a FASTA of SIZE bases in 24
# records (bwa adds the reverse complement: a 2 x SIZE text)
if [ "${GENOME_BWA:-0}" = 1 ] && [ "$(cap_of 200)" != 0 ]; then
    say "generating a FASTA of $SIZE bases"
    "$GEN" --records 24 "$SIZE" "$DIR/g.fa" || { say "generator failed"; exit 3; }
    say "$N: clsa index --format bwa"
    if run "bwa $N" "$(cap_of 200)" "$CLSA" index --format bwa -v "$DIR/g.fa"; then
        row bwa-index "$N" "written $(cat "$DIR"/g.fa.{bwt,sa,pac,ann,amb} | wc -c) B"
        grep -E '^clsa: phase' "$DIR/out.err"
    else
        row bwa-index "$N" failed
    fi
    rm -f "$DIR"/g.fa*
fi
say "done"
