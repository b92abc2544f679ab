/* bwa's index files (part of clsa.h; include clsa.h, not this file).
 *
 * clsa_bwa_index writes PREFIX.pac, .ann, .amb, .bwt and .sa exactly as
 * `bwa index` of bwa 0.7.17 writes them for the same FASTA (byte for byte),
 * so `bwa mem PREFIX reads.fq` reads them as its own.  The suffix array of
 * the forward + reverse-complement text is built by clsa (device, out of
 * core or host by the backend rules, as clsa_sa64); past the device's
 * memory the BWT and the .sa rows come by buckets over a difference-cover
 * sample instead, with no suffix array in host memory (docs/SA.md). */
#ifndef CLSA_BWA_H
#define CLSA_BWA_H

/* Reads up to cap bytes of the FASTA input into buf: returns how many
 * (> 0), 0 at the end of the input, < 0 on a read error. */
typedef long long (*clsa_bwa_read_fn)(void *user, void *buf, size_t cap);

/* Reads a FASTA input through read(user, ...) and writes the five files
 * PREFIX.{pac,ann,amb,bwt,sa}: each through a temporary file in the same
 * folder, all five renamed only once all are complete, so a failure (or a
 * cancel through the progress callback) leaves none of them new and no
 * temporary behind.  Progress phases: "read fasta" (fraction 0: the size
 * is unknown; read runs with the context locked and must not call clsa on
 * it), "suffix array" (0.1 to 0.8), "bwt", "write".
 *   ctx     context (NULL: host backend)
 *   read    the input, already decompressed (the CLI and the Python package
 *           read gzip)
 *   name    the input's name for messages (NULL: "<input>")
 *   prefix  path prefix of the five files (bwa's default: the FASTA's path)
 * Input policy: bwa's (a header's name ends at its first whitespace, the
 * rest is its description; A, C, G, T in either case are bases, every other
 * printable byte an ambiguous base, replaced by bwa's own pseudo-random
 * base and listed in .amb), with what bwa would misread refused:
 * whitespace or '>' inside a sequence line, a sequence line starting with
 * '@' or '+', control or non-ASCII bytes, '\r' not followed by '\n', data
 * before the first header, a header without a name, no bases at all.
 * Such an input gives CLSA_ERR_FORMAT, the message "NAME:LINE: reason";
 * a read error CLSA_ERR_IO.  Host memory: about 2 bytes per base for the
 * text (3 on the host route, plus its suffix array), the output files'
 * sizes while they are written excepted. */
CLSA_API clsa_status clsa_bwa_index(clsa_context *ctx, clsa_bwa_read_fn read, void *user,
                                    const char *name, const char *prefix);

/* The same in two steps, so that a caller can open its context while the
 * FASTA is read (the CLI does: an NVIDIA context takes a quarter of a
 * second to open).  clsa_bwa_ref_read reads the input as above into *out
 * (NULL on failure, with the message in err, cap bytes, as
 * clsa_create_ex; err may be NULL).  clsa_bwa_ref_index writes the five
 * files of ref on ctx; a ref is indexed once (its bases become the BWT:
 * CLSA_ERR_INVALID_ARG the second time).  clsa_bwa_ref_free: NULL
 * allowed. */
typedef struct clsa_bwa_ref clsa_bwa_ref;
CLSA_API clsa_status clsa_bwa_ref_read(clsa_bwa_read_fn read, void *user, const char *name,
                                       clsa_bwa_ref **out, char *err, size_t cap);
CLSA_API clsa_status clsa_bwa_ref_index(clsa_context *ctx, clsa_bwa_ref *ref, const char *prefix);
CLSA_API void clsa_bwa_ref_free(clsa_bwa_ref *ref);
#endif
