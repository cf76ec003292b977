/*
 * fakehw: play an emulated machine as a device tree, for end-to-end tests
 * of pmutop's real file path (pmutop --root DIR).
 *
 *   fakehw [--ready FILE] [--lockdown] [--msr-safe] [--model FF_MM] MACHINE[:SCENARIO] DIR
 *
 * Writes the static part of a Linux machine under DIR (the /sys and /proc
 * files hwloc and pmutop read: CPU topology, caches, NUMA nodes, cpuinfo,
 * msr write filtering, lockdown, NMI watchdog, the PCI config space of the
 * host bridge), then mounts a FUSE filesystem on DIR/dev that serves, with
 * the Linux drivers' semantics:
 *   dev/cpu/N/msr    8-byte pread/pwrite at offset = MSR address; EIO for a
 *                    register the model does not implement or a faulting
 *                    write, ENXIO for an offline CPU
 *   dev/cpu/N/cpuid  16 bytes (eax, ebx, ecx, edx) at offset leaf | subleaf << 32
 *   dev/mem          physical memory: the Skylake IMC counters at the BAR
 *   dev/faults       for tests: "CPU eio-read|eio-write|slow MS|clear" written
 *                    makes CPU's msr reads or writes fail with EIO, or each
 *                    msr read take MS milliseconds, or clears that; "CPU
 *                    offline|online|online-reset" takes it away (ENXIO) and
 *                    back (with its core PMU registers at 0, as a CPU that
 *                    came up again); "all" for every CPU
 *   with --msr-safe, msr-safe's nodes too: dev/cpu/N/msr_safe (only the
 *                    registers on the allowlist; EACCES otherwise),
 *                    dev/cpu/msr_allowlist ("0xADDR 0xWRITEMASK" lines) and
 *                    dev/cpu/msr_batch (the X86_IOC_MSR_BATCH ioctl: the
 *                    operations are read from and written back to the
 *                    caller's memory, as the module's copy_from_user and
 *                    copy_to_user do); sys/module/msr_safe/version says
 *                    the module's version (--msr-safe-version X.Y.Z, 1.7.0
 *                    by default; from 2.0 the call's version must match).
 *                    dev/faults "all batch-refuse" makes every batch call
 *                    fail (EINVAL, no operation's error), "all batch-ok" undoes it;
 *                    read, it says how many msr reads each slow CPU answered
 *                    slowly so far ("CPU slow-reads N" lines)
 *   The msr, msr_safe and allowlist nodes are root's, mode 0600, until
 *   chmod/chown (chgrp) changes them; the kernel checks those permissions
 *   for every user (allow_other, default_permissions), and opening an msr
 *   node also needs CAP_SYS_RAWIO, as the msr driver wants.
 *   with --model FF_MM (hex, as pmutop's --cpu), the CPUs say that family and
 *                    model (cpuid leaf 1, /proc/cpuinfo) and are the machine's
 *                    otherwise: a model of the same platform pmutop's table
 *                    may not know yet (the README's recipe of a CPU model).
 *   with --lockdown, the kernel is locked down (sys/kernel/security/lockdown
 *                    says [integrity]) and the msr nodes refuse every write
 *                    with EPERM, as the msr driver does then.
 * Counters advance in real time and follow the event selects pmutop writes.
 * A plain file could not do this: adjacent MSR addresses overlap by 7 bytes.
 * Creates FILE once the mount is up.  SIGINT/SIGTERM/SIGHUP unmount and
 * exit; if fakehw is killed outright, the auto_unmount option has fusermount3
 * unmount it, and so does fakehw's own watchdog (a child that unmounts the
 * mount named for its parent when the parent is gone: fusermount3's watcher
 * was once seen to keep the mount 60 s on a loaded machine).  Test tool: not installed.  This file serves the tree and
 * runs the tool; dev/faults is fakehw_faults.c's, msr-safe's allowlist and
 * batch call fakehw_safe.c's.
 */
