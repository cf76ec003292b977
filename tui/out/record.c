/*
 * record: write a run as JSON lines.  See record.h for the format.
 */
#include "record.h"
#include "batch_int.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

struct record {
	int fd;
	gzFile gz;             /* FILE.gz: the lines through zlib, each sample a sync flush */
	char path[4096];
	long count;
	char error[4300];
	const struct layout *l;
};

/*
 * A number, or null for NaN and infinities (JSON has neither).  A whole
 * number (counts, ticks) goes as an integer: exact, shorter and quicker to
 * write than 17 significant digits.
 */
static json_t *record_num(double v)
{
	if (!isfinite(v))
		return json_null();
	if (v == floor(v) && fabs(v) < 9007199254740992.0) /* 2^53: every integer below is exact */
		return json_integer((json_int_t)v);
	return json_real(v);
}

/*
 * O as one line of text with its newline (malloc'd), or NULL; O is released.
 * 17 digits: a double read back is the same double, so replay computes the
 * same figures.
 */
static char *record_text(json_t *o)
{
	char *text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
	size_t len;

	json_decref(o);
	if (!text)
		return NULL;
	len = strlen(text);
	text[len] = '\n'; /* json_dumps leaves room: the NUL becomes the newline... */
	text = xrealloc(text, len + 2, 1);
	text[len + 1] = 0; /* ...and the text ends after it */
	return text;
}

/* O as one line, written whole with one write; O is released.  0 or -errno (recording stops). */
static int record_line(struct record *r, json_t *o)
{
	char *text;
	size_t len, done = 0;

	if (r->fd < 0) {
		json_decref(o);
		return -EIO;
	}
	text = record_text(o);
	if (!text) {
		snprintf(r->error, sizeof(r->error), "recording stopped: a line could not be made");
		if (r->gz)
			gzclose(r->gz);
		else
			close(r->fd);
		r->gz = NULL;
		r->fd = -1;
		return -ENOMEM;
	}
	len = strlen(text);
	if (r->gz) {
		/*
		 * A sync flush after each line: everything written so far can be
		 * decompressed, whatever happens next (a crash, a full disk)
		 */
		errno = 0;
		if (gzwrite(r->gz, text, (unsigned)len) != (int)len ||
		    gzflush(r->gz, Z_SYNC_FLUSH) != Z_OK) {
			int e = errno ? errno : EIO;

			snprintf(r->error, sizeof(r->error), "recording to %s stopped after %ld "
				 "samples: %s%s", r->path, r->count, strerror(e),
				 e == ENOSPC ? " (the disk is full; what was written replays)" : "");
			free(text);
			gzclose(r->gz);
			r->gz = NULL;
			r->fd = -1;
			return -e;
		}
		free(text);
		return 0;
	}
	while (done < len) {
		ssize_t n = write(r->fd, text + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;

			snprintf(r->error, sizeof(r->error), "recording to %s stopped after %ld samples: "
				 "%s%s", r->path, r->count, strerror(e),
				 e == ENOSPC ? " (the disk is full; what was written replays)" : "");
			free(text);
			close(r->fd);
			r->fd = -1;
			return -e;
		}
		done += (size_t)n;
	}
	free(text);
	return 0;
}

/* /dev/null, /dev/zero, /dev/full: the kernel's sinks (memory devices 1:3, 1:5, 1:7) hold nothing. */
static bool record_sink(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 &&
	       (minor(st->st_rdev) == 3 || minor(st->st_rdev) == 5 || minor(st->st_rdev) == 7);
}

static int record_not_yours(const char *path, uid_t uid, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s belongs to user %u: pmutop records only to a new file or one of "
		 "yours; give another file name", path, (unsigned)uid);
	return -EPERM;
}

/*
 * PATH opened to be written from its start, never through a link: a new
 * file, or one of this user's that is empty or already a pmutop recording
 * (truncated once it is open and checked, so that nothing swapped in
 * between is written over), or this user's FIFO with a reader.  The fd, or
 * -errno with ERR.
 */
