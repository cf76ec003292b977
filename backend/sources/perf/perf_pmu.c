/*
 * perf_pmu: PMUs from sysfs and raw configs.  See perf_pmu.h.
 *
 * sysfs (Documentation/ABI/testing/sysfs-bus-event_source-devices-format):
 * each file of format/ holds "configN:BITS" where BITS is a bit or a range
 * LO-HI, several ranges separated by commas; config without N is config0.
 */
#include "perf_pmu.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counter.h"
#include "rootfs.h"
#include "text.h"

const char *const perf_topdown_events[PERF_METRICS_FIELDS] = {
	"topdown-retiring", "topdown-bad-spec", "topdown-fe-bound", "topdown-be-bound",
	"topdown-heavy-ops", "topdown-br-mispredict", "topdown-fetch-lat", "topdown-mem-bound",
};

#define PERF_PMU_DEVICES "sys/bus/event_source/devices"

/* "ROOT/sys/bus/event_source/devices/NAME" into BUF, for messages. */
static void perf_pmu_dir(const char *root, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/" PERF_PMU_DEVICES "/%s", rootfs_is_host(root) ? "" : root, name);
}

bool perf_pmu_name_ok(const char *name)
{
	size_t n = strlen(name);

	return n && n < 64 && name[0] != '.' &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == n;
}

/* TEXT ("config1:0-7,32-35") into F.  0, or -EINVAL. */
static int perf_pmu_parse_field(const char *text, struct perf_pmu_field *f)
{
	const char *p = text;
	char *end;

	if (strncmp(p, "config", 6))
		return -EINVAL;
	p += 6;
	f->word = 0;
	if (*p >= '0' && *p <= '2')
		f->word = *p++ - '0';
	if (*p++ != ':')
		return -EINVAL;
	f->mask = 0;
	for (;;) {
		long lo, hi;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		lo = strtol(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			hi = strtol(p, &end, 10);
			p = end;
		}
		if (lo < 0 || hi > 63 || hi < lo)
			return -EINVAL;
		for (long b = lo; b <= hi; b++)
			f->mask |= 1ull << b;
		if (*p != ',')
			break;
		p++;
	}
	while (*p == '\n' || *p == ' ')
		p++;
	return *p ? -EINVAL : 0;
}

int perf_pmu_add_field(struct perf_pmu *p, const char *name, const char *text)
{
	struct perf_pmu_field *f;

	if (p->nfields >= PERF_PMU_MAX_FIELDS)
		return -ENOSPC;
	f = &p->fields[p->nfields];
	if (perf_pmu_parse_field(text, f))
		return -EINVAL;
	snprintf(f->name, sizeof(f->name), "%s", name);
	p->nfields++;
	return 0;
}

/* The first line of ROOT's REL/FILE into BUF (without its newline).  0 or -errno. */
static int perf_pmu_read(const char *root, const char *rel, const char *file, char *buf,
			 size_t len)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", rel, file);
	return rootfs_read_line(root, path, buf, len);
}

/* The terms perf takes besides a PMU's format fields (tools/perf's parse-events). */
static bool perf_pmu_builtin_term(const char *t, size_t n)
{
	static const char *const terms[] = { "config", "config1", "config2", "config3", "name",
					     "period", "freq", "percore", "metric-id", "branch_type" };

	for (size_t i = 0; i < sizeof(terms) / sizeof(terms[0]); i++)
		if (strlen(terms[i]) == n && !strncmp(terms[i], t, n))
			return true;
	return false;
}

/* Whether alias K of P names only terms P's format has; else why in P->why_bad. */
static void perf_pmu_check_alias(struct perf_pmu *p, int k, const char *edir)
{
	const char *t = p->alias[k].terms;

	while (*t && !p->why_bad[0]) {
		size_t n = strcspn(t, "=,");
		bool known = perf_pmu_builtin_term(t, n);

		for (int f = 0; f < p->nfields && !known; f++)
			known = strlen(p->fields[f].name) == n && !strncmp(p->fields[f].name, t, n);
		if (!known)
			snprintf(p->why_bad, sizeof(p->why_bad), "%.100s/%.31s: the term '%.*s' is not in "
				 "its format/", edir, p->alias[k].name, (int)(n > 40 ? 40 : n), t);
		t += strcspn(t, ",");
		t += *t == ',';
	}
}

