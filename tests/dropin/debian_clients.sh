#!/bin/sh
# debian_clients.sh DROPIN_DIR cpu|device
# Unmodified Debian programs that link libdivsufsort3 (andi, phylonium;
# fsm-lite also libdivsufsort64.so.3) run on the same genomes twice: with
# the stock library and with the drop-in of DROPIN_DIR on LD_LIBRARY_PATH.
# ldd must show the drop-in loaded, and the outputs must be byte-identical.
# cpu: a crossover of 16 MiB, above these inputs, so the drop-in must not
# even load OpenCL (LD_DEBUG=files shows).  device: every call
# forced onto the OpenCL device that CLSA_DEVICE names, which loads it.
# Genomes: lambda phage (bowtie2-examples) and three mutated copies.
set -u
dir=$1
mode=$2
skip() {
    echo "SKIP: $1"
    [ "${CLSA_TEST_REQUIRE:-0}" = 1 ] && exit 1
    exit 77
}
for p in andi phylonium fsm-lite python3; do
    command -v $p >/dev/null 2>&1 || skip "$p not installed (tools/setup.sh)"
done
lambda=/usr/share/doc/bowtie2/examples/reference/lambda_virus.fa.gz
[ -r $lambda ] || skip "bowtie2-examples not installed"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
zcat $lambda > lambda.fa
python3 - <<'PY' || exit 1
import random
random.seed(45)
seq = "".join(l.strip() for l in open("lambda.fa") if not l.startswith(">"))
for k in range(4):
    s = list(seq)
    for _ in range(k * len(s) // 40):
        s[random.randrange(len(s))] = random.choice("ACGT")
    with open("g%d.fa" % k, "w") as f:
        f.write(">g%d\n" % k)
        f.writelines("".join(s[i:i + 60]) + "\n" for i in range(0, len(s), 60))
PY
for k in 0 1 2 3; do echo "g$k $work/g$k.fa"; done > list.txt

if [ "$mode" = device ]; then
    export CLSA_BACKEND=device CLSA_COMPAT_MIN_BYTES=0
else
    unset CLSA_BACKEND
    export CLSA_COMPAT_MIN_BYTES=16M
fi
fail=0
# run NAME LIBS COMMAND...: stock, then drop-in; compares stdout.
run() {
    name=$1 libs=$2
    shift 2
    for lib in $libs; do
        LD_LIBRARY_PATH=$dir ldd "$(command -v $1)" | grep -q "$lib => $dir/$lib" ||
            { echo "FAIL $name: ldd does not show $dir/$lib"; fail=1; }
    done
    "$@" > stock.out 2> stock.err || { echo "FAIL $name: stock run"; cat stock.err; fail=1; }
    LD_LIBRARY_PATH=$dir "$@" > ours.out 2> ours.err ||
        { echo "FAIL $name: drop-in run"; cat ours.err; fail=1; }
    if cmp -s stock.out ours.out && [ -s ours.out ]; then
        echo "ok $name: $(wc -c < ours.out) bytes identical"
    else
        echo "FAIL $name: outputs differ or are empty"; fail=1
    fi
    rm -rf fsm_tmp*
}
run andi libdivsufsort.so.3 andi -t 2 g0.fa g1.fa g2.fa g3.fa
run phylonium libdivsufsort.so.3 phylonium g0.fa g1.fa g2.fa g3.fa
run fsm-lite "libdivsufsort.so.3 libdivsufsort64.so.3" fsm-lite -l list.txt -t fsm_tmp -m 20 -M 40 -s 2 -S 3
# Whether the drop-in loaded OpenCL (it must in device mode, never in cpu).
LD_LIBRARY_PATH=$dir LD_DEBUG=files andi g0.fa g1.fa 2>&1 >/dev/null |
    grep -q "file=libOpenCL.*loaded by .*libclsa_compat" && loaded=1 || loaded=0
if [ $loaded = $([ "$mode" = device ] && echo 1 || echo 0) ]; then
    echo "ok $mode: OpenCL loaded by the drop-in: $loaded"
else
    echo "FAIL $mode: OpenCL loaded by the drop-in: $loaded"; fail=1
fi
exit $fail
