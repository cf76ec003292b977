/*
 * app: what pmutop's modes share.  main.c parses the command line and hands
 * over to one mode, each in a file of its own:
 *
 *   mode_topology.c   --topology-only          mode_list.c     --list-events
 *   mode_allowlist.c  --msr-safe-allowlist     mode_doctor.c   --doctor (and the d key's text)
 *   mode_mark.c       --mark                   mode_replay.c   --replay, -b or the screen
 *   mode_connect.c    --connect                live.c          a run that counts, which goes on
 *   mode_batch.c      -b, --serve alone        mode_dump.c     --dump
 *   mode_screen.c     the live screen          mode_os.c       no counters: the OS's figures
 *
 * with extra.c (the command after "--", the phase marks, --record) and
 * signals.c (the stop signals, a crash's restore, descriptors 0-2).  Each
 * mode returns the exit status: 0, 1 for failures, 2 (OPTIONS_EXIT_USAGE)
 * for bad input, 128 + a signal, or a command's own status.  Main thread.
 */
#ifndef PMUTOP_APP_H
#define PMUTOP_APP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "frontend.h"
#include "marks.h"
#include "options.h"
#include "record.h"
#include "run.h"
#include "serve.h"
#include "view.h"

struct ui_config;

/* ---- signals.c ------------------------------------------------------------ */

/*
 * Block the stop signals (the sampler thread inherits the mask) and return
 * a signalfd for them, its start-up watcher running (startsig.h) with
 * RESTORE; SIGWINCH stays blocked for the UI thread to unblock.  -1 with
 * the reason on stderr.
 */
int app_signals(void (*restore)(void));
/* The signalfd closed, its start-up watcher gone first. */
void app_sigfd_close(int sigfd);
/* A crash puts the terminal and the registers back, then dies of its signal. */
void app_fatal_handlers(void);
/* The registers back at once (a stop signal while starting). */
void app_restore_now(void);
/* Descriptors 0-2 open before any device; whether standard output was closed. */
bool app_std_fds(void);

/* ---- what several modes say about a run ----------------------------------- */

/* This machine's name (static storage). */
const char *app_host(void);
/* Columns of the terminal on standard output, 80 without one. */
int app_terminal_width(void);
/* The doctor's report for OPT (and S's owner scan when S runs) into OUT; returns failures. */
int app_doctor_text(const struct options *opt, const struct session *s, char *out, size_t len);
/* What the screen's header and panes need to know about run S. */
void app_view_info(const struct options *opt, const struct session *s, const char *doctor,
		   struct view_info *in);
/* What a recording's header says about run S. */
void app_record_about(const struct options *opt, struct session *s, struct record_about *ra);

/* ---- extra.c: what goes with a run besides its samples --------------------- */

struct extra {
	struct run_cmd *cmd;      /* the command after "--", or NULL */
	struct marks *marks;      /* the phase-mark FIFO, or NULL when it could not be made */
	struct record *rec;       /* --record, or NULL */
	double t0;                /* wall clock at the start, for the marks' offsets */
};

/* How long a command gets to end after the signal pmutop passed on, before SIGKILL. */
#define APP_CMD_STOP_WAIT_S 10.0

/*
 * Start the marks' FIFO, --record and the command (its output to OUT_FD, or
 * pmutop's).  0, or the exit status to leave with (the message printed).
 */
int extra_start(const struct options *opt, struct session *s, int out_fd, struct extra *x);
/* The command stopped if it still runs, the FIFO removed, the recording closed and said. */
void extra_stop(struct extra *x);

/* ---- the modes ------------------------------------------------------------- */

int mode_topology(const struct options *opt);
int mode_allowlist(const struct options *opt);
int mode_list_pmus(const struct options *opt);
int mode_write_sysfs(const struct options *opt);
int mode_list_events(const struct options *opt);
int mode_list_metrics(const struct options *opt);
int mode_doctor(const struct options *opt);
int mode_mark(const struct options *opt);
int mode_replay(const struct options *opt);
int mode_connect(const struct options *opt);
/* A run that counts (or, with no counters, shows the OS's figures): live.c. */
int mode_live(const struct options *opt);

/* The modes of a live run: its session S open, SIGFD its stop signals, SRV its server. */
int mode_batch(struct session *s, const struct options *opt, int sigfd, struct serve *srv);
int mode_dump(struct session *s, const struct options *opt, int sigfd, const char *doctor);
int mode_screen(struct session *s, const struct options *opt, int sigfd, struct serve *srv,
		struct ui_config *c);
/* No usable counters (REASON): the OS's figures, on the SCREEN or printed. */
int mode_os(const struct options *opt, const char *reason, int sigfd, bool screen);

#endif
