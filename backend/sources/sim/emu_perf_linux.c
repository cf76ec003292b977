/*
 * emu_perf_linux: the kernel's facts the emulated kernel follows, one table
 * per driver, each naming the driver and the kernel version it was read
 * from: the uncore PMUs Linux registers on each emulated platform (their
 * names, how many boxes, counters, format fields and events/ aliases with
 * their .scale and .unit) and RAPL's power events.  Written from the
 * drivers' own tables (the DEFINE_UNCORE_FORMAT_ATTR lines, the
 * *_formats_attr lists, the INTEL_UNCORE_EVENT_DESC lists, the
 * intel_uncore_type num_boxes), never from pmutop's encodings.  The builder
 * is emu_perf_srv.c.  See emu_perf_int.h.
 */
#include "emu_perf_int.h"
#include "emu_machine.h"
#include "emu_model.h"

#include <stddef.h>

#define MIB_PER_LINE 6.103515625e-5 /* the drivers' .scale of a 64-byte count in MiB */
#define RAPL_SCALE 2.3283064365386962890625e-10 /* rapl.c: 2^-32 J a count */

/* ---- arch/x86/events/intel/uncore_snbep.c ----------------------------------- */

/* DEFINE_UNCORE_FORMAT_ATTR of uncore_snbep.c, by the driver's variable names */
#define F_EVENT { "event", "config:0-7" }
#define F_UMASK { "umask", "config:8-15" }
#define F_UMASK_EXT2 { "umask", "config:8-15,32-57" }
#define F_UMASK_EXT4 { "umask", "config:8-15,32-55" }
#define F_UMASK_EXT5 { "umask", "config:8-15,32-63" }
#define F_EDGE { "edge", "config:18" }
#define F_TID_EN { "tid_en", "config:19" }
#define F_TID_EN2 { "tid_en", "config:16" }
#define F_INV { "inv", "config:23" }
#define F_THRESH8 { "thresh", "config:24-31" }
#define F_FILTER_TID5 { "filter_tid", "config1:0-9" }
#define F_UMASK_EXT { "umask", "config:8-15,32-43,45-55" }

/*
 * skx_uncore_cha_formats_attr: filter_tid4, filter_state5 and FILTER1's
 * fields (config1's high half: filter_rem, _loc, _all_op, _nm, _not_nm,
 * _opc0, _opc1, _nc, _isoc)
 */
static const struct ek_field skx_cha_formats[] = {
	F_EVENT, F_UMASK, F_EDGE, F_TID_EN, F_INV, F_THRESH8, { "filter_tid", "config1:0-8" },
	{ "filter_state", "config1:17-26" }, { "filter_rem", "config1:32" },
	{ "filter_loc", "config1:33" }, { "filter_nm", "config1:36" },
	{ "filter_all_op", "config1:35" }, { "filter_not_nm", "config1:37" },
	{ "filter_opc0", "config1:41-50" }, { "filter_opc1", "config1:51-60" },
	{ "filter_nc", "config1:62" }, { "filter_isoc", "config1:63" }, { 0 },
};
/* skx_upi_uncore_formats_attr */
static const struct ek_field skx_upi_formats[] = {
	F_EVENT, F_UMASK_EXT, F_EDGE, F_INV, F_THRESH8, { 0 },
};
/* snr_uncore_cha_formats_attr (Ice Lake-SP's CHA: icx_uncore_chabox) */
static const struct ek_field snr_cha_formats[] = {
	F_EVENT, F_UMASK_EXT2, F_EDGE, F_TID_EN, F_INV, F_THRESH8, F_FILTER_TID5, { 0 },
};
/* skx_uncore_formats_attr (icx_uncore_imc) */
static const struct ek_field skx_formats[] = {
	F_EVENT, F_UMASK, F_EDGE, F_INV, F_THRESH8, { 0 },
};
/* icx_upi_uncore_formats_attr */
static const struct ek_field icx_upi_formats[] = {
	F_EVENT, F_UMASK_EXT4, F_EDGE, F_INV, F_THRESH8, { 0 },
};
/* spr_uncore_cha_formats_attr: umask_ext5 (Linux 6.9; 6.1-6.8 had umask_ext4), tid_en2 */
static const struct ek_field spr_cha_formats[] = {
	F_EVENT, F_UMASK_EXT5, F_TID_EN2, F_EDGE, F_INV, F_THRESH8, F_FILTER_TID5, { 0 },
};
/* spr_uncore_raw_formats_attr (SPR_UNCORE_COMMON_FORMAT: imc, upi, m2m, ...) */
static const struct ek_field spr_raw_formats[] = {
	F_EVENT, F_UMASK_EXT4, F_EDGE, F_INV, F_THRESH8, { 0 },
};
/* skx_uncore_iio_freerunning_formats_attr; uncore_snb.c's tgl_uncore_imc_formats_attr alike */
static const struct ek_field freerunning_formats[] = { F_EVENT, F_UMASK, { 0 } };

