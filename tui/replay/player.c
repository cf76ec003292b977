/*
 * player: a recording on the screen.  See player.h.
 */
#include "player.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <unistd.h>

/* Marks kept for the history; more are counted, not kept. */
#define PLAYER_MARKS 4096

struct player_entry {
	long offset, line;       /* the sample's line */
	double time, interval;   /* its end (wall clock) and its interval */
};

struct player {
	struct replay *r;
	char path[4096];
	struct player_entry *idx;
	int n, pos;
	struct mark *marks;
	int nmarks;
	const struct sample *shown;
	struct topo *topo;
	int tfd;
	bool paused;
	int speed_log2;          /* speed = 2^speed_log2, -3 to 6 */
	struct stat st;          /* the file as indexed: a rewrite or a cut shows in it */
	char error[400];
};

/* The recorded machine: the header's hwloc XML, else its synthetic description. */
static int player_load_topo(struct player *p, char *err, size_t errlen)
{
	return replay_topo(player_about(p), p->path, &p->topo, err, errlen);
}

/*
 * Whether the file is still the one indexed: the same file, no shorter,
 * unchanged since (a recording still being written may only grow).  Else
 * the error is set and the player paused.
 */
static bool player_file_ok(struct player *p)
{
	struct stat st;

	if (p->error[0])
		return false;
	if (stat(p->path, &st) == 0 && st.st_dev == p->st.st_dev && st.st_ino == p->st.st_ino &&
	    st.st_size >= p->st.st_size)
		return true;
	snprintf(p->error, sizeof(p->error), "%.200s was %s while it was replayed: the replay "
		 "stopped at sample %d of %d; open it again", p->path,
		 stat(p->path, &st) ? "removed" : st.st_ino != p->st.st_ino ? "replaced" : "cut",
		 p->pos + 1, p->n);
	p->paused = true;
	return false;
}

/* Show sample I (read again from its line). */
static void player_show(struct player *p, int i)
{
	struct sample *s = player_file_ok(p) ? player_sample_at(p, i) : NULL;

	if (!s) {
		if (!p->error[0] && i != p->pos) {
			snprintf(p->error, sizeof(p->error), "%.200s: sample %d can no longer be read as "
				 "it was indexed (the file was rewritten): the replay stopped at "
				 "sample %d; open it again", p->path, i + 1, p->pos + 1);
			p->paused = true;
		}
		return;
	}
	if (p->shown)
		sample_release(p->shown);
	p->shown = s;
	p->pos = i;
}

/* Arm the timer for the next sample (its interval over the speed), or disarm it. */
static void player_arm(struct player *p)
{
	struct itimerspec its = { 0 };

	if (!p->paused && p->pos + 1 < p->n) {
		double dt = p->idx[p->pos + 1].interval / ldexp(1, p->speed_log2);

		if (!(dt > 0.01))
			dt = 0.01;
		its.it_value.tv_sec = (time_t)dt;
		its.it_value.tv_nsec = (long)((dt - (double)(time_t)dt) * 1e9);
	}
	timerfd_settime(p->tfd, 0, &its, NULL);
}

int player_open(const char *path, struct player **out, char *err, size_t errlen)
{
	struct player *p = xcalloc(1, sizeof(*p));
	struct replay_item it;
	int rc, cap = 0;

	*out = NULL;
	p->tfd = -1;
	snprintf(p->path, sizeof(p->path), "%s", path);
	rc = replay_open(path, &p->r, err, errlen);
	if (rc)
		goto fail;
	if (stat(path, &p->st)) {
		rc = -errno;
		snprintf(err, errlen, "cannot read the recording %s: %s", path, strerror(-rc));
		goto fail;
	}
	while ((rc = replay_next(p->r, &it, err, errlen)) == 0 && it.kind != REPLAY_END) {
		if (it.kind == REPLAY_SAMPLE) {
			if (p->n == cap) {
				cap = cap ? 2 * cap : 256;
				p->idx = xrealloc(p->idx, (size_t)cap, sizeof(*p->idx));
			}
			p->idx[p->n++] = (struct player_entry){ .offset = it.offset, .line = it.line,
				.time = it.sample->time, .interval = it.sample->interval_s };
			sample_release(it.sample);
		} else if (it.kind == REPLAY_MARK && p->nmarks < PLAYER_MARKS) {
			if (!p->marks)
				p->marks = xcalloc(PLAYER_MARKS, sizeof(*p->marks));
			p->marks[p->nmarks++] = it.mark;
		}
	}
	if (rc)
		goto fail;
	if (!p->n) {
		snprintf(err, errlen, "%s holds no sample to show", path);
		rc = -EINVAL;
		goto fail;
	}
	rc = player_load_topo(p, err, errlen);
	if (rc)
		goto fail;
	p->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (p->tfd < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot make a timer: %s", strerror(-rc));
		goto fail;
	}
	player_show(p, 0);
	if (!p->shown) {
		snprintf(err, errlen, "%s: its first sample cannot be read again", path);
		rc = -EIO;
		goto fail;
	}
	player_arm(p);
	*out = p;
	return 0;
fail:
	player_free(p);
	return rc;
}

