/*
 * emu_model_ports: the execution ports of Ice Lake and later P-cores as
 * Intel's data encodes them (perfmon's icelakex, tigerlake,
 * sapphirerapids, graniterapids and alderlake core event files):
 *
 *   Sunny / Willow Cove  UOPS_DISPATCHED.PORT_0 A1H 01H, PORT_1 02H,
 *                        PORT_2_3 04H, PORT_4_9 10H, PORT_5 20H, PORT_6 40H,
 *                        PORT_7_8 80H ("Number of uops executed on port(s)")
 *   Golden / Redwood     the same at B2H, with PORT_2_3_10 04H and
 *   Cove                 PORT_5_11 20H ("Uops executed on ports ...")
 *   Lion Cove            UOPS_DISPATCHED.ALU B2H 02H, LOAD 04H, STD 10H,
 *                        STA 80H ("Uops executed on ... ports")
 *   Sunny to Redwood     CPU_CLK_UNHALTED.DISTRIBUTED ECH 02H: "Cycle counts
 *                        are evenly distributed between active threads in the
 *                        Core"
 *
 * The scenario gives the shares of the executed uops of the eight ports of
 * Skylake's core (port0 .. port7): ALU ports 0, 1, 5, 6, loads on 2 and 3,
 * store data on 4, store addresses on 7.  The later cores' events name
 * those kinds of port in sets, as Intel's own metrics read them
 * (Load_Op_Utilization: PORT_2_3_10 over 3 ports; Store_Op_Utilization:
 * PORT_4_9 and PORT_7_8 over 4; ALU_Op_Utilization: PORT_0, 1, 5_11, 6
 * over 5): a set counts the uops of the scenario's ports of that kind, each
 * port dispatching at most one a cycle, independently.  The distributed
 * cycles are the thread's turn of each cycle it is unhalted, as the issue
 * slots are shared (slot_share).  Per thread.  Pure functions.
 */
#include "emu_model_int.h"

static const struct {
	enum emu_ports kind;
	unsigned event, umask;
	unsigned scenario_ports; /* bits of the scenario's port0 .. port7 the set counts */
} emu_port_sets[] = {
	{ EMU_PORTS_SUNNY_COVE, 0xA1, 0x01, 1u << 0 },
	{ EMU_PORTS_SUNNY_COVE, 0xA1, 0x02, 1u << 1 },
	{ EMU_PORTS_SUNNY_COVE, 0xA1, 0x04, 1u << 2 | 1u << 3 },
	{ EMU_PORTS_SUNNY_COVE, 0xA1, 0x10, 1u << 4 },
	{ EMU_PORTS_SUNNY_COVE, 0xA1, 0x20, 1u << 5 },
	{ EMU_PORTS_SUNNY_COVE, 0xA1, 0x40, 1u << 6 },
	{ EMU_PORTS_SUNNY_COVE, 0xA1, 0x80, 1u << 7 },
	{ EMU_PORTS_GOLDEN_COVE, 0xB2, 0x01, 1u << 0 },
	{ EMU_PORTS_GOLDEN_COVE, 0xB2, 0x02, 1u << 1 },
	{ EMU_PORTS_GOLDEN_COVE, 0xB2, 0x04, 1u << 2 | 1u << 3 },
	{ EMU_PORTS_GOLDEN_COVE, 0xB2, 0x10, 1u << 4 },
	{ EMU_PORTS_GOLDEN_COVE, 0xB2, 0x20, 1u << 5 },
	{ EMU_PORTS_GOLDEN_COVE, 0xB2, 0x40, 1u << 6 },
	{ EMU_PORTS_GOLDEN_COVE, 0xB2, 0x80, 1u << 7 },
	/* Lion Cove: by kind, ALU 02H, LOAD 04H, STD 10H, STA 80H */
	{ EMU_PORTS_LION_COVE, 0xB2, 0x02, 1u << 0 | 1u << 1 | 1u << 5 | 1u << 6 },
	{ EMU_PORTS_LION_COVE, 0xB2, 0x04, 1u << 2 | 1u << 3 },
	{ EMU_PORTS_LION_COVE, 0xB2, 0x10, 1u << 4 },
	{ EMU_PORTS_LION_COVE, 0xB2, 0x80, 1u << 7 },
};

bool emu_model_ports(const struct emu_machine *m, unsigned event, unsigned umask, const double *v,
		     struct emu_dist *d)
{
	double rate[8], q[8];
	unsigned nq = 0;

	if (m->ports == EMU_PORTS_NONE)
		return false;
	if (event == 0xEC && umask == 0x02 &&
	    (m->ports == EMU_PORTS_SUNNY_COVE || m->ports == EMU_PORTS_GOLDEN_COVE)) {
		/* CPU_CLK_UNHALTED.DISTRIBUTED */
		emu_dist_bernoulli(d, v[SK_slot_share]);
		return true;
	}
	for (size_t i = 0; i < sizeof(emu_port_sets) / sizeof(emu_port_sets[0]); i++) {
		if (emu_port_sets[i].kind != m->ports || emu_port_sets[i].event != event ||
		    emu_port_sets[i].umask != umask)
			continue;
		emu_port_rates(v, 8, rate);
		for (unsigned p = 0; p < 8; p++)
			if (emu_port_sets[i].scenario_ports & (1u << p))
				q[nq++] = emu_clamp01(rate[p]);
		emu_dist_zero(d);
		emu_poisson_binomial(q, nq, d->h);
		return true;
	}
	return false;
}
