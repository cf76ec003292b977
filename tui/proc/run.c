/*
 * run: start the command given after "--", follow it, stop it.  See run.h.
 */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET_S */
#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "frontend.h"

struct run_cmd {
	pid_t pid;
	int pidfd;             /* -1 where pidfd_open is missing (Linux < 5.3) */
	char name[64];         /* its argv[0]'s last component */
	double t_start, t_end; /* CLOCK_MONOTONIC seconds; t_end 0 while it runs */
	bool ended;
	int wstatus;
	/* held (run_config.hold): the pipe that lets it exec, the one that says whether it did */
	int go_fd, exec_fd;
	bool pinned;
	char argv0[256];
};

static double run_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* What the child needs, made before fork: after it only async-signal-safe calls are allowed. */
struct run_prep {
	cpu_set_t *set;        /* --pin, or NULL */
	size_t set_size;
	char **envp;           /* the environment with PMUTOP_MARK_FIFO */
};

extern char **environ;

static void run_prepare(const struct run_config *c, struct run_prep *p)
{
	size_t n = 0;

	memset(p, 0, sizeof(*p));
	if (c->pin) {
		p->set_size = CPU_ALLOC_SIZE(c->npin);
		p->set = CPU_ALLOC(c->npin);
		if (!p->set)
			xmalloc_die(p->set_size);
		CPU_ZERO_S(p->set_size, p->set);
		for (int i = 0; i < c->npin; i++)
			if (c->pin[i])
				CPU_SET_S(i, p->set_size, p->set);
	}
	while (environ[n])
		n++;
	p->envp = xcalloc(n + 2, sizeof(char *));
	n = 0;
	for (char **e = environ; *e; e++)
		if (strncmp(*e, "PMUTOP_MARK_FIFO=", 17))
			p->envp[n++] = *e;
	if (c->mark_fifo) {
		size_t len = strlen(c->mark_fifo) + 18;

		p->envp[n] = xmalloc(len);
		snprintf(p->envp[n], len, "PMUTOP_MARK_FIFO=%s", c->mark_fifo);
	}
}

static void run_unprepare(const struct run_config *c, struct run_prep *p)
{
	if (p->set)
		CPU_FREE(p->set);
	if (c->mark_fifo) {
		size_t n = 0;

		while (p->envp[n])
			n++;
		free(p->envp[n - 1]);
	}
	free(p->envp);
}

/* Tell the parent why the command does not run (errno E), and leave. */
static void run_child_fail(int err_fd, int e)
{
	if (write(err_fd, &e, sizeof(e)) < 0) {
		/* the parent reads EOF and reports the command's own exit */
	}
	_exit(127);
}

/*
 * In the child, between fork and exec: only async-signal-safe calls; errors
 * go to ERR_FD.  GO_FD >= 0: wait for the parent's word first (EOF: it gave
 * up on the command, so it never runs).
 */
static void run_child(const struct run_config *c, const struct run_prep *p, int err_fd, int go_fd)
{
	sigset_t none;

	/* its own group: the terminal's signals reach pmutop, which passes them on */
	setpgid(0, 0);
	/* pmutop blocks its stop signals for the signalfd; the command gets a clean mask */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/*
	 * The stops pmutop passes on must stop it, even where pmutop was started
	 * with them ignored (a background job of a script ignores SIGINT)
	 */
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (c->null_stdin) {
		int fd = open("/dev/null", O_RDONLY);

		if (fd >= 0 && fd != STDIN_FILENO) {
			dup2(fd, STDIN_FILENO);
			close(fd);
		}
	}
	if (c->out_fd >= 0) {
		dup2(c->out_fd, STDOUT_FILENO);
		dup2(c->out_fd, STDERR_FILENO);
	}
	if (p->set && sched_setaffinity(0, p->set_size, p->set))
		run_child_fail(err_fd, errno);
	if (go_fd >= 0) {
		char go = 0;
		ssize_t n;

		do
			n = read(go_fd, &go, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1 || go != 'g')
			_exit(126);
	}
	execvpe(c->argv[0], c->argv, p->envp);
	run_child_fail(err_fd, errno);
}

