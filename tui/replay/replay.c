/*
 * replay: read a recording back.  See replay.h and record.h.
 */
#include "replay.h"
#include "text_json.h"
#include "replay_int.h"
#include "record.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

struct replay {
	gzFile f;               /* a plain file or gzip (zlib reads either) */
	char path[4096];
	long line;              /* lines read */
	long offset;            /* byte offset of the next line */
	long trailing;
	char *buf;
	size_t cap;
	struct replay_about about;
	json_t *header;         /* owns the about's strings */
	struct layout *layout;
	char source[200];
	bool damaged;           /* the compressed data is damaged (zlib said so) */
	/*
	 * The recording's built-ins (its header's "builtins", by name): NB of
	 * them, BMAP[i] this pmutop's built-in of its i-th (-1: one this
	 * pmutop no longer has).  A recording made before built-ins were added
	 * replays with the new ones n/a.
	 */
	int nb, bmap[LAYOUT_NBUILTINS + 64];
	int version;            /* the format's (1: the kinds' rows at the top level) */
};

/* ERR: "PATH: line N (byte B): WHAT", WHAT's control characters shown as '?'. */
static int replay_bad(const struct replay *r, long line, long offset, char *err, size_t errlen,
		      const char *what)
{
	size_t n;

	snprintf(err, errlen, "%s: line %ld (byte %ld): ", r->path, line, offset);
	n = strlen(err);
	for (; *what && n + 1 < errlen; what++)
		err[n++] = (unsigned char)*what < 0x20 || *what == 0x7F ? '?' : *what;
	err[n] = 0;
	return -EINVAL;
}

/*
 * The next line into r->buf (without its newline).  1 for a line, 0 at the
 * end (a cut last line is counted in r->trailing and not returned), -EINVAL
 * for a line over REPLAY_LINE_MAX, -EIO for a read error.
 */
static int replay_line(struct replay *r, size_t *len)
{
	size_t n = 0;
	int c;

	while ((c = gzgetc(r->f)) != -1) {
		if (n + 1 >= r->cap) {
			if ((long)r->cap >= REPLAY_LINE_MAX)
				return -EINVAL;
			r->cap = r->cap ? 2 * r->cap : 65536;
			r->buf = xrealloc(r->buf, r->cap, 1);
		}
		if (c == '\n') {
			r->buf[n] = 0;
			*len = n;
			r->line++;
			return 1;
		}
		r->buf[n++] = (char)c;
	}
	{
		int zerr;

		gzerror(r->f, &zerr);
		/* a compressed file cut short ends like a plain one: its last line is cut */
		if (zerr == Z_ERRNO)
			return -EIO;
		if (zerr != Z_OK && zerr != Z_BUF_ERROR) {
			r->damaged = true;
			return -EIO;
		}
	}
	r->trailing = (long)n; /* a line without its newline: cut short */
	return 0;
}

/* A recording's strings but these: their own parsers check them (text_json.h) */
static const char *const replay_keep[] = { "text", "hwloc_xml", NULL };

