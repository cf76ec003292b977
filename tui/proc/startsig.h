/*
 * startsig: stop signals while pmutop starts.
 *
 * pmutop blocks its stop signals (SIGINT, SIGTERM, SIGHUP ...) at once, so
 * that every thread it starts inherits the mask and the signals reach only
 * its signalfd, read by the loop that runs the screen or the samples.  Until
 * that loop runs (opening devices and files, contacting another pmutop,
 * starting the server), a watcher thread reads the signalfd instead: a stop
 * signal then ends pmutop there and then, whatever start-up is doing: the
 * registers restored as after a crash (RESTORE), a line on stderr, exit
 * status 128 + the signal.  A loop calls startsig_end before it reads the
 * signalfd itself.  Main thread.
 */
#ifndef PMUTOP_STARTSIG_H
#define PMUTOP_STARTSIG_H

/* Watch SIGFD until startsig_end; RESTORE (async-signal-safe) runs before the exit. */
void startsig_begin(int sigfd, void (*restore)(void));

/* The loop reads SIGFD from now on: the watcher goes (a no-op when none watches). */
void startsig_end(void);

#endif
