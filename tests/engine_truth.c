/*
 * engine_truth: the cores' truth of the engine's Check programs
 * (engine_run.h): each metric of the shipped layouts from the scenario's
 * quantities and the documents' definitions, the hyper-threads sharing
 * their core as the scenario README says, and the check of a sample
 * against it.
 */
#include "engine_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "cpuid.h"
#include "emu.h"
#include "emu_perf.h"
#include "engine.h"
#include "layout.h"
#include "msr.h"
#include "msr_source.h"
#include "pmu_regs.h"
#include "source_int.h"

/* ---- truth --------------------------------------------------------------- */

/*
 * Hyper-threads as the scenario README describes them: a thread's numbers
 * are what it does with the core to itself; while its siblings run (each
 * its util, independently) the threads' summed asks on a shared resource
 * (issue cycles: one thread per cycle; a port: one uop per cycle; the
 * divider: busy every cycle), when above 1, slow each of them down by that
 * factor, and a thread asking one port alone for more than a uop a cycle is
 * slowed by its own ask.  V[0..N-1] the core's threads; SELF's effective
 * truth into OUT.
 */
void truth_hyperthreads(const struct run *r, double (*v)[SK_COUNT], int n, int self,
			       double *out)
{
	int nports = is_skylake(r) ? 8 : 6;
	double ask_all = 1, ask_self = 1, others_halted = 1, pace;

	for (int res = -2; res < nports; res++) {
		double sum = 0;

		for (int i = 0; i < n; i++) {
			double ask = res == -2 ? 1 - v[i][SK_issue_stall]
				   : res == -1 ? v[i][SK_div_busy] : port_rate(v[i], res, nports);

			if (v[i][SK_util] > 0)
				sum += ask;
			if (i == self)
				ask_self = fmax(ask_self, ask);
		}
		ask_all = fmax(ask_all, sum);
	}
	for (int i = 0; i < n; i++)
		if (i != self)
			others_halted *= 1 - v[i][SK_util];
	pace = others_halted / ask_self + (1 - others_halted) / fmax(ask_all, ask_self);
	memcpy(out, v[self], sizeof(double) * SK_COUNT);
	out[SK_ipc] *= pace;
	out[SK_div_busy] *= pace;
	out[SK_issue_stall] = 1 - (1 - out[SK_issue_stall]) * pace;
	out[SK_exec_stall] = 1 - (1 - out[SK_exec_stall]) * pace;
	out[SK_retire_stall] = 1 - (1 - out[SK_retire_stall]) * pace;
	/*
	 * the issue slots: the threads unhalted in a cycle take equal turns, so a
	 * thread beside k busy siblings has 1 / (1 + k) of them; its expectation
	 * over the siblings' independent utilisations
	 */
	{
		double share = 0;

		for (unsigned mask = 0; mask < (1u << n); mask++) {
			double p = 1;
			int busy = 0;

			if (mask & (1u << self))
				continue;
			for (int i = 0; i < n; i++)
				if (i != self) {
					p *= mask & (1u << i) ? v[i][SK_util] : 1 - v[i][SK_util];
					busy += !!(mask & (1u << i));
				}
			share += p / (1 + busy);
		}
		out[SK_slot_share] = share;
	}
}

/* Share of cycles a thread with (effective) truth V issues uops: seed 000's UOPS_ISSUED:c=1. */
double issue_share(const double *v)
{
	return 1 - stall_bound(v[SK_issue_stall], uops_retired(v) * v[SK_issue_ratio] *
				  (1 - v[SK_fused_share]));
}

/*
 * The effective truth of CPU (OS number) at time T beside its hyper-thread
 * siblings; SIB_ISSUE (or NULL) gets the siblings' issue cycles per second
 * of time over its cycle rate's unit (sum of util x issue share).
 */
void truth_cpu_at(const struct run *r, int cpu, int socket, double t, double *v,
		  double *sib_issue)
{
	const struct topo *topo = r->src->topo;
	double all[8][SK_COUNT], eff[SK_COUNT];
	int n = 0, self = 0;

	for (int i = 0; i < topo->nthreads; i++) {
		const struct topo_thread *th = &topo->threads[i];

		if (th->os_cpu != cpu)
			continue;
		for (int k = 0; k < topo->cores[th->core].nthreads && n < 8; k++) {
			int other = topo->threads[topo->cores[th->core].thread_first + k].os_cpu;

			if (other == cpu)
				self = n;
			scenario_eval_one(emu_scenario(r->src->emu), t, SCENARIO_CPU, other, socket,
					  all[n++]);
		}
	}
	truth_hyperthreads(r, all, n, self, v);
	if (sib_issue) {
		*sib_issue = 0;
		for (int i = 0; i < n; i++)
			if (i != self) {
				truth_hyperthreads(r, all, n, i, eff);
				*sib_issue += eff[SK_util] * issue_share(eff);
			}
	}
}

/* The truth of CPU (OS number) on SOCKET averaged over the last interval (SIB_ISSUE likewise). */
void truth_cpu_sib(const struct run *r, int cpu, int socket, double *v, double *sib_issue)
{
	const int n = 200;
	double one[SK_COUNT], sib;

	memset(v, 0, sizeof(double) * SK_COUNT);
	*sib_issue = 0;
	for (int i = 0; i < n; i++) {
		double t = r->t_start + (r->t - r->t_start) * (i + 0.5) / n;

		truth_cpu_at(r, cpu, socket, t, one, &sib);
		for (int k = 0; k < SK_COUNT; k++)
			v[k] += one[k] / n;
		*sib_issue += sib / n;
	}
}

void truth_cpu(const struct run *r, int cpu, int socket, double *v)
{
	double sib;

	truth_cpu_sib(r, cpu, socket, v, &sib);
}

double ghz_of(const struct run *r, const double *v)
{
	return v[SK_ghz] > 0 ? v[SK_ghz] : emu_machine(r->src->emu)->nominal_ghz;
}

double uops_retired(const double *v)
{
	return v[SK_ipc] * v[SK_uops_per_inst];
}

/* Stall share: at least 1 - (uops per cycle), since an active cycle moves at least one uop. */
double stall_bound(double stall, double uops_per_cycle)
{
	return fmax(stall, 1 - uops_per_cycle);
}

double port_rate(const double *v, int port, int nports)
{
	double total = 0;

	for (int p = 0; p < nports; p++)
		total += v[SK_port0 + p];
	return uops_retired(v) * v[SK_exec_ratio] * v[SK_port0 + port] / total;
}

double alu_rate(const double *v)
{
	return port_rate(v, 0, 6) + port_rate(v, 1, 6) + port_rate(v, 5, 6);
}

bool is_skylake(const struct run *r)
{
	const struct emu_machine *m = emu_machine(r->src->emu);

	return emu_machine_uarch(m) == CPUID_UARCH_SKYLAKE;
}

/*
 * Skylake's thread metrics: CYCLE_ACTIVITY stalls (no uop executed on any
 * port, so at least 1 - executed uops per cycle; memory and L3-miss stalls
 * nest inside) and top-down level 1 over 4 slots per cycle (retiring at
 * most the retiring cycles' 4 slots; bad speculation at least the issued
 * uops that did not retire).  NAN for other names.
 */
double truth_skylake(const char *name, const double *v)
{
	double stall = stall_bound(v[SK_exec_stall], uops_retired(v) * v[SK_exec_ratio]);
	double mem = fmin(v[SK_mem_stall], stall);

	if (!strcmp(name, "exec_stall_pct"))
		return 100 * stall;
	if (!strcmp(name, "mem_stall_pct"))
		return 100 * mem;
	if (!strcmp(name, "l3_miss_stall_pct"))
		return 100 * fmin(v[SK_l3_miss_stall], mem);
	if (!strncmp(name, "port", 4) && name[4] >= '0' && name[4] <= '7' && !name[5])
		return port_rate(v, name[4] - '0', 8);
	return NAN;
}

/*
 * Skylake's top-down level 1 of thread CPU on SOCKET as Intel's formulas
 * have it (intel/perfmon skylake_metrics.json): the thread's slots are 4 x
 * CPU_CLK_UNHALTED.THREAD_ANY / threads per core (the cycles any thread of
 * the core is unhalted), bad speculation's recovery cycles the core's
 * (INT_MISC.RECOVERY_CYCLES_ANY: the siblings' never coincide) over the
 * threads per core; each a ratio of the interval's sums.  In the truth, a
 * thread's frontend_bound and bad_speculation are shares of its own issue
 * slots (4 x its cycles x slot_share); the issued uops that never retire
 * are part of the latter, recovery cycles the rest.  NAN for other names.
 */
