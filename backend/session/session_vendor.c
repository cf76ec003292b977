/*
 * session_vendor: the layout of a CPU that Intel's data covers and pmutop's
 * CPU table does not: made from the data for this machine (its counters,
 * SMT, sockets and cores) by perfmon_layout, then parsed like a file; and
 * which events of the layout an emulated machine does not model.
 */
#include "cpumodel.h"
#include "modelmap.h"
#include "perfmon.h"
#include "perfmon_layout.h"
#include "session_int.h"
#include "paths.h"
#include "xmalloc.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The machine of SRC (its facts F) as the vendor's constants see it. */
static void session_vendor_machine(const struct source *src, const struct source_facts *f,
				   const char *root, struct perfmon_layout_config *c)
{
	const struct topo *t = f->topo;
	int tpc = 1;

	for (int k = 0; k < t->ncores; k++)
		if (t->cores[k].nthreads > tpc)
			tpc = t->cores[k].nthreads;
	*c = (struct perfmon_layout_config){
		.gp_counters = (int)f->info->gp_counters, .ht_on = tpc > 1, .threads_per_core = tpc,
		.sockets = t->nsockets > 0 ? t->nsockets : 1,
		.cores_per_socket = t->nsockets > 0 && t->ncores >= t->nsockets
				    ? t->ncores / t->nsockets : 1,
		.cpus = t->nonline > 0 ? t->nonline : 1,
		.slots = f->info->fixed_counters >= 4,
	};
	/* a hybrid CPU with its E-cores online: their groups beside the P-cores' */
	c->e_cores = topo_has_atom(t) || f->e_cores; /* the kernel's word where hwloc has none */
	/*
	 * the kernel's uncore boxes a socket has (the emulated kernel's, or sysfs
	 * under --root); an emulated machine's registers: its kernel's, as on a
	 * real machine, whose groups the msr source then shows blocked
	 */
	{
		struct source_boxes b;

		if (source_pmus_boxes(src, root, &b)) {
			c->chas = b.chas;
			c->channels = b.channels;
			c->upi_links = b.upi_links;
			c->imc_free = b.imc_free;
			c->rapl = b.rapl;
		}
		if (f->info->vendor_id == CPUID_VENDOR_AMD) {
			/* the source's: amd_umc_N's a socket, or an emulated Zen 2/3's; amd_l3 a CPU an L3 */
			c->channels = f->channels;
			c->l3s = t->nl3 / c->sockets;
		}
	}
}

/*
 * A hybrid CPU's E-cores, whose data beside the P-cores' PATH is their
 * events (Intel's, the file's other core type) with their metrics (the
 * kernel's perf tool's, data/atom): into *ATOM and CFG (MC's machine).  A
 * machine without E-cores online, or a platform whose E-core metrics are not
 * published, counts its P-cores alone (0, *ATOM NULL).  0 or -errno with ERR.
 */
static int session_vendor_atom(const char *path, const struct perfmon_layout_config *mc,
			       struct perfmon **atom, struct perfmon_layout_config *cfg, char *err,
			       size_t errlen)
{
	const char *base = strrchr(path, '/');
	char apath[PATH_MAX];

	*atom = NULL;
	*cfg = *mc;
	if (!mc->e_cores)
		return 0;
	if ((size_t)snprintf(apath, sizeof(apath), "%s/%s", paths_atom_dir(NULL),
			     base ? base + 1 : path) >= sizeof(apath) || access(apath, F_OK))
		return 0; /* no E-core metrics for this platform: its E-cores show the built-ins */
	if (perfmon_load_cores(path, "0x20", apath, atom, err, errlen))
		return -EINVAL;
	cfg->atom = *atom;
	return 0;
}

const char *session_vendor_dir(const char *perfmon_dir, const struct cpuid_info *info)
{
	if (!perfmon_dir)
		return NULL;
	return info->vendor_id == CPUID_VENDOR_INTEL ? perfmon_dir
	       : info->vendor_id == CPUID_VENDOR_AMD ? paths_amd_dir(NULL) : NULL;
}

/* The vendor's data file for INFO's model in DIR, into PATH (PATH_MAX): modelmap_find's rc. */
static int session_vendor_find(const char *dir, const struct cpuid_info *info, char *path,
			       char *err, size_t errlen)
{
	/* a hybrid part: the P-cores' data (core type 40H), the E-cores' beside it */
	return modelmap_find(dir, cpuid_vendor_string(info->vendor_id), info->family, info->model,
			    info->stepping, info->hybrid ? 0x40 : info->core_type, path, err,
			    errlen);
}

