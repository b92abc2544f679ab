#!/usr/bin/env bash
# run 42: auto's measurement cost after the pool fix (text@10M regression of run 41)
set -uo pipefail
. tools/bench/device_prelude.sh
unpack_corpus
mkdir -p /tmp/old && tar xzf .old/old.tar.gz -C /tmp/old && (cmake -S /tmp/old -B /tmp/old/build -DCMAKE_BUILD_TYPE=Release -DCLSA_BUILD_TESTS=OFF -DCLSA_MPI=OFF >/dev/null && cmake --build /tmp/old/build -j8 --target clsa_bench >/dev/null 2>&1) &
cmake -B build -S . -DCMAKE_BUILD_TYPE=Release -DCLSA_BUILD_TESTS=OFF -DCLSA_MPI=OFF >/dev/null && cmake --build build -j16 --target clsa_bench >"$OUT/build.txt" 2>&1 || { tail -20 "$OUT/build.txt"; exit 3; }
wait
B=build/tools/bench/clsa-bench; O=/tmp/old/build/tools/bench/clsa-bench
set -- text1="$TEXT@1M" text10="$TEXT@10M" text100="$TEXT@100M" dna=random:4@100M fibonacci@16M mutated:1000000@50M
for r in 1 2; do
  for v in auto doubling; do echo "== $v round $r"; CLSA_ALGORITHM=$v timeout 60 $B --ref-reps 0 -r 5 --no-profile --check-max 200M --dir "$CORPUS" sa32 "$@" 2>&1 | grep -E "^sa32"; done
  echo "== auto, no measurement (skew_min huge) round $r"; CLSA_TUNE=skew_min=1000000000000 timeout 60 $B --ref-reps 0 -r 5 --no-profile --check-max 200M --dir "$CORPUS" sa32 "$@" 2>&1 | grep -E "^sa32"
  echo "== old round $r"; timeout 60 $O --ref-reps 0 -r 5 --no-profile --no-check --dir "$CORPUS" sa32 "$@" 2>&1 | grep -E "^sa32"
done
