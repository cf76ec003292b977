/*
 * scenario_eval: the truth of a scenario at a time: the phase it is in, each
 * key's value for a thread, core, socket or channel with the scenario's
 * reproducible noise, and when the truth next changes.  Pure: any thread.
 */
#include "scenario.h"
#include "cpulist.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

int scenario_phase_at(const struct scenario *sc, double t, double *phase_start)
{
	double cycle = 0, start = 0;

	for (int i = 0; i < sc->nphases; i++) {
		if (sc->phases[i].duration == 0) {
			cycle = 0;
			break;
		}
		cycle += sc->phases[i].duration;
	}
	if (cycle > 0)
		start = floor(t / cycle) * cycle;
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < sc->nphases; i++) {
			double d = sc->phases[i].duration;

			if (d == 0 || t < start + d || (pass && i == sc->nphases - 1)) {
				*phase_start = start;
				return i;
			}
			start += d;
		}
		/*
		 * t / cycle rounded down a whole cycle (1.2 / 0.4 is 2.999...): t is
		 * in the next cycle, which starts where the durations summed to.
		 */
	}
	*phase_start = 0;
	return 0;
}

/* splitmix64: a stateless hash, so noise depends only on its inputs. */
static uint64_t scenario_mix(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ull;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
	return x ^ (x >> 31);
}

/* A standard-normal-ish value (sum of 4 uniforms, scaled) for one slot. */
static double scenario_gauss(uint64_t seed, uint64_t entity, uint64_t key, uint64_t slot)
{
	uint64_t h = scenario_mix(seed ^ scenario_mix(entity * 1315423911u ^ scenario_mix(key ^
				  scenario_mix(slot))));
	double sum = 0;

	for (int i = 0; i < 4; i++) {
		sum += (double)(h & 0xFFFF) / 65535.0;
		h >>= 16;
	}
	return (sum - 2.0) * sqrt(3.0); /* variance of the sum of 4 U(0,1) is 1/3 */
}

/* Does SET select entity (A, B) of its scope? */
static int scenario_selects(const struct scenario_set *set, int a, int b)
{
	if (set->by_socket)
		return cpulist_contains(set->sel, set->nsel, b);
	if (set->sel && !cpulist_contains(set->sel, set->nsel, a))
		return 0;
	return set->scope != SCENARIO_CHANNEL || set->channel < 0 || set->channel == b;
}

static uint64_t scenario_noise_entity(enum scenario_scope scope, int a, int b)
{
	switch (scope) {
	case SCENARIO_CPU:
		return (uint64_t)a;
	case SCENARIO_SOCKET:
		return 0x10000u + (uint64_t)a;
	case SCENARIO_CHANNEL:
		break;
	}
	return 0x20000u + (uint64_t)a * 64u + (uint64_t)b;
}

/*
 * Found once (the emulator asks for every CPU's truth at each segment):
 * every key's default, and per scope the keys that move with the noise.
 */
static double scenario_defaults[SK_COUNT];
static int scenario_noisy[3][SK_COUNT], scenario_nnoisy[3];
static pthread_once_t scenario_tables_once = PTHREAD_ONCE_INIT;

static void scenario_tables_init(void)
{
	for (int k = 0; k < SK_COUNT; k++) {
		int sc = (int)scenario_keys[k].scope;

		scenario_defaults[k] = scenario_keys[k].def;
		if (scenario_keys[k].noisy && sc >= 0 && sc < 3)
			scenario_noisy[sc][scenario_nnoisy[sc]++] = k;
	}
}

/* The phases' values of one entity at time T, before noise. */
static void scenario_eval_base(const struct scenario *sc, double t, enum scenario_scope scope,
			       int a, int b, double out[SK_COUNT])
{
	double start;
	int phase = scenario_phase_at(sc, t, &start);

	pthread_once(&scenario_tables_once, scenario_tables_init);
	memcpy(out, scenario_defaults, sizeof(scenario_defaults));
	/* phases inherit: apply every phase up to the current one, in order */
	for (int ph = 0; ph <= phase; ph++)
		for (int j = 0; j < sc->phases[ph].nsets; j++) {
			const struct scenario_set *set = &sc->phases[ph].sets[j];

			if (set->scope == scope && scenario_selects(set, a, b))
				out[set->key] = set->value;
		}
}

void scenario_eval_one(const struct scenario *sc, double t, enum scenario_scope scope, int a, int b,
		       double out[SK_COUNT])
{
	uint64_t slot;

	scenario_eval_base(sc, t, scope, a, b, out);
	if (sc->noise <= 0)
		return;
	slot = (uint64_t)floor(t / sc->noise_slot);
	for (int i = 0; i < scenario_nnoisy[scope]; i++) {
		int k = scenario_noisy[scope][i];
		double x;

		if (out[k] == 0)
			continue;
		x = out[k] * (1.0 + sc->noise * scenario_gauss(sc->seed,
			scenario_noise_entity(scope, a, b), (uint64_t)k, slot));
		if (x < scenario_keys[k].min)
			x = scenario_keys[k].min;
		if (x > scenario_keys[k].max)
			x = scenario_keys[k].max;
		out[k] = x;
	}
}