static int record_open_file(const char *path, char *err, size_t errlen)
{
	char head[24] = "";
	struct stat st;
	bool fifo = lstat(path, &st) == 0 && S_ISFIFO(st.st_mode);
	bool sink = lstat(path, &st) == 0 && record_sink(&st);
	int fd, rc;
	ssize_t n;

	if (lstat(path, &st) == 0) {
		if (S_ISLNK(st.st_mode)) {
			snprintf(err, errlen, "%s is a symbolic link: give the file itself (pmutop "
				 "never records through a link)", path);
			return -EINVAL;
		}
		if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !sink) {
			snprintf(err, errlen, "%s is %s: give a file name to record to", path,
				 paths_kind(st.st_mode));
			return -EINVAL;
		}
		if (st.st_uid != geteuid() && !sink)
			return record_not_yours(path, st.st_uid, err, errlen);
	}
	fd = open(path, (fifo || sink ? O_WRONLY : O_RDWR | O_CREAT) | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
		  O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = -errno;
		if (rc == -ELOOP)
			snprintf(err, errlen, "%s is a symbolic link: give the file itself (pmutop "
				 "never records through a link)", path);
		else if (rc == -ENXIO)
			snprintf(err, errlen, "the FIFO %s has no reader: start the program that reads "
				 "it first", path);
		else
			snprintf(err, errlen, "cannot record to %s: %s", path, strerror(-rc));
		return rc == -ELOOP || rc == -ENXIO ? -EINVAL : rc;
	}
	if (fstat(fd, &st) || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) || record_sink(&st))) {
		snprintf(err, errlen, "%s is not a regular file: give a file name to record to", path);
		rc = -EINVAL;
		goto fail;
	}
	if (st.st_uid != geteuid() && !record_sink(&st)) {
		rc = record_not_yours(path, st.st_uid, err, errlen);
		goto fail;
	}
	if (S_ISREG(st.st_mode)) {
		if (st.st_nlink > 1) {
			snprintf(err, errlen, "%s has other names (hard links): give another file "
				 "name (pmutop does not write over it)", path);
			rc = -EINVAL;
			goto fail;
		}
		n = pread(fd, head, sizeof(head) - 1, 0);
		head[n > 0 ? n : 0] = 0;
		if (st.st_size > 0 && strncmp(head, "{\"pmutop_recording\":", 20)) {
			snprintf(err, errlen, "%s exists and is not a pmutop recording: give another "
				 "file name (pmutop does not write over it)", path);
			rc = -EEXIST;
			goto fail;
		}
		if (ftruncate(fd, 0)) {
			rc = -errno;
			snprintf(err, errlen, "cannot record to %s: %s", path, strerror(-rc));
			goto fail;
		}
	}
	rc = fcntl(fd, F_GETFL);
	if (rc >= 0)
		fcntl(fd, F_SETFL, rc & ~O_NONBLOCK);
	return fd;
fail:
	close(fd);
	return rc;
}

