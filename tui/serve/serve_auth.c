/*
 * serve_auth: users, the good-credentials cache and the throttle.  See
 * serve_auth.h.
 */
#include "serve_auth.h"

#include <crypt.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frontend.h"
#include "serve_net.h"

struct serve_user {
	char *name, *hash;
};

/* An address that gave wrong passwords. */
struct serve_auth_addr {
	unsigned char key[17];  /* family, then the address's bytes */
	unsigned failures;
	double until;           /* no try is checked before then */
	double seen;
};

struct serve_auth {
	struct serve_user *users;
	int nusers;
	pthread_mutex_t mu;         /* good, addrs */
	char *good;                 /* "user\0password" last found good, or NULL */
	size_t good_len;
	struct serve_auth_addr addrs[SERVE_AUTH_ADDRESSES];
};

static double serve_auth_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int serve_auth_load(const char *path, struct serve_auth **out, char *err, size_t errlen)
{
	char *text = serve_slurp(path, "--auth-file", err, errlen), *line, *save = NULL;
	struct serve_auth *a;
	int ln = 0;

	*out = NULL;
	if (!text)
		return -EINVAL;
	a = xcalloc(1, sizeof(*a));
	pthread_mutex_init(&a->mu, NULL);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		ln++;
		line[strcspn(line, "\r")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		if (!colon || colon == line || colon[1] != '$') {
			snprintf(err, errlen, "%s:%d: expected USER:HASH with a crypt(3) hash (make "
				 "one with: openssl passwd -6), not a password in clear", path, ln);
			free(text);
			serve_auth_free(a);
			return -EINVAL;
		}
		*colon = 0;
		a->users = xrealloc(a->users, (size_t)a->nusers + 1, sizeof(*a->users));
		a->users[a->nusers++] = (struct serve_user){ .name = xstrdup(line),
							     .hash = xstrdup(colon + 1) };
	}
	free(text);
	if (!a->nusers) {
		snprintf(err, errlen, "%s: no USER:HASH line: nobody could log in", path);
		serve_auth_free(a);
		return -EINVAL;
	}
	*out = a;
	return 0;
}

/* Whether the N bytes of A and the M of B are the same, in a time that depends on N and M only. */
static bool serve_auth_same(const char *a, size_t n, const char *b, size_t m)
{
	size_t len = n > m ? n : m;
	unsigned char diff = n != m;

	for (size_t i = 0; i < len; i++)
		diff |= (unsigned char)(i < n ? a[i] : 0) ^ (unsigned char)(i < m ? b[i] : 0);
	return diff == 0;
}

/* ADDR as a key (the port left out: one client, many connections). */
static void serve_auth_key(const struct sockaddr *addr, unsigned char key[17])
{
	memset(key, 0, 17);
	if (!addr)
		return;
	key[0] = (unsigned char)addr->sa_family;
	if (addr->sa_family == AF_INET)
		memcpy(key + 1, &((const struct sockaddr_in *)addr)->sin_addr, 4);
	else if (addr->sa_family == AF_INET6)
		memcpy(key + 1, &((const struct sockaddr_in6 *)addr)->sin6_addr, 16);
}

/* ADDR's entry: its own, or a new one in the place of the one seen longest ago.  Under MU. */
static struct serve_auth_addr *serve_auth_find(struct serve_auth *a, const unsigned char key[17],
					       bool make)
{
	struct serve_auth_addr *oldest = &a->addrs[0];

	for (int i = 0; i < SERVE_AUTH_ADDRESSES; i++) {
		if (a->addrs[i].seen > 0 && !memcmp(a->addrs[i].key, key, 17))
			return &a->addrs[i];
		if (a->addrs[i].seen < oldest->seen)
			oldest = &a->addrs[i];
	}
	if (!make)
		return NULL;
	memset(oldest, 0, sizeof(*oldest));
	memcpy(oldest->key, key, 17);
	return oldest;
}

enum serve_auth_result serve_auth_check(struct serve_auth *a, const struct sockaddr *addr,
					const char *user, const char *pass, unsigned *retry_s)
{
	char *cred;
	size_t ul, pl;
	unsigned char key[17];
	struct serve_auth_addr *e;
	double now = serve_auth_now();
	bool ok = false;

	*retry_s = 0;
	if (!user || !pass)
		return SERVE_AUTH_DENIED;
	ul = strlen(user);
	pl = strlen(pass);
	cred = xmalloc(ul + pl + 2);
	memcpy(cred, user, ul + 1);
	memcpy(cred + ul + 1, pass, pl + 1);
	serve_auth_key(addr, key);
	pthread_mutex_lock(&a->mu);
	ok = a->good && serve_auth_same(cred, ul + pl + 1, a->good, a->good_len);
	e = ok ? NULL : serve_auth_find(a, key, false);
	if (e && e->until > now) {
		*retry_s = (unsigned)(e->until - now) + 1;
		pthread_mutex_unlock(&a->mu);
		explicit_bzero(cred, ul + pl + 2);
		free(cred);
		return SERVE_AUTH_THROTTLED;
	}
	pthread_mutex_unlock(&a->mu);
	if (!ok && pl >= CRYPT_MAX_PASSPHRASE_SIZE) {
		explicit_bzero(cred, ul + pl + 2);
		free(cred);
		return SERVE_AUTH_TOO_LONG;
	}
	for (int i = 0; !ok && i < a->nusers; i++) {
		struct crypt_data cd = { 0 };
		const char *h;

		if (strcmp(user, a->users[i].name))
			continue;
		/* crypt(3): the hash's own prefix picks the method ($y$, $6$, $2b$...) */
		h = crypt_r(pass, a->users[i].hash, &cd);
		ok = h && h[0] != '*' && serve_auth_same(h, strlen(h), a->users[i].hash,
							 strlen(a->users[i].hash));
		explicit_bzero(&cd, sizeof(cd));
	}
	pthread_mutex_lock(&a->mu);
	e = serve_auth_find(a, key, !ok);
	if (ok) {
		if (e)
			memset(e, 0, sizeof(*e)); /* forgiven */
		if (!a->good || !serve_auth_same(cred, ul + pl + 1, a->good, a->good_len)) {
			if (a->good)
				explicit_bzero(a->good, a->good_len);
			free(a->good);
			a->good = cred;
			a->good_len = ul + pl + 1;
			cred = NULL;
		}
	} else {
		e->seen = now;
		if (++e->failures >= SERVE_AUTH_FREE_TRIES) {
			unsigned shift = e->failures - SERVE_AUTH_FREE_TRIES;
			double wait = shift >= 6 ? SERVE_AUTH_MAX_WAIT_S : (double)(1u << shift);

			e->until = now + (wait < SERVE_AUTH_MAX_WAIT_S ? wait : SERVE_AUTH_MAX_WAIT_S);
		}
	}
	pthread_mutex_unlock(&a->mu);
	if (cred) {
		explicit_bzero(cred, ul + pl + 2);
		free(cred);
	}
	return ok ? SERVE_AUTH_OK : SERVE_AUTH_DENIED;
}

void serve_auth_free(struct serve_auth *a)
{
	if (!a)
		return;
	for (int i = 0; i < a->nusers; i++) {
		free(a->users[i].name);
		free(a->users[i].hash);
	}
	free(a->users);
	if (a->good)
		explicit_bzero(a->good, a->good_len);
	free(a->good);
	pthread_mutex_destroy(&a->mu);
	free(a);
}
