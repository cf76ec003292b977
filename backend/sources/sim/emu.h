/*
 * emu: an emulated machine behind the register interface.
 *
 * Behaves, at the register level, like the documented hardware (see
 * pmu_regs.h): event selects with USR/OS/EDGE/INT/ANY/EN/INV/CMASK, local and
 * global enables, fixed counters and their control, counter widths with
 * wrap-around setting the overflow status bit, the overflow clear register,
 * uncore registers shared by all CPUs of a socket, Skylake's IMC MMIO
 * counters.  A scenario supplies the truth; counters derive from it only
 * through the programmed encodings (emu_model.c).  Unknown encodings count
 * zero and are recorded (emu_unknown_events) for the tests.
 *
 * Counting is exact with respect to the identities of seed 000: every
 * counter is the floor of an integral, and a cmask/inv=1 counter is the
 * floor of the total-cycle integral minus the floor of its inv=0 twin, so
 * stall + active = total cycles to the count.
 *
 * Time: by default the monotonic clock since emu_create(); tests set
 * EMU_CLOCK_MANUAL and call emu_advance().  All entry points take one mutex,
 * so any thread may call them (the FUSE server does, from several threads).
 */
#ifndef PMUTOP_EMU_H
#define PMUTOP_EMU_H

#include <stddef.h>
#include <stdint.h>

#include "emu_machine.h"
#include "mmio.h"
#include "msr.h"
#include "scenario.h"
#include "topo.h"

struct emu;

enum emu_clock { EMU_CLOCK_REAL, EMU_CLOCK_MANUAL };

/* The PCI config space offset 48H value (BAR | enable) of the emulated Skylake host bridge. */
#define EMU_SKL_MCHBAR 0xFED10000ull

/*
 * Create from "MACHINE", "MACHINE:SCENARIO" (a shipped scenario name, found
 * in SCENARIO_DIR) or "MACHINE:PATH" (a scenario file; any argument with a
 * '/' or ending in .scn).  0, or -errno with one line in ERR.
 */
int emu_create(const char *spec, const char *scenario_dir, struct emu **out, char *err,
	       size_t errlen);

/* Create from a machine row and a parsed scenario (the emu takes ownership of SC). */
struct emu *emu_create_from(const struct emu_machine *m, struct scenario *sc);

void emu_free(struct emu *e);

const struct emu_machine *emu_machine(const struct emu *e);
const struct topo *emu_topo(const struct emu *e);
const struct scenario *emu_scenario(const struct emu *e);

void emu_set_clock(struct emu *e, enum emu_clock clock);

/* The machine's uncore and memory channels per socket (from the CPU model table). */
enum cpumodel_uncore emu_uncore(const struct emu *e);
int emu_channels(const struct emu *e);
/* Manual clock: move time forward by SECONDS. */
void emu_advance(struct emu *e, double seconds);

/*
 * Registers of OS CPU number CPU: 0, or -EIO for a register the model does
 * not implement or a write the hardware would fault on (reserved bits, a
 * read-only register), -ENXIO for a CPU that does not exist or is offline.
 */
int emu_msr_read(struct emu *e, int cpu, uint32_t reg, uint64_t *val);
int emu_msr_write(struct emu *e, int cpu, uint32_t reg, uint64_t val);