static const char *replay_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* R's map of the recording's built-ins B (NULL: this pmutop's own).  0, or -1 when B is bad. */
static int replay_builtins(struct replay *r, json_t *b)
{
	size_t k;
	json_t *v;

	if (!b) {
		r->nb = LAYOUT_NBUILTINS;
		for (int i = 0; i < LAYOUT_NBUILTINS; i++)
			r->bmap[i] = i;
		return 0;
	}
	if (!json_is_array(b) || json_array_size(b) > sizeof(r->bmap) / sizeof(r->bmap[0]))
		return -1;
	r->nb = (int)json_array_size(b);
	json_array_foreach(b, k, v) {
		if (!json_is_string(v))
			return -1;
		r->bmap[k] = -1;
		for (int i = 0; i < LAYOUT_NBUILTINS; i++)
			if (!strcmp(layout_builtin_names[i], json_string_value(v)))
				r->bmap[k] = i;
	}
	return 0;
}

/*
 * The header line TEXT (LEN bytes): the format version, the layout, what
 * the run was.  0, or -EINVAL with the message in ERR.
 */
static int replay_header(struct replay *r, const char *text, size_t len, char *err,
			 size_t errlen)
{
	json_t *h, *cpu, *topo, *lay;
	json_error_t je;
	const char *ltext;
	char lerr[512], name[4200];

	h = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!h || !json_is_object(h) || !json_is_integer(json_object_get(h, "pmutop_recording"))) {
		json_decref(h);
		return replay_bad(r, 1, 0, err, errlen, "not a pmutop recording (the first line is "
				  "not its header)");
	}
	r->header = h;
	text_clean_json(h, replay_keep);
	r->version = (int)json_integer_value(json_object_get(h, "pmutop_recording"));
	if (r->version != 1 && r->version != RECORD_VERSION) {
		char what[160];

		snprintf(what, sizeof(what), "format version %lld; this pmutop reads versions 1 "
			 "to %d", (long long)json_integer_value(json_object_get(h, "pmutop_recording")),
			 RECORD_VERSION);
		return replay_bad(r, 1, 0, err, errlen, what);
	}
	lay = json_object_get(h, "layout");
	ltext = json_string_value(json_object_get(lay, "text"));
	if (!ltext)
		return replay_bad(r, 1, 0, err, errlen, "the header has no layout text");
	snprintf(name, sizeof(name), "%s (its layout)", r->path);
	if (layout_parse(ltext, name, &r->layout, lerr, sizeof(lerr)))
		return replay_bad(r, 1, 0, err, errlen, lerr);
	if (replay_builtins(r, json_object_get(h, "builtins")))
		return replay_bad(r, 1, 0, err, errlen, "the header's builtins are not a list of "
				  "names");
	cpu = json_object_get(h, "cpu");
	topo = json_object_get(h, "topology");
	snprintf(r->source, sizeof(r->source), "%s", replay_str(h, "source"));
	r->about = (struct replay_about){
		.host = replay_str(h, "host"), .created = replay_str(h, "created"),
		.version = replay_str(h, "pmutop_version"), .source = r->source,
		.brand = replay_str(cpu, "brand"), .uarch = replay_str(cpu, "uarch"),
		.topology = replay_str(topo, "source"),
		.topology_xml = json_string_value(json_object_get(topo, "hwloc_xml")),
		.simulated = json_is_true(json_object_get(h, "simulated")),
		.gp_counters = (unsigned)json_integer_value(json_object_get(cpu, "gp_counters")),
		.perfmon_version = (unsigned)json_integer_value(json_object_get(cpu,
										 "perfmon_version")),
		.interval_s = json_number_value(json_object_get(h, "interval_s")),
		.layout = r->layout, .layout_text = ltext,
	};
	return 0;
}

int replay_open(const char *path, struct replay **out, char *err, size_t errlen)
{
	struct replay *r = xcalloc(1, sizeof(*r));
	size_t len;
	int rc, fd;

	*out = NULL;
	snprintf(r->path, sizeof(r->path), "%s", path);
	rc = paths_open_file(path, "the recording", &fd, err, errlen);
	if (rc) {
		free(r);
		return rc;
	}
	r->f = gzdopen(fd, "rb");
	if (!r->f) {
		snprintf(err, errlen, "cannot read the recording %s: zlib could not start", path);
		close(fd);
		free(r);
		return -ENOMEM;
	}
	rc = replay_line(r, &len);
	if (rc <= 0) {
		rc = rc == 0 ? replay_bad(r, 1, 0, err, errlen, r->trailing
					? "cut short inside its first line (the header): nothing to replay"
					: "empty: not a pmutop recording")
		     : rc == -EINVAL ? replay_bad(r, 1, 0, err, errlen, "a line longer than 64 MiB: "
						  "not a pmutop recording")
				     : -EIO;
		if (rc == -EIO)
			snprintf(err, errlen, "cannot read the recording %s: %s", path, r->damaged
				 ? "its compressed data is damaged" : strerror(errno));
		goto fail;
	}
	rc = replay_header(r, r->buf, len, err, errlen);
	if (rc)
		goto fail;
	r->offset = (long)len + 1;
	*out = r;
	return 0;
fail:
	replay_close(r);
	return rc;
}

