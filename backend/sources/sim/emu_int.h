/*
 * emu_int: the emulated machine's state, shared by its files: emu.c
 * (registers, CPUID, life cycle), emu_core.c (how core counters advance)
 * and emu_uncore.c (the per-socket PMUs and the Skylake IMC window).  Not for any other module.  All entry points
 * hold e->lock.
 */
#ifndef PMUTOP_EMU_INT_H
#define PMUTOP_EMU_INT_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "emu.h"
#include "emu_model.h"
#include "pmu_regs.h"

#define EMU_MAX_ACC     48  /* accumulators per CPU / socket */
#define EMU_MAX_UNKNOWN 64
#define EMU_RATE_SEEN   64  /* condition rates per CPU kept over a segment */
#define EMU_CORE_THREADS 8  /* threads of a core whose truth a CPU keeps (itself first) */
#define EMU_MAX_WATCH   16  /* conditions per CPU the emulated kernel watches for cgroups and tasks */
#define EMU_PRIV_USR    1u
#define EMU_PRIV_OS     2u

/* A counting condition and its integral since it was first programmed. */
#define EMU_MAX_OFFCORE_VALS 256

struct emu_acc {
	uint64_t key;    /* evtsel bits that select the condition + offcore value's index (EMU_KEY_*) */
	double g;        /* integral of the condition (values, cycles >= cmask, or edges) */
	int in_use;
	double rate;     /* per second over the CPU's current truth segment (rate_ok) */
	int rate_ok;
};

/* A counter bound to an accumulator. */
struct emu_ctr {
	uint64_t value;  /* masked to the counter width */
	double last_f;   /* F(acc) when value was last brought up to date */
	int acc;         /* index into the owner's accs, or -1 when not counting */
	int inv;         /* counts total cycles minus the condition */
	unsigned priv;
	/*
	 * what it was last bound from while counting (acc >= 0): the select and
	 * its extra register (a socket's: the key); a rebind that changes none
	 * of it is free
	 */
	uint64_t bound_sel, bound_extra;
};

struct emu_cpu {
	int os_cpu, socket, core, online;
	bool e_core;     /* a hybrid's E-core: its events are the E-core's (emu_cpu_m) */
	double t;        /* time the accumulators are up to */
	double ctr_t;    /* time the counters' values are up to (emu_cpu_ctrs) */
	uint64_t acc_live; /* the accumulators in use, a bit each (emu_cpu_rebind, emu_cpu_watch) */
	double cyc[4];   /* total-cycle integrals per privilege mask (index 1..3) */
	uint64_t evtsel[PMU_MAX_GP], fixed_ctrl, global_ctrl, global_status, offcore[2];
	uint64_t pebs_frontend;
	struct emu_ctr gp[PMU_MAX_GP], fixed[PMU_MAX_FIXED];
	/* AMD: IRPerfCount, APERF, MPERF (EMU_FREE_*), always counting */
	struct emu_ctr free[3];
	/*
	 * The emulated kernel's cgroup and task events (emu_watch): conditions
	 * it integrates without a counter, as the hardware would count them on
	 * the counters Linux gives the cgroup's events while its tasks run.
	 */
	uint64_t watch_key[EMU_MAX_WATCH];
	int watch_acc[EMU_MAX_WATCH];
	int nwatch;
	struct emu_acc acc[EMU_MAX_ACC];
	/*
	 * The truth is constant between two scenario changes (a segment): its
	 * rates are computed once per segment, not at every register access.
	 */
	double seg_end;  /* the current segment ends here; <= t: none */
	double cyc_rate[4];
	/*
	 * The rates of the conditions counted in this segment, kept when their
	 * counters are given to another group: the rotation binds the same
	 * conditions again every round, and a rate (a distribution's tail, a
	 * convolution) costs more than the sweep's register accesses.
	 */
	uint64_t seen_key[EMU_RATE_SEEN];
	double seen_rate[EMU_RATE_SEEN];
	int nseen;
	/*
	 * The truth of the core's threads over the segment (this CPU's first),
	 * for the conditions first bound in it: a layout of many groups (Intel's
	 * Bottleneck metrics read 150 events) binds each once a segment, and the
	 * truth of a thread costs more than a rate.  nsib 0: not found yet.
	 */
	double (*seg_truth)[SK_COUNT];
	int seg_nsib;
	/*
	 * MSR_PERF_METRICS: the slots and each field's slots integrated (all
	 * privilege levels: the shares are the same in each), their values at
	 * the register's last clear, and their rates over the segment.
	 */
	double slots_g, td_g[PERF_METRICS_FIELDS], slots_base, td_base[PERF_METRICS_FIELDS];
	double slots_rate, td_rate[PERF_METRICS_FIELDS];
	uint64_t metrics_written;
};