/* The header line's object for a run A says about. */
static json_t *record_header_json(const struct record_about *a)
{
	const struct layout *l = a->layout;
	json_t *h, *cpu, *topo, *lay, *evs, *bl;
	char created[40], *text;
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &tm);
	h = json_object();
	json_object_set_new(h, "pmutop_recording", json_integer(RECORD_VERSION));
	json_object_set_new(h, "pmutop_version", json_string(PACKAGE_VERSION));
	json_object_set_new(h, "host", json_string(a->host ? a->host : "?"));
	json_object_set_new(h, "created", json_string(created));
	json_object_set_new(h, "source", json_string(a->source));
	json_object_set_new(h, "simulated", json_boolean(a->simulated));
	cpu = json_object();
	json_object_set_new(cpu, "brand", json_string(a->brand ? a->brand : ""));
	json_object_set_new(cpu, "uarch", json_string(a->uarch ? a->uarch : ""));
	json_object_set_new(cpu, "gp_counters", json_integer(a->gp_counters));
	json_object_set_new(cpu, "perfmon_version", json_integer(a->perfmon_version));
	json_object_set_new(h, "cpu", cpu);
	topo = json_object();
	json_object_set_new(topo, "source", json_string(a->topology ? a->topology : ""));
	json_object_set_new(topo, "sockets", json_integer(a->sockets));
	json_object_set_new(topo, "cores", json_integer(a->cores));
	json_object_set_new(topo, "threads", json_integer(a->threads));
	if (a->topo) {
		/* the machine as hwloc sees it: a replay can draw it anywhere */
		char *xml = topo_export_xml(a->topo);

		json_t *js = xml ? json_string(xml) : NULL;

		json_object_set_new(topo, "hwloc_xml", js ? js : json_null());
		free(xml);
	}
	json_object_set_new(h, "topology", topo);
	json_object_set_new(h, "interval_s", json_real(a->interval_s));
	bl = json_array();
	for (int b = 0; b < LAYOUT_NBUILTINS; b++)
		json_array_append_new(bl, json_string(layout_builtin_names[b]));
	json_object_set_new(h, "builtins", bl);
	lay = json_object();
	json_object_set_new(lay, "name", json_string(l->name));
	json_object_set_new(lay, "file", json_string(l->file ? l->file : ""));
	text = xstrdup(a->layout_text ? a->layout_text : l->text ? l->text : "");
	{
		json_t *js = text ? json_string(text) : NULL; /* NULL: not UTF-8 */

		json_object_set_new(lay, "text", js ? js : json_null());
	}
	free(text);
	json_object_set_new(h, "layout", lay);
	evs = json_array();
	for (int i = 0; i < l->nevents; i++) {
		const struct layout_event *ev = &l->events[i];
		json_t *e = json_object();
		char sel[24];

		snprintf(sel, sizeof(sel), "0x%llX",
			 (unsigned long long)(!layout_pmu_kinds[ev->pmu].per_socket
					      ? counter_evtsel(ev, a->perfmon_version, true, true)
					      : counter_uncore_evtsel(ev)));
		json_object_set_new(e, "name", json_string(ev->name));
		json_object_set_new(e, "group", json_string(l->groups[ev->group].name));
		json_object_set_new(e, "pmu", json_string(layout_pmu_kinds[ev->pmu].name));
		json_object_set_new(e, "evtsel", json_string(sel));
		if (ev->has_offcore)
			json_object_set_new(e, "offcore", json_integer((json_int_t)ev->offcore));
		json_array_append_new(evs, e);
	}
	json_object_set_new(h, "events", evs);
	return h;
}

char *record_header_text(const struct record_about *a)
{
	return record_text(record_header_json(a));
}

int record_open(const char *path, const struct record_about *a, struct record **out, char *err,
		size_t errlen)
{
	struct record *r;
	int rc;

	*out = NULL;
	rc = record_open_file(path, err, errlen);
	if (rc < 0)
		return rc;
	r = xcalloc(1, sizeof(*r));
	snprintf(r->path, sizeof(r->path), "%s", path);
	r->l = a->layout;
	r->fd = rc;
	if (strlen(path) > 3 && !strcmp(path + strlen(path) - 3, ".gz")) {
		/* compressed: zlib's gzip format, read back by replay as it is */
		r->gz = gzdopen(r->fd, "wb6");
		if (!r->gz) {
			snprintf(err, errlen, "cannot record to %s: zlib could not start", path);
			close(r->fd);
			free(r);
			return -ENOMEM;
		}
	}
	record_line(r, record_header_json(a));
	*out = r;
	return 0;
}

/*
 * What a sample carries: the built-ins and the variables of the events of
 * the groups that counted (the others are n/a anyway; events of one name
 * on several channels share a variable), as var indices in increasing
 * order into WHICH; and those events, by index, into EVS for their raw
 * counts (EVS NULL: none).  KEEPS: those events alone (a kind's, as the
 * CHAs' keep their own groups' events; NULL: all).  Returns the number of
 * inputs; *NEVS the events.
 */
