/* The whole runtime layer in one include, for tests that reach into it;
 * library files include only the headers of what they use. */
#ifndef CLSA_RUNTIME_H
#define CLSA_RUNTIME_H

#include "arith.h"
#include "buffer.h"
#include "context.h"
#include "host_mem.h"
#include "launch.h"
#include "oclgrind.h"
#include "program.h"
#include "progress.h"
#include "status.h"
#include "text_pack.h"
#include "tuning.h"

#endif
