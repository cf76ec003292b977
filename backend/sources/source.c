/*
 * source: opening the emulator or the device files behind one interface.
 */
#include "msr_source.h"
#include "perf_source.h"
#include "source_int.h"
#include "emu.h"
#include "emu_perf.h"
#include "dmi.h"
#include "paths.h"
#include "pmu_regs.h"
#include "topo_text.h"
#include "xmalloc.h"
#include "cpulist.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct msr_dev *source_open_dev(struct source *s, const char *root, char *err,
				       size_t errlen, int *rc)
{
	const struct topo *t = s->topo;
	int *cpus = xcalloc((size_t)t->nonline + 1, sizeof(int));
	int *sock = xcalloc((size_t)t->cpu_thread_len + 1, sizeof(int));
	struct msr_dev *d = NULL;
	int n = 0;

	for (int i = 0; i < t->nthreads; i++)
		if (t->threads[i].online) {
			cpus[n++] = t->threads[i].os_cpu;
			sock[t->threads[i].os_cpu] = t->threads[i].socket;
		}
	*rc = 0;
	if (s->emu)
		d = msr_open_ops(&emu_msr_ops, s->emu, cpus, n, &s->regs.allow);
	else
		*rc = msr_open_files(root ? root : "/", cpus, n, &s->regs.allow, &d, err, errlen);
	if (d)
		msr_set_sockets(d, sock, t->cpu_thread_len);
	free(cpus);
	free(sock);
	return d;
}

/* Whether RAPL's units register answers on the first CPU (Sandy Bridge on; read only). */
static bool source_rapl_readable(const struct source *s)
{
	uint64_t v;

	for (int i = 0; i < s->topo->nthreads; i++)
		if (s->topo->threads[i].online)
			return !msr_read(s->regs.dev, s->topo->threads[i].os_cpu, MSR_RAPL_POWER_UNIT, &v);
	return false;
}

/*
 * On a CPU without fixed counters (AMD's), the kernel's msr PMU: perf_core
 * takes each built-in's free-running counter from it where it names one.
 */
static void source_find_msr_pmu(struct source *s, const char *root)
{
	char err[300];

	s->kern.have_msr = !s->info.fixed_counters &&
		      !perf_sys_pmu(s->kern.sys, root, "msr", &s->kern.msr, err, sizeof(err));
}

/*
 * The kind of core of each CPU (LAYOUT_CORES_*, by OS CPU number): a hybrid
 * kernel's cpu_core and cpu_atom PMUs say which counts where (their "cpus");
 * without them, hwloc's kinds (IntelAtom the E-cores); a CPU of one kind:
 * none (s->cpu_kind NULL).
 */
static void source_cpu_kinds(struct source *s)
{
	const struct topo *t = s->topo;
	int n = t->cpu_thread_len, *cpus = NULL, ncpus = 0;
	size_t col;

	free(s->cpu_kind);
	s->cpu_kind = NULL;
	s->ncpu_kind = 0;
	if (!topo_has_atom(t) && !s->kern.cpu.cpus[0])
		return;
	s->cpu_kind = xcalloc((size_t)n + 1, 1);
	s->ncpu_kind = n;
	for (int i = 0; i < t->nonline; i++) {
		int k = t->cores[t->threads[i].core].corekind;
		bool e = topo_kind_atom(t, k);

		if (t->threads[i].os_cpu < n)
			s->cpu_kind[t->threads[i].os_cpu] =
				e && !strcmp(t->corekinds[k].core_type, "IntelLowPower") ? LAYOUT_CPU_LPE
				: e ? LAYOUT_CORES_E : LAYOUT_CORES_P;
	}
	/* the kernel's word where it has one: the PMU that counts a CPU decides its events */
	for (int k = 0; k < 3; k++) {
		const char *list = k == 2 ? (s->kern.have_lowpower ? s->kern.lowpower.cpus : "")
				   : k ? (s->kern.have_atom ? s->kern.atom.cpus : "") : s->kern.cpu.cpus;

		if (!list[0] || cpulist_parse(list, &cpus, &ncpus, &col))
			continue;
		for (int i = 0; i < ncpus; i++)
			if (cpus[i] >= 0 && cpus[i] < n)
				s->cpu_kind[cpus[i]] = k == 2 ? LAYOUT_CPU_LPE : k ? LAYOUT_CORES_E
						       : LAYOUT_CORES_P;
		free(cpus);
		cpus = NULL;
	}
}