double truth_skl_topdown(const struct run *r, int cpu, int socket, const char *name)
{
	const struct topo *topo = r->src->topo;
	const int steps = 200;
	double fe = 0, ret = 0, bad = 0, slots = 0;
	int core = -1;

	for (int i = 0; i < topo->nthreads && core < 0; i++)
		if (topo->threads[i].os_cpu == cpu)
			core = topo->threads[i].core;
	if (core < 0 || (strcmp(name, "frontend_bound_pct") && strcmp(name, "retiring_pct") &&
			 strcmp(name, "bad_speculation_pct") && strcmp(name, "backend_bound_pct")))
		return NAN;
	for (int i = 0; i < steps; i++) {
		const struct topo_core *c = &topo->cores[core];
		double t = r->t_start + (r->t - r->t_start) * (i + 0.5) / steps, halted = 1, rec = 0;

		for (int k = 0; k < c->nthreads; k++) {
			double v[SK_COUNT], wasted, u;

			truth_cpu_at(r, topo->threads[c->thread_first + k].os_cpu, socket, t, v, NULL);
			u = v[SK_util];
			halted *= 1 - u;
			wasted = uops_retired(v) * (v[SK_issue_ratio] - 1) / 4;
			rec += u * fmax(0, v[SK_bad_speculation] * v[SK_slot_share] - wasted);
			if (topo->threads[c->thread_first + k].os_cpu != cpu)
				continue;
			fe += u * v[SK_frontend_bound] * v[SK_slot_share];
			ret += u * fmin(uops_retired(v), 4 * (1 - v[SK_retire_stall])) / 4;
			bad += u * wasted;
		}
		/* per unit of the clock: 4 slots a cycle any thread runs, shared by the core's threads */
		slots += (1 - halted) / c->nthreads;
		bad += rec / c->nthreads;
	}
	fe /= slots;
	ret /= slots;
	bad /= slots;
	if (!strcmp(name, "frontend_bound_pct"))
		return 100 * fe;
	if (!strcmp(name, "retiring_pct"))
		return 100 * ret;
	if (!strcmp(name, "bad_speculation_pct"))
		return 100 * bad;
	return 100 * fmax(0, 1 - fe - ret - bad);
}