static int record_inputs(const struct sample *s, bool (*keeps)(const struct layout *, int),
			 int *which, int *evs, int *nevs)
{
	const struct layout *l = s->layout;
	int n = 0;

	*nevs = 0;
	for (int b = 0; b < LAYOUT_NBUILTINS; b++)
		which[n++] = b;
	for (int i = 0; i < l->nevents; i++) {
		enum sample_group_state st = s->groups[l->events[i].group].state;
		int var = layout_event_var(l, i);

		if ((st != SAMPLE_GROUP_LIVE && st != SAMPLE_GROUP_ROTATING) || (keeps && !keeps(l, i)))
			continue;
		if (evs)
			evs[(*nevs)++] = i;
		if (var > which[n - 1])
			which[n++] = var;
	}
	return n;
}

/* One entity: ids, the inputs WHICH[0..N), the raw counts of the events EVS[0..NEVS). */
static json_t *record_entity(const struct sample_entity *e, const int *which, int n,
			     const int *evs, int nevs)
{
	json_t *a = json_array(), *in = json_array(), *raw = json_array();

	json_array_append_new(a, json_integer(e->index));
	json_array_append_new(a, json_integer(e->core));
	json_array_append_new(a, json_integer(e->socket));
	json_array_append_new(a, json_integer(e->os_core_id));
	json_array_append_new(a, json_integer(e->os_socket_id));
	for (int k = 0; k < n; k++)
		json_array_append_new(in, record_num(e->vars[which[k]]));
	for (int k = 0; k < nevs; k++)
		json_array_append_new(raw, record_num(e->raw ? e->raw[evs[k]] : NAN));
	json_array_append_new(a, in);
	json_array_append_new(a, raw);
	return a;
}

static json_t *record_ints(const int *v, int n)
{
	json_t *a = json_array();

	for (int k = 0; k < n; k++)
		json_array_append_new(a, json_integer(v[k]));
	return a;
}

/*
 * Every kind's rows the sample stores (sample_kinds[]: the views of others'
 * rows are made again on replay), by its table's name: {"rows": [...]},
 * with "per_socket" for a socket's part (none: no entry) and "inputs" for
 * a kind that keeps some events alone (no raw counts).  WHICH, EVS: the
 * sample's inputs and raw events.
 */
static json_t *record_kinds(const struct sample *s, const int *which, int nwhich, const int *evs,
			    int nevs)
{
	int *tmp = xcalloc((size_t)(LAYOUT_NBUILTINS + s->layout->nevents), sizeof(int));
	json_t *kinds = json_object();

	for (int k = 0; k < SAMPLE_NKINDS; k++) {
		const struct sample_kind *kd = &sample_kinds[k];
		const int *kw = which;
		int kn = nwhich, knevs = nevs;
		json_t *o, *rows;

		if (!sample_kind_stored(kd) ||
		    (sample_kind_is_part(kd) && !sample_kind_per_socket(kd, s)))
			continue;
		o = json_object();
		if (kd->keeps) {
			kn = record_inputs(s, kd->keeps, tmp, NULL, &knevs);
			kw = tmp;
			knevs = 0;
			json_object_set_new(o, "inputs", record_ints(tmp, kn));
		}
		if (sample_kind_is_part(kd))
			json_object_set_new(o, "per_socket",
					    json_integer(sample_kind_per_socket(kd, s)));
		rows = json_array();
		for (int i = 0; i < sample_kind_count(kd, s); i++)
			json_array_append_new(rows, record_entity(sample_kind_row(kd, s, i), kw, kn, evs,
								  knevs));
		json_object_set_new(o, "rows", rows);
		json_object_set_new(kinds, kd->table, o);
	}
	free(tmp);
	return kinds;
}