/*
 * The perf side of S (its CPU identified, its topology loaded): the core
 * PMU's formats and what the kernel allows, or the emulated kernel.
 */
static int source_open_perf_side(struct source *s, const char *root, bool task_ok, char *err,
				  size_t errlen)
{
	char why[300];
	int rc;

	s->perf = true;
	if (s->emu) {
		s->kern.emu = emu_perf_create(s->emu);
		if (!s->kern.emu) {
			snprintf(err, errlen, "the emulated machine has no core counters for perf");
			return -ENODEV;
		}
		s->kern.sys = emu_perf_sys(s->kern.emu);
		/* an older or smaller kernel: one without this PMU (cpu_atom), for the tests */
		if (getenv("PMUTOP_SIM_HIDE_PMU") && *getenv("PMUTOP_SIM_HIDE_PMU"))
			emu_perf_hide_pmu(s->kern.emu, getenv("PMUTOP_SIM_HIDE_PMU"));
		emu_perf_cpu_pmu(s->kern.emu, &s->kern.cpu);
		source_find_msr_pmu(s, root);
		s->kern.have_atom = !perf_sys_pmu(s->kern.sys, root, "cpu_atom", &s->kern.atom, why,
					     sizeof(why));
		s->kern.have_lowpower = !perf_sys_pmu(s->kern.sys, root, "cpu_lowpower", &s->kern.lowpower,
						 why, sizeof(why));
		/* the emulated kernel lets pmutop count everything, as root on a real one */
		perf_access_read(NULL, &s->kern.access);
		s->kern.access.paranoid = -1;
		s->kern.access.nmi_watchdog = 0;
		snprintf(s->name + strlen(s->name), sizeof(s->name) - strlen(s->name), " (perf)");
		return 0;
	}
	perf_access_read(root, &s->kern.access);
	rc = perf_pmu_load(root, "cpu", &s->kern.cpu, err, errlen);
	if (rc == -ENOENT) {
		/* a hybrid kernel: cpu_core for the P-cores, cpu_atom (if it has one) for the E-cores */
		rc = perf_pmu_load(root, "cpu_core", &s->kern.cpu, err, errlen);
		s->kern.have_atom = !perf_pmu_load(root, "cpu_atom", &s->kern.atom, why, sizeof(why));
		s->kern.have_lowpower = !perf_pmu_load(root, "cpu_lowpower", &s->kern.lowpower, why,
						  sizeof(why));
		if (rc == -ENOENT && s->kern.have_atom) {
			/* only the E-cores' PMU: they count, the P-cores are n/a */
			s->kern.cpu = s->kern.atom;
			s->kern.cpu.cpus[0] = 0;
			rc = 0;
		}
	}
	if (rc == -ENOENT) {
		snprintf(err, errlen, "the kernel exposes no core PMU (%s/sys/bus/event_source/devices/"
			 "cpu is missing): a virtual machine without a virtual PMU, or a kernel whose "
			 "perf driver does not know this CPU", root && strcmp(root, "/") ? root : "");
		return -ENODEV;
	}
	if (rc)
		return rc;
	source_find_msr_pmu(s, root);
	if (!perf_access_system_wide(&s->kern.access, why, sizeof(why))) {
		/* at 1 and 2 a user's own processes may still be counted: the command run under pmutop */
		if (task_ok && s->kern.access.paranoid >= 1 && s->kern.access.paranoid <= 2) {
			s->kern.task = true;
			snprintf(s->name, sizeof(s->name), "perf");
			return 0;
		}
		snprintf(err, errlen, "perf cannot count every CPU for this user: %s%s", why,
			 s->kern.access.paranoid >= 1 && s->kern.access.paranoid <= 2
			 ? " (pmutop -- COMMAND counts that command)" : "");
		return -EACCES;
	}
	snprintf(s->name, sizeof(s->name), "perf");
	return 0;
}

/* The emulated machine's clock: the run's stepped time (source_advance). */
static double source_stepped_clock(void *ctx)
{
	return ((const struct source *)ctx)->t;
}