#define _GNU_SOURCE /* process_vm_readv */
#define FUSE_USE_VERSION 31

#include <errno.h>
#include <fuse.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <fcntl.h>
#include <unistd.h>

#include "emu.h"
#include "fakehw_int.h"
#include "fakehw_tree.h"
#include "xmalloc.h"

struct emu *fakehw_emu;
/* --msr-safe: msr-safe's nodes too (see below) */
static bool fakehw_msr_safe;
/* the module's version: text, and as msr-safe encodes it (major << 16 | minor << 8 | patch) */
char fakehw_safe_version[16] = "1.7.0";
/* --lockdown: the kernel is locked down (integrity): the msr driver refuses every write */
static bool fakehw_lockdown;
unsigned fakehw_safe_major = 1;
uint32_t fakehw_safe_u32 = 1u << 16 | 7u << 8;
bool fakehw_batch_refuse; /* dev/faults "all batch-refuse" */
/*
 * Requests are served by several threads, as the kernel serves each CPU's
 * msr file independently: a slow CPU (dev/faults) delays only its own
 * accesses.  The emulator locks itself; this lock guards the fault table.
 */
pthread_mutex_t fakehw_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- the FUSE device files ------------------------------------------------- */

enum fakehw_node { NODE_NONE, NODE_ROOT, NODE_CPUDIR, NODE_CPU, NODE_MSR, NODE_CPUID, NODE_MEM,
		   NODE_FAULTS, NODE_MSR_SAFE, NODE_ALLOWLIST, NODE_BATCH };

/*
 * Device permissions, as udev and an administrator leave them: owner, group
 * and mode of the msr and msr_safe nodes (one setting for all CPUs, changed
 * with chmod/chown on any of them) and of msr-safe's allowlist.  The kernel
 * checks them (default_permissions); the msr driver also wants
 * CAP_SYS_RAWIO of the opener.
 */
struct fakehw_perm {
	uid_t uid;
	gid_t gid;
	mode_t mode;
};
static struct fakehw_perm fakehw_perm_msr = { 0, 0, 0600 }, fakehw_perm_safe = { 0, 0, 0600 },
			  fakehw_perm_allow = { 0, 0, 0600 }, fakehw_perm_batch = { 0, 0, 0600 };

static enum fakehw_node fakehw_lookup(const char *path, int *cpu)
{
	char file[16] = "";
	int n = -1;

	*cpu = -1;
	if (strcmp(path, "/") == 0)
		return NODE_ROOT;
	if (strcmp(path, "/cpu") == 0)
		return NODE_CPUDIR;
	if (strcmp(path, "/faults") == 0)
		return NODE_FAULTS;
	if (fakehw_msr_safe && strcmp(path, "/cpu/msr_allowlist") == 0)
		return NODE_ALLOWLIST;
	if (fakehw_msr_safe && strcmp(path, "/cpu/msr_batch") == 0)
		return NODE_BATCH;
	if (strcmp(path, "/mem") == 0)
		return emu_uncore(fakehw_emu) == CPUMODEL_UNCORE_SKL ? NODE_MEM : NODE_NONE;
	if (sscanf(path, "/cpu/%d%n", cpu, &n) != 1 || n < 0)
		return NODE_NONE;
	if (*cpu < 0 || !topo_thread_of_cpu(emu_topo(fakehw_emu), *cpu) ||
	    !topo_thread_of_cpu(emu_topo(fakehw_emu), *cpu)->online)
		return NODE_NONE;
	if (path[n] == '\0')
		return NODE_CPU;
	if (sscanf(path + n, "/%15s", file) != 1)
		return NODE_NONE;
	if (strcmp(file, "msr") == 0)
		return NODE_MSR;
	if (fakehw_msr_safe && strcmp(file, "msr_safe") == 0)
		return NODE_MSR_SAFE;
	if (strcmp(file, "cpuid") == 0)
		return NODE_CPUID;
	return NODE_NONE;
}