int session_vendor_platform(const char *perfmon_dir, const struct cpuid_info *info, char *buf,
			    size_t len)
{
	const char *dir = session_vendor_dir(perfmon_dir, info);
	char path[PATH_MAX], err[PATH_MAX + 400];
	struct perfmon *p;

	if (!dir || session_vendor_find(dir, info, path, err, sizeof(err)) ||
	    perfmon_load(path, &p, err, sizeof(err)))
		return -ENOENT;
	snprintf(buf, len, "%s", p->platform);
	perfmon_free(p);
	return 0;
}

const char *session_cpu_kind(const char *perfmon_dir, const struct cpuid_info *info, char *buf,
			     size_t len, char *plat, size_t plen)
{
	char own[64];

	if (!plat) {
		plat = own;
		plen = sizeof(own);
	}
	plat[0] = 0;
	if (cpumodel_of(info) || (info->uarch != CPUID_UARCH_ARCH &&
				  info->uarch != CPUID_UARCH_UNKNOWN) ||
	    session_vendor_platform(perfmon_dir, info, plat, plen))
		return info->uarch_name ? info->uarch_name : "unknown";
	snprintf(buf, len, "%s by %s data", plat,
		 info->vendor_id == CPUID_VENDOR_AMD ? "AMD's" : "Intel's");
	return buf;
}

int session_vendor_layout_for(const char *perfmon_dir, const struct cpuid_info *info,
			      const struct perfmon_layout_config *mc, struct layout **out,
			      char *notice, size_t len)
{
	const struct cpumodel *row = cpumodel_of(info);
	const char *dir = session_vendor_dir(perfmon_dir, info);
	bool amd = info->vendor_id == CPUID_VENDOR_AMD;
	char path[PATH_MAX], err[PATH_MAX + 400];
	struct perfmon *p = NULL, *atom = NULL;
	struct perfmon_layout_config cfg = *mc;
	int rc;

	*out = NULL;
	if (!dir || (row && row->p->layout) || mc->gp_counters < 1)
		return -ENOENT;
	rc = session_vendor_find(dir, info, path, err, sizeof(err));
	if (rc == -ENOENT)
		return -ENOENT;
	if (!rc)
		rc = perfmon_load_platform(path, paths_atom_dir(NULL), &p, err, sizeof(err));
	if (!rc && !p->nmetrics) {
		perfmon_free(p);
		return -ENOENT; /* events only: the architectural layout computes the same */
	}
	if (!rc && info->hybrid)
		rc = session_vendor_atom(path, mc, &atom, &cfg, err, sizeof(err));
	if (!rc) {
		char name[PATH_MAX + 32];

		snprintf(name, sizeof(name), "%s (vendor data)", path);
		rc = perfmon_layout(p, &cfg, name, out, NULL, err, sizeof(err));
	}
	perfmon_free(p);
	perfmon_free(atom);
	if (rc) {
		/* the rest keeps working: the architectural events, and why not more */
		bool said = strstr(err, "reinstall") != NULL; /* pmutop's own files said what to do */

		snprintf(notice, len, "%s data for this CPU cannot be used: %s; %s%s%s%s\n",
			 amd ? "AMD's" : "Intel's", err,
			 amd ? "no layout to count with" : "counting the architectural events instead",
			 said ? "" : " (reinstall pmutop, or set ",
			 said ? "" : amd ? "PMUTOP_AMD_DIR" : "PMUTOP_PERFMON_DIR", said ? "" : ")");
		return -ENOENT;
	}
	return 0;
}

int session_vendor_layout(const struct session_config *c, const struct source *src,
			  struct layout **out, char *notice, size_t len)
{
	struct perfmon_layout_config mc;
	struct source_facts f;

	*out = NULL;
	if (c->layout_path)
		return -ENOENT;
	source_facts(src, &f);
	session_vendor_machine(src, &f, machine_root(c->machine), &mc);
	return session_vendor_layout_for(c->perfmon_dir, f.info, &mc, out, notice, len);
}

void session_find_unmodelled(struct session *s)
{
	s->unmodelled = source_unmodelled_of(s->src, s->layout);
}