struct emu_socket {
	double t, ctr_t; /* as a CPU's */
	uint64_t acc_live;
	double uclk;     /* integral of the uncore clock */
	uint64_t global_ctrl, global_status, fixed_ctrl;
	uint64_t evtsel[NHM_UNC_COUNTERS + 2];     /* NHM: 0x3C0+; SKL: CBo n*2+k, then ARB */
	struct emu_ctr ctr[NHM_UNC_COUNTERS + 2];  /* SKL: 8 CBo + 2 ARB */
	struct emu_ctr fixed;
	struct emu_acc acc[EMU_MAX_ACC];
	double imc[5];   /* Skylake IMC free-running integrals, by emu_imc_offsets */
	/* as a CPU's: the rates found once per segment of the truth (acc[].rate) */
	double seg_end, imc_rate[5];
	double energy_t; /* RAPL: the energy (J) of cores, package, DRAM up to energy_t */
	double energy[4];
};

struct emu {
	pthread_mutex_t lock;
	const struct emu_machine *m;
	/*
	 * A hybrid machine's E-cores as the event model sees them: the row with
	 * their PMU (counters, issue slots a cycle, no PERF_METRICS) and
	 * e_core set, so that their event codes mean the E-core's events.
	 */
	struct emu_machine e_m;
	const struct cpumodel *model; /* the machine's row in the CPU model table, or NULL */
	enum cpumodel_uncore uncore;  /* from it */
	int channels;
	int offcore;
	struct scenario *sc;
	struct topo *topo;
	enum emu_clock clock;
	double manual_now;
	struct timespec start;
	struct emu_cpu *cpus;   /* indexed by OS CPU number */
	int ncpus;              /* highest OS CPU number + 1 */
	struct emu_socket *sockets;
	int nsockets;
	struct emu_who *who;    /* the tasks' files and counters (emu_who.c), NULL until written */
	struct emu_throttle *thr; /* the thermal throttle counters' files (emu_throttle.c), NULL until written */
	uint64_t unknown[EMU_MAX_UNKNOWN];
	int nunknown;
	char unknown_text[EMU_MAX_UNKNOWN * 40];
	/*
	 * Each socket's truth over its current segment of the scenario (the
	 * phase and noise slot: constant until scenario_next_change), two per
	 * socket (with the memory channels, without), under srv_lock: every
	 * uncore box's every event asks for it at every sync (emu_srv_count).
	 */
	pthread_mutex_t srv_lock;
	struct emu_srv_truth *srv_truth; /* 2 x nsockets */
	/*
	 * The cores' idle shares over a segment of the scenario
	 * (emu_cstate_core_count), under srv_lock: per socket the segment's end
	 * (its next change; NaN none), its cores' mean, and per topology core
	 * (ncpus entries) 1 - its busiest online thread's util.
	 */
	double *c6_t, *c6_mean, *c6_idle;
	/*
	 * The offcore response values counters have read, whole (Sapphire
	 * Rapids' OCR matrices reach bit 40): an accumulator's key holds the
	 * index + 1 of its value here (0: none), under offcore_lock.
	 */
	pthread_mutex_t offcore_lock;
	uint64_t offcore_vals[EMU_MAX_OFFCORE_VALS];
	int noffcore_vals;
};

struct emu_srv_truth {
	double lo, hi;           /* valid for lo <= t < hi; hi 0: empty */
	int nchan;
	double sock[SK_COUNT];
	double chan[EMU_MAX_SRV_CHANNELS][SK_COUNT];
};

/* AMD's free-running counters of a CPU (emu_cpu.free) */
enum { EMU_FREE_IRPERF, EMU_FREE_APERF, EMU_FREE_MPERF };

/*
 * An accumulator's key: the select's condition bits, the index + 1 of its
 * offcore value in struct emu's registry at 32-43 (0: none), version 6's
 * UMASK2 at 44-51 and EQ at 52, AMD's EventSelect[11:8] at 56-59; EMU_KEY_MPERF the reference
 * clock while unhalted (MPERF), which no select can ask for.
 */
#define EMU_KEY_OFFCORE_SHIFT 32
#define EMU_KEY_OFFCORE_MASK 0xFFFull
#define EMU_KEY_UMASK2_SHIFT 44
#define EMU_KEY_EQ (1ull << 52)
/*
 * EQ with INV (and a CMASK): the cycles the value is neither CMASK nor 0.
 * Intel's Lion Cove MITE and DSB nodes count IDQ.*_UOPS:c8:i1:eq1 as the
 * cycles a path delivers some uops but fewer than the width (what the
 * older CYCLES_ANY - CYCLES_OK count); read as not equal alone, the cycles
 * the path is idle would make every node near 50 %.
 */
