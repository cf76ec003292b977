/*
 * emu_model: how the emulated PMU sees a scenario's truth, event by event.
 *
 * For a core event encoding (event, umask, offcore MSR value) and one
 * thread's truth, emu_model_core() gives the distribution of the event's
 * per-cycle value over the thread's unhalted cycles.  Everything a counter
 * can be asked (the sum with cmask 0, cycles at or above a cmask, edges)
 * is derived from that distribution in emu.c, which is why the identities
 * of seed 000 ("stall + active cycles = total cycles") hold by construction.
 * Uncore and IMC events are rates per second of a socket's truth.
 *
 * An encoding not listed here is unknown: the functions return false and
 * the counter stays at zero.  Pure functions of their inputs.
 */
#ifndef PMUTOP_EMU_MODEL_H
#define PMUTOP_EMU_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu_machine.h"
#include "scenario.h"

/* Channel and unit masks of the model tables. */
#define BIT(n) (1u << (n))

#define EMU_HIST_BINS 16

enum emu_run_side { EMU_RUN_LT, EMU_RUN_GE };

struct emu_dist {
	double h[EMU_HIST_BINS]; /* P(value == k | unhalted cycle) */
	bool core_wide;          /* counts the whole core even without AnyThread */
	/*
	 * The threads of a core never have it in the same cycle (uop issue
	 * alternates between them, seed 000): the core's count is the sum of
	 * the threads' cycles, not the union of independent ones.
	 */
	bool exclusive;
	/*
	 * Non-zero: H is over 0/1, a condition the vendor asks for with this
	 * cmask (Skylake's CYCLE_ACTIVITY: the umask selects conditions, the
	 * cmask equal to it asks for all of them; Sapphire Rapids'
	 * EXE_ACTIVITY.BOUND_ON_LOADS: umask 21H, cmask 5): only that cmask
	 * counts it, and stands for cmask 1.
	 */
	unsigned cond_cmask;
	/*
	 * A condition of the cycle (0 or 1) that siblings may hold at once:
	 * with AnyThread the core counts the cycles where any thread holds it
	 * (CPU_CLK_UNHALTED.THREAD_ANY), not the sum over the threads.
	 */
	bool condition;
	/*
	 * Edges: the condition alternates between runs; RUN_LEN is the mean
	 * length in cycles of the runs on side RUN_SIDE (e.g. stall runs below
	 * cmask 1 last stall_len cycles; divider-busy runs last div_latency).
	 */
	double run_len;
	enum emu_run_side run_side;
};

/* Core event of machine M on one thread with truth V (SK_COUNT values). */
bool emu_model_core(const struct emu_machine *m, unsigned event, unsigned umask, uint64_t offcore,
		    const double *v, struct emu_dist *d);

/*
 * Hyper-threading: the threads of one core share its issue cycles, its
 * execution ports and its divider.  V[0..N-1] are the core's threads'
 * scenario truths, each what the thread does on the core alone; each is
 * turned in place into what it does beside the others: while the others
 * are unhalted (independently, each its util) and the threads' summed
 * demand on a shared resource exceeds what the core has (issue: one thread
 * per cycle; a port: one uop per cycle; the divider: always busy), every
 * thread progresses at capacity / demand (alone too, when it asks one port
 * for more than a uop a cycle); a thread's instructions, uops and
 * divider use shrink by that, and its cycles without issue, execution or
 * retirement grow by what it lost.  Scenarios cannot describe an impossible core.
 */
void emu_model_smt(const struct emu_machine *m, double (*v)[SK_COUNT], int n);

/*
 * Ice Lake and later: the shares of a thread's TOPDOWN.SLOTS in each
 * MSR_PERF_METRICS field (pmu_regs.h's order: retiring, bad speculation,
 * front-end bound, back-end bound, heavy operations, branch mispredicts,
 * fetch latency, memory bound) for its truth V (after emu_model_smt),
 * into FRAC[8].  Level 1 adds up to 1; each level-2 field is a share of
 * its parent: heavy_ops_share of retiring, mispredict_share of bad
 * speculation, fetch_latency_share of front-end bound, and of back-end
 * bound the stalls with a load outstanding or the store buffer full
 * among the cycles without execution (as Skylake's CYCLE_ACTIVITY and
 * EXE_ACTIVITY count them).
 */
