/*
 * emu_model_int: what the core event models share across emu_model.c (the
 * seed CPUs' events, the table) and emu_model_skl.c (the Skylake core's
 * events, client and server): the context of one event, the distributions
 * and the quantities derived from a thread's truth.  Not for other modules.
 */
#ifndef PMUTOP_EMU_MODEL_INT_H
#define PMUTOP_EMU_MODEL_INT_H

#include "emu_model.h"

#define UARCH(u) (1u << (u))

struct emu_core_ctx {
	const struct emu_machine *m;
	unsigned event, umask;
	uint64_t offcore;
	const double *v;
	double cycles_per_s; /* unhalted cycles per second of this thread */
};

typedef void emu_core_fn(const struct emu_core_ctx *c, struct emu_dist *d);

double emu_clamp01(double x);
void emu_dist_zero(struct emu_dist *d);
/*
 * Value 0 with probability 1 - P_ACTIVE, else 1 + Binomial(WIDTH - 1, q)
 * with q chosen so that the mean is MEAN.
 */
void emu_dist_binomial(struct emu_dist *d, double p_active, double mean, unsigned width);
void emu_dist_bernoulli(struct emu_dist *d, double p);
/* MEAN slots a cycle (issue slots: 0 .. a pipeline's width) as a two-point distribution. */
void emu_dist_slots(struct emu_dist *d, double mean);
/* Distribution of the number of busy ports among NQ independent ports busy with probabilities Q. */
void emu_poisson_binomial(const double *q, unsigned nq, double *pb);
double emu_uops_retired(const double *v);
/* Executed uops per unhalted cycle on each port (shares normalised over NPORTS). */
void emu_port_rates(const double *v, unsigned nports, double *rate);
/* Edges of a stall condition: runs of stall_len cycles. */
void emu_ev_stall_runs(const struct emu_core_ctx *c, struct emu_dist *d);
/* A per-instruction event counted at most once per cycle. */
void emu_ev_per_inst(const struct emu_core_ctx *c, struct emu_dist *d, double per_inst);
/* An event PER_S times a second of the thread, at most once per unhalted cycle. */
void emu_ev_per_second(const struct emu_core_ctx *c, struct emu_dist *d, double per_s);

/*
 * A thread's stall cycles (no uop executed), nested as the events'
 * descriptions nest them: with a load outstanding (MEM), an L1D, L2, L3
 * miss outstanding (L3 <= L2 <= L1D <= MEM <= ALL), the store buffer full
 * and no load (STORES), a serializing operation (SERIAL), the rest (CORE).
 * A truth asking for fewer stalls than its uop rate allows gets the least
 * that is possible (emu_model_quantity.c).
 */
struct emu_stalls {
	double all, mem, l1d, l2, l3, stores, serial, core;
};
void emu_stalls(const double *v, struct emu_stalls *s);
/*
 * The cycles with k uops executed, for each bit k of BITS (4: four or
 * more), as EXE_ACTIVITY counts them: 1 + Binomial(3) uops on the cycles
 * that are not stalls, with the thread's executed-uop rate as their mean.
 */
double emu_exe_ports(const double *v, unsigned bits);

/* The Skylake core's events (emu_model_skl.c) */
emu_core_fn emu_ev_skl_uops_issued, emu_ev_skl_recovery, emu_ev_skl_not_delivered,
	emu_ev_skl_cycle_activity, emu_ev_skl_ports, emu_ev_skl_exe_activity;

/* AMD Zen's core events (emu_model_amd.c): EVENT its 12-bit select */
bool emu_model_amd_core(const struct emu_machine *m, unsigned event, unsigned umask,
			const double *v, struct emu_dist *d);

/*
 * AMD's uncore per second (emu_model_amd.c): an L3 (one of NBOXES CCXs of
 * the socket SOCK), a memory channel CHAN, the data fabric.
 */
bool emu_model_amd_uncore(const struct emu_machine *m, enum emu_srv_unit unit, unsigned event,
			  uint64_t umask, const double *sock, const double *chan, int nboxes,
			  double *per_s);

/*
 * A hybrid's E-core's own events (emu_model_atom.c): its top-down slots by
 * reason; false for the rest (the architectural events answer for them).
 */
/* UOPS_DISPATCHED.PORT_* and CPU_CLK_UNHALTED.DISTRIBUTED of Ice Lake and later (emu_model_ports.c) */
bool emu_model_ports(const struct emu_machine *m, unsigned event, unsigned umask, const double *v,
		     struct emu_dist *d);
bool emu_model_atom_core(const struct emu_machine *m, unsigned event, unsigned umask,
			 const double *v, struct emu_dist *d);

/*
 * Ice Lake and later P-cores: the events of the tree's deeper levels, a
 * table of truth quantities (emu_model_events.c); false when not a row.
 */
bool emu_model_events(const struct emu_core_ctx *c, struct emu_dist *d);
/* Mispredicted branches and machine clears retired per unhalted cycle of truth V. */
double emu_mispredicts(const double *v);
double emu_machine_clears(const double *v);

/* Ice Lake and later: TOPDOWN.SLOTS (emu_model_tma.c) */
emu_core_fn emu_ev_tma_slots;

#endif
