/* The context opened on a second thread (issue 15): the OpenCL driver's
 * start (platform, context and queue: a sizeable part of a second) runs
 * while the main thread opens and maps the input and makes the output file,
 * and is joined just before the library call.  With several devices
 * (`clsa sa -d LIST`, devlist.c) this thread opens all their contexts, each
 * on a thread of its own. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { JOB_IDLE, JOB_RUNNING, JOB_DONE };

/* Several devices (devlist.c): their contexts open in parallel on this
 * thread and threads of its own; the job's context is the first. */
static int open_list(cli_ctx_job *j)
{
    j->list = calloc(1, sizeof *j->list);
    if (!j->list) {
        cli_error("out of memory");
        return CLI_RUNTIME;
    }
    int rc = cli_devlist_open(j->a, j->list);
    j->ctx = j->list->ctx[0];
    return rc;
}

static void *open_context(void *p)
{
    cli_ctx_job *j = p;
    j->rc = j->a->multi ? open_list(j) : cli_open(j->a, &j->ctx);
    return NULL;
}

void cli_ctx_init(cli_ctx_job *j, const cli_args *a)
{
    memset(j, 0, sizeof *j);
    j->a = a;
    j->state = JOB_IDLE;
}

void cli_ctx_start(cli_ctx_job *j)
{
    if (j->state != JOB_IDLE) return;
    j->state = JOB_RUNNING;
    if (pthread_create(&j->thread, NULL, open_context, j) != 0) {
        open_context(j); /* no thread to be had: one after the other, nothing lost */
        j->state = JOB_DONE;
    }
}

int cli_ctx_wait(cli_ctx_job *j, clsa_context **ctx)
{
    cli_ctx_start(j);
    if (j->state == JOB_RUNNING) {
        pthread_join(j->thread, NULL);
        j->state = JOB_DONE;
    }
    *ctx = j->ctx;
    return j->rc;
}

/* CLSA_CLI_SERIAL=1: the context before any file work, as before issue 15
 * (for tools/cli/measure_wall.sh's comparison). */
int cli_ctx_serial(void)
{
    const char *e = getenv("CLSA_CLI_SERIAL");
    return e && !strcmp(e, "1");
}

int cli_ctx_failed(const cli_ctx_job *j) { return j->state == JOB_DONE && j->rc != CLI_OK; }

/* CLSA_CLI_EXIT=fast leaves the context to the process's exit (docs/DESIGN.md,
 * "CLI start-up"): every output is committed (closed, renamed) by then. */
void cli_ctx_end(cli_ctx_job *j)
{
    clsa_context *ctx;
    if (j->state == JOB_IDLE) return;
    cli_ctx_wait(j, &ctx);
    const char *e = getenv("CLSA_CLI_EXIT");
    int fast = e && !strcmp(e, "fast") && !cli_serving(); /* a server does not exit */
    if (j->list && !fast) cli_devlist_close(j->list);
    else if (!j->list && !fast) cli_close(ctx);
    free(j->list);
    j->list = NULL;
    j->ctx = NULL;
}