static struct fakehw_perm *fakehw_perm_of(enum fakehw_node node)
{
	return node == NODE_MSR ? &fakehw_perm_msr
	       : node == NODE_MSR_SAFE ? &fakehw_perm_safe
	       : node == NODE_BATCH ? &fakehw_perm_batch : &fakehw_perm_allow;
}

static int fakehw_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	int cpu;
	enum fakehw_node node = fakehw_lookup(path, &cpu);

	(void)fi;
	memset(st, 0, sizeof(*st));
	switch (node) {
	case NODE_NONE:
		return -ENOENT;
	case NODE_ROOT:
	case NODE_CPUDIR:
	case NODE_CPU:
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	case NODE_MSR:
	case NODE_MSR_SAFE:
	case NODE_ALLOWLIST:
	case NODE_BATCH: {
		const struct fakehw_perm *p = fakehw_perm_of(node);

		pthread_mutex_lock(&fakehw_lock);
		st->st_mode = S_IFREG | p->mode;
		st->st_uid = p->uid;
		st->st_gid = p->gid;
		pthread_mutex_unlock(&fakehw_lock);
		break;
	}
	case NODE_CPUID:
		st->st_mode = S_IFREG | 0444;
		break;
	case NODE_MEM:
		st->st_mode = S_IFREG | 0640;
		break;
	case NODE_FAULTS:
		st->st_mode = S_IFREG | 0600;
		break;
	}
	st->st_nlink = 1;
	return 0;
}

static int fakehw_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
			  struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	const struct topo *t = emu_topo(fakehw_emu);
	int cpu;
	enum fakehw_node node = fakehw_lookup(path, &cpu);

	(void)off;
	(void)fi;
	(void)flags;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	if (node == NODE_ROOT) {
		fill(buf, "cpu", NULL, 0, 0);
		fill(buf, "faults", NULL, 0, 0);
		if (emu_uncore(fakehw_emu) == CPUMODEL_UNCORE_SKL)
			fill(buf, "mem", NULL, 0, 0);
	} else if (node == NODE_CPUDIR) {
		if (fakehw_msr_safe) {
			fill(buf, "msr_allowlist", NULL, 0, 0);
			fill(buf, "msr_batch", NULL, 0, 0);
		}
		for (int i = 0; i < t->nonline; i++) {
			char name[16];

			snprintf(name, sizeof(name), "%d", t->threads[i].os_cpu);
			fill(buf, name, NULL, 0, 0);
		}
	} else if (node == NODE_CPU) {
		fill(buf, "msr", NULL, 0, 0);
		if (fakehw_msr_safe)
			fill(buf, "msr_safe", NULL, 0, 0);
		fill(buf, "cpuid", NULL, 0, 0);
	} else {
		return -ENOTDIR;
	}
	return 0;
}

/* Whether the process asking has CAP_SYS_RAWIO in its effective set. */
static bool fakehw_caller_rawio(void)
{
	char path[64], line[256];
	unsigned long long caps = 0;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)fuse_get_context()->pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1) {
			found = true;
			break;
		}
	fclose(f);
	return found && (caps >> 17) & 1; /* CAP_SYS_RAWIO */
}

static int fakehw_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	int cpu;
	enum fakehw_node node = fakehw_lookup(path, &cpu);

	(void)fi;
	if (node != NODE_MSR && node != NODE_MSR_SAFE && node != NODE_ALLOWLIST && node != NODE_BATCH)
		return node == NODE_NONE ? -ENOENT : -EPERM;
	pthread_mutex_lock(&fakehw_lock);
	fakehw_perm_of(node)->mode = mode & 07777;
	pthread_mutex_unlock(&fakehw_lock);
	return 0;
}

static int fakehw_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi)
{
	int cpu;
	enum fakehw_node node = fakehw_lookup(path, &cpu);
	struct fakehw_perm *p;

	(void)fi;
	if (node != NODE_MSR && node != NODE_MSR_SAFE && node != NODE_ALLOWLIST && node != NODE_BATCH)
		return node == NODE_NONE ? -ENOENT : -EPERM;
	p = fakehw_perm_of(node);
	pthread_mutex_lock(&fakehw_lock);
	if (uid != (uid_t)-1)
		p->uid = uid;
	if (gid != (gid_t)-1)
		p->gid = gid;
	pthread_mutex_unlock(&fakehw_lock);
	return 0;
}

