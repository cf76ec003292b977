/*
 * The server's guard (serve_guard.c) against a flood of half-sent requests
 * from one client, on real loopback connections that nobody reads: an
 * address holds SERVE_PER_ADDRESS_MAX connections, and a new one past that
 * shuts the oldest still sending its head; a complete head waiting unread
 * in its socket is never that one, whatever bytes the others have unread
 * (CI under ASan refused a scrape during a flood: every one of the four
 * oldest had its half-sent bytes unread, all were passed over, and the
 * newcomer was shut instead); only when every other head is complete is
 * the newcomer refused.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check_main.h"
#include "serve.h"
#include "serve_guard.h"

#define HALF "GET /metrics HTTP/1.1\r\nHost: x\r\n"
#define WHOLE "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
#define NMAX (SERVE_PER_ADDRESS_MAX + 2)

struct pair {
	int client, server;     /* the client's end, the accepted one */
	struct serve_conn *c;   /* as the guard tracks it */
};

static int lfd;
static struct sockaddr_in at;
static struct serve_guard *g;
static struct pair pairs[NMAX];
static int npairs;

static void setup(void)
{
	socklen_t len = sizeof(at);

	memset(&at, 0, sizeof(at));
	at.sin_family = AF_INET;
	at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(lfd, 0);
	ck_assert_int_eq(bind(lfd, (struct sockaddr *)&at, sizeof(at)), 0);
	ck_assert_int_eq(listen(lfd, 256), 0);
	ck_assert_int_eq(getsockname(lfd, (struct sockaddr *)&at, &len), 0);
	g = serve_guard_new(NULL, NULL);
	npairs = 0;
}

static void teardown(void)
{
	for (int i = 0; i < npairs; i++) {
		serve_guard_remove(g, pairs[i].c);
		close(pairs[i].client);
		close(pairs[i].server);
	}
	serve_guard_free(g);
	close(lfd);
}

/* A connection from 127.0.0.1 that sends REQ, accepted and handed to the guard unread. */
static int connect_sending(const char *req)
{
	struct pair *p = &pairs[npairs];

	ck_assert_int_lt(npairs, NMAX);
	p->client = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(p->client, 0);
	ck_assert_int_eq(connect(p->client, (struct sockaddr *)&at, sizeof(at)), 0);
	ck_assert_int_eq(send(p->client, req, strlen(req), 0), (ssize_t)strlen(req));
	p->server = accept(lfd, NULL, NULL);
	ck_assert_int_ge(p->server, 0);
	p->c = serve_guard_add(g, p->server);
	return npairs++;
}

/* Whether the server shut connection I down (its client reads the end of the stream). */
static bool shut(int i)
{
	char b;
	ssize_t n = recv(pairs[i].client, &b, 1, MSG_DONTWAIT);

	ck_assert_msg(n == 0 || (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)),
		      "connection %d: %zd bytes, %s", i, n, strerror(errno));
	return n == 0;
}

START_TEST(a_complete_head_unread_is_never_the_one_shut)
{
	int scrape, next;

	for (int i = 0; i < SERVE_PER_ADDRESS_MAX - 1; i++)
		connect_sending(HALF);
	scrape = connect_sending(WHOLE);
	for (int i = 0; i < npairs; i++)
		ck_assert_msg(!shut(i), "connection %d of %d shut within the address's share", i,
			      SERVE_PER_ADDRESS_MAX);
	/* two more half-sent ones: each shuts the oldest half-sent one, unread as it is */
	next = connect_sending(HALF);
	ck_assert_msg(!shut(next), "the newcomer was refused while half-sent ones were held");
	ck_assert_msg(shut(0), "the oldest half-sent connection was not the one shut");
	ck_assert_msg(!shut(scrape), "the complete request was shut");
	next = connect_sending(HALF);
	ck_assert(!shut(next));
	ck_assert_msg(shut(1), "the next oldest half-sent connection was not the one shut");
	for (int i = 2; i < npairs; i++)
		ck_assert_msg(!shut(i), "connection %d shut as well", i);
}
END_TEST

START_TEST(a_newcomer_is_refused_when_every_held_head_is_complete)
{
	int next;

	for (int i = 0; i < SERVE_PER_ADDRESS_MAX; i++)
		connect_sending(WHOLE);
	next = connect_sending(HALF);
	ck_assert_msg(shut(next), "the address holds more than its share");
	for (int i = 0; i < SERVE_PER_ADDRESS_MAX; i++)
		ck_assert_msg(!shut(i), "complete request %d shut", i);
}
END_TEST

static Suite *guard_suite(void)
{
	Suite *s = suite_create("guard");
	TCase *tc = tcase_create("share");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, a_complete_head_unread_is_never_the_one_shut);
	tcase_add_test(tc, a_newcomer_is_refused_when_every_held_head_is_complete);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(guard_suite)
