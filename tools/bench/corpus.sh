#!/usr/bin/env bash
# corpus.sh - the benchmark corpus: build it, pack slices small enough to
# travel with a device call, unpack them on the device machine.
#
#   tools/bench/corpus.sh build  [CORPUS_DIR]            (default /work/corpus)
#       builds the full corpus (1.23 GB, outside the repo) with
#       ../shared/corpus/build-corpus.sh; needs apt lists (apt-get update).
#   tools/bench/corpus.sh pack   [CORPUS_DIR] [PACK_DIR] (default .corpus)
#       cuts the slices listed below and packs them into
#       PACK_DIR/corpus-slices.tar.xz (41 MB; git-ignored), with a
#       MANIFEST (name, bytes, sha256, what it is) and COMMIT (the commit
#       checked out when packing).  Carry ".corpus" in the device call.
#   tools/bench/corpus.sh unpack [PACK_DIR] [DEST]       (default .corpus, .corpus/data)
#       on the device machine: unpacks the slices into DEST and checks them.
#   tools/bench/corpus.sh list
#       prints the slice table.
#
# Slices (prefixes unless said otherwise; sizes in bytes, Mi = 2^20):
#   english.txt        whole file (39,952,321)
#   howto.txt          whole file (25,431,685)
#   sources.txt        first 40 Mi
#       english + howto + sources cut at 100,000,000 bytes = the 100 MB real-text input
#   dna.fa-stripped    first 32 Mi (human chr22 part: real DNA)
#   genomes.fa-stripped first 16 Mi
#   proteins.txt       first 8 Mi
#   xml.txt            first 16 Mi
#   rrna.txt           first 16 Mi
#   repetitive.txt     NOT a prefix: first 8 Mi of each of its two kernel versions
#                      (bytes 0.. and 51,344,651..), so the slice keeps what makes the
#                      file repetitive (a near-copy of the first half follows)
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
Mi=1048576
V2_START=51344651   # repetitive.txt: where the second kernel version starts

SLICES="english.txt:all howto.txt:all sources.txt:$((40 * Mi)) dna.fa-stripped:$((32 * Mi))
genomes.fa-stripped:$((16 * Mi)) proteins.txt:$((8 * Mi)) xml.txt:$((16 * Mi))
rrna.txt:$((16 * Mi)) repetitive.txt:two-versions"

die() { echo "corpus.sh: $*" >&2; exit 1; }

cut_slice() { # NAME SPEC SRC_DIR DEST_DIR
    local name=$1 spec=$2 src=$3/$1 dest=$4/$1
    [ -f "$src" ] || die "$src missing: run 'corpus.sh build' first"
    case $spec in
    all) cp "$src" "$dest" ;;
    two-versions)
        { head -c $((8 * Mi)) "$src" &&
            dd if="$src" bs=1M iflag=skip_bytes,count_bytes skip=$V2_START count=$((8 * Mi)) status=none; } >"$dest" ;;
    *) head -c "$spec" "$src" >"$dest" ;;
    esac
}

describe() { # NAME SPEC -> what the slice is
    case $2 in
    all) echo "whole $1" ;;
    two-versions) echo "first 8 MiB of each of the two kernel versions in $1" ;;
    *) echo "first $(($2 / Mi)) MiB of $1" ;;
    esac
}

cmd_build() {
    local dir=${1:-/work/corpus}
    local script=${CLSA_BUILD_CORPUS:-$root/../shared/corpus/build-corpus.sh}
    [ -f "$script" ] || die "build-corpus.sh not found at $script (set CLSA_BUILD_CORPUS)"
    case $(readlink -f "$dir") in "$root"/*) die "put the corpus outside the repo ($dir)" ;; esac
    sh "$script" "$dir"
}

cmd_pack() {
    local src=${1:-/work/corpus} pack=${2:-$root/.corpus}
    mkdir -p "$pack"
    stage=$(mktemp -d "$pack/stage.XXXXXX")
    trap 'rm -rf "${stage:-}"' EXIT
    mkdir -p "$stage/data"
    : >"$stage/data/MANIFEST"
    for s in $SLICES; do
        name=${s%%:*}
        spec=${s#*:}
        cut_slice "$name" "$spec" "$src" "$stage/data"
        printf '%s %s %s %s\n' "$name" "$(wc -c <"$stage/data/$name" | tr -d ' ')" \
            "$(sha256sum "$stage/data/$name" | cut -d' ' -f1)" "$(describe "$name" "$spec")" \
            >>"$stage/data/MANIFEST"
        echo "corpus.sh: sliced $name ($(describe "$name" "$spec"))" >&2
    done
    echo "corpus.sh: compressing (xz -7, a minute or two)..." >&2
    tar -C "$stage" -cf - data | xz -7 -T2 >"$stage/corpus-slices.tar.xz"
    mv "$stage/corpus-slices.tar.xz" "$pack/corpus-slices.tar.xz"
    cp "$stage/data/MANIFEST" "$pack/MANIFEST"
    (cd "$root" && git describe --always --dirty 2>/dev/null || echo unknown) >"$pack/COMMIT"
    grep -qx '/.corpus/' "$root/.gitignore" 2>/dev/null || grep -qx '/.corpus/' "$root/.git/info/exclude" 2>/dev/null ||
        echo '/.corpus/' >>"$root/.git/info/exclude"
    local bytes
    bytes=$(wc -c <"$pack/corpus-slices.tar.xz" | tr -d ' ')
    echo "corpus.sh: $pack/corpus-slices.tar.xz: $bytes bytes ($((bytes / Mi)) MiB)"
    [ "$bytes" -lt $((50 * Mi)) ] || echo "corpus.sh: WARNING: over 50 MiB; the carry limit is 64 MiB in all" >&2
    cat "$pack/MANIFEST"
}

cmd_unpack() {
    local pack=${1:-$root/.corpus} dest=${2:-$root/.corpus/data}
    [ -f "$pack/corpus-slices.tar.xz" ] || die "$pack/corpus-slices.tar.xz missing (pack it here, carry .corpus)"
    mkdir -p "$dest"
    xz -dc "$pack/corpus-slices.tar.xz" | tar -C "$dest" --strip-components=1 -xf -
    (cd "$dest" && while read -r name bytes sha _; do
        [ "$(sha256sum "$name" | cut -d' ' -f1)" = "$sha" ] || die "$name does not match MANIFEST"
    done <MANIFEST)
    echo "corpus.sh: unpacked $(wc -l <"$dest/MANIFEST") slices into $dest" >&2
}

case ${1:-} in
build) shift; cmd_build "$@" ;;
pack) shift; cmd_pack "$@" ;;
unpack) shift; cmd_unpack "$@" ;;
list) for s in $SLICES; do echo "${s%%:*}: $(describe "${s%%:*}" "${s#*:}")"; done ;;
*) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac
