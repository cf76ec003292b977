/*
 * emu_machine: the table of emulated machines.  Immutable.
 *
 * CPUID values: family/model/stepping of the real parts named in the brand;
 * leaf 0xA as those parts report it (SDM Vol. 3B ch. 18: Core 2 has perfmon
 * v2 with 2 x 40-bit counters, Nehalem/Westmere v3 with 4 x 48-bit per
 * thread, Skylake v4 with 4 x 48-bit per thread when HT is on).  The
 * "arch" machines are Ivy Bridge-EP parts (06_3E): Intel's data lists their
 * events but no metrics, so pmutop counts the architectural events there.
 */
#include "emu_machine.h"

#include <stdio.h>
#include <string.h>

const struct emu_machine emu_machines[] = {
	{
		.name = "nehalem-ep",
		.description = "2 x Xeon X5570 (Nehalem-EP): 2 sockets x 4 cores x 2 threads, "
			       "3 DDR3 channels per socket, QPI",
		.topology = "pack:2 [numa(memory=12GiB)] l3:1(size=8MiB) core:4 pu:2(indexes=2*8:1*2)",
		.brand = "Intel(R) Xeon(R) CPU           X5570  @ 2.93GHz",
		.family = 6, .model = 0x1A, .stepping = 5,
		.perfmon_version = 3, .gp_counters = 4, .gp_width = 48,
		.fixed_counters = 3, .fixed_width = 48,
		.nominal_ghz = 2.93,
		.dram_mts = 1333,
		.default_scenario = "memory-bound",
	},
	{
		.name = "westmere-ep",
		.description = "2 x Xeon X5670 (Westmere-EP): 2 sockets x 6 cores x 2 threads, "
			       "3 DDR3 channels per socket, QPI",
		.topology = "pack:2 [numa(memory=24GiB)] l3:1(size=12MiB) core:6 pu:2(indexes=2*12:1*2)",
		.brand = "Intel(R) Xeon(R) CPU           X5670  @ 2.93GHz",
		.family = 6, .model = 0x2C, .stepping = 2,
		.perfmon_version = 3, .gp_counters = 4, .gp_width = 48,
		.fixed_counters = 3, .fixed_width = 48,
		.nominal_ghz = 2.93,
		.dram_mts = 1333,
		.default_scenario = "memory-bound",
	},
	{
		.name = "skylake",
		.description = "Core i7-6700 (Skylake client): 1 socket x 4 cores x 2 threads, "
			       "4 CBo slices, ARB, IMC free-running counters",
		.topology = "pack:1 [numa(memory=16GiB)] l3:1(size=8MiB) core:4 pu:2(indexes=2*4:1*2)",
		.brand = "Intel(R) Core(TM) i7-6700 CPU @ 3.40GHz",
		.family = 6, .model = 0x5E, .stepping = 3,
		.perfmon_version = 4, .gp_counters = 4, .gp_width = 48,
		.fixed_counters = 3, .fixed_width = 48,
		.nominal_ghz = 3.40,
		/* the i7-6700 supports DDR4 up to 2133 MT/s (and DDR3L-1600) */
		.cbo = 4, .dram_mts = 2133,
		.pebs_frontend = true,
		.default_scenario = "memory-bound",
		.ports = EMU_PORTS_SKYLAKE, /* UOPS_DISPATCHED_PORT (emu_model_skl.c) */
		.baclear_cycles = 9, .ms_switch_cycles = 2, /* Intel's Skylake metrics */
		.bw_reads = 4,
	},
	{
		.name = "skylake-sp",
		.description = "2 x Xeon Platinum 8180 (Skylake-SP): 2 sockets x 28 cores x 2 threads; "
			       "Intel's perfmon data; the kernel's uncore (28 CHAs, 6 channels, "
			       "3 UPI links) and RAPL",
		.topology = "pack:2 [numa(memory=192GiB)] l3:1(size=38MiB) core:28 "
			    "pu:2(indexes=2*56:1*2)",
		.brand = "Intel(R) Xeon(R) Platinum 8180 CPU @ 2.50GHz",
		.family = 6, .model = 0x55, .stepping = 4,
		.perfmon_version = 4, .gp_counters = 4, .gp_width = 48,
		.fixed_counters = 3, .fixed_width = 48,
		.nominal_ghz = 2.50,
		.default_scenario = "topdown",
		.ports = EMU_PORTS_SKYLAKE, /* UOPS_DISPATCHED_PORT (emu_model_skl.c) */
		.baclear_cycles = 9, .ms_switch_cycles = 2, /* Intel's Skylake metrics */
		.bw_reads = 4, /* MEM_Bandwidth's OFFCORE_REQUESTS_OUTSTANDING cmask (Intel's metrics) */
		.core_uarch = CPUID_UARCH_SKYLAKE,
		.offcore_events = { 0xB7, 0xBB }, .pebs_frontend = true, .l3_miss_sources = true,
		/* the Platinum 8180: DDR4-2666 on 6 channels, 3 UPI links at 10.4 GT/s */
		.dram_mts = 2666,
		.srv = EMU_SRV_SKX, .chas = 28, .channels = 6, .upi_links = 3, .upi_gts = 10.4,
	},
	{
		.name = "icelake-sp",
		.description = "2 x Xeon Platinum 8380 (Ice Lake-SP): 2 sockets x 40 cores x 2 threads; "
			       "Intel's perfmon data, fixed counter 3 and PERF_METRICS (level 1)",
		.topology = "pack:2 [numa(memory=256GiB)] l3:1(size=60MiB) core:40 "
			    "pu:2(indexes=2*80:1*2)",
		.brand = "Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz",
		.family = 6, .model = 0x6A, .stepping = 6,
		.perfmon_version = 5, .gp_counters = 8, .gp_width = 48,
		.fixed_counters = 4, .fixed_width = 48,
		.nominal_ghz = 2.30,
		.slots_width = 5, .perf_metrics = 4,
		.ports = EMU_PORTS_SUNNY_COVE, /* UOPS_DISPATCHED.PORT_* (emu_model_ports.c) */
		.bw_reads = 4, /* MEM_Bandwidth's OFFCORE_REQUESTS_OUTSTANDING cmask (Intel's metrics) */
		.offcore_events = { 0xB7, 0xBB }, .pebs_frontend = true, .l3_miss_sources = true,
		.default_scenario = "topdown", .pause_cycles = 37, /* Intel's Slow_Pause */
		.dram_mts = 3200,
		.srv = EMU_SRV_ICX, .chas = 40, .channels = 8, .upi_links = 3,
		.upi_gts = 11.2, /* Xeon Platinum 8380: UPI at 11.2 GT/s */
	},
	{
		.name = "sapphire-rapids",
		.description = "2 x Xeon Platinum 8480+ (Sapphire Rapids): 2 sockets x 56 cores x 2 "
			       "threads; Intel's perfmon data, PERF_METRICS levels 1 and 2",
		.topology = "pack:2 [numa(memory=512GiB)] l3:1(size=105MiB) core:56 "
			    "pu:2(indexes=2*112:1*2)",
		.brand = "Intel(R) Xeon(R) Platinum 8480+",
		.family = 6, .model = 0x8F, .stepping = 8,
		.perfmon_version = 5, .gp_counters = 8, .gp_width = 48,
		.fixed_counters = 4, .fixed_width = 48,
		.nominal_ghz = 2.00,
		.slots_width = 6, .perf_metrics = 8,
		.ports = EMU_PORTS_GOLDEN_COVE, /* UOPS_DISPATCHED.PORT_* (emu_model_ports.c) */
		.bw_reads = 12, /* MEM_Bandwidth's OFFCORE_REQUESTS_OUTSTANDING cmask (Intel's metrics) */
		.offcore_events = { 0x2A, 0x2B }, .pebs_frontend = true, .l3_miss_sources = true,
		.default_scenario = "topdown",
		.dram_mts = 4800,
		.srv = EMU_SRV_SPR, .chas = 56, .channels = 8, .upi_links = 4,
		.upi_gts = 16, /* Xeon Platinum 8480+: UPI 2.0 at 16 GT/s */
	},
	{
		.name = "granite-rapids",
		.description = "Xeon 6980P (Granite Rapids): 1 socket x 128 cores x 2 threads; Intel's "
			       "perfmon data, PERF_METRICS levels 1 and 2",
		.topology = "pack:1 [numa(memory=768GiB)] l3:1(size=504MiB) core:128 "
			    "pu:2(indexes=2*128:1*2)",
		.brand = "Intel(R) Xeon(R) 6980P",
		.family = 6, .model = 0xAD, .stepping = 1,
		.perfmon_version = 5, .gp_counters = 8, .gp_width = 48,
		.fixed_counters = 4, .fixed_width = 48,
		.nominal_ghz = 2.00,
		.slots_width = 6, .perf_metrics = 8,
		.ports = EMU_PORTS_GOLDEN_COVE, /* UOPS_DISPATCHED.PORT_* (emu_model_ports.c) */
		.bw_reads = 12, /* MEM_Bandwidth's OFFCORE_REQUESTS_OUTSTANDING cmask (Intel's metrics) */
		.offcore_events = { 0x2A, 0x2B }, .pebs_frontend = true, .l3_miss_sources = true,
		.default_scenario = "topdown",
		.dram_mts = 6400,
		.srv = EMU_SRV_GNR, .chas = 128, .channels = 12, .upi_links = 6,
		.upi_gts = 24, /* Xeon 6980P: UPI 2.0 at 24 GT/s */
	},
	{
		.name = "tigerlake",
		.description = "Core i7-1185G7 (Tiger Lake client): 1 socket x 4 cores x 2 threads; "
			       "Intel's perfmon data, fixed counter 3 and PERF_METRICS (level 1)",
		.topology = "pack:1 [numa(memory=16GiB)] l3:1(size=12MiB) core:4 pu:2(indexes=2*4:1*2)",
		.brand = "11th Gen Intel(R) Core(TM) i7-1185G7 @ 3.00GHz",
		.family = 6, .model = 0x8C, .stepping = 1,
		.perfmon_version = 5, .gp_counters = 8, .gp_width = 48,
		.fixed_counters = 4, .fixed_width = 48,
		.nominal_ghz = 3.00,
		.slots_width = 5, .perf_metrics = 4,
		.ports = EMU_PORTS_SUNNY_COVE, /* UOPS_DISPATCHED.PORT_* (emu_model_ports.c) */
		.bw_reads = 4, /* MEM_Bandwidth's OFFCORE_REQUESTS_OUTSTANDING cmask (Intel's metrics) */
		.offcore_events = { 0xB7, 0xBB }, .pebs_frontend = true,
		.default_scenario = "topdown", .pause_cycles = 140, /* Intel's Slow_Pause */
		.dram_mts = 4267, /* LPDDR4x-4267, two 64-bit channels */
		.srv = EMU_SRV_TGL, .channels = 2,
	},
	{
		/*
		 * Core i9-12900K (Alder Lake-S, 06_97): 8 Golden Cove P-cores with
		 * hyper-threading (CPUs 0-15, 1.25 MiB L2 each; 8 counters, fixed
		 * counter 3 and PERF_METRICS with the level-2 fields) and 8 Gracemont
		 * E-cores in two modules of 4 sharing a 2 MiB L2 (CPUs 16-23; 6
		 * counters, 3 fixed, 5 issue slots a cycle), 30 MiB L3, DDR5-4800 on
		 * two channels (the client's free-running IMC counters).
		 */
		.name = "alderlake",
		.description = "Core i9-12900K (Alder Lake, hybrid): 8 P-cores x 2 threads + 8 E-cores "
			       "in 2 modules, 24 CPUs; Intel's data per core kind through perf",
		.topology = "hybrid: 8 P-cores x 2 threads, 2 E-core modules x 4",
		.brand = "12th Gen Intel(R) Core(TM) i9-12900K",
		.family = 6, .model = 0x97, .stepping = 2,
		.perfmon_version = 5, .gp_counters = 8, .gp_width = 48,
		.fixed_counters = 4, .fixed_width = 48,
		.nominal_ghz = 3.20,
		.slots_width = 6, .perf_metrics = 8,
		.ports = EMU_PORTS_GOLDEN_COVE, /* UOPS_DISPATCHED.PORT_* (emu_model_ports.c) */
		.bw_reads = 4, /* MEM_Bandwidth's OFFCORE_REQUESTS_OUTSTANDING cmask (Intel's metrics) */
		.offcore_events = { 0x2A, 0x2B }, .pebs_frontend = true,
		.default_scenario = "hybrid-split",
		.dram_mts = 4800,
		.srv = EMU_SRV_ADL, .channels = 2,
		.hybrid = &(const struct emu_hybrid){
			.p_cores = 8, .p_threads = 2, .e_modules = 2, .e_per_module = 4,
			.p_l2_mib = 1.25, .e_l2_mib = 2, .l3_mib = 30, .mem_gib = 32,
			.p_mhz = 5200, .e_mhz = 3900,
			.e_gp_counters = 6, .e_fixed_counters = 3, .e_slots_width = 5,
		},
	},
	{
		/*
		 * Core Ultra 7 258V (Lunar Lake, 06_BD): 4 Lion Cove P-cores without
		 * hyper-threading (CPUs 0-3, 2.5 MiB L2 each, the 12 MiB L3; 8 issue
		 * slots a cycle, PERF_METRICS with level 2) and 4 Skymont low-power
		 * E-cores in one module sharing a 4 MiB L2 outside the L3 (CPUs 4-7;
		 * 8 counters, 8 slots); memory on the package (no uncore emulated; RAPL's
		 * power PMU as rapl.c's model_skl).
		 */
		.name = "lunarlake",
		.description = "Core Ultra 7 258V (Lunar Lake, hybrid, no SMT): 4 P-cores + 4 "
			       "low-power E-cores, 8 CPUs; Intel's data per core kind through perf",
		.topology = "hybrid: 4 P-cores, 1 E-core module x 4",
		.brand = "Intel(R) Core(TM) Ultra 7 258V",
		.family = 6, .model = 0xBD, .stepping = 1,
		/* Lion Cove and Skymont: version 6, with the select's UMASK2 and EQ (CPUID 23H) */
		.perfmon_version = 6, .gp_counters = 8, .gp_width = 48,
		.fixed_counters = 4, .fixed_width = 48,
		.nominal_ghz = 2.20,
		.slots_width = 8, .perf_metrics = 8,
		.ports = EMU_PORTS_LION_COVE, /* UOPS_DISPATCHED.ALU/LOAD/STA/STD (emu_model_ports.c) */
		.bw_reads = 4, /* MEM_Bandwidth's OFFCORE_REQUESTS_OUTSTANDING cmask (Intel's metrics) */
		.offcore_events = { 0x2A, 0x2B }, .pebs_frontend = true,
		.default_scenario = "hybrid-lowpower",
		.srv = EMU_SRV_LNL, /* RAPL alone */
		.hybrid = &(const struct emu_hybrid){
			.p_cores = 4, .p_threads = 1, .e_modules = 1, .e_per_module = 4,
			.p_l2_mib = 2.5, .e_l2_mib = 4, .l3_mib = 12, .mem_gib = 32,
			.p_mhz = 4800, .e_mhz = 3700,
			.e_gp_counters = 8, .e_fixed_counters = 3, .e_slots_width = 8,
			.e_skymont = true, .e_beside_l3 = true,
		},
	},
	{
		/*
		 * Core Ultra 9 285H (Arrow Lake-H, 06_C5): 6 Lion Cove P-cores
		 * without hyper-threading (CPUs 0-5, 3 MiB L2 each), 8 Skymont
		 * E-cores in two modules of four sharing a 4 MiB L2 (CPUs 6-13),
		 * the 24 MiB L3 over both; and on the SoC tile two Crestmont
		 * low-power E-cores sharing a 2 MiB L2 outside the L3 (CPUs 14-15),
		 * which Linux counts with a third core PMU, cpu_lowpower (Linux
		 * 6.12's hybrid_tiny; Intel's data: arrowlake_crestmont_core.json,
		 * CoreRole LowPower_Atom).  No uncore emulated.
		 */
		.name = "arrowlake-h",
		.description = "Core Ultra 9 285H (Arrow Lake-H, hybrid): 6 P-cores + 8 E-cores + 2 "
			       "low-power E-cores (cpu_lowpower), 16 CPUs; Intel's data per core kind "
			       "through perf",
		.topology = "hybrid: 6 P-cores, 2 E-core modules x 4, 2 LP-E cores",
		.brand = "Intel(R) Core(TM) Ultra 9 285H",
		.family = 6, .model = 0xC5, .stepping = 2,
		.perfmon_version = 6, .gp_counters = 8, .gp_width = 48,
		.fixed_counters = 4, .fixed_width = 48,
		.nominal_ghz = 2.90,
		.slots_width = 8, .perf_metrics = 8,
		.ports = EMU_PORTS_LION_COVE, /* UOPS_DISPATCHED.ALU/LOAD/STA/STD (emu_model_ports.c) */
		.bw_reads = 4, /* MEM_Bandwidth's OFFCORE_REQUESTS_OUTSTANDING cmask (Intel's metrics) */
		.offcore_events = { 0x2A, 0x2B }, .pebs_frontend = true,
		.default_scenario = "topdown",
		.hybrid = &(const struct emu_hybrid){
			.p_cores = 6, .p_threads = 1, .e_modules = 2, .e_per_module = 4,
			.p_l2_mib = 3, .e_l2_mib = 4, .l3_mib = 24, .mem_gib = 32,
			.p_mhz = 5400, .e_mhz = 4500,
			.e_gp_counters = 8, .e_fixed_counters = 3, .e_slots_width = 8,
			.e_skymont = true,
			.lp_cores = 2, .lp_mhz = 2500, .lp_l2_mib = 2,
		},
	},
	{
		/*
		 * AMD EPYC 9654 (Genoa, family 19h model 11h): 96 cores in 12 CCDs of
		 * one 8-core CCX each (32 MiB L3 per CCX), 12 DDR5-4800 channels per
		 * socket; Linux numbers the first threads of all cores, then their
		 * siblings.  PerfMonV2 with 6 core counters (PPR 19h/11h).
		 */
		.name = "genoa",
		.description = "2 x EPYC 9654 (Genoa, Zen 4): 2 sockets x 12 CCX x 8 cores x 2 "
			       "threads, 12 DDR5 channels per socket; AMD's data through perf",
		.topology = "pack:2 [numa(memory=384GiB)] l3:12(size=32MiB) core:8 "
			    "pu:2(indexes=2*192:1*2)",
		.brand = "AMD EPYC 9654 96-Core Processor",
		.family = 0x19, .model = 0x11, .stepping = 1,
		.gp_counters = 6, .gp_width = 48,
		.nominal_ghz = 2.40,
		.amd = true, .zen = 4, .dispatch_width = 6, .perfmon_v2 = true,
		.default_scenario = "topdown",
		.dram_mts = 4800, .channels = 12,
	},
	{
		/*
		 * AMD Ryzen 9 5950X (Vermeer, family 19h model 21h): 16 cores in two
		 * CCDs of one 8-core CCX each (32 MiB L3 per CCX), 2 DDR4-3200
		 * channels; 6 core counters (PerfCtrExtCore), no PerfMonV2.
		 */
		.name = "vermeer",
		.description = "Ryzen 9 5950X (Vermeer, Zen 3): 1 socket x 2 CCX x 8 cores x 2 "
			       "threads, 2 DDR4 channels; AMD's data through perf",
		.topology = "pack:1 [numa(memory=64GiB)] l3:2(size=32MiB) core:8 "
			    "pu:2(indexes=2*16:1*2)",
		.brand = "AMD Ryzen 9 5950X 16-Core Processor",
		.family = 0x19, .model = 0x21, .stepping = 0,
		.gp_counters = 6, .gp_width = 48,
		.nominal_ghz = 3.40,
		.amd = true, .zen = 3, .dispatch_width = 6,
		.default_scenario = "compute-bound",
		.dram_mts = 3200, .channels = 2,
	},
	{
		/*
		 * The machines we develop on: an EPYC guest whose hypervisor exposes no
		 * PMU (KVM's pmu=off): CPUID says Zen 4 and a hypervisor, without the
		 * core counter extension; the kernel has no cpu PMU.
		 */
		.name = "epyc-vm",
		.description = "an EPYC 9654 (Zen 4) virtual machine whose hypervisor exposes no "
			       "PMU: 1 socket x 4 cores x 2 threads, for the doctor (pmutop --root)",
		.topology = "pack:1 [numa(memory=16GiB)] l3:1(size=32MiB) core:4 "
			    "pu:2(indexes=2*4:1*2)",
		.brand = "AMD EPYC 9654 96-Core Processor",
		.family = 0x19, .model = 0x11, .stepping = 1,
		.nominal_ghz = 2.40,
		.amd = true, .zen = 4, .hypervisor = true, .dispatch_width = 6,
		.default_scenario = "idle",
	},
	{
		.name = "core2",
		.description = "Core 2 Quad Q9650 (Penryn): 1 socket x 4 cores, front-side bus",
		.topology = "pack:1 [numa(memory=8GiB)] l2:2(size=6MiB) core:2 pu:1",
		.brand = "Intel(R) Core(TM)2 Quad CPU    Q9650  @ 3.00GHz",
		.family = 6, .model = 0x17, .stepping = 10,
		.perfmon_version = 2, .gp_counters = 2, .gp_width = 40,
		.fixed_counters = 3, .fixed_width = 40,
		.nominal_ghz = 3.00,
		.default_scenario = "compute-bound",
	},
	{
		.name = "arch",
		.description = "an Intel CPU with architectural perfmon only (v3, 4 x 48-bit "
			       "counters): 1 socket x 4 cores x 2 threads",
		.topology = "pack:1 [numa(memory=32GiB)] l3:1(size=20MiB) core:4 pu:2(indexes=2*4:1*2)",
		.brand = "Intel(R) Xeon(R) CPU E5-2630 v2 @ 2.60GHz",
		.family = 6, .model = 0x3E, .stepping = 4,
		.perfmon_version = 3, .gp_counters = 4, .gp_width = 48,
		.fixed_counters = 3, .fixed_width = 48,
		.nominal_ghz = 2.60,
		.default_scenario = "compute-bound",
	},
	{
		.name = "arch-256",
		.description = "a mid-size architectural-perfmon machine: 2 sockets x 64 cores x 2 "
			       "threads (256 CPUs)",
		.topology = "pack:2 [numa(memory=128GiB)] l3:1(size=64MiB) core:64 pu:2",
		.brand = "Intel(R) Xeon(R) CPU (synthetic, 64 cores) @ 2.00GHz",
		.family = 6, .model = 0x3E, .stepping = 4,
		.perfmon_version = 3, .gp_counters = 4, .gp_width = 48,
		.fixed_counters = 3, .fixed_width = 48,
		.nominal_ghz = 2.00,
		.default_scenario = "compute-bound",
	},
	{
		.name = "arch-1024",
		.description = "a large architectural-perfmon machine to see pmutop scale: 4 sockets x "
			       "128 cores x 2 threads (1024 CPUs)",
		.topology = "pack:4 [numa(memory=256GiB)] l3:1(size=128MiB) core:128 pu:2",
		.brand = "Intel(R) Xeon(R) CPU (synthetic, 128 cores) @ 2.00GHz",
		.family = 6, .model = 0x3E, .stepping = 4,
		.perfmon_version = 3, .gp_counters = 4, .gp_width = 48,
		.fixed_counters = 3, .fixed_width = 48,
		.nominal_ghz = 2.00,
		.default_scenario = "compute-bound",
	},
};

