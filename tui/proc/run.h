/*
 * run: the command run under pmutop (pmutop [OPTIONS] -- COMMAND [ARGS]).
 *
 * The command runs in its own process group, so the terminal's Ctrl-C
 * reaches pmutop only, which passes it on (run_signal) and waits for the
 * command before it restores the registers and leaves.  Its end is seen
 * through a pidfd (poll it) or run_poll().  Main/UI thread only.
 */
#ifndef PMUTOP_RUN_H
#define PMUTOP_RUN_H

#include <stdbool.h>
#include <stddef.h>

struct run_cmd;

struct run_config {
	char *const *argv;        /* the command and its arguments, NULL-terminated */
	const bool *pin;          /* by OS CPU number: the CPUs it may run on, or NULL */
	int npin;                 /* entries in PIN */
	/*
	 * Where its standard output and error go: -1 keeps pmutop's, else this
	 * descriptor (the batch mode's stderr, the interactive view's log file).
	 */
	int out_fd;
	bool null_stdin;          /* the interactive view owns the terminal: stdin is /dev/null */
	const char *mark_fifo;    /* exported as PMUTOP_MARK_FIFO, or NULL */
	bool hold;                /* started, but it waits before exec until run_release */
};

/*
 * Start it.  0, or -errno with one line in ERR ("cannot run 'x': No such
 * file or directory"): the command could not be executed at all.
 */
int run_start(const struct run_config *c, struct run_cmd **out, char *err, size_t errlen);

/*
 * Let a held command (run_config.hold) run: 0, or -errno with ERR as
 * run_start says it (it could not be executed; it is reaped).
 */
int run_release(struct run_cmd *r, char *err, size_t errlen);

/* A descriptor readable when the command ended (a pidfd), or -1: then call run_poll now and then. */
int run_fd(const struct run_cmd *r);

/* Reap it if it ended; returns whether it has ended (now or before). */
bool run_poll(struct run_cmd *r);

int run_pid(const struct run_cmd *r);

/* Its exit status as a shell gives it: the exit code, or 128 + the signal that ended it. */
int run_status(const struct run_cmd *r);

/* Seconds since it started, or its whole run once it ended. */
double run_elapsed(const struct run_cmd *r);

/*
 * One line for the header: "stream (pid 1234) running 0:12" or "stream
 * (pid 1234) finished (exit 0) after 12.3 s" / "(killed by SIGINT)".
 */
void run_describe(const struct run_cmd *r, char *buf, size_t len);

/* Send SIG to its process group (the command and what it started). */
void run_signal(struct run_cmd *r, int sig);

/*
 * Stop it: SIG to its group, up to WAIT_S seconds for it to end, then
 * SIGKILL.  Returns run_status().
 */
int run_stop(struct run_cmd *r, int sig, double wait_s);

void run_free(struct run_cmd *r);

/*
 * Parse a --pin value against a machine of NCPUS CPU numbers: a CPU list
 * ("0-3,8") or "socketN" (SOCKET_CPUS(N) fills the CPUs of socket N and
 * returns how many, 0 when there is no such socket).  PIN gets NCPUS
 * entries.  0 or -EINVAL with one line in ERR.
 */
int run_parse_pin(const char *text, int ncpus,
		  int (*socket_cpus)(void *ctx, int socket, bool *pin), void *ctx, bool *pin,
		  char *err, size_t errlen);

#endif