int source_advance(struct source *s, double dt)
{
	if (!s->stepped)
		return -EINVAL;
	s->t += dt;
	emu_advance(s->emu, dt);
	return 0;
}

/* M's source (or EMU's, taken, where M is NULL): registers, or PERF. */
static int source_open_any(const struct machine *m, struct emu *emu, bool perf, bool task_ok,
			   struct source **out, char *err, size_t errlen)
{
	struct source *s = xcalloc(1, sizeof(*s));
	const char *root = machine_root(m);
	char dram_why[160];
	int rc;

	*out = NULL;
	s->regs.lock = LOCK_NONE;
	s->emu = emu;
	if (!emu && machine_simulated(m)) {
		s->emu = machine_emu(m, err, errlen);
		if (!s->emu) {
			rc = -EINVAL;
			goto fail;
		}
		s->stepped = machine_stepped(m);
	}
	if (s->emu) {
		s->topo = emu_topo(s->emu);
		rc = cpuid_identify(emu_cpuid_leaf, s->emu, &s->info, err, errlen);
		if (rc)
			goto fail;
		cpumodel_classify(&s->info);
		s->dram_mts = emu_machine(s->emu)->dram_mts;
		s->simulated = true;
		snprintf(s->name, sizeof(s->name), "SIMULATED %s:%s", emu_machine(s->emu)->name,
			 emu_scenario(s->emu)->name);
		snprintf(s->machine, sizeof(s->machine), "%s", emu_machine(s->emu)->name);
		msr_allow_build(&s->info, emu_machine(s->emu)->cbo, &s->regs.allow);
	} else {
		rc = cpuid_identify_root(root, &s->info, err, errlen);
		if (rc)
			goto fail;
		cpumodel_classify(&s->info);
		rc = topo_load_root(root, &s->own_topo, err, errlen);
		if (rc)
			goto fail;
		s->topo = s->own_topo;
		/* the DIMMs' speed from SMBIOS, for the channels' peak (--dram-mts wins; the doctor says why not) */
		s->dram_mts = dmi_dram_mts(root, dram_why, sizeof(dram_why));
		/* every CBo slice a Skylake client part can have */
		msr_allow_build(&s->info, SKL_UNC_MAX_CBO, &s->regs.allow);
	}
	/* the same for a real and an emulated CPU: what its model's row says */
	s->model = cpumodel_of(&s->info);
	if (s->model) {
		s->uncore = s->model->p->uncore;
		s->channels = s->model->p->channels;
	}
	if (perf) {
		rc = source_open_perf_side(s, root, task_ok, err, errlen);
		if (rc)
			goto fail;
		if (s->uncore == CPUMODEL_UNCORE_NONE && !(s->model && s->model->p->uncore_why)) {
			/* the kernel's uncore PMUs, whatever it describes; channels: its memory boxes */
			s->uncore = CPUMODEL_UNCORE_KERNEL;
			s->channels = perf_sys_channel_span(s->kern.sys, root);
			/* AMD's: amd_umc_N numbers the channels of every socket in turn */
			if (!s->channels && s->topo->nsockets > 0)
				s->channels = perf_sys_boxes(s->kern.sys, root, "amd_umc_") /
					      s->topo->nsockets;
			/* a client's controllers count the socket's channels together: how many, emulated */
			if (!s->channels && s->emu)
				s->channels = emu_channels(s->emu);
		}
		source_cpu_kinds(s);
		*out = s;
		return 0;
	}
	/* the registers: Intel's architectural perfmon only (perf counts any CPU the kernel does) */
	rc = cpuid_check_intel_perfmon(&s->info, err, errlen);
	if (rc)
		goto fail;
	s->regs.dev = source_open_dev(s, root, err, errlen, &rc);
	if (!s->regs.dev)
		goto fail;
	/* a CPU whose uncore only the kernel reaches: RAPL's energy MSRs, where they can be read */
	if (s->uncore == CPUMODEL_UNCORE_NONE && !(s->model && s->model->p->uncore_why) &&
	    s->info.vendor_id == CPUID_VENDOR_INTEL && source_rapl_readable(s))
		s->uncore = CPUMODEL_UNCORE_RAPL;
	if (cpumodel_uncore_free_running(s->uncore) && (s->emu ? mmio_open_ops(&emu_mmio_ops, s->emu,
								      "the emulated host bridge", &s->regs.mmio,
								      s->regs.mmio_why, sizeof(s->regs.mmio_why))
					       : mmio_open_files(root, &s->regs.mmio, s->regs.mmio_why,
								 sizeof(s->regs.mmio_why))))
		s->regs.mmio = NULL; /* IMC groups are blocked with mmio_why; the rest works */
	if (!s->emu)
		snprintf(s->name, sizeof(s->name), "%s",
			 msr_dev_kind(s->regs.dev) == MSR_KIND_MSR_SAFE ? "msr_safe" : "msr");
	source_cpu_kinds(s);
	*out = s;
	return 0;
fail:
	source_close(s);
	return rc ? rc : -EIO;
}