/* A sample line's object. */
static json_t *record_sample_json(const struct sample *s)
{
	const struct layout *l = s->layout;
	json_t *o = json_object(), *groups = json_array(), *scaled = json_array(),
	       *flags = json_array();
	int *which = xcalloc((size_t)(LAYOUT_NBUILTINS + l->nevents), sizeof(int)), nwhich;
	int *evs = xcalloc((size_t)l->nevents + 1, sizeof(int)), nevs;

	nwhich = record_inputs(s, NULL, which, evs, &nevs);
	json_object_set_new(o, "inputs", record_ints(which, nwhich));
	json_object_set_new(o, "raw_events", record_ints(evs, nevs));
	json_object_set_new(o, "seq", json_integer((json_int_t)s->seq));
	json_object_set_new(o, "time", json_real(s->time));
	json_object_set_new(o, "interval_s", json_real(s->interval_s));
	json_object_set_new(o, "skew_us", record_num(s->skew_us));
	json_object_set_new(o, "batched", json_boolean(s->batched));
	json_object_set_new(o, "warmup", json_boolean(s->warmup));
	json_object_set_new(o, "rotation_s", json_real(s->rotation_s));
	for (int g = 0; g < l->ngroups; g++) {
		json_t *ga = json_array();

		json_array_append_new(ga, json_string(sample_group_state_names[s->groups[g].state]));
		json_array_append_new(ga, record_num(s->groups[g].live_share));
		json_array_append_new(ga, json_string(s->groups[g].why));
		json_array_append_new(groups, ga);
	}
	json_object_set_new(o, "groups", groups);
	for (int m = 0; m < l->nmetrics; m++)
		if (s->metric_scaled[m])
			json_array_append_new(scaled, json_integer(m));
	json_object_set_new(o, "scaled", scaled);
	json_object_set_new(o, "kinds", record_kinds(s, which, nwhich, evs, nevs));
	free(which);
	free(evs);
	for (int i = 0; i < s->nflags; i++) {
		json_t *fa = json_array();

		json_array_append_new(fa, json_integer(s->flags[i].socket));
		json_array_append_new(fa, json_integer(s->flags[i].channel));
		json_array_append_new(fa, json_integer(s->flags[i].metric));
		json_array_append_new(fa, json_string(s->flags[i].why));
		json_array_append_new(flags, fa);
	}
	json_object_set_new(o, "flags", flags);
	/* every row: a recording keeps the whole sample */
	if (s->who)
		json_object_set_new(o, "who", batch_who_json(s, &(struct batch_run){ 0 }));
	if (s->throttle)
		json_object_set_new(o, "throttle", batch_throttle_json(s));
	json_object_set_new(o, "warning", json_string(s->warning));
	json_object_set_new(o, "error", json_string(s->error));
	json_object_set_new(o, "resets", json_integer(s->resets));
	json_object_set_new(o, "gp_usable", json_integer(s->gp_usable));
	json_object_set_new(o, "gp_used", json_integer(s->gp_used));
	json_object_set_new(o, "unc_usable", json_integer(s->unc_usable));
	return o;
}

char *record_sample_text(const struct sample *s)
{
	return record_text(record_sample_json(s));
}

int record_sample(struct record *r, const struct sample *s)
{
	if (r->fd < 0)
		return -EIO;
	if (record_line(r, record_sample_json(s)))
		return -EIO;
	r->count++;
	return 0;
}

int record_mark(struct record *r, double time, const char *text)
{
	json_t *o = json_object();

	json_object_set_new(o, "mark", json_string(text));
	json_object_set_new(o, "time", json_real(time));
	return record_line(r, o);
}

int record_groups(struct record *r, double time, layout_groups groups)
{
	json_t *o = json_object(), *on = json_array();

	for (int g = 0; g < r->l->ngroups; g++)
		if (groups & LAYOUT_GROUP(g))
			json_array_append_new(on, json_string(r->l->groups[g].name));
	json_object_set_new(o, "groups_on", on);
	json_object_set_new(o, "time", json_real(time));
	return record_line(r, o);
}

int record_interval(struct record *r, double time, double seconds)
{
	json_t *o = json_object();

	json_object_set_new(o, "interval_set", json_real(seconds));
	json_object_set_new(o, "time", json_real(time));
	return record_line(r, o);
}

const char *record_path(const struct record *r)
{
	return r->path;
}

long record_count(const struct record *r)
{
	return r->count;
}

const char *record_error(const struct record *r)
{
	return r->error;
}

void record_close(struct record *r)
{
	if (!r)
		return;
	if (r->gz)
		gzclose(r->gz);
	else if (r->fd >= 0)
		close(r->fd);
	free(r);
}