/*
 * Wait for R's exec (the pipe closes on it, or carries the errno it failed
 * with).  0, or -errno with the message in ERR (R reaped).
 */
static int run_wait_exec(struct run_cmd *r, char *err, size_t errlen)
{
	ssize_t n;
	int e = 0;

	do
		n = read(r->exec_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(r->exec_fd);
	r->exec_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		waitpid(r->pid, NULL, 0);
		r->ended = true;
		snprintf(err, errlen, "cannot run '%s': %s%s", r->argv0, strerror(e),
			 e == ENOENT ? " (is it on PATH, or give its path)" :
			 e == EINVAL && r->pinned ? " (--pin: no CPU of the list is usable here)" : "");
		return -e;
	}
	return 0;
}

int run_start(const struct run_config *c, struct run_cmd **out, char *err, size_t errlen)
{
	struct run_prep prep;
	struct run_cmd *r;
	const char *base;
	int pipefd[2], gofd[2] = { -1, -1 }, e = 0;

	*out = NULL;
	if (!c->argv || !c->argv[0] || !c->argv[0][0]) {
		snprintf(err, errlen, "no command after '--'");
		return -EINVAL;
	}
	if (pipe2(pipefd, O_CLOEXEC) || (c->hold && pipe2(gofd, O_CLOEXEC))) {
		e = errno;
		snprintf(err, errlen, "cannot start '%s': %s", c->argv[0], strerror(e));
		return -e;
	}
	r = xcalloc(1, sizeof(*r));
	r->pidfd = -1;
	r->go_fd = -1;
	r->exec_fd = pipefd[0];
	r->pinned = c->pin != NULL;
	snprintf(r->argv0, sizeof(r->argv0), "%s", c->argv[0]);
	base = strrchr(c->argv[0], '/');
	snprintf(r->name, sizeof(r->name), "%s", base ? base + 1 : c->argv[0]);
	r->t_start = run_now();
	run_prepare(c, &prep);
	r->pid = fork();
	if (r->pid == 0) {
		close(pipefd[0]);
		if (gofd[1] >= 0)
			close(gofd[1]);
		run_child(c, &prep, pipefd[1], gofd[0]);
	}
	run_unprepare(c, &prep);
	close(pipefd[1]);
	if (gofd[0] >= 0)
		close(gofd[0]);
	if (r->pid < 0) {
		e = errno;
		close(pipefd[0]);
		if (gofd[1] >= 0)
			close(gofd[1]);
		free(r);
		snprintf(err, errlen, "cannot start '%s': %s", c->argv[0], strerror(e));
		return -e;
	}
	/* the parent too, so a signal sent at once cannot miss the group */
	setpgid(r->pid, r->pid);
	r->pidfd = (int)syscall(SYS_pidfd_open, r->pid, 0);
	if (r->pidfd >= 0)
		fcntl(r->pidfd, F_SETFD, FD_CLOEXEC);
	if (c->hold) {
		/* it waits before exec: run_release lets it go */
		r->go_fd = gofd[1];
		*out = r;
		return 0;
	}
	e = run_wait_exec(r, err, errlen);
	if (e) {
		run_free(r);
		return e;
	}
	*out = r;
	return 0;
}

int run_release(struct run_cmd *r, char *err, size_t errlen)
{
	if (r->go_fd < 0)
		return 0;
	if (write(r->go_fd, "g", 1) != 1) {
		/* it is gone already: its exit status says what happened */
	}
	close(r->go_fd);
	r->go_fd = -1;
	r->t_start = run_now();
	return run_wait_exec(r, err, errlen);
}

int run_fd(const struct run_cmd *r)
{
	return r && !r->ended ? r->pidfd : -1;
}

bool run_poll(struct run_cmd *r)
{
	int st;

	if (!r || r->ended)
		return r != NULL;
	if (waitpid(r->pid, &st, WNOHANG) != r->pid)
		return false;
	r->wstatus = st;
	r->ended = true;
	r->t_end = run_now();
	if (r->pidfd >= 0) {
		close(r->pidfd);
		r->pidfd = -1;
	}
	return true;
}