static int fakehw_open(const char *path, struct fuse_file_info *fi)
{
	int cpu;
	enum fakehw_node node = fakehw_lookup(path, &cpu);

	if (node == NODE_NONE)
		return -ENOENT;
	if (node == NODE_ROOT || node == NODE_CPUDIR || node == NODE_CPU)
		return -EISDIR;
	/* the msr driver's own check, past the file's permissions: capable(CAP_SYS_RAWIO) */
	if (node == NODE_MSR && !fakehw_caller_rawio())
		return -EPERM;
	fi->direct_io = 1; /* every pread reaches us, at its offset, whatever the size */
	fi->nonseekable = 0;
	return 0;
}

static int fakehw_read(const char *path, char *buf, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	int cpu, rc;
	enum fakehw_node node = fakehw_lookup(path, &cpu);
	struct fakehw_fault fault = fakehw_fault_of(cpu);

	(void)fi;
	switch (node) {
	case NODE_MSR:
	case NODE_MSR_SAFE: {
		uint64_t v, mask;

		/* the msr driver reads whole registers; each 8 bytes are the same MSR */
		if (size % 8)
			return -EINVAL;
		if (node == NODE_MSR_SAFE && !fakehw_allowed((uint32_t)off, &mask))
			return -EACCES;
		if (fault.slow_ms) {
			usleep((useconds_t)fault.slow_ms * 1000);
			fakehw_fault_slow_read(cpu);
		}
		if (fault.offline)
			return -ENXIO;
		if (fault.eio_read)
			return -EIO;
		for (size_t i = 0; i < size; i += 8) {
			rc = emu_msr_read(fakehw_emu, cpu, (uint32_t)off, &v);
			if (rc)
				return rc == -ENXIO ? -ENXIO : -EIO;
			memcpy(buf + i, &v, 8);
		}
		return (int)size;
	}
	case NODE_CPUID: {
		uint32_t regs[4];

		if (size % 16)
			return -EINVAL;
		for (size_t i = 0; i < size; i += 16) {
			rc = emu_cpuid(fakehw_emu, cpu, (uint32_t)((uint64_t)off & 0xFFFFFFFFu),
				       (uint32_t)((uint64_t)off >> 32), regs);
			if (rc)
				return -EIO;
			if ((uint32_t)off == 1 && fakehw_family)
				regs[0] = fakehw_leaf1(regs[0]);
			memcpy(buf + i, regs, 16);
		}
		return (int)size;
	}
	case NODE_MEM:
		return emu_mem_read(fakehw_emu, (uint64_t)off, buf, size);
	case NODE_FAULTS: {
		char text[4096];
		size_t n = fakehw_faults_text(text, sizeof(text));

		if ((size_t)off >= n)
			return 0;
		n -= (size_t)off;
		n = n < size ? n : size;
		memcpy(buf, text + off, n);
		return (int)n;
	}
	case NODE_ALLOWLIST: {
		char text[FAKEHW_ALLOW_MAX * 40];
		size_t n = fakehw_allowlist_text(text, sizeof(text));

		if ((size_t)off >= n)
			return 0;
		n -= (size_t)off;
		n = n < size ? n : size;
		memcpy(buf, text + off, n);
		return (int)n;
	}
	default:
		return -ENOENT;
	}
}

static int fakehw_write(const char *path, const char *buf, size_t size, off_t off,
			struct fuse_file_info *fi)
{
	int cpu, rc;
	enum fakehw_node node = fakehw_lookup(path, &cpu);
	uint64_t v;