void emu_model_topdown(const struct emu_machine *m, const double *v, double *frac);

/*
 * The table of emu_model_events.c, for tests: row I's vendor name, encoding
 * (BITS: the umask a set of bits, NAME the family's) and the cores it is
 * for (CORES: bit 1 << enum emu_ports of each; SERVER: only the servers'
 * of them), the offcore response matrix it answers (OFFCORE, 0: none);
 * false past the end.
 */
bool emu_model_event_row(size_t i, const char **name, unsigned *event, unsigned *umask,
			 unsigned *cmask, bool *bits, unsigned *cores, bool *server, uint64_t *offcore);

/*
 * The row of that table answering EVENT and UMASK (with offcore matrix
 * OFFCORE, 0: none) on a core of generation CORE (enum emu_ports; SERVER:
 * a server's), or -1.
 */
int emu_model_event_find(unsigned core, bool server, unsigned event, unsigned umask, uint64_t offcore);

/* Mean of a distribution. */
double emu_dist_mean(const struct emu_dist *d);

/* P(value >= c). */
double emu_dist_ge(const struct emu_dist *d, unsigned c);

/* Distribution of the sum of two independent values, clipped at the last bin. */
void emu_dist_convolve(const struct emu_dist *a, const struct emu_dist *b, struct emu_dist *out);

/*
 * Nehalem/Westmere uncore event per second for a socket: SOCK is the
 * socket's truth, CHAN[c] its channels' (NCHAN of them), UNCORE_HZ its
 * uncore clock.  false when unknown.
 */
bool emu_model_nhm_uncore(unsigned event, unsigned umask, const double *sock,
			  const double (*chan)[SK_COUNT], int nchan, double *per_s);

/* Skylake client CBo event per second for one of NCBO slices. */
bool emu_model_skl_cbo(unsigned event, unsigned umask, const double *sock, int ncbo, double *per_s);

/* Skylake client ARB event per second (threshold THR > 0: cycles with >= THR outstanding). */
bool emu_model_skl_arb(unsigned event, unsigned umask, unsigned thr, const double *sock,
		       const double (*chan)[SK_COUNT], int nchan, double *per_s);

/* Skylake client IMC free-running counter at MMIO OFFSET, per second. */
bool emu_model_skl_imc(uint32_t offset, const double *sock, const double (*chan)[SK_COUNT],
		       int nchan, double *per_s);

/*
 * The uncore units the kernel's drivers count (emu_model_srv.c), and RAPL's
 * power PMU; EMU_UNIT_CLOCK a client's uncore clock box, EMU_UNIT_OTHER a
 * box the model has no truth for (a client's cbox, arb, imc: zero).
 */
enum emu_srv_unit { EMU_UNIT_CHA, EMU_UNIT_MC, EMU_UNIT_UPI, EMU_UNIT_POWER, EMU_UNIT_IMC_FREE,
		    EMU_UNIT_AMD_L3, EMU_UNIT_AMD_DF, EMU_UNIT_AMD_UMC, EMU_UNIT_CLOCK,
		    EMU_UNIT_OTHER, EMU_UNIT_CSTATE_CORE, EMU_UNIT_CSTATE_PKG };

/*
 * Event EVENT with UMASK (the vendor's UMaskExt above bit 8) per second on
 * box BOX of NBOXES of UNIT of a socket of M (SOCK its truth, CHAN the
 * box's channel for EMU_UNIT_MC).  false when the model does not know it.
 */
/*
 * AMD's data fabric per second for a socket (SOCK its truth, CHAN its NCHAN
 * channels' truths, SK_COUNT each): DRAM beats per channel, link beats.
 */
bool emu_model_amd_df(const struct emu_machine *m, unsigned event, uint64_t umask,
		      const double *sock, const double *chan, int nchan, double *per_s);

bool emu_model_srv(const struct emu_machine *m, enum emu_srv_unit unit, unsigned event,
		   uint64_t umask, const double *sock, const double *chan, int box, int nboxes,
		   double *per_s);

#endif
