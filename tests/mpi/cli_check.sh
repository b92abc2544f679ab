#!/bin/sh
# cli_check.sh MPIRUN NP CLSA_MPI CLSA: clsa-mpi's files equal `clsa sa`'s
# (32- and 64-bit) on generated inputs (awk's seeded generator: the same
# bytes every run), on both output routes (mapped where the temporary
# directory is a local file system, and MPI-IO forced by --mpi-io), and a
# failing rank (CLSA_MPI_FAIL) makes the job exit non-zero with one message
# and no output file, on both routes.
set -u
mpirun=$1 np=$2 tool=$3 clsa=$4
here=$(dirname "$0")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
run() { sh "$here/run_mpi.sh" "$mpirun" "$np" "$tool" "$@"; }
gen() { # gen SEED N ALPHABET
  awk -v seed="$1" -v n="$2" -v abc="$3" 'BEGIN { srand(seed); k = length(abc);
    for (i = 0; i < n; i++) printf "%s", substr(abc, int(rand() * k) + 1, 1) }' > "$dir/in"
}
# the route the library should pick here without --mpi-io
case $(stat -f -c %T "$dir") in
  tmpfs|ext2/ext3|xfs|btrfs|f2fs|overlayfs) auto=mapped ;;
  *) auto=MPI-IO ;;
esac
for spec in "1 20000 ab" "2 15000 acgt" "3 9000 abcdefghijklmnopqrstuvwxyz" "4 3000 a" "5 1 x" "6 0 x"; do
  set -- $spec
  gen "$1" "$2" "$3"
  for bits in 32 64; do
    rm -f "$dir/ref.sa"
    "$clsa" sa --backend host --index "$bits" -q "$dir/in" "$dir/ref.sa" || { echo "FAIL: clsa sa"; fails=1; }
    for io in "" --mpi-io; do
      rm -f "$dir/mpi.sa"
      run -q --backend host $io --index "$bits" "$dir/in" "$dir/mpi.sa" || { echo "FAIL: clsa-mpi $io on seed $1 n=$2"; fails=1; }
      cmp "$dir/ref.sa" "$dir/mpi.sa" || { echo "FAIL: files differ on seed $1 n=$2 --index $bits $io"; fails=1; }
    done
  done
done
# --stats: the same file, and one step table (rank 0's) on stderr; on PoCL,
# where installed, through the device engine too (one rank: rank 0's device
# alone; 64 bits: the slice widened on the way out)
gen 8 20000 acgt
for bits in 32 64; do
  "$clsa" sa --backend host --index "$bits" -q "$dir/in" "$dir/ref.sa" || { echo "FAIL: clsa sa"; fails=1; }
  for backend in host device; do
    [ "$backend" = device ] && ! "$clsa" devices 2>/dev/null | grep -q "Portable Computing Language" && continue
    for io in "" --mpi-io; do
      rm -f "$dir/mpi.sa"
      CLSA_DEVICE=pocl run -q --backend "$backend" $io --stats --index "$bits" "$dir/in" "$dir/mpi.sa" 2> "$dir/err" \
        || { echo "FAIL: clsa-mpi --stats --backend $backend $io"; cat "$dir/err"; fails=1; }
      cmp "$dir/ref.sa" "$dir/mpi.sa" || { echo "FAIL: --stats --backend $backend --index $bits $io: files differ"; fails=1; }
      want="engine host-side"
      [ "$backend" = device ] && want="engine device"
      route=$auto
      [ -n "$io" ] && route=MPI-IO
      if [ "$(grep -c '^stats: step total' "$dir/err")" != 1 ] || ! grep -q "$want.*, output $route\$" "$dir/err"; then
        echo "FAIL: --stats --backend $backend $io: no single step table naming the $want and output $route:"
        cat "$dir/err"; fails=1
      fi
    done
  done
done
gen 7 5000 a  # all equal: every phase runs
for io in "" --mpi-io; do
  for phase in read initial doubling final write; do
    rm -f "$dir/mpi.sa"
    CLSA_MPI_FAIL="$((np - 1)):$phase" run -q --backend host $io "$dir/in" "$dir/mpi.sa" 2> "$dir/err"
    rc=$?
    lines=$(grep -c "clsa-mpi: error:" "$dir/err")
    if [ "$rc" = 0 ] || [ "$lines" != 1 ] || ! grep -q "injected failure at phase '$phase'" "$dir/err"; then
      echo "FAIL: fault at $phase $io: exit $rc, $lines error lines:"; cat "$dir/err"; fails=1
    fi
    if ls "$dir" | grep -q "mpi.sa"; then echo "FAIL: output left behind after a fault at $phase $io"; fails=1; fi
  done
done
run -q --index 16 "$dir/in" "$dir/mpi.sa" 2> "$dir/err"
[ $? = 2 ] && [ "$(grep -c 'clsa-mpi: error:' "$dir/err")" = 1 ] || { echo "FAIL: bad --index not a usage error"; cat "$dir/err"; fails=1; }
[ "$fails" = 0 ] && echo "ok: clsa-mpi on $np ranks"
exit "$fails"