	(void)fi;
	if (node == NODE_FAULTS) {
		char line[64];

		snprintf(line, sizeof(line), "%.*s", (int)(size < 63 ? size : 63), buf);
		pthread_mutex_lock(&fakehw_lock);
		rc = fakehw_fault_line(line);
		pthread_mutex_unlock(&fakehw_lock);
		return rc ? rc : (int)size;
	}
	if (node == NODE_ALLOWLIST) {
		if (off != 0)
			return -EINVAL; /* the whole list in one write, as msr-safe wants it */
		rc = fakehw_allowlist_write(buf, size);
		return rc ? rc : (int)size;
	}
	if (node != NODE_MSR && node != NODE_MSR_SAFE)
		return node == NODE_NONE ? -ENOENT : -EPERM;
	if (size % 8)
		return -EINVAL;
	if (node == NODE_MSR_SAFE) {
		uint64_t mask;

		memcpy(&v, buf, 8);
		if (!fakehw_allowed((uint32_t)off, &mask) || (v & ~mask))
			return -EACCES;
	}
	if (fakehw_fault_of(cpu).offline)
		return -ENXIO;
	if (fakehw_fault_of(cpu).eio_write)
		return -EIO;
	/* the msr driver under lockdown (msr-safe is not affected): EPERM */
	if (fakehw_lockdown && node == NODE_MSR)
		return -EPERM;
	for (size_t i = 0; i < size; i += 8) {
		memcpy(&v, buf + i, 8);
		rc = emu_msr_write(fakehw_emu, cpu, (uint32_t)off, v);
		if (rc)
			return rc == -ENXIO ? -ENXIO : -EIO;
	}
	return (int)size;
}

static int fakehw_ioctl(const char *path, int cmd, void *arg, struct fuse_file_info *fi,
			unsigned int flags, void *data)
{
	int cpu;

	(void)arg;
	if (fakehw_lookup(path, &cpu) != NODE_BATCH || (flags & FUSE_IOCTL_COMPAT) ||
	    (unsigned)cmd != FAKEHW_IOC_MSR_BATCH)
		return -ENOTTY;
	return fakehw_batch(fi, data);
}

static int fakehw_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	(void)path;
	(void)size;
	(void)fi;
	return 0;
}

/*
 * Hardware counts whether anyone reads or not: keep the emulated counters
 * current every FAKEHW_TICK_US, so that a read (and a batch call reading
 * 1024 CPUs) does not have to integrate a whole interval of the scenario.
 */
#define FAKEHW_TICK_US 10000

/* Cleared at exit: the ticker stops before the emulator is freed. */
static atomic_bool fakehw_ticking = true;

static void *fakehw_ticker(void *arg)
{
	(void)arg;
	while (atomic_load(&fakehw_ticking)) {
		usleep(FAKEHW_TICK_US);
		emu_sync_all(fakehw_emu);
	}
	return NULL;
}

static const struct fuse_operations fakehw_ops = {
	.getattr = fakehw_getattr,
	.readdir = fakehw_readdir,
	.open = fakehw_open,
	.chmod = fakehw_chmod,
	.chown = fakehw_chown,
	.read = fakehw_read,
	.write = fakehw_write,
	.truncate = fakehw_truncate,
	.ioctl = fakehw_ioctl,
};

int main(int argc, char **argv)
{
	const char *ready = NULL, *spec, *root, *scenarios;
	char err[512], devdir[PATH_MAX];
	/* other users reach the tree, with the nodes' permissions checked by the kernel */
	char fsname_opt[64], fsname[48];
	char *fuse_argv[] = { argv[0], "-o", "auto_unmount", "-o", fsname_opt,
			      "-o", "allow_other", "-o", "default_permissions", NULL };
	struct fuse_args args = FUSE_ARGS_INIT(9, fuse_argv);
	struct fuse *fuse;
	pthread_t tick;
	bool ticker;
	int rc;

	for (;;) {
		if (argc >= 3 && strcmp(argv[1], "--ready") == 0) {
			ready = argv[2];
			argv += 2;
			argc -= 2;
		} else if (argc >= 3 && strcmp(argv[1], "--model") == 0) {
			if (sscanf(argv[2], "%x_%x", &fakehw_family, &fakehw_model) != 2 ||
			    !fakehw_family || fakehw_family > 0xFF || fakehw_model > 0xFF) {
				fprintf(stderr, "fakehw: --model wants FAMILY_MODEL in hex (19_22)\n");
				return 2;
			}
			argv += 2;
			argc -= 2;
		} else if (argc >= 2 && strcmp(argv[1], "--lockdown") == 0) {
			fakehw_lockdown = true;
			argv++;
			argc--;
		} else if (argc >= 2 && strcmp(argv[1], "--msr-safe") == 0) {
			fakehw_msr_safe = true;
			argv++;
			argc--;
		} else if (argc >= 3 && strcmp(argv[1], "--msr-safe-version") == 0) {
			unsigned mj, mn, pt = 0;

			if (sscanf(argv[2], "%u.%u.%u", &mj, &mn, &pt) < 2 || mj > 255 || mn > 255 ||
			    pt > 255) {
				fprintf(stderr, "fakehw: --msr-safe-version wants X.Y.Z\n");
				return 2;
			}
			snprintf(fakehw_safe_version, sizeof(fakehw_safe_version), "%u.%u.%u", mj, mn,
				 pt);
			fakehw_safe_major = mj;
			fakehw_safe_u32 = mj << 16 | mn << 8 | pt;
			fakehw_msr_safe = true;
			argv += 2;
			argc -= 2;
		} else {
			break;
		}
	}
	if (argc != 3) {
		fprintf(stderr, "usage: fakehw [--ready FILE] [--lockdown] [--msr-safe] "
				"[--msr-safe-version X.Y.Z] [--model FF_MM] MACHINE[:SCENARIO] DIR\n");
		return 2;
	}
	spec = argv[1];
	root = argv[2];
	/* the mount named for this process (the watchdog unmounts only its parent's) */
	snprintf(fsname, sizeof(fsname), "pmutop-fakehw-%ld", (long)getpid());
	snprintf(fsname_opt, sizeof(fsname_opt), "fsname=%s", fsname);
	snprintf(devdir, sizeof(devdir), "%s/dev", root);
	fakehw_watchdog(devdir, fsname);
	scenarios = getenv("PMUTOP_SCENARIO_DIR") ? getenv("PMUTOP_SCENARIO_DIR")
						  : PMUTOP_SRC_SCENARIODIR;
	if (emu_create(spec, scenarios, &fakehw_emu, err, sizeof(err))) {
		fprintf(stderr, "fakehw: %s\n", err);
		return 2;
	}
	fakehw_tree(root, fakehw_emu, fakehw_lockdown, fakehw_msr_safe ? fakehw_safe_version : NULL);
	fakehw_mkdirs(devdir);
	fuse = fuse_new(&args, &fakehw_ops, sizeof(fakehw_ops), NULL);
	if (!fuse || fuse_mount(fuse, devdir) != 0) {
		fprintf(stderr, "fakehw: cannot mount FUSE on %s (is /dev/fuse there, are we root?)\n",
			devdir);
		return 1;
	}
	if (fuse_set_signal_handlers(fuse_get_session(fuse)) != 0) {
		fuse_unmount(fuse);
		return 1;
	}
	ticker = pthread_create(&tick, NULL, fakehw_ticker, NULL) == 0;
	if (ready) {
		FILE *f = fopen(ready, "w");

		if (f) {
			fprintf(f, "%ld\n", (long)getpid());
			fclose(f);
		}
	}
	rc = fuse_loop_mt(fuse, 0);
	atomic_store(&fakehw_ticking, false);
	if (ticker)
		pthread_join(tick, NULL);
	fuse_remove_signal_handlers(fuse_get_session(fuse));
	fuse_unmount(fuse);
	fuse_destroy(fuse);
	fuse_opt_free_args(&args);
	emu_free(fakehw_emu);
	return rc ? 1 : 0;
}