/*
 * DIR/events/NAME files as P's aliases, with NAME.scale and NAME.unit
 * (the other suffixes, .per-pkg and .snapshot, say nothing pmutop uses).
 */
static void perf_pmu_load_aliases(const char *root, const char *rel, const char *dir,
				  struct perf_pmu *p)
{
	char edir[1000], erel[300], buf[256], file[300], q[64];
	struct dirent *de;
	DIR *d;

	snprintf(edir, sizeof(edir), "%s/events", dir);
	snprintf(erel, sizeof(erel), "%s/events", rel);
	d = rootfs_opendir(root, erel);
	if (!d)
		return;
	while ((de = readdir(d))) {
		int k = p->naliases;
		char *end;

		if (de->d_name[0] == '.' || strchr(de->d_name, '.') || !perf_pmu_name_ok(de->d_name) ||
		    perf_pmu_read(root, erel, de->d_name, buf, sizeof(buf)) ||
		    perf_pmu_add_alias(p, de->d_name, buf))
			continue;
		perf_pmu_check_alias(p, k, edir);
		snprintf(file, sizeof(file), "%.255s.scale", de->d_name);
		if (!perf_pmu_read(root, erel, file, buf, sizeof(buf))) {
			errno = 0;
			p->alias[k].scale = strtod(buf, &end);
			if (errno || end == buf || *end || !(p->alias[k].scale > 0) ||
			    p->alias[k].scale > 1e30) {
				if (!p->why_bad[0])
					snprintf(p->why_bad, sizeof(p->why_bad), "%.80s/%.36s: expected "
						 "a positive number, got %s", edir, file,
						 rootfs_quote(buf, q, sizeof(q)));
				p->alias[k].scale = 1;
			}
		}
		snprintf(file, sizeof(file), "%.255s.unit", de->d_name);
		if (!perf_pmu_read(root, erel, file, buf, sizeof(buf))) {
			snprintf(p->alias[k].unit, sizeof(p->alias[k].unit), "%.15s", buf);
			text_clean_in_place(p->alias[k].unit, sizeof(p->alias[k].unit));
		}
	}
	closedir(d);
}

int perf_pmu_load(const char *root, const char *name, struct perf_pmu *out, char *err,
		  size_t errlen)
{
	char dir[900], fdir[1000], rel[200], frel[220], buf[256], q[64];
	DIR *d;
	struct dirent *de;
	char *end;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!perf_pmu_name_ok(name)) {
		snprintf(err, errlen, "no kernel PMU has a name like that: letters, digits, _ . -");
		return -EINVAL;
	}
	snprintf(out->name, sizeof(out->name), "%s", name);
	perf_pmu_dir(root, name, dir, sizeof(dir));
	snprintf(rel, sizeof(rel), PERF_PMU_DEVICES "/%s", name);
	rc = perf_pmu_read(root, rel, "type", buf, sizeof(buf));
	if (rc) {
		snprintf(err, errlen, "the kernel has no perf PMU '%s' (%s/type: %s)", name, dir,
			 rootfs_strerror(rc));
		return -ENOENT;
	}
	errno = 0;
	out->type = (uint32_t)strtoul(buf, &end, 10);
	if (errno || end == buf || *end) {
		snprintf(err, errlen, "%s/type: expected a number, got %s", dir,
			 rootfs_quote(buf, q, sizeof(q)));
		return -EINVAL;
	}
	if (perf_pmu_read(root, rel, "cpumask", out->cpumask, sizeof(out->cpumask)))
		out->cpumask[0] = 0;
	if (perf_pmu_read(root, rel, "cpus", out->cpus, sizeof(out->cpus)))
		out->cpus[0] = 0;
	text_clean_in_place(out->cpumask, sizeof(out->cpumask));
	text_clean_in_place(out->cpus, sizeof(out->cpus));
	snprintf(fdir, sizeof(fdir), "%s/format", dir);
	snprintf(frel, sizeof(frel), "%s/format", rel);
	d = rootfs_opendir(root, frel);
	if (!d)
		return 0; /* a PMU without fields (software, tracepoint): raw configs only */
	while ((de = readdir(d))) {
		struct perf_pmu_field *f;

		if (de->d_name[0] == '.')
			continue;
		if (!perf_pmu_name_ok(de->d_name)) {
			text_clean(buf, sizeof(buf), de->d_name, strlen(de->d_name));
			snprintf(err, errlen, "%s: a format field named %.60s: no kernel names one so",
				 fdir, buf);
			closedir(d);
			return -EINVAL;
		}
		if (out->nfields == PERF_PMU_MAX_FIELDS) {
			snprintf(err, errlen, "%s: more than %d format fields", fdir, PERF_PMU_MAX_FIELDS);
			closedir(d);
			return -EINVAL;
		}
		f = &out->fields[out->nfields];
		snprintf(f->name, sizeof(f->name), "%.31s", de->d_name);
		if ((rc = perf_pmu_read(root, frel, de->d_name, buf, sizeof(buf))) ||
		    perf_pmu_parse_field(buf, f)) {
			snprintf(err, errlen, "%s/%s: expected configN:LO-HI[,LO-HI], got %s", fdir,
				 de->d_name, rc ? rootfs_strerror(rc) : rootfs_quote(buf, q, sizeof(q)));
			closedir(d);
			return -EINVAL;
		}
		out->nfields++;
	}
	closedir(d);
	perf_pmu_load_aliases(root, rel, dir, out);
	return 0;
}