int replay_open_text(const char *name, const char *header, size_t len, struct replay **out,
		     char *err, size_t errlen)
{
	struct replay *r = xcalloc(1, sizeof(*r));
	int rc;

	snprintf(r->path, sizeof(r->path), "%s", name);
	rc = replay_header(r, header, len, err, errlen);
	if (rc) {
		replay_close(r);
		r = NULL;
	}
	*out = r;
	return rc;
}

int replay_topo(const struct replay_about *a, const char *name, struct topo **out, char *err,
		size_t errlen)
{
	char tmp[] = "/tmp/pmutop-replay-topo-XXXXXX";
	int rc;

	*out = NULL;
	if (a->topology_xml) {
		int fd = mkstemp(tmp);
		size_t len = strlen(a->topology_xml);

		if (fd < 0 || write(fd, a->topology_xml, len) != (ssize_t)len) {
			if (fd >= 0) {
				close(fd);
				unlink(tmp);
			}
			snprintf(err, errlen, "cannot write the recorded topology to %s", tmp);
			return -EIO;
		}
		close(fd);
		rc = topo_load(tmp, out, err, errlen);
		unlink(tmp);
	} else {
		/* an older header: its synthetic description, when it is one */
		rc = topo_load(a->topology, out, err, errlen);
	}
	if (rc)
		snprintf(err, errlen, "%s has no topology this pmutop can draw; convert it with "
			 "pmutop --replay %s -b", name, name);
	return rc;
}

const struct replay_about *replay_about(const struct replay *r)
{
	return &r->about;
}

int replay_seek(struct replay *r, long offset, long line)
{
	if (!r->f || gzseek(r->f, offset, SEEK_SET) != offset)
		return -EIO;
	r->offset = offset;
	r->line = line - 1;
	r->trailing = 0;
	return 0;
}

long replay_trailing(const struct replay *r)
{
	return r->trailing;
}

const char *replay_inputs(const struct replay *r, json_t *in, struct replay_shape *sh)
{
	const char *bad = "a sample's inputs are not the built-ins and some of the layout's events";
	int last = -1;
	size_t k;
	json_t *v;

	if (!json_is_array(in) || (int)json_array_size(in) < r->nb ||
	    (int)json_array_size(in) > r->nb + r->layout->nevents)
		return bad;
	sh->n = (int)json_array_size(in);
	sh->which = xcalloc((size_t)sh->n, sizeof(int));
	json_array_foreach(in, k, v) {
		json_int_t x = json_integer_value(v);

		if (!json_is_integer(v) || ((int)k < r->nb ? x != (json_int_t)k
					    : x <= last || x >= r->nb + r->layout->nevents))
			return bad;
		last = (int)x;
		/* a built-in by its name in the header; an event after this pmutop's built-ins */
		sh->which[k] = (int)k < r->nb ? r->bmap[k] : (int)x - r->nb + LAYOUT_NBUILTINS;
	}
	return NULL;
}

