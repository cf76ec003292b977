/*
 * emu_model_srv: what the server uncore boxes the kernel's uncore driver
 * counts (CHA, memory channel, UPI link) and RAPL's power PMU count per
 * second per box, from the scenario's socket and channel truth, by the
 * encodings of Intel's data (perfmon's icelakex, sapphirerapids /
 * emeraldrapids and graniterapids uncore event files):
 *
 *   CHA  UNC_CHA_CLOCKTICKS         00H (Skylake-SP, Ice Lake-SP) or 01H, umask 0
 *        UNC_CHA_TOR_INSERTS.IA_MISS_DRD{,_LOCAL,_REMOTE,_DDR}
 *                                   35H umask 01H, UMaskExt C817FEH, C816FEH,
 *                                   C8177EH, C81786H; TOR_OCCUPANCY the same at 36H
 *        UNC_CHA_REQUESTS.READS_LOCAL/_REMOTE, WRITES_LOCAL/_REMOTE
 *                                   50H umask 01H, 02H, 04H, 08H
 *        Skylake-SP's TOR_INSERTS / _OCCUPANCY.IA_MISS_DRD: 35H / 36H umask
 *                                   21H (the cores' misses), FILTER1 40433H
 *                                   (opcode 202H, DRd; local and remote; any
 *                                   memory): FILTER1 in the key above the
 *                                   umask (emu_perf_sched.c); without local
 *                                   or remote the box matches no request
 *   IMC  UNC_M_CAS_COUNT.RD / .WR   04H umask 03H / 0CH (Skylake-SP), 0FH / 30H (Ice Lake-SP), 05H
 *                                   CFH / F0H (Sapphire Rapids); Granite
 *                                   Rapids counts each sub-channel apart:
 *                                   _SCH0 05H, _SCH1 06H, the same umasks
 *        UNC_M_RPQ_INSERTS / _OCCUPANCY  10H / 80H umask 0 (Skylake-SP): a read
 *                                   each, for its imc_read_latency_ns in DRAM clocks
 *        UNC_M_CLOCKTICKS           00H/00H (Skylake-SP, Ice Lake-SP), 01H/01H: the DRAM
 *                                   clock, half the transfer rate (Granite
 *                                   Rapids: a quarter, Intel's description)
 *   UPI  UNC_UPI_TxL_FLITS.ALL_DATA 02H umask 0FH, RxL 03H: data flits, the
 *                                   vendor's metric takes 64/9 bytes each
 *        .NON_DATA umask 97H, .ALL_NULL 27H, .IDLE 47H: protocol and credit,
 *                                   null and idle (LLCTRL) flit slots
 *        UNC_UPI_CLOCKTICKS         01H umask 0: "1/8th the GT/s speed"
 *   CHA  UNC_CHA_TOR_INSERTS.IA_MISS_CXL_ACC, _DRD_CXL_ACC 35H umask 01H,
 *                                   UMaskExt 10C00182H, 10C81782H; the
 *                                   latter's TOR_OCCUPANCY at 36H
 *   power energy-cores event 01H, energy-pkg 02H, energy-ram 03H,
 *                                   energy-gpu 04H: 2^-32 J per count (the
 *                                   kernel's .scale)
 *   uncore_imc_free_running         event FFH, the umasks of Linux's
 *                                   free-running types (emu_srv_imc_free)
 *   uncore_clock                    event FFH: the uncore clock
 *
 * A CHA counts its share of the socket's traffic (1 / the CHAs, or the
 * scenario's hot_cha_share on CHA hot_cha and the rest even); a TOR
 * occupancy is its inserts times their latency in CHA cycles (Little's
 * law).  A UPI link sends its flit slots as the vendor's descriptions
 * have it: each clock one flit of three slots ("count can be 0-3"), every
 * slot data, protocol/credit, null or idle ("every UPI cycle must be
 * sending either data FLITs, protocol/credit FLITs or idle FLITs"): the
 * data 9 slots a 64-byte line, one request header for each line the
 * other way (a protocol flit whose two other slots are null), the rest
 * idle.  Pure functions; see emu_model.h.
 */
#include "emu_model.h"
#include "emu_model_int.h"

#include <math.h>

