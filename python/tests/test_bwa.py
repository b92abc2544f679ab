"""clsa.bwa_index against bwa 0.7.17 itself: the five index files byte for
byte, from plain and gzip FASTA (skipped where bwa is not installed)."""
import gzip
import os
import shutil
import subprocess

import pytest

import clsa

pytestmark = pytest.mark.skipif(shutil.which("bwa") is None, reason="no bwa")
FASTA = b">chr1 first record\nACGTNNNNacgtRYKMacgggtttaaaccc\nACGGGTTTnnnACGTAGCTAGCTTTGACA\n" \
        b">empty\n>chr2\tsecond\nTTTTGGGGCCCCAAAAGATCGATCGGGGCATCATCATGACTAGC\n" * 3


def _files(prefix):
    return [open(prefix + e, "rb").read() for e in (".pac", ".ann", ".amb", ".bwt", ".sa")]


@pytest.mark.parametrize("gz", [False, True])
def test_same_files_as_bwa(ctx, tmp_path, gz):
    ref = str(tmp_path / "ref.fa")
    with open(ref, "wb") as f:
        f.write(FASTA)
    subprocess.run(["bwa", "index", ref], check=True, capture_output=True)
    ours = str(tmp_path / ("ours.fa.gz" if gz else "ours.fa"))
    with (gzip.open if gz else open)(ours, "wb") as f:
        f.write(FASTA)
    clsa.bwa_index(ours, ctx=ctx)
    assert _files(ours) == _files(ref)


def test_bad_fasta(ctx, tmp_path):
    bad = str(tmp_path / "bad.fa")
    with open(bad, "wb") as f:
        f.write(b">a\nAC GT\n")
    with pytest.raises(clsa.FormatError, match="bad.fa:2:"):
        clsa.bwa_index(bad, ctx=ctx)
    assert os.listdir(tmp_path) == ["bad.fa"]