/* Thread metric NAME's truth, NAN when this test does not define one. */
double truth_thread(const struct run *r, const char *name, const double *v)
{
	double exec = 100 * stall_bound(v[SK_exec_stall], alu_rate(v));
	double issue = 100 * stall_bound(v[SK_issue_stall], uops_retired(v) * v[SK_issue_ratio] *
						     (1 - v[SK_fused_share]));
	double resource = 100 * (v[SK_load_stall] + v[SK_rs_full_stall] + v[SK_store_stall] +
				 v[SK_rob_full_stall]);
	double cycles_per_s = v[SK_util] * ghz_of(r, v) * 1e9;
	static const struct {
		const char *name;
		enum scenario_key key;
		double scale;
	} direct[] = {
		{ "util", SK_util, 100 },
		{ "ipc", SK_ipc, 1 },
		{ "load_stall_pct", SK_load_stall, 100 },
		{ "rs_full_stall_pct", SK_rs_full_stall, 100 },
		{ "store_stall_pct", SK_store_stall, 100 },
		{ "rob_full_stall_pct", SK_rob_full_stall, 100 },
		{ "div_busy_pct", SK_div_busy, 100 },
		{ "local_dram_loads_per_s", SK_local_dram_loads_per_s, 1 },
		{ "remote_dram_loads_per_s", SK_remote_dram_loads_per_s, 1 },
		{ "local_dram_demand_read_bytes_per_s", SK_local_dram_read_lines_per_s, 64 },
		{ "remote_dram_demand_read_bytes_per_s", SK_remote_dram_read_lines_per_s, 64 },
		{ "llc_miss_ratio", SK_llc_miss_ratio, 1 },
		{ "branch_miss_ratio", SK_branch_miss_ratio, 1 },

		{ "l1i_misses_per_kinst", SK_l1i_miss_per_inst, 1000 },
		{ "itlb_misses_per_kinst", SK_itlb_miss_per_inst, 1000 },
	};

	for (size_t i = 0; i < sizeof(direct) / sizeof(direct[0]); i++)
		if (!strcmp(name, direct[i].name))
			return v[direct[i].key] * direct[i].scale;
	/* seed 000's read bandwidth: DATA_IN, demand and prefetch data reads and RFOs */
	if (!strcmp(name, "local_dram_read_bytes_per_s"))
		return 64 * (v[SK_local_dram_read_lines_per_s] + v[SK_local_dram_rfo_lines_per_s] +
			     v[SK_local_dram_pf_read_lines_per_s] + v[SK_local_dram_pf_rfo_lines_per_s]);
	if (!strcmp(name, "remote_dram_read_bytes_per_s"))
		return 64 * (v[SK_remote_dram_read_lines_per_s] + v[SK_remote_dram_rfo_lines_per_s] +
			     v[SK_remote_dram_pf_read_lines_per_s] +
			     v[SK_remote_dram_pf_rfo_lines_per_s]);
	if (!strcmp(name, "dram_demand_read_bytes_per_s"))
		return 64 * (v[SK_local_dram_read_lines_per_s] + v[SK_remote_dram_read_lines_per_s]);
	/* seed 003: bus cycles the pin is driven, snoop_drv_cycles per snoop response */
	if (!strcmp(name, "hit_drv_cycles_per_s"))
		return v[SK_snoop_hit_per_s] * v[SK_snoop_drv_cycles];
	if (!strcmp(name, "hitm_drv_cycles_per_s"))
		return v[SK_hitm_per_s] * v[SK_snoop_drv_cycles];
	if (is_skylake(r))
		return truth_skylake(name, v);
	if (!strcmp(name, "ghz"))
		return ghz_of(r, v);
	if (!strcmp(name, "exec_stall_pct"))
		return exec;
	if (!strcmp(name, "port015_busy_pct"))
		return 100 - exec;
	if (!strcmp(name, "issue_stall_pct"))
		return issue;
	if (!strcmp(name, "retire_stall_pct"))
		return 100 * stall_bound(v[SK_retire_stall], uops_retired(v));
	if (!strcmp(name, "resource_stall_pct"))
		return resource;
	if (!strcmp(name, "wasted_work_pct"))
		return 100 * (1 - 1 / v[SK_issue_ratio]);
	if (!strcmp(name, "port0"))
		return port_rate(v, 0, 6);
	if (!strcmp(name, "port1"))
		return port_rate(v, 1, 6);
	if (!strcmp(name, "port5"))
		return port_rate(v, 5, 6);
	if (!strcmp(name, "llc_misses_per_s"))
		return cycles_per_s * v[SK_ipc] * v[SK_llc_ref_per_inst] * v[SK_llc_miss_ratio];
	if (!strcmp(name, "remote_dram_share_pct"))
		return ratio_or_nan(100 * v[SK_remote_dram_loads_per_s],
				    v[SK_local_dram_loads_per_s] + v[SK_remote_dram_loads_per_s]);
	{
		/* seed 000 stall decomposition: count x penalty (Table 2: 40 cycles, 60 ns, 100 ns) */
		double l3 = 100 * 40 * v[SK_l3_hit_loads_per_s] / cycles_per_s;
		double local = 100 * 60e-9 * v[SK_local_dram_loads_per_s] / v[SK_util];
		double remote = 100 * 100e-9 * v[SK_remote_dram_loads_per_s] / v[SK_util];

		if (!strcmp(name, "cyc_executing_pct"))
			return 100 - exec;
		if (!strcmp(name, "cyc_l3_hit_pct"))
			return l3;
		if (!strcmp(name, "cyc_local_dram_pct"))
			return local;
		if (!strcmp(name, "cyc_remote_dram_pct"))
			return remote;
		if (!strcmp(name, "cyc_unaccounted_pct"))
			return exec - l3 - local - remote;
	}
	return NAN;
}

/* Core metric NAME's truth from the (effective) truths of the core's N threads. */
double truth_core(const struct run *r, const char *name, double (*v)[SK_COUNT], int n)
{
	double none = 1, uops = 0, idle = 1;

	/* core_portN: the core's uops on port N over the cycles at least one thread ran */
	if (!strncmp(name, "core_port", 9) && name[9] >= '0' && name[9] <= '5' && !name[10]) {
		for (int i = 0; i < n; i++) {
			none *= 1 - v[i][SK_util];
			uops += v[i][SK_util] * port_rate(v[i], name[9] - '0', 6);
		}
		return uops / (1 - none);
	}
	/*
	 * Execution stalls of the core over its unhalted cycles: no uop on any
	 * port of any running thread (ALU stalls and the memory ports taken as
	 * independent, as are the threads); n/a when the core never ran.
	 */
	if (!strcmp(name, "core_exec_stall_pct")) {
		for (int i = 0; i < n; i++) {
			double quiet = stall_bound(v[i][SK_exec_stall], port_rate(v[i], 0, 6) +
						   port_rate(v[i], 1, 6) + port_rate(v[i], 5, 6));

			for (int p = 2; p <= 4; p++)
				quiet *= 1 - fmin(1, port_rate(v[i], p, 6));
			none *= 1 - v[i][SK_util];
			idle *= 1 - v[i][SK_util] * (1 - quiet);
		}
		return none < 1 ? 100 * (idle - none) / (1 - none) : NAN;
	}
	if (!strcmp(name, "avg_stall_cycles") && v[0][SK_util] == 1)
		return v[0][SK_stall_len];
	/* seed 000 wasted work per core: uops executed on all ports - uops retired, of executed */
	if (!strcmp(name, "wasted_work_core_pct")) {
		double exec = 0, retired = 0;

		for (int i = 0; i < n; i++) {
			exec += v[i][SK_util] * uops_retired(v[i]) * v[i][SK_exec_ratio];
			retired += v[i][SK_util] * uops_retired(v[i]);
		}
		return exec > 0 ? 100 * (exec - retired) / exec : NAN;
	}
	(void)r;
	return NAN;
}