/* Sample S from line object O: what is wrong, or NULL. */
static const char *replay_sample(struct replay *r, json_t *o, struct sample **out)
{
	const struct layout *l = r->layout;
	json_t *gr = json_object_get(o, "groups"), *sc = json_object_get(o, "scaled"),
	       *fl = json_object_get(o, "flags"), *in = json_object_get(o, "inputs"),
	       *rev = json_object_get(o, "raw_events"),
	       *kinds = r->version == 1 ? replay_kinds_v1(o) : json_incref(json_object_get(o, "kinds"));
	json_t *th = replay_kind_rows(kinds, SAMPLE_KIND_THREAD),
	       *co = replay_kind_rows(kinds, SAMPLE_KIND_CORE),
	       *so = replay_kind_rows(kinds, SAMPLE_KIND_SOCKET);
	struct sample *s = NULL;
	const char *why = NULL;
	struct replay_shape sh = { 0 };
	size_t k;
	json_t *v;

	*out = NULL;
	if (!json_is_integer(json_object_get(o, "seq")) || !th || !co || !so ||
	    !json_is_array(gr) || !json_is_array(sc) || !json_is_array(fl) ||
	    !json_is_number(json_object_get(o, "time")) ||
	    !json_is_number(json_object_get(o, "interval_s"))) {
		json_decref(kinds);
		return "a sample lacks seq, time, interval_s, groups, scaled, the threads', cores' or "
		       "sockets' rows, or flags";
	}
	if (json_array_size(th) > 65536 || json_array_size(co) > 65536 || json_array_size(so) > 4096 ||
	    (int)json_array_size(gr) != l->ngroups) {
		json_decref(kinds);
		return "a sample's threads, cores, sockets or groups do not fit together";
	}
	s = sample_new(l, (int)json_array_size(th), (int)json_array_size(co), (int)json_array_size(so));
	s->seq = (uint64_t)json_integer_value(json_object_get(o, "seq"));
	s->time = json_number_value(json_object_get(o, "time"));
	s->interval_s = json_number_value(json_object_get(o, "interval_s"));
	replay_num(json_object_get(o, "skew_us"), &s->skew_us);
	s->batched = json_is_true(json_object_get(o, "batched"));
	s->warmup = json_is_true(json_object_get(o, "warmup"));
	s->rotation_s = json_number_value(json_object_get(o, "rotation_s"));
	s->source = r->source;
	s->simulated = r->about.simulated;
	json_array_foreach(gr, k, v) {
		const char *st = json_string_value(json_array_get(v, 0));
		int i = 0;

		while (i < 4 && (!st || strcmp(st, sample_group_state_names[i])))
			i++;
		if (i == 4 || !replay_num(json_array_get(v, 1), &s->groups[k].live_share)) {
			why = "a group's state is not off, live, rotating or blocked";
			goto bad;
		}
		s->groups[k].state = (enum sample_group_state)i;
		snprintf(s->groups[k].why, sizeof(s->groups[k].why), "%s",
			 json_string_value(json_array_get(v, 2)) ? json_string_value(json_array_get(v, 2)) : "");
	}
	json_array_foreach(sc, k, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) >= l->nmetrics) {
			why = "a scaled metric is not one of the layout's";
			goto bad;
		}
		s->metric_scaled[json_integer_value(v)] = true;
	}
	if ((why = replay_inputs(r, in, &sh)))
		goto bad;
	if (!json_is_array(rev) || (int)json_array_size(rev) > l->nevents) {
		why = "a sample's raw_events are not the layout's events, each once";
		goto bad;
	}
	sh.nevs = (int)json_array_size(rev);
	sh.evs = xcalloc((size_t)sh.nevs + 1, sizeof(int));
	json_array_foreach(rev, k, v) {
		json_int_t x = json_integer_value(v);

		if (!json_is_integer(v) || x < 0 || x >= l->nevents || (k && x <= sh.evs[k - 1])) {
			why = "a sample's raw_events are not the layout's events, each once";
			goto bad;
		}
		sh.evs[k] = (int)x;
	}
	if ((why = replay_kinds(r, kinds, s, &sh)))
		goto bad;
	json_array_foreach(fl, k, v) {
		json_int_t sk = json_integer_value(json_array_get(v, 0)),
			   c = json_integer_value(json_array_get(v, 1)),
			   m = json_integer_value(json_array_get(v, 2));
		const char *w = json_string_value(json_array_get(v, 3));

		if (!w || sk < 0 || sk >= s->nsockets || c < -1 || c >= sample_nchannels(s) || m < -1 ||
		    m >= l->nmetrics) {
			why = "a flag names a socket, channel or metric that is not there";
			goto bad;
		}
		sample_flag(s, (int)sk, (int)c, (int)m, "%s", w);
	}
	if (json_object_get(o, "who") && (why = replay_who(json_object_get(o, "who"), &s->who)))
		goto bad;
	if (json_object_get(o, "throttle") &&
	    (why = replay_throttle(json_object_get(o, "throttle"), s->nsockets, &s->throttle)))
		goto bad;
	snprintf(s->warning, sizeof(s->warning), "%s", replay_str(o, "warning"));
	snprintf(s->error, sizeof(s->error), "%s", replay_str(o, "error"));
	s->resets = (int)json_integer_value(json_object_get(o, "resets"));
	s->gp_usable = (int)json_integer_value(json_object_get(o, "gp_usable"));
	s->gp_used = (int)json_integer_value(json_object_get(o, "gp_used"));
	s->unc_usable = (int)json_integer_value(json_object_get(o, "unc_usable"));
	sample_recompute(s);
	free(sh.which);
	free(sh.evs);
	json_decref(kinds);
	*out = s;
	return NULL;