int run_pid(const struct run_cmd *r)
{
	return (int)r->pid;
}

int run_status(const struct run_cmd *r)
{
	if (!r->ended)
		return -1;
	if (WIFEXITED(r->wstatus))
		return WEXITSTATUS(r->wstatus);
	return WIFSIGNALED(r->wstatus) ? 128 + WTERMSIG(r->wstatus) : 1;
}

double run_elapsed(const struct run_cmd *r)
{
	return (r->ended ? r->t_end : run_now()) - r->t_start;
}

void run_describe(const struct run_cmd *r, char *buf, size_t len)
{
	double t = run_elapsed(r);

	if (!r->ended)
		snprintf(buf, len, "%s (pid %d) running %d:%02d", r->name, (int)r->pid, (int)t / 60,
			 (int)t % 60);
	else if (WIFSIGNALED(r->wstatus))
		snprintf(buf, len, "%s (pid %d) finished (killed by %s) after %.1f s", r->name,
			 (int)r->pid, sigabbrev_np(WTERMSIG(r->wstatus)) ?
			 sigabbrev_np(WTERMSIG(r->wstatus)) : "a signal", t);
	else
		snprintf(buf, len, "%s (pid %d) finished (exit %d) after %.1f s", r->name, (int)r->pid,
			 run_status(r), t);
}

void run_signal(struct run_cmd *r, int sig)
{
	if (r && !r->ended)
		kill(-r->pid, sig);
}

int run_stop(struct run_cmd *r, int sig, double wait_s)
{
	double until = run_now() + wait_s;

	if (r->go_fd >= 0) {
		close(r->go_fd); /* still held: it leaves without running */
		r->go_fd = -1;
	}
	run_signal(r, sig);
	while (!run_poll(r) && run_now() < until) {
		struct pollfd p = { .fd = r->pidfd, .events = POLLIN };

		if (r->pidfd >= 0)
			poll(&p, 1, 50);
		else
			usleep(20000);
	}
	if (!r->ended) {
		run_signal(r, SIGKILL);
		waitpid(r->pid, &r->wstatus, 0);
		r->ended = true;
		r->t_end = run_now();
	}
	return run_status(r);
}

void run_free(struct run_cmd *r)
{
	if (!r)
		return;
	if (r->go_fd >= 0)
		close(r->go_fd); /* held and never let go: it leaves without running */
	if (r->exec_fd >= 0)
		close(r->exec_fd);
	if (r->pidfd >= 0)
		close(r->pidfd);
	free(r);
}

int run_parse_pin(const char *text, int ncpus,
		  int (*socket_cpus)(void *ctx, int socket, bool *pin), void *ctx, bool *pin,
		  char *err, size_t errlen)
{
	int *cpus = NULL, n = 0, sock;
	size_t col = 0;
	char tail;

	memset(pin, 0, sizeof(bool) * (size_t)ncpus);
	if (sscanf(text, "socket%d%c", &sock, &tail) == 1) {
		if (sock < 0 || !socket_cpus || socket_cpus(ctx, sock, pin) == 0) {
			snprintf(err, errlen, "--pin %s: this machine has no socket %d", text, sock);
			return -EINVAL;
		}
		return 0;
	}
	if (cpulist_parse(text, &cpus, &n, &col) || n == 0) {
		snprintf(err, errlen, "--pin needs a CPU list such as 0-3,8 or socketN, got '%s'",
			 text);
		free(cpus);
		return -EINVAL;
	}
	for (int i = 0; i < n; i++) {
		if (cpus[i] >= ncpus) {
			snprintf(err, errlen, "--pin %s: CPU %d is not on this machine (CPUs 0-%d)",
				 text, cpus[i], ncpus - 1);
			free(cpus);
			return -EINVAL;
		}
		pin[cpus[i]] = true;
	}
	free(cpus);
	return 0;
}