/* CPUID leaf/subleaf as CPU sees it. */
int emu_cpuid(struct emu *e, int cpu, uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

/* CPUID of CPU 0 as a cpuid_leaf_fn (CTX is the struct emu). */
int emu_cpuid_leaf(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);

/* The register layer's backend over an emulator (ctx: the struct emu). */
extern const struct msr_ops emu_msr_ops;

/* One access of emu_msr_batch: a read (VAL out) or a write of VAL's bits in WMASK (the rest kept). */
struct emu_access {
	int cpu;
	uint32_t reg;
	bool write;
	uint64_t val, wmask;
	int err;             /* out: 0, -ENXIO, -EIO */
};

/*
 * N accesses at one emulated instant, as msr-safe's batch call runs each
 * CPU's share on that CPU at once (the fake device tree's batch device).
 */
void emu_msr_batch(struct emu *e, struct emu_access *a, int n);

/*
 * Bring every CPU's and socket's counters up to now, as hardware counts
 * whether read or not: a device that serves a big machine calls it every
 * few ms, so a read does not have to catch up on a whole interval.
 */
void emu_sync_all(struct emu *e);

/* The emulated host bridge and physical memory for the IMC window (CTX: the emu). */
extern const struct mmio_ops emu_mmio_ops;

/*
 * Physical memory read at ADDR (the Skylake IMC counters live at
 * EMU_SKL_MCHBAR + 0x5040..0x5057).  Bytes outside that window read as
 * zero; -EIO when the machine has no such window.  Returns bytes read.
 */
int emu_mem_read(struct emu *e, uint64_t addr, void *buf, size_t len);

/* PCI config space of 0000:00:00.0 (256 bytes); returns bytes read. */
int emu_pci_config_read(struct emu *e, uint64_t off, void *buf, size_t len);

/* Take CPU offline or bring it back (reads then fail with -ENXIO). */
/*
 * The count of a server uncore event (emu_model_srv: UNIT an enum
 * emu_srv_unit, EVENT and UMASK with the vendor's UMaskExt above bit 8) on
 * box BOX of NBOXES of socket SI between times T0 and T1: the boxes only
 * the kernel reaches, counted by the emulated kernel, not through
 * registers.  Unknown encodings count 0 and are noted.
 */
#define EMU_MAX_SRV_CHANNELS 16
double emu_srv_count(struct emu *e, int si, int unit, int box, int nboxes, unsigned event,
		     uint64_t umask, double t0, double t1);

/*
 * The cstate_core counter of OS CPU CPU's core (c6-residency, TSC ticks in
 * core C6) between T0 and T1: its socket's core_c6_share (the cores' mean)
 * spread over the socket's cores by how idle each is (a core sleeps only
 * while every thread of it is idle: 1 - its busiest thread's util), at most
 * the core's idle share.
 */
double emu_cstate_core_count(struct emu *e, int cpu, double t0, double t1);

int emu_set_online(struct emu *e, int cpu, int online);

/*
 * Whether the machine of E (a hybrid's E-cores with E_CORE) models the core
 * event EVENT/UMASK/CMASK (with offcore matrix OFFCORE); an encoding it does not model counts zero.
 * Pure: a property of the machine's model, whatever the scenario.
 */
bool emu_models(const struct emu *e, bool e_core, unsigned event, unsigned umask, unsigned cmask,
		uint64_t offcore);

/* Unknown encodings programmed so far, "evtsel 0x..." lines joined by '\n' (static buffer). */
const char *emu_unknown_events(struct emu *e, int *count);

/*
 * The emulated kernel's events of a cgroup or a task: the count so far of
 * event select SEL (event and umask; every privilege level; EMU_WATCH_MPERF:
 * the reference clock while unhalted, at the nominal clock) on CPU, from
 * the first time it is asked; the caller takes the task's share of it.  0,
 * -ENXIO (no such CPU, offline), -ENOSPC (too many conditions watched).
 */
#define EMU_WATCH_MPERF (1ull << 63)
/* TOPDOWN.SLOTS (fixed counter 3), and the slots of PERF_METRICS field K (0-7), where the machine has them */
#define EMU_WATCH_SLOTS (1ull << 62)
#define EMU_WATCH_TD(k) (EMU_WATCH_SLOTS | (1ull + (uint64_t)(k)))
int emu_watch(struct emu *e, int cpu, uint64_t sel, double *count);

/*
 * The scenario's tasks as files a machine has (emu_who.c): the cgroup v2
 * tree, /proc/PID and the resctrl tree under DIR (made the first time), with
 * their counters up to now; each call brings the counters up to date.  0, or
 * -errno with one line in ERR.
 */
int emu_who_write(struct emu *e, const char *dir, char *err, size_t errlen);

/*
 * The kernel's thermal throttle counters under DIR
 * (sys/devices/system/cpu/cpuN/thermal_throttle), up to the emulated clock
 * now: the scenario's throttled shares and events integrated.  Intel's
 * machines only (Linux's therm_throt); an AMD machine writes none.  0 or
 * -errno with ERR.
 */
int emu_throttle_write(struct emu *e, const char *dir, char *err, size_t errlen);
/* The cgroup whose directory (in the written tree) FD is open on: its index, or -1. */
int emu_who_cgroup_of(struct emu *e, int fd);
/* The scenario task of PID, or -1. */
int emu_who_task(const struct emu *e, int pid);
/* The share of CPU's unhalted time of CGROUP's tasks (with its descendants'), or of TASK (>= 0). */
double emu_who_share(const struct emu *e, int cgroup, int task, int cpu);

#endif