const char *player_error(const struct player *p)
{
	return p->error;
}

const struct replay_about *player_about(const struct player *p)
{
	return replay_about(p->r);
}

const struct topo *player_topo(const struct player *p)
{
	return p->topo;
}

int player_fd(const struct player *p)
{
	return p->tfd;
}

bool player_tick(struct player *p)
{
	uint64_t n;
	int was = p->pos;

	if (read(p->tfd, &n, sizeof(n)) != (ssize_t)sizeof(n))
		return false;
	if (!p->paused && p->pos + 1 < p->n)
		player_show(p, p->pos + 1);
	if (p->pos + 1 >= p->n)
		p->paused = true; /* the end: stays on the last sample */
	player_arm(p);
	return p->pos != was;
}

const struct sample *player_sample(const struct player *p)
{
	return p->shown;
}

int player_pos(const struct player *p)
{
	return p->pos;
}

int player_count(const struct player *p)
{
	return p->n;
}

struct sample *player_sample_at(struct player *p, int i)
{
	struct replay_item it;
	char err[512];

	if (i < 0 || i >= p->n || replay_seek(p->r, p->idx[i].offset, p->idx[i].line))
		return NULL;
	if (replay_next(p->r, &it, err, sizeof(err)) || it.kind != REPLAY_SAMPLE)
		return NULL;
	return it.sample;
}

void player_pause(struct player *p, bool paused)
{
	p->paused = paused;
	player_arm(p);
}

bool player_paused(const struct player *p)
{
	return p->paused;
}

void player_step(struct player *p, int delta)
{
	int to = p->pos + delta;

	p->paused = true;
	player_show(p, to < 0 ? 0 : to >= p->n ? p->n - 1 : to);
	player_arm(p);
}

int player_goto(struct player *p, const char *text)
{
	unsigned m;
	double s, t;
	char tail;
	int i = 0;

	if (sscanf(text, "%u:%lf%c", &m, &s, &tail) == 2)
		t = m * 60.0 + s;
	else if (sscanf(text, "%lf%c", &t, &tail) != 1)
		return -EINVAL;
	if (!(t >= 0))
		return -EINVAL;
	/* the first sample that ends at or after T from the start of the first */
	while (i + 1 < p->n && p->idx[i].time - (p->idx[0].time - p->idx[0].interval) < t)
		i++;
	player_show(p, i);
	player_arm(p);
	return 0;
}

void player_speed(struct player *p, int dir)
{
	p->speed_log2 += dir > 0 ? 1 : -1;
	if (p->speed_log2 > 6)
		p->speed_log2 = 6;
	if (p->speed_log2 < -3)
		p->speed_log2 = -3;
	player_arm(p);
}

int player_marks(const struct player *p, const struct mark **out)
{
	*out = p->marks;
	return p->nmarks;
}

/* Seconds as M:SS. */
static void player_mss(double t, char *buf, size_t len)
{
	int s = (int)floor(t + 0.5);

	snprintf(buf, len, "%d:%02d", s / 60, s % 60);
}

/* The player's state word: playing, paused, end, stopped. */
static const char *player_state(const struct player *p)
{
	return p->error[0] ? "stopped" : !p->paused ? "playing" : p->pos + 1 >= p->n ? "end"
										   : "paused";
}

void player_position(const struct player *p, char *buf, size_t len)
{
	const char *name = strrchr(p->path, '/');
	double t0 = p->idx[0].time - p->idx[0].interval;
	char at[16], all[16], speed[16];

	player_mss(p->idx[p->pos].time - t0, at, sizeof(at));
	player_mss(p->idx[p->n - 1].time - t0, all, sizeof(all));
	if (p->speed_log2 >= 0)
		snprintf(speed, sizeof(speed), "x%d", 1 << p->speed_log2);
	else
		snprintf(speed, sizeof(speed), "x1/%d", 1 << -p->speed_log2);
	snprintf(buf, len, "REPLAY %s %d/%d %s of %s %s %s", name ? name + 1 : p->path, p->pos + 1,
		 p->n, at, all, speed, player_state(p));
}

void player_position_short(const struct player *p, char *buf, size_t len)
{
	snprintf(buf, len, "REPLAY %d/%d %s", p->pos + 1, p->n, player_state(p));
}

void player_free(struct player *p)
{
	if (!p)
		return;
	if (p->shown)
		sample_release(p->shown);
	if (p->tfd >= 0)
		close(p->tfd);
	replay_close(p->r);
	topo_free(p->topo);
	free(p->idx);
	free(p->marks);
	free(p);
}