/*
 * Within REL of the truth (with a floor of 0.1 percentage point or 0.001 of
 * a ratio).  A difference of two measured shares (fe_starvation_pct) is
 * held to REL of its larger operand, since each operand carries its own.
 */
bool close_enough(double got, double want, double rel, const char *unit, double base)
{
	double floor = !strcmp(unit, "%") ? 0.1 : !strcmp(unit, "ratio") ? 1e-3 : 0;

	return fabs(got - want) <= rel * fmax(fabs(want), base) + floor;
}

/*
 * Whether group G, or a group sharing its key, is off in S: a metric may read
 * the groups of its key (the first that has an event), n/a when one is off.
 */
bool key_group_off(const struct layout *l, const struct sample *s, int g)
{
	for (int k = 0; k < l->ngroups; k++)
		if ((k == g || (l->groups[g].key && l->groups[k].key == l->groups[g].key)) &&
		    s->groups[k].state == SAMPLE_GROUP_OFF)
			return true;
	return false;
}

/* Check every metric with a truth; returns how many were checked. */
int check_against_truth(struct run *r, const struct sample *s, double rel)
{
	const struct layout *l = r->l;
	const struct topo *t = r->src->topo;
	int checked = 0;

	for (int i = 0; i < s->nthreads; i++) {
		const struct sample_entity *te = &s->threads[i];
		double v[SK_COUNT], sib_issue;

		truth_cpu_sib(r, te->index, te->socket, v, &sib_issue);
		for (int m = 0; m < l->nmetrics; m++) {
			const char *name = l->metrics[m].name;
			double want, got = sample_metric(s, te, m);

			if (l->metrics[m].scope != LAYOUT_THREAD)
				continue;
			want = truth_thread(r, name, v);
			if (is_skylake(r) && isnan(want))
				want = truth_skl_topdown(r, te->index, te->socket, name);
			/*
			 * seed 000, HT on: cycles - UOPS_ISSUED.CORE_CYCLES_ACTIVE - RESOURCE_STALLS,
			 * never below 0 (a lower bound); the core issues for one thread a cycle, so
			 * its active cycles are this thread's and its siblings' summed
			 */
			if (!strcmp(name, "fe_starvation_pct") && !is_skylake(r))
				want = fmax(0, 100 * (1 - issue_share(v) - sib_issue / v[SK_util]) -
					       truth_thread(r, "resource_stall_pct", v));
			if (!strcmp(name, "sibling_issue_pct"))
				want = 100 * sib_issue / v[SK_util];
			if (isnan(want) || (isnan(got) && key_group_off(l, s, l->metrics[m].group)))
				continue;
			ck_assert_msg(close_enough(got, want, rel, l->metrics[m].unit,
						   !strcmp(l->metrics[m].name, "fe_starvation_pct")
						   ? truth_thread(r, "issue_stall_pct", v) : 0),
				      "cpu %d %s: %g, truth %g (%s)", te->index, l->metrics[m].name,
				      got, want, s->metric_scaled[m] ? "scaled" : "not scaled");
			checked++;
		}
	}
	for (int k = 0; k < s->ncores; k++) {
		const struct topo_core *c = &t->cores[k];
		double v[8][SK_COUNT];

		for (int i = 0; i < c->nthreads && i < 8; i++) {
			const struct topo_thread *th = &t->threads[c->thread_first + i];

			truth_cpu(r, th->os_cpu, th->socket, v[i]);
		}
		for (int m = 0; m < l->nmetrics; m++) {
			double want, got = sample_metric(s, &s->cores[k], m);

			if (l->metrics[m].scope != LAYOUT_CORE)
				continue;
			want = truth_core(r, l->metrics[m].name, v, c->nthreads);
			if (isnan(want) || isnan(got))
				continue;
			ck_assert_msg(close_enough(got, want, rel, l->metrics[m].unit, 0),
				      "core %d %s: %g, truth %g", k, l->metrics[m].name, got, want);
			checked++;
		}
	}
	return checked + check_uncore_truth(r, s, rel);
}
