/*
 * serve_snap: a sample and the texts made from it.  See serve_snap.h.
 */
#include "serve_snap.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "batch.h"
#include "record.h"

/* The sample with what is rendered from it: immutable but for the lazily made texts. */
struct serve_snap {
	int refs;
	const struct sample *s;
	struct prom_totals *t;
	pthread_mutex_t mu;           /* held while a text is made */
	char *text[SERVE_NKINDS];
	size_t len[SERVE_NKINDS];
};

struct serve_snap *serve_snap_new(const struct sample *s, struct prom_totals *t)
{
	struct serve_snap *sn = xcalloc(1, sizeof(*sn));

	sn->refs = 1;
	sn->s = sample_ref(s);
	sn->t = t;
	pthread_mutex_init(&sn->mu, NULL);
	return sn;
}

struct serve_snap *serve_snap_ref(struct serve_snap *sn)
{
	__atomic_fetch_add(&sn->refs, 1, __ATOMIC_RELAXED);
	return sn;
}

void serve_snap_unref(void *cls)
{
	struct serve_snap *sn = cls;

	if (!sn || __atomic_sub_fetch(&sn->refs, 1, __ATOMIC_ACQ_REL))
		return;
	sample_release(sn->s);
	prom_totals_free(sn->t);
	for (int k = 0; k < SERVE_NKINDS; k++)
		free(sn->text[k]);
	pthread_mutex_destroy(&sn->mu);
	free(sn);
}

const struct sample *serve_snap_sample(const struct serve_snap *sn)
{
	return sn->s;
}

/* LEN bytes of TEXT in gzip format (zlib), malloc'd with its length in *OUT_LEN; NULL on failure. */
static char *serve_snap_gzip(const char *text, size_t len, size_t *out_len)
{
	z_stream z = { 0 };
	size_t cap;
	char *out;

	/* windowBits 15 + 16: a gzip header and trailer around the deflate stream */
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return NULL;
	cap = deflateBound(&z, (uLong)len) + 32;
	out = xmalloc(cap);
	z.next_in = (Bytef *)text;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&z);
		free(out);
		return NULL;
	}
	*out_len = z.total_out;
	deflateEnd(&z);
	return out;
}

const char *serve_snap_get(struct serve_snap *sn, enum serve_kind k, const struct prom_about *about,
			   size_t *len)
{
	const char *plain = NULL;
	size_t plain_len = 0;

	/* a compressed text compresses the plain one, made first (outside this one's making) */
	if (serve_kind_gz(k)) {
		plain = serve_snap_get(sn, serve_kind_plain(k), about, &plain_len);
		if (!plain)
			return NULL;
	}
	pthread_mutex_lock(&sn->mu);
	if (!sn->text[k]) {
		char *buf = NULL;
		size_t n = 0;
		FILE *f;

		switch (k) {
		case SERVE_METRICS_GZ:
		case SERVE_OPENMETRICS_GZ:
		case SERVE_STABLE_GZ:
		case SERVE_OPENSTABLE_GZ:
			buf = serve_snap_gzip(plain, plain_len, &n);
			break;
		case SERVE_RECORD:
			buf = record_sample_text(sn->s);
			n = buf ? strlen(buf) : 0;
			break;
		default:
			f = open_memstream(&buf, &n);
			if (!f)
				break;
			if (k == SERVE_JSON)
				batch_print(sn->s, batch_format_find("json"), &(struct batch_opts){ .counts = false }, true, f);
			else
				prom_write(sn->s, sn->t, about,
					   k == SERVE_OPENMETRICS || k == SERVE_OPENSTABLE,
					   k == SERVE_STABLE || k == SERVE_OPENSTABLE, f);
			if (fclose(f)) {
				free(buf);
				buf = NULL;
			}
			break;
		}
		sn->text[k] = buf;
		sn->len[k] = n;
	}
	pthread_mutex_unlock(&sn->mu);
	*len = sn->len[k];
	return sn->text[k];
}

bool serve_kind_gz(enum serve_kind k)
{
	return k == SERVE_METRICS_GZ || k == SERVE_OPENMETRICS_GZ || k == SERVE_STABLE_GZ ||
	       k == SERVE_OPENSTABLE_GZ;
}

enum serve_kind serve_kind_plain(enum serve_kind k)
{
	switch (k) {
	case SERVE_METRICS_GZ: return SERVE_METRICS;
	case SERVE_OPENMETRICS_GZ: return SERVE_OPENMETRICS;
	case SERVE_STABLE_GZ: return SERVE_STABLE;
	case SERVE_OPENSTABLE_GZ: return SERVE_OPENSTABLE;
	default: return k;
	}
}