const int emu_nmachines = (int)(sizeof(emu_machines) / sizeof(emu_machines[0]));

const struct emu_machine *emu_machine_find(const char *name)
{
	for (int i = 0; i < emu_nmachines; i++)
		if (strcmp(emu_machines[i].name, name) == 0)
			return &emu_machines[i];
	return NULL;
}

const char *emu_machine_names(void)
{
	static char names[512];

	if (!names[0])
		for (int i = 0; i < emu_nmachines; i++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 i ? ", " : "", emu_machines[i].name);
	return names;
}

/*
 * The event model asks at every counter's rate, so the last answer is kept
 * (a thread's own, keyed by what it depends on: a hybrid's E-core row is a
 * copy, not a row of the table): the CPU map's match parses its rows.
 */
enum cpuid_uarch emu_machine_uarch(const struct emu_machine *m)
{
	static __thread struct emu_uarch_asked {
		bool set, amd;
		unsigned family, model, perfmon_version;
		enum cpuid_uarch ua;
	} last;
	const struct cpumodel *row;

	if (m->core_uarch)
		return m->core_uarch;
	if (last.set && last.amd == m->amd && last.family == m->family && last.model == m->model &&
	    last.perfmon_version == m->perfmon_version)
		return last.ua;
	row = cpumodel_find(m->amd ? CPUID_VENDOR_AMD : CPUID_VENDOR_INTEL, m->family, m->model);
	last = (struct emu_uarch_asked){
		.set = true, .amd = m->amd, .family = m->family, .model = m->model,
		.perfmon_version = m->perfmon_version,
		.ua = row ? row->p->uarch : m->perfmon_version ? CPUID_UARCH_ARCH : CPUID_UARCH_UNKNOWN,
	};
	return last.ua;
}

int emu_machine_offcore_reg(const struct emu_machine *m, unsigned event)
{
	for (int r = 0; r < 2; r++)
		if (event == (m->offcore_events[r] ? m->offcore_events[r] : r ? 0xBBu : 0xB7u))
			return r;
	return -1;
}