/* A socket's reads at its home logic: local, remote and IOH requests. */
static double scenario_home_reads(const double sock[SK_COUNT])
{
	return sock[SK_local_reads_per_s] + sock[SK_remote_reads_per_s] + sock[SK_ioh_reads_per_s];
}

/* The socket keys that are rates (named *_per_s), found once: the uncore asks thousands of times a second. */
static bool scenario_socket_rate[SK_COUNT];
static pthread_once_t scenario_socket_rate_once = PTHREAD_ONCE_INIT;

static void scenario_socket_rate_init(void)
{
	for (int i = 0; i < SK_COUNT; i++) {
		size_t n = strlen(scenario_keys[i].name);

		scenario_socket_rate[i] = scenario_keys[i].scope == SCENARIO_SOCKET && n > 6 &&
					  !strcmp(scenario_keys[i].name + n - 6, "_per_s");
	}
}

/* A socket's rates written for the scenario's socket_channels, on a socket of NCHAN channels. */
static void scenario_scale_socket(const struct scenario *sc, int nchan, double sock[SK_COUNT])
{
	double k;

	if (sc->socket_channels <= 0 || nchan <= 0 || nchan == sc->socket_channels)
		return;
	pthread_once(&scenario_socket_rate_once, scenario_socket_rate_init);
	k = (double)nchan / sc->socket_channels;
	for (int i = 0; i < SK_COUNT; i++)
		if (scenario_socket_rate[i])
			sock[i] *= k;
}

void scenario_eval_socket_only(const struct scenario *sc, double t, int si, int nchan,
			       double sock[SK_COUNT])
{
	scenario_eval_one(sc, t, SCENARIO_SOCKET, si, 0, sock);
	scenario_scale_socket(sc, nchan, sock);
}

/* A socket's writes at its home logic: local, remote and IOH requests. */
static double scenario_home_writes(const double sock[SK_COUNT])
{
	return sock[SK_local_writes_per_s] + sock[SK_remote_writes_per_s] + sock[SK_ioh_writes_per_s];
}

/*
 * Scale the NCHAN channels' KEY to sum to TOTAL in the shares their (noisy)
 * values give; no share given: even.
 */
static void scenario_spread(double (*chan)[SK_COUNT], int nchan, enum scenario_key key, double total)
{
	double sum = 0;

	for (int c = 0; c < nchan; c++)
		sum += chan[c][key];
	for (int c = 0; c < nchan; c++)
		chan[c][key] = sum > 0 ? total * chan[c][key] / sum : total / nchan;
}

void scenario_eval_socket(const struct scenario *sc, double t, int si, int nchan,
			  double sock[SK_COUNT], double (*chan)[SK_COUNT])
{
	double base[SK_COUNT], home, home_base, sum = 0, sum_base = 0;

	scenario_eval_socket_only(sc, t, si, nchan, sock);
	scenario_eval_base(sc, t, SCENARIO_SOCKET, si, 0, base);
	for (int c = 0; c < nchan; c++)
		scenario_eval_one(sc, t, SCENARIO_CHANNEL, si, c, chan[c]);
	if (sc->socket_channels > 0 && nchan > 0) {
		/*
		 * The channels serve the socket's reads and writes in the ratio the scenario
		 * gives on the socket it was written for (its first socket_channels channels
		 * against its socket rates as written), spread as this machine's channels'
		 * values say.
		 */
		double rd = 0, wr = 0;

		for (int c = 0; c < sc->socket_channels; c++) {
			double cb[SK_COUNT];

			scenario_eval_base(sc, t, SCENARIO_CHANNEL, si, c, cb);
			rd += cb[SK_read_lines_per_s];
			wr += cb[SK_write_lines_per_s];
		}
		if (scenario_home_reads(base) > 0)
			scenario_spread(chan, nchan, SK_read_lines_per_s,
					scenario_home_reads(sock) * rd / scenario_home_reads(base));
		if (scenario_home_writes(base) > 0)
			scenario_spread(chan, nchan, SK_write_lines_per_s,
					scenario_home_writes(sock) * wr / scenario_home_writes(base));
		return;
	}
	/* as written: the channels' reads keep to the home's in the ratio the scenario gives */
	home = scenario_home_reads(sock);
	home_base = scenario_home_reads(base);
	for (int c = 0; c < nchan; c++) {
		double cb[SK_COUNT];

		scenario_eval_base(sc, t, SCENARIO_CHANNEL, si, c, cb);
		sum += chan[c][SK_read_lines_per_s];
		sum_base += cb[SK_read_lines_per_s];
	}
	if (home > 0 && home_base > 0 && sum > 0)
		for (int c = 0; c < nchan; c++)
			chan[c][SK_read_lines_per_s] *= home / home_base * sum_base / sum;
}

double scenario_next_change(const struct scenario *sc, double t)
{
	double start, next = INFINITY;
	int phase = scenario_phase_at(sc, t, &start);

	if (sc->phases[phase].duration > 0)
		next = start + sc->phases[phase].duration;
	if (sc->noise > 0) {
		double slot_end = (floor(t / sc->noise_slot) + 1) * sc->noise_slot;

		if (slot_end < next)
			next = slot_end;
	}
	return next > t ? next : t + sc->noise_slot;
}
