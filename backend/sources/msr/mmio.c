/*
 * mmio: the IMC counter window, through files or a table of operations.
 */
#include "mmio.h"
#include "paths.h"
#include "rootfs.h"
#include "pmu_regs.h"
#include "xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* MCHBAR bit 0: the window is enabled. */
#define MMIO_BAR_ENABLE 0x1ull

struct mmio {
	const struct mmio_ops *ops; /* where reads go when the window is not mapped */
	void *ctx;
	int fd;                     /* /dev/mem (or the fake tree's file), -1 */
	volatile const uint8_t *map; /* mapped window (character device), or NULL */
	uint64_t bar;
	char path[4096];
};

static void mmio_root_path(const char *root, const char *rel, char *buf, size_t len)
{
	bool slash = root && *root && root[strlen(root) - 1] == '/';

	snprintf(buf, len, "%s%s%s", root && *root ? root : "", slash ? "" : "/", rel);
}

/* BAR from the host bridge's config space bytes 48H..4FH. */
static int mmio_bar_from(uint64_t cfg, const char *where, uint64_t *bar, char *err, size_t errlen)
{
	if (!(cfg & MMIO_BAR_ENABLE) || !(cfg & SKL_IMC_BAR_MASK)) {
		snprintf(err, errlen, "the memory controller's register window is not enabled "
			 "(%s offset 48H = 0x%llx): IMC bandwidth is unavailable on this machine",
			 where, (unsigned long long)cfg);
		return -ENODEV;
	}
	*bar = cfg & SKL_IMC_BAR_MASK;
	return 0;
}

/* The files' physical memory: pread on /dev/mem (or the fake tree's file in its place). */
static int mmio_file_mem(void *ctx, uint64_t addr, void *buf, size_t len)
{
	ssize_t n = pread(((struct mmio *)ctx)->fd, buf, len, (off_t)addr);

	return n < 0 ? -errno : (int)n;
}

static const struct mmio_ops mmio_file_ops = { .mem = mmio_file_mem };

int mmio_open_files(const char *root, struct mmio **out, char *err, size_t errlen)
{
	struct mmio *m = xcalloc(1, sizeof(*m));
	char cfgpath[4096], lockdown[128];
	uint64_t cfg = 0;
	struct stat st;
	long page = sysconf(_SC_PAGESIZE);
	int fd, rc;

	*out = NULL;
	m->fd = -1;
	m->ops = &mmio_file_ops;
	m->ctx = m;
	mmio_root_path(root, MMIO_PCI_HOST_BRIDGE, cfgpath, sizeof(cfgpath));
	rc = rootfs_open(root, MMIO_PCI_HOST_BRIDGE, O_RDONLY, ROOTFS_FILE, &fd);
	if (rc || pread(fd, &cfg, sizeof(cfg), SKL_IMC_BAR_PCI_OFFSET) != (ssize_t)sizeof(cfg)) {
		rc = rc ? rc : -EIO;
		snprintf(err, errlen, "cannot read the host bridge's PCI config space %s: %s (run "
			 "pmutop as root for IMC bandwidth)", cfgpath, rootfs_strerror(rc));
		if (fd >= 0)
			close(fd);
		free(m);
		return rc;
	}
	close(fd);
	if ((rc = mmio_bar_from(cfg, cfgpath, &m->bar, err, errlen))) {
		free(m);
		return rc;
	}
	mmio_root_path(root, "dev/mem", m->path, sizeof(m->path));
	rc = rootfs_open(root, "dev/mem", O_RDONLY, ROOTFS_DEVICE, &m->fd);
	if (rc) {
		rootfs_read_line(root, "sys/kernel/security/lockdown", lockdown, sizeof(lockdown));
		if (rc == -EPERM && (strstr(lockdown, "[integrity]") ||
				     strstr(lockdown, "[confidentiality]")))
			snprintf(err, errlen, "kernel lockdown %s (Secure Boot) refuses %s, so the IMC "
				 "counters cannot be read: boot with lockdown=none or without Secure "
				 "Boot; everything else works", lockdown, m->path);
		else
			snprintf(err, errlen, "cannot open %s: %s (the IMC counters need root and a "
				 "kernel that allows /dev/mem: CONFIG_DEVMEM)", m->path, rootfs_strerror(rc));
		free(m);
		return rc;
	}
	if (fstat(m->fd, &st) == 0 && S_ISCHR(st.st_mode)) {
		void *p = mmap(NULL, SKL_IMC_MMIO_SIZE, PROT_READ, MAP_SHARED, m->fd,
			       (off_t)(m->bar & ~(uint64_t)(page - 1)));

		if (p == MAP_FAILED) {
			rc = -errno;
			snprintf(err, errlen, "cannot map the memory controller's window at 0x%llx from "
				 "%s: %s (a kernel with CONFIG_IO_STRICT_DEVMEM needs iomem=relaxed on "
				 "its command line)", (unsigned long long)m->bar, m->path, strerror(-rc));
			mmio_close(m);
			return rc;
		}
		m->map = (volatile const uint8_t *)p + (m->bar & (uint64_t)(page - 1));
	}
	*out = m;
	return 0;
}

int mmio_open_ops(const struct mmio_ops *ops, void *ctx, const char *where, struct mmio **out,
		  char *err, size_t errlen)
{
	struct mmio *m;
	uint64_t cfg = 0, bar;
	int rc;

	*out = NULL;
	if (ops->pci_config(ctx, SKL_IMC_BAR_PCI_OFFSET, &cfg, sizeof(cfg)) != (int)sizeof(cfg))
		cfg = 0;
	if ((rc = mmio_bar_from(cfg, where, &bar, err, errlen)))
		return rc;
	m = xcalloc(1, sizeof(*m));
	m->ops = ops;
	m->ctx = ctx;
	m->fd = -1;
	m->bar = bar;
	snprintf(m->path, sizeof(m->path), "%s's memory", where);
	*out = m;
	return 0;
}

int mmio_read32(struct mmio *m, uint32_t offset, uint32_t *val, char *err, size_t errlen)
{
	int n;

	if (offset + sizeof(*val) > SKL_IMC_MMIO_SIZE)
		return -EINVAL;
	if (m->map) {
		*val = *(volatile const uint32_t *)(m->map + offset);
		return 0;
	}
	n = m->ops->mem(m->ctx, m->bar + offset, val, sizeof(*val));
	if (n == (int)sizeof(*val))
		return 0;
	snprintf(err, errlen, "cannot read the IMC counter at 0x%llx from %s: %s",
		 (unsigned long long)(m->bar + offset), m->path, n < 0 ? strerror(-n) : "short read");
	return -EIO;
}

uint64_t mmio_bar(const struct mmio *m)
{
	return m->bar;
}

void mmio_close(struct mmio *m)
{
	if (!m)
		return;
	if (m->map) {
		long page = sysconf(_SC_PAGESIZE);

		munmap((void *)((uintptr_t)m->map & ~(uintptr_t)(page - 1)), SKL_IMC_MMIO_SIZE);
	}
	if (m->fd >= 0)
		close(m->fd);
	free(m);
}