bad:
	free(sh.which);
	free(sh.evs);
	json_decref(kinds);
	sample_release(s);
	return why;
}

/* The item on line TEXT (LEN bytes), line number LINE at byte AT, into IT. */
static int replay_item(struct replay *r, const char *text, size_t len, long line, long at,
		       struct replay_item *it, char *err, size_t errlen)
{
	json_error_t je;
	json_t *o;

	o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!o || !json_is_object(o)) {
		char what[300];

		snprintf(what, sizeof(what), "not a JSON object (%s)", o ? "another JSON value" : je.text);
		json_decref(o);
		return replay_bad(r, line, at, err, errlen, what);
	}
	text_clean_json(o, replay_keep);
	it->time = json_number_value(json_object_get(o, "time"));
	if (json_object_get(o, "mark")) {
		const char *t = json_string_value(json_object_get(o, "mark"));

		it->kind = REPLAY_MARK;
		it->mark.time = it->time;
		snprintf(it->mark.text, sizeof(it->mark.text), "%s", t ? t : "");
	} else if (json_object_get(o, "groups_on")) {
		it->kind = REPLAY_GROUPS;
	} else if (json_object_get(o, "interval_set")) {
		it->kind = REPLAY_INTERVAL;
		it->interval = json_number_value(json_object_get(o, "interval_set"));
	} else {
		const char *why = replay_sample(r, o, &it->sample);

		if (why) {
			json_decref(o);
			return replay_bad(r, line, at, err, errlen, why);
		}
		it->kind = REPLAY_SAMPLE;
	}
	json_decref(o);
	return 0;
}

int replay_parse(struct replay *r, const char *text, size_t len, struct replay_item *it,
		 char *err, size_t errlen)
{
	memset(it, 0, sizeof(*it));
	it->line = ++r->line + 1; /* the header is line 1 */
	return replay_item(r, text, len, it->line, 0, it, err, errlen);
}

int replay_next(struct replay *r, struct replay_item *it, char *err, size_t errlen)
{
	size_t len;
	long at = r->offset;
	int rc;

	memset(it, 0, sizeof(*it));
	it->offset = at;
	it->line = r->line + 1;
	rc = r->f ? replay_line(r, &len) : 0;
	if (rc == 0) {
		it->kind = REPLAY_END;
		return 0;
	}
	if (rc < 0) {
		if (rc == -EINVAL)
			return replay_bad(r, r->line + 1, at, err, errlen, "a line longer than 64 MiB");
		if (r->damaged)
			return replay_bad(r, r->line + 1, at, err, errlen, "the compressed data is "
					  "damaged here (byte counted uncompressed)");
		snprintf(err, errlen, "cannot read the recording %s: %s", r->path, strerror(errno));
		return -EIO;
	}
	r->offset += (long)len + 1;
	return replay_item(r, r->buf, len, r->line, at, it, err, errlen);
}

void replay_close(struct replay *r)
{
	if (!r)
		return;
	if (r->f)
		gzclose(r->f);
	free(r->buf);
	json_decref(r->header);
	layout_free(r->layout);
	free(r);
}