/* hswep_uncore_imc_events (skx_uncore_imc) */
static const struct ek_event_desc hswep_imc_events[] = {
	{ "clockticks", "event=0x00,umask=0x00", 0, NULL },
	{ "cas_count_read", "event=0x04,umask=0x03", MIB_PER_LINE, "MiB" },
	{ "cas_count_write", "event=0x04,umask=0x0c", MIB_PER_LINE, "MiB" },
	{ 0 },
};
/* snr_uncore_imc_events (icx_uncore_imc) */
static const struct ek_event_desc snr_imc_events[] = {
	{ "clockticks", "event=0x00,umask=0x00", 0, NULL },
	{ "cas_count_read", "event=0x04,umask=0x0f", MIB_PER_LINE, "MiB" },
	{ "cas_count_write", "event=0x04,umask=0x30", MIB_PER_LINE, "MiB" },
	{ 0 },
};
/* icx_uncore_imc_freerunning_events */
static const struct ek_event_desc icx_imc_free_events[] = {
	{ "dclk", "event=0xff,umask=0x10", 0, NULL },
	{ "read", "event=0xff,umask=0x20", MIB_PER_LINE, "MiB" },
	{ "write", "event=0xff,umask=0x21", MIB_PER_LINE, "MiB" },
	{ "ddrt_read", "event=0xff,umask=0x30", MIB_PER_LINE, "MiB" },
	{ "ddrt_write", "event=0xff,umask=0x31", MIB_PER_LINE, "MiB" },
	{ 0 },
};
/* spr_uncore_imc_events: clockticks is the vendor's UNC_M_HCLOCKTICKS (01H, umask 00H) */
static const struct ek_event_desc spr_imc_events[] = {
	{ "clockticks", "event=0x01,umask=0x00", 0, NULL },
	{ "cas_count_read", "event=0x05,umask=0xcf", MIB_PER_LINE, "MiB" },
	{ "cas_count_write", "event=0x05,umask=0xf0", MIB_PER_LINE, "MiB" },
	{ 0 },
};
/* spr_uncore_imc_freerunning_events */
static const struct ek_event_desc spr_imc_free_events[] = {
	{ "dclk", "event=0xff,umask=0x10", 0, NULL },
	{ "rpq_cycles", "event=0xff,umask=0x20", 0, NULL },
	{ "wpq_cycles", "event=0xff,umask=0x21", 0, NULL },
	{ 0 },
};
/*
 * gnr_uncore_imc_events (commit 6a8a48644c4b, Linux 7.0 and the stable
 * kernels it went to, 6.12.y among them): two command schedulers a channel,
 * each counted apart; before it Granite Rapids had SPR's cas_count_read,
 * which counts scheduler 0 only
 */
static const struct ek_event_desc gnr_imc_events[] = {
	{ "clockticks", "event=0x01,umask=0x00", 0, NULL },
	{ "cas_count_read_sch0", "event=0x05,umask=0xcf", MIB_PER_LINE, "MiB" },
	{ "cas_count_read_sch1", "event=0x06,umask=0xcf", MIB_PER_LINE, "MiB" },
	{ "cas_count_write_sch0", "event=0x05,umask=0xf0", MIB_PER_LINE, "MiB" },
	{ "cas_count_write_sch1", "event=0x06,umask=0xf0", MIB_PER_LINE, "MiB" },
	{ 0 },
};

/*
 * Skylake-SP: skx_msr_uncores (cha, its count from CAPID6), skx_pci_uncores (imc:
 * 6 boxes, a channel each; upi: 3)
 */
static const struct ek_type skx_types[] = {
	{ "cha", EMU_UNIT_CHA, EK_BOXES_CHAS, 4, skx_cha_formats, NULL },
	{ "imc", EMU_UNIT_MC, EK_BOXES_CHANNELS, 4, skx_formats, hswep_imc_events },
	{ "upi", EMU_UNIT_UPI, EK_BOXES_LINKS, 4, skx_upi_formats, NULL },
	{ 0 },
};
/*
 * Ice Lake-SP: icx_msr_uncores (cha, its count from CAPID6/7), icx_mmio_uncores
 * (imc: 12 boxes, three a controller; imc_free_running: 4), icx_pci_uncores (upi: 3)
 */
static const struct ek_type icx_types[] = {
	{ "cha", EMU_UNIT_CHA, EK_BOXES_CHAS, 4, snr_cha_formats, NULL },
	{ "imc", EMU_UNIT_MC, EK_BOXES_CHANNELS, 4, skx_formats, snr_imc_events },
	{ "imc_free_running", EMU_UNIT_IMC_FREE, EK_BOXES_CONTROLLERS, 0, freerunning_formats,
	  icx_imc_free_events },
	{ "upi", EMU_UNIT_UPI, EK_BOXES_LINKS, 4, icx_upi_formats, NULL },
	{ 0 },
};
/* Sapphire Rapids: spr_uncores from the discovery table (cha, imc), spr_upi, imc_free_running */
static const struct ek_type spr_types[] = {
	{ "cha", EMU_UNIT_CHA, EK_BOXES_CHAS, 4, spr_cha_formats, NULL },
	{ "imc", EMU_UNIT_MC, EK_BOXES_CHANNELS, 4, spr_raw_formats, spr_imc_events },
	/* num_boxes: the imc boxes' highest id + 1, over 2 (spr_uncore_mmio_init) */
	{ "imc_free_running", EMU_UNIT_IMC_FREE, EK_BOXES_CONTROLLERS, 0, freerunning_formats,
	  spr_imc_free_events },
	{ "upi", EMU_UNIT_UPI, EK_BOXES_LINKS, 4, spr_raw_formats, NULL },
	{ 0 },
};
/* Granite Rapids: gnr_uncores (spr_uncore_chabox, gnr_uncore_imc, gnr_uncore_upi); no free-running imc */
static const struct ek_type gnr_types[] = {
	{ "cha", EMU_UNIT_CHA, EK_BOXES_CHAS, 4, spr_cha_formats, NULL },
	{ "imc", EMU_UNIT_MC, EK_BOXES_CHANNELS, 4, spr_raw_formats, gnr_imc_events },
	{ "upi", EMU_UNIT_UPI, EK_BOXES_LINKS, 4, spr_raw_formats, NULL },
	{ 0 },
};

/* ---- arch/x86/events/intel/uncore_snb.c ------------------------------------- */

/* snb_uncore_formats_attr (cmask5), adl_uncore_formats_attr (threshold), adl_uncore_imc_formats_attr */
static const struct ek_field snb_formats[] = {
	F_EVENT, F_UMASK, F_EDGE, F_INV, { "cmask", "config:24-28" }, { 0 },
};
static const struct ek_field adl_formats[] = {
	F_EVENT, F_UMASK, F_EDGE, F_INV, { "threshold", "config:24-29" }, { 0 },
};
static const struct ek_field adl_imc_formats[] = {
	F_EVENT, { "chmask", "config:8-11" }, F_EDGE, { 0 },
};
/* icl_uncore_clock_formats_attr */
static const struct ek_field clock_formats[] = { F_EVENT, { 0 } };

/* icl_uncore_events (the clock box's); tgl_uncore_imc_events (Tiger and Alder Lake's free-running) */
static const struct ek_event_desc icl_clock_events[] = { { "clockticks", "event=0xff", 0, NULL }, { 0 } };
static const struct ek_event_desc tgl_imc_free_events[] = {
	{ "data_total", "event=0xff,umask=0x10", MIB_PER_LINE, "MiB" },
	{ "data_read", "event=0xff,umask=0x20", MIB_PER_LINE, "MiB" },
	{ "data_write", "event=0xff,umask=0x30", MIB_PER_LINE, "MiB" },
	{ 0 },
};

/*
 * Tiger Lake: tgl_msr_uncores (icl_uncore_cbox: 2 counters, its count from
 * MSR_UNC_CBO_CONFIG; snb_uncore_arb; icl_uncore_clockbox) and
 * tgl_mmio_uncores (tgl_uncore_imc_free_running: 2 boxes)
 */
static const struct ek_type tgl_types[] = {
	{ "cbox", EMU_UNIT_OTHER, EK_BOXES_CBOS, 2, snb_formats, NULL },
	{ "arb", EMU_UNIT_OTHER, EK_BOXES_ONE, 2, snb_formats, NULL },
	{ "clock", EMU_UNIT_CLOCK, EK_BOXES_ONE, 1, clock_formats, icl_clock_events },
	{ "imc_free_running", EMU_UNIT_IMC_FREE, EK_BOXES_TWO, 0, freerunning_formats,
	  tgl_imc_free_events },
	{ 0 },
};
/* Alder Lake: adl_msr_uncores (cbox, arb: 2 boxes, clock), adl_mmio_uncores (imc: 2, imc_free_running: 2) */
static const struct ek_type adl_types[] = {
	{ "cbox", EMU_UNIT_OTHER, EK_BOXES_CBOS, 2, adl_formats, NULL },
	{ "arb", EMU_UNIT_OTHER, EK_BOXES_TWO, 2, snb_formats, NULL },
	{ "clock", EMU_UNIT_CLOCK, EK_BOXES_ONE, 1, clock_formats, icl_clock_events },
	{ "imc", EMU_UNIT_OTHER, EK_BOXES_TWO, 5, adl_imc_formats, NULL },
	{ "imc_free_running", EMU_UNIT_IMC_FREE, EK_BOXES_TWO, 0, freerunning_formats,
	  tgl_imc_free_events },
	{ 0 },
};

/* ---- arch/x86/events/rapl.c -------------------------------------------------- */

/* RAPL_EVENT_ATTR_STR: energy-cores 01H (PP0), -pkg 02H, -ram 03H, -gpu 04H (PP1), -psys 05H */
#define E_CORES { "energy-cores", "event=0x01", RAPL_SCALE, "Joules" }
#define E_PKG { "energy-pkg", "event=0x02", RAPL_SCALE, "Joules" }
#define E_RAM { "energy-ram", "event=0x03", RAPL_SCALE, "Joules" }
#define E_GPU { "energy-gpu", "event=0x04", RAPL_SCALE, "Joules" }
#define E_PSYS { "energy-psys", "event=0x05", RAPL_SCALE, "Joules" }

/* model_hsx (SKYLAKE_X, ICELAKE_X): PKG, RAM */
static const struct ek_event_desc rapl_hsx[] = { E_PKG, E_RAM, { 0 } };
/*
 * model_spr (SAPPHIRERAPIDS_X, EMERALDRAPIDS_X, GRANITERAPIDS_X): PP0, PKG,
 * RAM, PSYS, PSYS listed whatever it reads (no_check); perf_msr_probe hides
 * PP0, which these parts leave at zero
 */
static const struct ek_event_desc rapl_spr[] = { E_PKG, E_RAM, E_PSYS, { 0 } };
/* model_skl (TIGERLAKE_L, ALDERLAKE, LUNARLAKE_M): PP0, PKG, RAM, PP1, PSYS; a client's RAM domain reads zero */
static const struct ek_event_desc rapl_skl[] = { E_CORES, E_PKG, E_GPU, E_PSYS, { 0 } };
/* model_amd_hygon: PKG */
static const struct ek_event_desc rapl_amd[] = { E_PKG, { 0 } };

