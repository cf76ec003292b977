/*
 * scenario: parse scenario files (the truth at a time is scenario_eval.c's).
 * Main thread, before anything starts.
 */
#include "scenario.h"
#include "text.h"
#include "scenario_int.h"
#include "parse.h"
#include "cpulist.h"
#include "paths.h"
#include "xmalloc.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SCENARIO_VERSION_LINE "pmutop-scenario 1"

const struct scenario_key_info scenario_keys[SK_COUNT] = {
#define SCENARIO_INFO(n, sc, d, lo, hi, h) \
	[SK_##n] = { .name = #n, .scope = SCENARIO_##sc, .def = d, .min = lo, .max = hi, .help = h, \
		     .noisy = SK_##n != SK_ghz && SK_##n != SK_uncore_ghz && SK_##n != SK_kernel && \
			      SK_##n != SK_div_latency && SK_##n != SK_stall_len && \
			      SK_##n != SK_read_latency_ns && SK_##n != SK_slot_share },
	SCENARIO_KEYS(SCENARIO_INFO)
#undef SCENARIO_INFO
};

static const char *const scenario_scope_names[] = {
	[SCENARIO_CPU] = "cpu",
	[SCENARIO_SOCKET] = "socket",
	[SCENARIO_CHANNEL] = "channel",
};

int scenario_fail(struct scenario_parser *p, const char *at, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = parse_vfail(p->err, p->errlen, p->file, p->line, p->bol, at, fmt, ap);
	va_end(ap);
	return rc;
}

const char *scenario_skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* Copy the next blank-separated word at *S (advancing) into BUF. */
size_t scenario_word(const char **s, char *buf, size_t len)
{
	size_t n = 0;

	*s = scenario_skip_blank(*s);
	while (**s && **s != ' ' && **s != '\t') {
		if (n + 1 < len)
			buf[n++] = **s;
		(*s)++;
	}
	buf[n] = '\0';
	return n;
}

int scenario_number(struct scenario_parser *p, const char *at, const char *text,
		    double *out)
{
	char *end;

	errno = 0;
	*out = strtod(text, &end);
	if (end == text || *end || errno || !isfinite(*out))
		return scenario_fail(p, at, "expected a number, got '%s'", text);
	return 0;
}

static int scenario_key_lookup(const char *name, enum scenario_scope scope)
{
	for (int k = 0; k < SK_COUNT; k++)
		if (scenario_keys[k].scope == scope && strcmp(scenario_keys[k].name, name) == 0)
			return k;
	return -1;
}

/* "cpu SEL", "socket SEL", "channel SEL": parse SEL into SET. */
static int scenario_selector(struct scenario_parser *p, const char *at, const char *text,
			     enum scenario_scope scope, struct scenario_set *set)
{
	char sock[64];
	const char *dot;
	size_t col;
	int rc;

	set->sel = NULL;
	set->nsel = 0;
	set->channel = -1;
	set->by_socket = 0;
	if (strcmp(text, "all") == 0)
		return 0;
	if (scope == SCENARIO_CPU && strncmp(text, "socket:", 7) == 0) {
		set->by_socket = 1;
		rc = cpulist_parse(text + 7, &set->sel, &set->nsel, &col);
		if (rc)
			return scenario_fail(p, at + 7 + col - 1, "expected a socket list such as 0 or 0-1");
		return 0;
	}
	if (scope != SCENARIO_CHANNEL) {
		rc = cpulist_parse(text, &set->sel, &set->nsel, &col);
		if (rc)
			return scenario_fail(p, at + col - 1, "expected 'all', a list such as 0-3,8%s",
					     scope == SCENARIO_CPU ? " or socket:N" : "");
		return 0;
	}
	dot = strchr(text, '.');
	if (!dot || (size_t)(dot - text) >= sizeof(sock))
		return scenario_fail(p, at, "expected 'all' or SOCKET.CHANNEL such as 0.2, 1.* or *.0");
	memcpy(sock, text, (size_t)(dot - text));
	sock[dot - text] = '\0';
	if (strcmp(sock, "*") != 0) {
		rc = cpulist_parse(sock, &set->sel, &set->nsel, &col);
		if (rc)
			return scenario_fail(p, at + col - 1, "expected a socket number or '*'");
	}
	if (strcmp(dot + 1, "*") != 0) {
		char *end;
		long ch = strtol(dot + 1, &end, 10);

		if (end == dot + 1 || *end || ch < 0 || ch > 63) {
			free(set->sel);
			set->sel = NULL;
			return scenario_fail(p, at + (dot + 1 - text),
					     "expected a channel number 0-63 or '*'");
		}
		set->channel = (int)ch;
	}
	return 0;
}

static struct scenario_set *scenario_new_set(struct scenario_phase *ph)
{
	ph->sets = xrealloc(ph->sets, (size_t)ph->nsets + 1, sizeof(*ph->sets));
	return &ph->sets[ph->nsets++];
}

/* "cpu SEL key=value key=value..." */
static int scenario_settings(struct scenario_parser *p, struct scenario *sc,
			     enum scenario_scope scope, const char *s)
{
	struct scenario_phase *ph;
	struct scenario_set sel;
	char word[256];
	const char *at;
	int rc, n = 0;

	if (sc->nphases == 0)
		return scenario_fail(p, p->bol, "expected 'phase NAME SECONDS' before the first "
				     "'%s' line", scenario_scope_names[scope]);
	ph = &sc->phases[sc->nphases - 1];
	s = scenario_skip_blank(s);
	at = s;
	if (!scenario_word(&s, word, sizeof(word)))
		return scenario_fail(p, at, "expected a selector after '%s' ('all' or a list)",
				     scenario_scope_names[scope]);
	if ((rc = scenario_selector(p, at, word, scope, &sel)))
		return rc;
	for (;;) {
		char *eq;
		double v;
		int k;

		s = scenario_skip_blank(s);
		at = s;
		if (!scenario_word(&s, word, sizeof(word)))
			break;
		eq = strchr(word, '=');
		if (!eq) {
			rc = scenario_fail(p, at, "expected KEY=VALUE, got '%s'", word);
			goto out;
		}
		*eq = '\0';
		k = scenario_key_lookup(word, scope);
		if (k < 0) {
			rc = scenario_fail(p, at, "unknown %s quantity '%s'",
					   scenario_scope_names[scope], word);
			goto out;
		}
		if ((rc = scenario_number(p, at + (eq - word) + 1, eq + 1, &v)))
			goto out;
		if (v < scenario_keys[k].min || v > scenario_keys[k].max) {
			rc = scenario_fail(p, at + (eq - word) + 1, "expected %s between %g and %g, got %g",
					   word, scenario_keys[k].min, scenario_keys[k].max, v);
			goto out;
		}
		if (++p->nsettings > SCENARIO_MAX_SETTINGS) {
			rc = scenario_fail(p, at, "expected at most %d KEY=VALUE settings in a "
					   "scenario", SCENARIO_MAX_SETTINGS);
			goto out;
		}
		{
			struct scenario_set *set = scenario_new_set(ph);

			*set = sel;
			set->scope = scope;
			set->key = (enum scenario_key)k;
			set->value = v;
			/* each set owns a copy of the selector */
			if (sel.sel) {
				set->sel = xmalloc(sizeof(int) * (size_t)sel.nsel);
				memcpy(set->sel, sel.sel, sizeof(int) * (size_t)sel.nsel);
			}
		}
		n++;
	}
	if (n == 0)
		rc = scenario_fail(p, s, "expected at least one KEY=VALUE");
out:
	free(sel.sel);
	return rc;
}

static int scenario_line(struct scenario_parser *p, struct scenario *sc, const char *s)
{
	char word[64], arg[256];
	const char *at;
	double v;
	int rc;

	s = scenario_skip_blank(s);
	at = s;
	scenario_word(&s, word, sizeof(word));
	if (strcmp(word, "cpu") == 0)
		return scenario_settings(p, sc, SCENARIO_CPU, s);
	if (strcmp(word, "socket") == 0)
		return scenario_settings(p, sc, SCENARIO_SOCKET, s);
	if (strcmp(word, "channel") == 0)
		return scenario_settings(p, sc, SCENARIO_CHANNEL, s);
	if (strcmp(word, "description") == 0) {
		s = scenario_skip_blank(s);
		free(sc->description);
		sc->description = xstrdup(s);
		return 0;
	}
	if (strcmp(word, "name") == 0 || strcmp(word, "seed") == 0 || strcmp(word, "noise") == 0 ||
	    strcmp(word, "noise_slot") == 0 || strcmp(word, "min_sockets") == 0 ||
	    strcmp(word, "socket_channels") == 0) {
		const char *vat = scenario_skip_blank(s);

		if (!scenario_word(&s, arg, sizeof(arg)))
			return scenario_fail(p, vat, "expected a value after '%s'", word);
		if (*scenario_skip_blank(s))
			return scenario_fail(p, scenario_skip_blank(s), "expected the end of the line");
		if (word[0] == 'n' && word[1] == 'a') {
			free(sc->name);
			sc->name = xstrdup(arg);
			return 0;
		}
		if ((rc = scenario_number(p, vat, arg, &v)))
			return rc;
		if (strcmp(word, "seed") == 0) {
			if (v < 0 || v > SCENARIO_MAX_SEED || v != floor(v))
				return scenario_fail(p, vat, "expected a whole number from 0 to %.0f",
						     SCENARIO_MAX_SEED);
			sc->seed = (uint64_t)v;
		} else if (strcmp(word, "min_sockets") == 0) {
			if (v < 1 || v > 64 || v != floor(v))
				return scenario_fail(p, vat, "expected a socket count from 1 to 64");
			sc->min_sockets = (int)v;
		} else if (strcmp(word, "socket_channels") == 0) {
			if (v < 1 || v > SCENARIO_MAX_CHANNELS || v != floor(v))
				return scenario_fail(p, vat, "expected the channels a socket has, 1 to %d",
						     SCENARIO_MAX_CHANNELS);
			sc->socket_channels = (int)v;
		} else if (strcmp(word, "noise") == 0) {
			if (v < 0 || v > 0.5)
				return scenario_fail(p, vat, "expected noise between 0 and 0.5");
			sc->noise = v;
		} else {
			if (v < 0.01 || v > 3600)
				return scenario_fail(p, vat, "expected noise_slot between 0.01 and 3600 s");
			sc->noise_slot = v;
		}
		return 0;
	}
	if (strcmp(word, "task") == 0)
		return scenario_task_line(p, sc, s);
	if (strcmp(word, "phase") == 0) {
		struct scenario_phase *ph;
		const char *dat;

		if (sc->nphases && sc->phases[sc->nphases - 1].duration == 0)
			return scenario_fail(p, at, "phase '%s' lasts for ever (0 s), so no phase "
					     "can follow it", sc->phases[sc->nphases - 1].name);
		if (!scenario_word(&s, arg, sizeof(arg)))
			return scenario_fail(p, s, "expected a phase name");
		s = scenario_skip_blank(s);
		dat = s;
		scenario_word(&s, word, sizeof(word));
		if (!word[0])
			return scenario_fail(p, dat, "expected the phase duration in seconds (0: for ever)");
		if ((rc = scenario_number(p, dat, word, &v)))
			return rc;
		/* every phase change is a step of the emulator: bounded work per second */
		if (v != 0 && (v < SCENARIO_MIN_PHASE_S || v > SCENARIO_MAX_PHASE_S))
			return scenario_fail(p, dat, "expected a duration of 0 (for ever) or from %g "
					     "to %g s", SCENARIO_MIN_PHASE_S, SCENARIO_MAX_PHASE_S);
		if (sc->nphases >= SCENARIO_MAX_PHASES)
			return scenario_fail(p, at, "expected at most %d phases", SCENARIO_MAX_PHASES);
		if (*scenario_skip_blank(s))
			return scenario_fail(p, scenario_skip_blank(s), "expected the end of the line");
		sc->phases = xrealloc(sc->phases, (size_t)sc->nphases + 1, sizeof(*sc->phases));
		ph = &sc->phases[sc->nphases++];
		*ph = (struct scenario_phase){ .name = xstrdup(arg), .duration = v };
		return 0;
	}
	return scenario_fail(p, at, "expected one of name, description, seed, noise, "
			     "noise_slot, min_sockets, socket_channels, phase, cpu, socket, channel, task; got '%s'", word);
}

int scenario_parse(const char *text, const char *file, struct scenario **out, char *err,
		   size_t errlen)
{
	struct scenario *sc = xcalloc(1, sizeof(*sc));
	struct scenario_parser p = { .file = file, .err = err, .errlen = errlen };
	char *copy = xstrdup(text), *line = copy, *next;
	int rc = 0;

	*out = NULL;
	sc->noise_slot = 0.5;
	for (; line; line = next) {
		const char *ctl;
		char *hash;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else if (!*line && p.line > 0)
			break; /* the empty piece after the final newline is not a line */
		p.line++;
		p.bol = line;
		if (strchr(line, '\r') && strchr(line, '\r')[1]) {
			rc = scenario_fail(&p, strchr(line, '\r'), "expected the end of the line after "
					   "a carriage return");
			break;
		}
		line[strcspn(line, "\r")] = '\0';
		if ((ctl = parse_control_char(line, line + strlen(line)))) {
			rc = scenario_fail(&p, ctl, "expected printable text, not control character "
					   "0x%02X", (unsigned char)*ctl);
			break;
		}
		if ((ctl = text_bad_utf8(line, strlen(line)))) {
			rc = scenario_fail(&p, ctl, "expected UTF-8 text, not byte 0x%02X",
					   (unsigned char)*ctl);
			break;
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		if (p.line == 1) {
			if (strcmp(line, SCENARIO_VERSION_LINE) != 0) {
				rc = scenario_fail(&p, line, "expected '" SCENARIO_VERSION_LINE
						   "' as the first line");
				break;
			}
			continue;
		}
		if (!*scenario_skip_blank(line))
			continue;
		if ((rc = scenario_line(&p, sc, line)))
			break;
	}
	if (!rc && sc->nphases == 0) {
		p.bol = "";
		rc = scenario_fail(&p, p.bol, "expected at least one 'phase NAME SECONDS'");
	}
	free(copy);
	if (rc) {
		scenario_free(sc);
		return rc;
	}
	if (!sc->name) {
		sc->name = text_clean_dup(file); /* a path may hold anything; the header shows it */
	}
	if (!sc->description)
		sc->description = xstrdup("");
	*out = sc;
	return 0;
}

int scenario_load(const char *path, struct scenario **out, char *err, size_t errlen)
{
	FILE *f;
	char *buf = NULL;
	size_t cap = 0, len = 0, n;
	int rc;

	*out = NULL;
	{
		struct stat st;

		/* a FIFO or a device is never opened: it could block start-up */
		if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "%s: not a scenario file (a regular file of at most %d "
				 "bytes is expected; this is %s)", path, SCENARIO_MAX_BYTES,
				 paths_kind(st.st_mode));
			return -EINVAL;
		}
	}
	f = paths_fopen(path, "scenario", err, errlen);
	if (!f)
		return -errno;
	{
		struct stat st;

		if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size > SCENARIO_MAX_BYTES) {
			snprintf(err, errlen, "%s: not a scenario file (a regular file of at most %d "
				 "bytes is expected; see the shipped ones in backend/sources/sim/scenarios)", path,
				 SCENARIO_MAX_BYTES);
			fclose(f);
			return -EINVAL;
		}
		rc = paths_check_trusted(fileno(f), path, "scenario", err, errlen);
		if (rc) {
			fclose(f);
			return rc;
		}
	}
	do {
		if (cap - len < 4096) {
			cap = cap ? 2 * cap : 8192;
			buf = xrealloc(buf, cap, 1);
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	rc = ferror(f) ? -EIO : 0;
	fclose(f);
	buf[len] = '\0';
	if (rc) {
		snprintf(err, errlen, "%s: read error", path);
	} else if (memchr(buf, '\0', len)) {
		snprintf(err, errlen, "%s:1:1: expected a text file, found binary data", path);
		rc = -EINVAL;
	} else {
		rc = scenario_parse(buf, path, out, err, errlen);
	}
	free(buf);
	return rc;
}

void scenario_free(struct scenario *sc)
{
	if (!sc)
		return;
	for (int i = 0; i < sc->nphases; i++) {
		for (int j = 0; j < sc->phases[i].nsets; j++)
			free(sc->phases[i].sets[j].sel);
		free(sc->phases[i].sets);
		free(sc->phases[i].name);
	}
	free(sc->phases);
	scenario_free_tasks(sc);
	free(sc->name);
	free(sc->description);
	free(sc);
}