void source_engine_config(struct source *s, struct engine_config *ec)
{
	const struct cpuid_info *info = &s->info;

	s->regs.cfg = (struct msr_source_config){
		.dev = s->regs.dev, .mmio = s->regs.mmio, .mmio_why = s->regs.mmio_why,
		.rapl_server_dram = msr_rapl_server_dram(info),
		.late_reads = !s->simulated && !s->stepped,
	};
	ec->source_cfg = &s->regs.cfg;
	ec->topo = s->topo;
	ec->perfmon_version = info->perfmon_version;
	ec->gp_counters = info->gp_counters;
	ec->gp_width = info->gp_width;
	ec->fixed_counters = info->fixed_counters;
	ec->fixed_width = info->fixed_width;
	ec->arch_events_absent = info->arch_events_absent;
	ec->source = s->name;
	ec->simulated = s->simulated;
	ec->uncore = s->uncore;
	ec->uncore_why = s->model ? s->model->p->uncore_why : NULL;
	ec->channels = s->channels;
	ec->core_ops = &msr_core_ops;
	ec->uncore_ops = s->uncore == CPUMODEL_UNCORE_RAPL ? &msr_rapl_ops : &msr_uncore_ops;
	ec->cpu_kind = s->cpu_kind;
	ec->ncpu_kind = s->ncpu_kind;
	if (s->stepped) {
		/* the machine's own time, moved by the run: the figures' clock */
		ec->clock = source_stepped_clock;
		ec->clock_ctx = (void *)s;
	}
	if (s->perf) {
		ec->core_ops = &perf_core_ops;
		ec->uncore_ops = &perf_uncore_ops;
		/* no register is written: the kernel programs its PMUs, the uncore's too */
		s->kern.cfg = (struct perf_source_config){
			.cpu = &s->kern.cpu, .msr = s->kern.have_msr ? &s->kern.msr : NULL,
			.atom = s->kern.have_atom ? &s->kern.atom : NULL,
			.lowpower = s->kern.have_lowpower ? &s->kern.lowpower : NULL,
			.sys = s->kern.sys, .access = &s->kern.access, .task = s->kern.task,
		};
		ec->source_cfg = &s->kern.cfg;
	}
}

int source_open(const struct machine *m, struct source **out, char *err, size_t errlen)
{
	return source_open_any(m, NULL, false, false, out, err, errlen);
}

/* source_open as a source_kind's open: the registers count whole CPUs, a command or not */
static int source_open_registers(const struct machine *m, bool task_ok, struct source **out,
				 char *err, size_t errlen)
{
	(void)task_ok;
	return source_open(m, out, err, errlen);
}

const struct source_kind source_kinds[] = {
	{ "msr", "the registers, through the msr driver or msr-safe (root)", false, false,
	  source_open_registers },
	{ "perf", "the kernel's perf_event_open: core events and the kernel's uncore PMUs, no "
	  "root needed where perf_event_paranoid allows", true, true, source_open_perf },
	{ NULL, NULL, false, false, NULL },
};

int source_open_perf(const struct machine *m, bool task_ok, struct source **out, char *err,
		     size_t errlen)
{
	return source_open_any(m, NULL, true, task_ok, out, err, errlen);
}

int source_open_emu(struct emu *emu, bool perf, struct source **out, char *err, size_t errlen)
{
	return source_open_any(NULL, emu, perf, false, out, err, errlen);
}