#define EMU_KEY_NE (1ull << 53)
#define EMU_KEY_EVENT_HI_SHIFT 56
#define EMU_KEY_MPERF (1ull << 63)
/* the slots of fixed counter 3 (low bits 0) or a PERF_METRICS field's (1 + the field), which no select asks for */
#define EMU_KEY_SLOTS (1ull << 62)

/* The machine as CPU C's events see it: a hybrid's E-core's own, else the row. */
static inline const struct emu_machine *emu_cpu_m(const struct emu *e, const struct emu_cpu *c)
{
	return c->e_core ? &e->e_m : e->m;
}

/* ---- shared by emu.c and emu_uncore.c ---- */

/* The emulator's clock now (real or manual). */
double emu_clock_now(struct emu *e);
/*
 * Hold this thread's view of E's clock at T until emu_clock_release: the
 * emulated kernel's operations read and write registers at the very time
 * they keep for them (a thread preempted in the middle of a rotation would
 * otherwise count more than the time it says ran).
 */
void emu_clock_hold(struct emu *e, double t);
void emu_clock_release(struct emu *e);

/* Remember an encoding the model does not know (counted as zero). */
void emu_note_unknown(struct emu *e, uint64_t key);

/* The accumulator of KEY in ACC (allocated when new), or -1 when all are taken. */
int emu_acc_find(struct emu_acc *acc, uint64_t key);

/* The counter's F: the integer its value has advanced by since binding. */
double emu_ctr_f(const struct emu_ctr *c, const struct emu_acc *acc, const double *cyc);

/* Bring counter C up to date from its accumulator; sets *WRAPPED when it crossed its width. */
void emu_ctr_update(struct emu_ctr *c, const struct emu_acc *acc, const double *cyc,
		    unsigned width, int *wrapped);

/*
 * The core: bring CPU C's conditions up to T; its counters' values up to
 * them (done when a counter, its status or its binding is read or changes,
 * not at every access: a rotation's dozen writes a CPU each moved them
 * all); bind its counters to their conditions after a select changed.
 */
void emu_cpu_sync(struct emu *e, struct emu_cpu *c, double t);
void emu_cpu_ctrs(struct emu *e, struct emu_cpu *c);
/*
 * MSR_PERF_METRICS of C now (brought up to date by emu_cpu_sync): the
 * fields since the last write, or the value written while nothing counted.
 * A write starts the fields afresh.
 */
uint64_t emu_cpu_perf_metrics(const struct emu *e, const struct emu_cpu *c);
void emu_cpu_clear_metrics(struct emu_cpu *c, uint64_t v);
void emu_cpu_rebind(struct emu *e, struct emu_cpu *c);

/* The per-socket PMUs: bring socket SI up to T; register access (1 if REG is theirs). */
void emu_socket_sync(struct emu *e, int si, double t);
void emu_socket_ctrs(struct emu *e, struct emu_socket *s);
/* RAPL's registers of socket SI at NOW (read only); 1 if REG is one of them. */
int emu_rapl_reg(struct emu *e, int si, uint32_t reg, int write, uint64_t *val, int *rc,
		 double now);
int emu_nhm_uncore_reg(struct emu *e, struct emu_socket *s, uint32_t reg, int write,
		       uint64_t *val, int *rc);
int emu_skl_uncore_reg(struct emu *e, struct emu_socket *s, uint32_t reg, int write,
		       uint64_t *val, int *rc);

/*
 * The integral so far of the condition event select SEL (any privilege
 * level) gives on C, kept from the first time it is asked (emu_watch).
 * 0, or -ENOSPC when C watches EMU_MAX_WATCH conditions already.  C is
 * synced by the caller.
 */
int emu_cpu_watch(struct emu *e, struct emu_cpu *c, uint64_t sel, double *count);

void emu_who_free(struct emu_who *w);
/* Replace DIR/NAME with TEXT (a temporary file renamed over it); 0 or -errno. */
int emu_who_put(const char *dir, const char *name, const char *text);
/* mkdir -p of DIR/SUB; 0 or -errno. */
int emu_who_mkdir(const char *dir, const char *sub);

/* ---- emu_throttle.c: the kernel's thermal throttle counters ---- */
struct emu_throttle;
void emu_throttle_free(struct emu_throttle *t);

#endif
