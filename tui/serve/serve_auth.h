/*
 * serve_auth: the server's basic authentication (serve.h): the users of an
 * --auth-file (USER:crypt(3)-hash lines), the credentials last found good
 * (so that a scraper's every request does not pay for a crypt(3) call,
 * compared in constant time), and a throttle per client address on wrong
 * passwords: after SERVE_AUTH_FREE_TRIES wrong ones an address waits,
 * twice as long after each further one (up to SERVE_AUTH_MAX_WAIT_S),
 * before its next try is checked at all; a good password resets it.  So
 * a flood of guesses from one address costs one crypt(3) call a wait, not
 * one a request, and other clients are served at their usual pace.  Any
 * thread (libmicrohttpd's); state under one mutex, crypt(3) outside it.
 */
#ifndef PMUTOP_SERVE_AUTH_H
#define PMUTOP_SERVE_AUTH_H

#include <stddef.h>
#include <sys/socket.h>

#define SERVE_AUTH_FREE_TRIES 5
#define SERVE_AUTH_MAX_WAIT_S 60
/* addresses remembered at once (the oldest is forgotten first) */
#define SERVE_AUTH_ADDRESSES 1024

enum serve_auth_result {
	SERVE_AUTH_OK,
	SERVE_AUTH_DENIED,    /* no credentials, or wrong ones */
	SERVE_AUTH_THROTTLED, /* too many wrong ones from this address: wait (retry_s) */
	SERVE_AUTH_TOO_LONG,  /* a password crypt(3) cannot check (CRYPT_MAX_PASSPHRASE_SIZE) */
};

struct serve_auth;

/* Read the users of PATH.  0, or -EINVAL with "PATH:LINE: ..." in ERR. */
int serve_auth_load(const char *path, struct serve_auth **out, char *err, size_t errlen);

/*
 * Check USER and PASS (NULL: none given) from ADDR.  With THROTTLED,
 * *RETRY_S is how long that address has to wait.
 */
enum serve_auth_result serve_auth_check(struct serve_auth *a, const struct sockaddr *addr,
					const char *user, const char *pass, unsigned *retry_s);

void serve_auth_free(struct serve_auth *a);

#endif