int perf_pmu_add_alias(struct perf_pmu *p, const char *name, const char *terms)
{
	if (p->naliases >= PERF_PMU_MAX_ALIASES)
		return -ENOSPC;
	snprintf(p->alias[p->naliases].name, sizeof(p->alias[0].name), "%.31s", name);
	snprintf(p->alias[p->naliases].terms, sizeof(p->alias[0].terms), "%.95s", terms);
	text_clean_in_place(p->alias[p->naliases].terms, sizeof(p->alias[0].terms));
	p->alias[p->naliases].scale = 1;
	p->alias[p->naliases].unit[0] = 0;
	p->naliases++;
	return 0;
}

int perf_pmu_alias(const struct perf_pmu *p, const char *name, struct perf_pmu_config *c)
{
	for (int i = 0; i < p->naliases; i++) {
		char terms[sizeof(p->alias[0].terms)], *save = NULL;

		if (strcmp(p->alias[i].name, name))
			continue;
		memset(c, 0, sizeof(*c));
		c->type = p->type;
		snprintf(terms, sizeof(terms), "%s", p->alias[i].terms);
		/* "event=0x01,umask=0x10": each term through the format fields */
		for (char *t = strtok_r(terms, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(t, '='), *end;
			uint64_t v = 1;
			int rc;

			if (eq) {
				*eq = 0;
				errno = 0;
				v = strtoull(eq + 1, &end, 0);
				if (errno || end == eq + 1 || *end)
					return -EINVAL;
			}
			if (!strcmp(t, "config") || !strcmp(t, "config1") || !strcmp(t, "config2")) {
				c->config[t[6] ? t[6] - '0' : 0] = v; /* the whole word, as perf takes it */
				continue;
			}
			if (perf_pmu_builtin_term(t, strlen(t)))
				continue; /* perf's own (period, name, ...): nothing of the config */
			rc = perf_pmu_set(p, t, v, c);
			if (rc)
				return rc == -ENOENT ? -EINVAL : rc;
		}
		return 0;
	}
	return -ENOENT;
}

/* Names with their numbers in order: uncore_imc_2 before uncore_imc_10. */
static int perf_pmu_cmp(const void *a, const void *b)
{
	const char *x = a, *y = b;

	while (*x && *y) {
		if (isdigit((unsigned char)*x) && isdigit((unsigned char)*y)) {
			unsigned long nx = strtoul(x, (char **)&x, 10);
			unsigned long ny = strtoul(y, (char **)&y, 10);

			if (nx != ny)
				return nx < ny ? -1 : 1;
			continue;
		}
		if (*x != *y)
			return (unsigned char)*x - (unsigned char)*y;
		x++;
		y++;
	}
	return (unsigned char)*x - (unsigned char)*y;
}

int perf_pmu_list(const char *root, const char *prefix, char (*names)[64], int max)
{
	DIR *d = rootfs_opendir(root, PERF_PMU_DEVICES);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -errno;
	/* a name no kernel gives a PMU (a --root tree's) comes out as safe text, never opened */
	while ((de = readdir(d)) && n < max)
		if (de->d_name[0] != '.' && !strncmp(de->d_name, prefix, strlen(prefix)) &&
		    (perf_pmu_name_ok(de->d_name) || !*prefix))
			text_clean(names[n++], 64, de->d_name, strlen(de->d_name));
	closedir(d);
	qsort(names, (size_t)n, 64, perf_pmu_cmp);
	return n;
}

int perf_pmu_set(const struct perf_pmu *p, const char *field, uint64_t value,
		 struct perf_pmu_config *c)
{
	for (int i = 0; i < p->nfields; i++) {
		const struct perf_pmu_field *f = &p->fields[i];
		uint64_t v = value;

		if (strcmp(f->name, field))
			continue;
		/* the value's bits fill the field's, lowest first (split ranges too) */
		for (int b = 0; b < 64; b++)
			if (f->mask & (1ull << b)) {
				c->config[f->word] &= ~(1ull << b);
				c->config[f->word] |= (v & 1) << b;
				v >>= 1;
			}
		return v ? -ERANGE : 0;
	}
	return -ENOENT;
}

int perf_pmu_encode(const struct perf_pmu *p, const struct layout_event *ev,
		    struct perf_pmu_config *c, char *err, size_t errlen)
{
	const struct {
		const char *field;
		uint64_t value;
		bool wanted;       /* the field must exist: the event uses it */
	} f[] = {
		{ "event", ev->event, true },
		{ "umask", ev->umask, ev->umask != 0 },
		{ "cmask", ev->cmask, ev->cmask != 0 },
		{ "inv", ev->inv, ev->inv },
		{ "edge", ev->edge, ev->edge },
		{ "any", ev->any, ev->any },
		{ "offcore_rsp", ev->offcore, ev->has_offcore },
		{ "frontend", ev->frontend, ev->has_frontend },
		{ "eq", ev->eq, ev->eq },
	};

	memset(c, 0, sizeof(*c));
	c->type = p->type;
	c->ring = ev->ring;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		int rc;

		/*
		 * a field the event does not use is left alone: config1's overlap
		 * (frontend config1:0-23 over offcore_rsp's 0-63), and writing a zero
		 * frontend cleared an offcore matrix's request bits
		 */
		if (!f[i].wanted)
			continue;
		rc = perf_pmu_set(p, f[i].field, f[i].value, c);

		/* the servers' uncore boxes call the counter mask "thresh" (config:24-31) */
		if (rc == -ENOENT && i == 2)
			rc = perf_pmu_set(p, "thresh", f[i].value, c);
		/* AMD's memory controllers call their read/write selector "rdwrmask" (config:8-9) */
		if (rc == -ENOENT && i == 1)
			rc = perf_pmu_set(p, "rdwrmask", f[i].value, c);
		if (rc == -ENOENT && !f[i].wanted)
			continue;
		if (rc == -ENOENT) {
			snprintf(err, errlen, "event %s: the kernel's PMU has no such format field "
				 "'%s' (%s/format)", ev->name, f[i].field, p->name);
			return -EOPNOTSUPP;
		}
		if (rc) { /* e.g. Sapphire Rapids' CHA umask before Linux 6.9: 24 bits of UMaskExt */
			snprintf(err, errlen, "event %s: its %s 0x%llX does not fit the kernel's format "
				 "field '%s' (%s/format): a newer kernel describes more bits", ev->name,
				 f[i].field, (unsigned long long)f[i].value, f[i].field, p->name);
			return -EINVAL;
		}
	}
	/* Skylake-SP's CHA: FILTER1 by the kernel's filter_* fields (config1's high half) */
	for (size_t i = 0; ev->has_filter1 && i < counter_filter1_nfields; i++) {
		const struct counter_filter1_field *ff = &counter_filter1_fields[i];
		uint64_t v = (ev->filter1 >> ff->shift) & ((UINT64_C(1) << ff->width) - 1);

		if (v && perf_pmu_set(p, ff->name, v, c)) {
			snprintf(err, errlen, "event %s: its FILTER1 0x%X needs the kernel's format field "
				 "'%s' (%s/format), which this kernel does not describe", ev->name,
				 ev->filter1, ff->name, p->name);
			return -EOPNOTSUPP;
		}
	}
	return 0;
}