/* ---- the drivers' tables, by platform ---------------------------------------- */

const struct ek_driver ek_drivers[] = {
	/* rapl.c: Skylake-SP's model_hsx, as Ice Lake-SP's */
	{ EMU_SRV_SKX, "arch/x86/events/intel/uncore_snbep.c", "Linux 6.12", skx_types, rapl_hsx },
	{ EMU_SRV_ICX, "arch/x86/events/intel/uncore_snbep.c", "Linux 6.12", icx_types, rapl_hsx },
	{ EMU_SRV_SPR, "arch/x86/events/intel/uncore_snbep.c", "Linux 6.12 (the CHA's umask_ext5 "
	  "from 6.9)", spr_types, rapl_spr },
	{ EMU_SRV_GNR, "arch/x86/events/intel/uncore_snbep.c", "Linux 7.0 (6a8a48644c4b: the "
	  "per-scheduler CAS counts; in 6.12.y)", gnr_types, rapl_spr },
	{ EMU_SRV_TGL, "arch/x86/events/intel/uncore_snb.c", "Linux 6.12", tgl_types, rapl_skl },
	{ EMU_SRV_ADL, "arch/x86/events/intel/uncore_snb.c", "Linux 6.12", adl_types, rapl_skl },
	{ EMU_SRV_AMD, "arch/x86/events/amd/uncore.c", "Linux 6.12", NULL, rapl_amd },
	/* Lunar Lake: rapl.c's model_skl; its uncore (uncore_snb.c's lnl_uncores) is not emulated */
	{ EMU_SRV_LNL, "arch/x86/events/rapl.c", "Linux 6.12", NULL, rapl_skl },
	{ EMU_SRV_NONE, NULL, NULL, NULL, NULL },
};

const struct ek_driver *ek_driver_of(int srv)
{
	for (const struct ek_driver *d = ek_drivers; d->driver; d++)
		if (d->srv == srv)
			return d;
	return NULL;
}

/* ---- arch/x86/events/amd/uncore.c -------------------------------------------- */

/*
 * amd_uncore_l3_format_attr: family 17h and later event8 and umask8 with
 * threadmask8 (17h, 18h) or threadmask2 (19h on), and the family's own
 * (amd_f17h_uncore_l3_format_attr: slicemask; amd_f19h_: coreid,
 * enallslices, enallcores, sliceid); amd_uncore_df_format_attr: event12 and
 * umask8, event14 from family 17h, event14v2 and umask12 with PerfMonV2;
 * amd_uncore_umc_format_attr: event8, rdwrmask
 */
static const struct ek_field amd_l3_f17h[] = {
	{ "event", "config:0-7" }, { "umask", "config:8-15" }, { "threadmask", "config:56-63" },
	{ "slicemask", "config:48-51" }, { 0 },
};
static const struct ek_field amd_l3_f19h[] = {
	{ "event", "config:0-7" }, { "umask", "config:8-15" }, { "threadmask", "config:56-57" },
	{ "coreid", "config:42-44" }, { "enallslices", "config:46" }, { "enallcores", "config:47" },
	{ "sliceid", "config:48-50" }, { 0 },
};
static const struct ek_field amd_df_f17h[] = {
	{ "event", "config:0-7,32-35,59-60" }, { "umask", "config:8-15" }, { 0 },
};
static const struct ek_field amd_df_v2[] = {
	{ "event", "config:0-7,32-37" }, { "umask", "config:8-15,24-27" }, { 0 },
};
static const struct ek_field amd_umc[] = {
	{ "event", "config:0-7" }, { "rdwrmask", "config:8-9" }, { 0 },
};

const struct ek_field *ek_amd_formats(int unit, unsigned family, bool perfmon_v2)
{
	switch (unit) {
	case EMU_UNIT_AMD_L3:
		return family >= 0x19 ? amd_l3_f19h : amd_l3_f17h;
	case EMU_UNIT_AMD_DF:
		return perfmon_v2 ? amd_df_v2 : amd_df_f17h;
	case EMU_UNIT_AMD_UMC:
		return amd_umc;
	default:
		return NULL;
	}
}