/* TOR filters of Intel's data (UMaskExt above the umask's 8 bits), and which misses they count. */
enum srv_tor { TOR_ALL, TOR_LOCAL, TOR_REMOTE, TOR_NONE };

static bool emu_srv_tor(const struct emu_machine *m, uint64_t umask, enum srv_tor *which)
{
	if (m->srv == EMU_SRV_SKX) {
		/* the cores' misses (21H) by FILTER1: opcode 0 (202H, DRd), local (bit 1), remote (0) */
		uint64_t f = umask >> 8, opc = f >> 9 & 0x3FF, nm = f >> 4 & 3;
		bool loc = f & 2, rem = f & 1;

		if ((umask & 0xFF) != 0x21 || (f & ~0x7FE33ull) || (f && (opc != 0x202 || nm != 3)))
			return false;
		*which = loc && rem ? TOR_ALL : loc ? TOR_LOCAL : rem ? TOR_REMOTE : TOR_NONE;
		return true;
	}
	switch (umask) {
	case 0xC817FE01: /* IA_MISS_DRD */
	case 0xC8178601: /* IA_MISS_DRD_DDR: every emulated memory is DDR */
		*which = TOR_ALL;
		return true;
	case 0xC816FE01: /* IA_MISS_DRD_LOCAL */
		*which = TOR_LOCAL;
		return true;
	case 0xC8177E01: /* IA_MISS_DRD_REMOTE */
		*which = TOR_REMOTE;
		return true;
	default:
		return false;
	}
}

/* CHA BOX's share of the socket's traffic: even, or the scenario's hot CHA's and the rest even. */
static double emu_srv_cha_share(const double *sock, int box, int nboxes)
{
	double hot = sock[SK_hot_cha_share];

	if (!(hot > 0) || nboxes < 2 || (int)sock[SK_hot_cha] >= nboxes)
		return 1.0 / nboxes;
	return box == (int)sock[SK_hot_cha] ? hot : (1 - hot) / (nboxes - 1);
}

static bool emu_srv_cha(const struct emu_machine *m, unsigned event, uint64_t umask,
			const double *sock, int box, int nboxes, double *per_s)
{
	double share = emu_srv_cha_share(sock, box, nboxes);

	double uclk = sock[SK_uncore_ghz] * 1e9, drd, remote = sock[SK_l3_miss_remote_share];
	double ins[4], ns[4];
	enum srv_tor which;

	if (event == (m->srv == EMU_SRV_ICX || m->srv == EMU_SRV_SKX ? 0x00u : 0x01u) && !umask) {
		*per_s = uclk; /* UNC_CHA_CLOCKTICKS: each CHA's own */
		return true;
	}
	if (event == 0x50 && umask && !(umask & ~0x0Full)) { /* UNC_CHA_REQUESTS */
		*per_s = ((umask & 1) ? sock[SK_local_reads_per_s] : 0) +
			 ((umask & 2) ? sock[SK_remote_reads_per_s] : 0) +
			 ((umask & 4) ? sock[SK_local_writes_per_s] : 0) +
			 ((umask & 8) ? sock[SK_remote_writes_per_s] : 0);
		*per_s *= share;
		return true;
	}
	/* the cores' misses to CXL memory: every one (inserts only), and the demand reads */
	if ((event == 0x35 && umask == 0x10C0018201ull) ||
	    ((event == 0x35 || event == 0x36) && umask == 0x10C8178201ull)) {
		bool all = umask == 0x10C0018201ull;
		double lines = sock[all ? SK_cxl_miss_lines_per_s : SK_cxl_read_lines_per_s];

		if (all && lines < sock[SK_cxl_read_lines_per_s])
			lines = sock[SK_cxl_read_lines_per_s];
		*per_s = (event == 0x35 ? lines : lines * sock[SK_cxl_read_latency_ns] * 1e-9 * uclk) *
			 share;
		return true;
	}
	if ((event != 0x35 && event != 0x36) || !emu_srv_tor(m, umask, &which))
		return false;
	drd = sock[SK_l3_miss_lines_per_s] * sock[SK_l3_miss_drd_share];
	ins[TOR_LOCAL] = drd * (1 - remote);
	ins[TOR_REMOTE] = drd * remote;
	ins[TOR_ALL] = drd;
	ins[TOR_NONE] = 0;
	/* a local miss waits for the local DRAM's read (the scenario's read latency, which the
	 * home measures); a remote one for the remote tracker's */
	ns[TOR_LOCAL] = sock[SK_read_latency_ns];
	ns[TOR_REMOTE] = sock[SK_remote_read_latency_ns];
	ns[TOR_NONE] = 0;
	/* occupancy: each insert stays its latency, counted every CHA cycle */
	if (event == 0x35)
		*per_s = ins[which];
	else if (which == TOR_ALL)
		*per_s = (ins[TOR_LOCAL] * ns[TOR_LOCAL] + ins[TOR_REMOTE] * ns[TOR_REMOTE]) * 1e-9 * uclk;
	else
		*per_s = ins[which] * ns[which] * 1e-9 * uclk;
	*per_s *= share;
	return true;
}

/*
 * A channel's DRAM clock (the vendor's UNC_M_CLOCKTICKS, Ice Lake-SP's fixed
 * DCLK): half the transfer rate; Granite Rapids' "DCLK is 1/4 of DRAM data
 * rate" (Intel's description).  Sapphire and Granite Rapids' HCLK (umask 00H,
 * the kernel's clockticks) has no rate in the sources: not modelled.
 */
static double emu_srv_dclk(const struct emu_machine *m)
{
	return m->dram_mts * 1e6 / (m->srv == EMU_SRV_GNR ? 4 : 2);
}

static bool emu_srv_mc(const struct emu_machine *m, unsigned event, uint64_t umask,
		       const double *chan, double *per_s)
{
	bool skx = m->srv == EMU_SRV_SKX, old = skx || m->srv == EMU_SRV_ICX;
	unsigned cas = old ? 0x04 : 0x05;
	uint64_t rd = skx ? 0x03 : old ? 0x0F : 0xCF, wr = skx ? 0x0C : old ? 0x30 : 0xF0;
	/* Granite Rapids: 05H and 06H each count one sub-channel, half the channel's lines */
	double part = m->srv == EMU_SRV_GNR ? 0.5 : 1;

	if (old ? (event == 0x00 && !umask) : (event == 0x01 && umask == 0x01)) {
		*per_s = emu_srv_dclk(m);
		return true;
	}
	/* Skylake-SP's read pending queue: a read each, waiting its latency in the IMC (Little's law) */
	if (skx && (event == 0x10 || event == 0x80) && !umask) {
		*per_s = chan[SK_read_lines_per_s] *
			 (event == 0x10 ? 1 : chan[SK_imc_read_latency_ns] * 1e-9 * emu_srv_dclk(m));
		return true;
	}
	if (event != cas && !(m->srv == EMU_SRV_GNR && event == 0x06))
		return false;
	if (umask == rd)
		*per_s = chan[SK_read_lines_per_s] * part;
	else if (umask == wr)
		*per_s = chan[SK_write_lines_per_s] * part;
	else
		return false;
	return true;
}

/*
 * A controller's free-running counters (CHAN: the socket's channels summed,
 * the box's share of them): Tiger and Alder Lake's data_total, data_read,
 * data_write (umask 10H, 20H, 30H); Ice Lake-SP's dclk, read, write (10H,
 * 20H, 21H; no DDR-T here); Sapphire Rapids' dclk (10H; rpq_cycles and
 * wpq_cycles, the queues' cycles, are not modelled).
 */
static bool emu_srv_imc_free(const struct emu_machine *m, uint64_t umask, const double *chan,
			     int nboxes, double *per_s)
{
	double rd = chan[SK_read_lines_per_s] / nboxes, wr = chan[SK_write_lines_per_s] / nboxes;

	if (umask == 0x10) {
		*per_s = emu_machine_client(m) ? rd + wr : emu_srv_dclk(m);
		return true;
	}
	if (umask == 0x20 && m->srv != EMU_SRV_SPR) {
		*per_s = rd;
		return true;
	}
	if (umask == (emu_machine_client(m) ? 0x30u : 0x21u) && m->srv != EMU_SRV_SPR) {
		*per_s = wr;
		return true;
	}
	return false;
}

/* A UPI link's clock and its flit slots sent (TxL, 02H) or received (RxL, 03H), per second. */
static bool emu_srv_upi(const struct emu_machine *m, unsigned event, uint64_t umask,
			const double *sock, int nboxes, double *per_s)
{
	double clk = m->upi_gts * 1e9 / 8, slots = 3 * clk, data, proto, null, idle;
	bool tx = event == 0x02;

	if (event == 0x01 && !umask) {
		*per_s = clk; /* UNC_UPI_CLOCKTICKS: each link's own */
		return true;
	}
	if (event != 0x02 && event != 0x03)
		return false;
	/* this direction's data lines, 9 slots each; a request header for each line coming back */
	data = sock[tx ? SK_upi_tx_bytes_per_s : SK_upi_rx_bytes_per_s] * 9.0 / 64.0 / nboxes;
	proto = sock[tx ? SK_upi_rx_bytes_per_s : SK_upi_tx_bytes_per_s] / 64.0 / nboxes;
	null = 2 * proto;
	if (data + proto + null > slots) { /* a scenario past the link's speed: the link is full */
		double k = slots / (data + proto + null);

		data *= k;
		proto *= k;
		null *= k;
	}
	idle = slots - data - proto - null;
	switch (umask) {
	case 0x0F: /* ALL_DATA */
		*per_s = data;
		return true;
	case 0x97: /* NON_DATA: protocol headers and credits */
		*per_s = proto;
		return true;
	case 0x27: /* ALL_NULL */
		*per_s = null;
		return true;
	case 0x47: /* IDLE (LLCTRL) */
		*per_s = idle;
		return true;
	default:
		return false;
	}
}

bool emu_model_srv(const struct emu_machine *m, enum emu_srv_unit unit, unsigned event,
		   uint64_t umask, const double *sock, const double *chan, int box, int nboxes,
		   double *per_s)
{
	*per_s = 0;
	if (nboxes < 1)
		return false;
	switch (unit) {
	case EMU_UNIT_CHA:
		return emu_srv_cha(m, event, umask, sock, box, nboxes, per_s);
	case EMU_UNIT_MC:
		return chan && emu_srv_mc(m, event, umask, chan, per_s);
	case EMU_UNIT_UPI:
		return emu_srv_upi(m, event, umask, sock, nboxes, per_s);
	case EMU_UNIT_POWER:
		/*
		 * cores, package, DRAM; the graphics (04H) idle; psys (05H): what the
		 * scenario's platform_watts says this package reads (the master's the
		 * platform's, the others' 0)
		 */
		if (umask || event < 0x01 || event > 0x05)
			return false;
		*per_s = event == 0x04 ? 0 : sock[event == 0x02 ? SK_package_watts : event == 0x03
			 ? SK_dram_watts : event == 0x05 ? SK_platform_watts : SK_cores_watts] *
			 4294967296.0;
		return true;
	case EMU_UNIT_IMC_FREE:
		return event == 0xFF && chan && emu_srv_imc_free(m, umask, chan, nboxes, per_s);
	case EMU_UNIT_CLOCK:
		/* a client's uncore clock box (event FFH): the ring's clock */
		if (event != 0xFF)
			return false;
		*per_s = sock[SK_uncore_ghz] * 1e9;
		return true;
	case EMU_UNIT_OTHER:
		return false;
	case EMU_UNIT_CSTATE_CORE:
	case EMU_UNIT_CSTATE_PKG:
		/*
		 * The residency MSRs count at the TSC's rate while in the state
		 * (SDM Vol. 4); c6-residency is event 02H in both PMUs (cstate.c).
		 * A core box counts its own core's (emu_cstate_core_count: the
		 * socket's mean spread by how idle each core is; not here); the
		 * other states are not modelled (listed as such).
		 */
		if (umask || event != 0x02)
			return false;
		*per_s = sock[unit == EMU_UNIT_CSTATE_CORE ? SK_core_c6_share : SK_pkg_c6_share] *
			 m->nominal_ghz * 1e9;
		return true;
	case EMU_UNIT_AMD_L3:
	case EMU_UNIT_AMD_DF:
	case EMU_UNIT_AMD_UMC:
		return emu_model_amd_uncore(m, unit, event, umask, sock, chan, nboxes, per_s);
	}
	return false;
}
