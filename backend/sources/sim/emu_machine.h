/*
 * emu_machine: the emulated machines, one table row each.
 *
 * A row says what the machine is (CPUID identity and leaf 0xA, topology as
 * an hwloc synthetic description with Linux's CPU numbering); its uncore and
 * memory channels are those of its model in the CPU model table (cpumodel).  The register behaviour lives in emu.c; the event
 * model in emu_model.c.  Immutable.
 */
#ifndef PMUTOP_EMU_MACHINE_H
#define PMUTOP_EMU_MACHINE_H

#include "cpuid.h"
#include "cpumodel.h"
#include "emu_hybrid.h"


struct emu_machine {
	const char *name;        /* --sim NAME */
	const char *description;
	const char *topology;    /* hwloc synthetic string */
	const char *brand;
	unsigned family, model, stepping;
	unsigned perfmon_version, gp_counters, gp_width, fixed_counters, fixed_width;
	double nominal_ghz;      /* TSC and reference clock */
	int cbo;                 /* Skylake CBo slices with counters */
	unsigned dram_mts;       /* DIMM speed, million transfers per second (8 bytes each) */
	/*
	 * Ice Lake and later: TOPDOWN.SLOTS per unhalted cycle (the TMA
	 * pipeline width: 5 Sunny/Willow Cove, 6 Golden/Redwood Cove) on fixed
	 * counter 3, and the MSR_PERF_METRICS fields (4 from Ice Lake, 8 from
	 * Sapphire Rapids); 0: neither.
	 */
	unsigned slots_width, perf_metrics;
	/*
	 * A platform of Intel's data from Skylake on: the offcore response
	 * pair read by OFFCORE_EVENTS[0] and [1] (B7H/BBH, or 2AH/2BH from
	 * Sapphire Rapids) and MSR_PEBS_FRONTEND; 0: the CPU table's row says.
	 */
	unsigned offcore_events[2];
	bool pebs_frontend;
	/* MEM_LOAD_L3_MISS_RETIRED (D3H): the servers' loads by the memory that served them */
	bool l3_miss_sources;
	const char *default_scenario;
	/*
	 * The microarchitecture whose core events the emulator models for a
	 * machine without a row of its own in the CPU table (a platform of
	 * Intel's data: Skylake-SP has the Skylake client's core); 0: the
	 * table's.
	 */
	enum cpuid_uarch core_uarch;
	/*
	 * The vendor's UOPS_DISPATCHED.PORT_* events of the core (Intel's data):
	 * Sunny and Willow Cove's A1H (ports 0, 1, 2_3, 4_9, 5, 6, 7_8), Golden
	 * and Redwood Cove's B2H (0, 1, 2_3_10, 4_9, 5_11, 6, 7_8), with
	 * CPU_CLK_UNHALTED.DISTRIBUTED (ECH/02H), Lion Cove's B2H by kind (ALU,
	 * LOAD, STA, STD); Skylake's are emu_model_skl.c's; 0: none modelled.
	 * The deeper tree's events (emu_model_events.c) are chosen by the
	 * same generation.
	 */
	enum emu_ports { EMU_PORTS_NONE, EMU_PORTS_SUNNY_COVE, EMU_PORTS_GOLDEN_COVE,
			 EMU_PORTS_LION_COVE, EMU_PORTS_SKYLAKE,
			 EMU_PORTS_ZEN /* AMD's cores, for the table of emu_model_events.c */,
			 /* a hybrid's E-cores, for that table: Alder Lake's, Lunar and Arrow Lake's */
			 EMU_PORTS_GRACEMONT, EMU_PORTS_SKYMONT } ports;
	/*
	 * The cycles Intel's metrics charge for a BAClear (Branch_Resteers) and
	 * a switch to the microcode sequencer (MS_Switches) on this core: 9
	 * and 2 on Skylake, 10 and 3 later (0: those).
	 */
	unsigned baclear_cycles, ms_switch_cycles;
	/* The cycles a PAUSE instruction takes, as Intel's Slow_Pause charges (37 Ice Lake-SP, 140 Tiger Lake). */
	unsigned pause_cycles;
	/*
	 * The data reads outstanding from which the vendor's MEM_Bandwidth
	 * counts a cycle as bandwidth-bound (OFFCORE_REQUESTS_OUTSTANDING's
	 * cmask in Intel's metrics: 12 on Sapphire and Granite Rapids, 4 on
	 * Ice Lake-SP, Tiger Lake and Alder Lake); 0 where not modelled.
	 */
	unsigned bw_reads;
	/*
	 * A server's uncore as the kernel's uncore driver shows it (perf only:
	 * its boxes are in PCI space, MMIO and discovery tables): CHAs, memory
	 * channels and UPI links per socket, and whose event encodings they
	 * take (Intel's data: Skylake-SP, Ice Lake-SP, Sapphire Rapids / Emerald Rapids,
	 * Granite Rapids with two CAS counts per channel, one per
	 * sub-channel); a client's free-running memory-controller counters
	 * (EMU_SRV_TGL, EMU_SRV_ADL: two uncore_imc_free_running boxes beside
	 * the cbox, arb and clock PMUs); EMU_SRV_NONE: none.
	 * RAPL's power PMU with it (servers: package and DRAM; clients:
	 * package and cores).
	 */
	/*
	 * AMD Zen (CPUID "AuthenticAMD", no architectural perfmon): six core
	 * counters with 12-bit event selects, counted through the emulated
	 * kernel only; DISPATCH_WIDTH ops a cycle (6 Zen 2-4, 8 Zen 5), AMD's
	 * dispatch slots; PERFMON_V2 (Zen 4 on): CPUID 80000022H.
	 */
	bool amd;
	bool hypervisor;         /* a virtual machine (CPUID.1:ECX[31]); without gp_counters, no guest PMU */
	unsigned zen;            /* its generation, 2 to 5 (the L3's latency events differ) */
	unsigned dispatch_width;
	bool perfmon_v2;
	/* the kernel's uncore driver tables it follows (emu_perf_linux.c); TGL, ADL: clients */
	enum emu_srv { EMU_SRV_NONE, EMU_SRV_ICX, EMU_SRV_SPR, EMU_SRV_GNR, EMU_SRV_TGL,
		       EMU_SRV_ADL, EMU_SRV_AMD /* a key of the tables: AMD machines say amd */,
		       EMU_SRV_LNL /* RAPL's power PMU alone (its uncore not emulated) */,
		       EMU_SRV_SKX /* Skylake-SP: its CHA's TOR filtered by FILTER1 */ } srv;
	int chas, channels, upi_links;
	double upi_gts;          /* the UPI links' speed, GT/s (their clock is an eighth of it) */
	/*
	 * A hybrid part (CPUID.07H:EDX[15]): its P-cores and E-cores (the
	 * topology is then made from this, not TOPOLOGY), the E-cores' PMU;
	 * the row's counters, slots and PERF_METRICS are the P-cores'.
	 */
	const struct emu_hybrid *hybrid;
	bool e_core;             /* the E-cores' view of a hybrid row (emu_int.h's e_m), for the model */
};

extern const struct emu_machine emu_machines[];
extern const int emu_nmachines;

/* The machine called NAME, or NULL. */
const struct emu_machine *emu_machine_find(const char *name);

/* M's microarchitecture, as its row in the CPU table says (or the architectural fallback). */
/* Whether M is a client whose uncore is Linux's uncore_snb.c's (Tiger or Alder Lake). */
static inline bool emu_machine_client(const struct emu_machine *m)
{
	return m->srv == EMU_SRV_TGL || m->srv == EMU_SRV_ADL || m->srv == EMU_SRV_LNL;
}

enum cpuid_uarch emu_machine_uarch(const struct emu_machine *m);

/* The offcore response register (0, 1) event code EVENT reads on M (B7H/BBH or its own), or -1. */
int emu_machine_offcore_reg(const struct emu_machine *m, unsigned event);

/* "nehalem-ep, westmere-ep, ..." for messages. */
const char *emu_machine_names(void);

#endif