void source_close(struct source *s)
{
	if (!s)
		return;
	if (s->regs.dev)
		msr_close(s->regs.dev);
	lock_release(&s->regs.lock);
	mmio_close(s->regs.mmio);
	emu_perf_free(s->kern.emu);
	source_files_close(s);
	free(s->cpu_kind);
	free(s->kern.who_types);
	topo_free(s->own_topo);
	emu_free(s->emu);
	free(s);
}

int source_identify(const struct machine *m, struct cpuid_info *info, char *err, size_t errlen)
{
	struct emu *e;
	int rc;

	if (!machine_simulated(m)) {
		rc = cpuid_identify_root(machine_root(m), info, err, errlen);
	} else {
		e = machine_emu(m, err, errlen);
		if (!e)
			return -EINVAL;
		rc = cpuid_identify(emu_cpuid_leaf, e, info, err, errlen);
		emu_free(e);
	}
	if (!rc)
		cpumodel_classify(info);
	return rc;
}

int source_print_msr_safe_allowlist(const struct cpuid_info *info, const char *kind, FILE *out,
				    char *err, size_t errlen)
{
	struct msr_allowlist allow;
	/* msr-safe's allowlist is for the registers: Intel's architectural perfmon only */
	int rc = cpuid_check_intel_perfmon(info, err, errlen);

	if (rc)
		return rc;
	msr_allow_build(info, SKL_UNC_MAX_CBO, &allow);
	fprintf(out, "# %s (%s, family %u model 0x%02X)\n", info->brand, kind, info->family,
		info->model);
	msr_allow_print_msr_safe(&allow, out);
	return 0;
}

int source_unmodelled(const struct machine *m, const struct layout *l, bool **out, char *err,
		      size_t errlen)
{
	struct emu *e;

	*out = NULL;
	if (!machine_simulated(m))
		return 0;
	e = machine_emu(m, err, errlen);
	if (!e)
		return -EINVAL;
	*out = source_emu_unmodelled(e, l);
	emu_free(e);
	return 0;
}

bool *source_unmodelled_of(const struct source *s, const struct layout *l)
{
	return s && s->emu && l ? source_emu_unmodelled(s->emu, l) : NULL;
}

bool *source_emu_unmodelled(const struct emu *e, const struct layout *l)
{
	bool *out = xcalloc((size_t)l->nevents + 1, sizeof(bool));

	for (int k = 0; k < l->nevents; k++) {
		const struct layout_event *ev = &l->events[k];

		out[k] = ev->pmu == LAYOUT_PMU_CORE &&
			 !emu_models(e, l->groups[ev->group].coretype == LAYOUT_CORES_E, ev->event,
				     (unsigned)ev->umask, ev->cmask,
				     ev->has_offcore ? ev->offcore : ev->has_frontend ? ev->frontend : 0);
	}
	return out;
}

int source_print_topology(const struct machine *m, FILE *out, int width, char *err, size_t errlen)
{
	struct emu *e;
	struct topo *t;
	int rc;

	if (!machine_simulated(m)) {
		rc = topo_load_root(machine_root(m), &t, err, errlen);
		if (rc)
			return rc;
		topo_text_print(t, out, width);
		topo_free(t);
		return 0;
	}
	e = machine_emu(m, err, errlen);
	if (!e)
		return -EINVAL;
	fprintf(out, "SIMULATED machine %s: %s\n", emu_machine(e)->name, emu_machine(e)->description);
	topo_text_print(emu_topo(e), out, width);
	emu_free(e);
	return 0;
}

void source_kernel(const struct source *s, const char *root, struct machine_kernel *k)
{
	struct emu_perf *d = !s->kern.sys && s->emu ? emu_perf_describe(s->emu) : NULL;

	/* an emulated machine's registers: its kernel's descriptions, as a real machine's sysfs */
	*k = (struct machine_kernel){
		.sys = d ? emu_perf_sys(d) : s->kern.sys,
		.root = s->emu ? NULL : root,
		.described = d,
		/* an emulated machine whose kernel is not made (a CPU without core counters): none */
		.none = s->emu && !s->kern.sys && !d,
	};
}

void source_kernel_done(struct machine_kernel *k)
{
	emu_perf_free(k->described);
	k->described = NULL;
}
