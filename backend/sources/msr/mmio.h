/*
 * mmio: the Skylake client memory controller's free-running counters,
 * read from physical memory.
 *
 * Seed 001 section 3.3: the five 32-bit DRAM counters live at BAR +
 * 5040H..5057H, where BAR is the 64-bit value at offset 48H of the PCI
 * configuration space of bus 0, device 0, function 0 (the host bridge),
 * masked with 0x0007FFFF8000 (bit 0 says the window is enabled).
 *
 * Two backends behind one table of operations (as the register layer's
 * msr_ops): this machine's (or a --root tree's)
 * ROOT/sys/bus/pci/devices/0000:00:00.0/config and ROOT/dev/mem; or any
 * other host bridge and physical memory, such as the emulator's (--sim,
 * emu_mmio_ops).  /dev/mem as a
 * character device is mapped once (uncached device memory, as the
 * hardware wants); a plain file in its place (the fake device tree of the
 * tests) is read with pread, so every read reaches the file's server.
 * Nothing is ever written.  Sampler thread after open (read only).
 */
#ifndef PMUTOP_MMIO_H
#define PMUTOP_MMIO_H

#include <stddef.h>
#include <stdint.h>

struct mmio;

/* The host bridge's config space and physical memory: bytes read, or -errno. */
struct mmio_ops {
	int (*pci_config)(void *ctx, uint64_t offset, void *buf, size_t len);
	int (*mem)(void *ctx, uint64_t addr, void *buf, size_t len);
};

#define MMIO_PCI_HOST_BRIDGE "sys/bus/pci/devices/0000:00:00.0/config"

/*
 * Open the IMC counter window of the machine under ROOT (NULL: this one).
 * 0, or -errno with one line in ERR saying why (no host bridge config, the
 * window disabled, /dev/mem refused by permissions or by kernel lockdown)
 * and what to do.
 */
int mmio_open_files(const char *root, struct mmio **out, char *err, size_t errlen);

/*
 * The same window through OPS over CTX (WHERE names it in messages);
 * -ENODEV when the window is not enabled.
 */
int mmio_open_ops(const struct mmio_ops *ops, void *ctx, const char *where, struct mmio **out,
		  char *err, size_t errlen);

/* The 32-bit counter at OFFSET from the BAR.  0 or -errno (ERR says what failed). */
int mmio_read32(struct mmio *m, uint32_t offset, uint32_t *val, char *err, size_t errlen);

/* Physical address of the window (the masked BAR). */
uint64_t mmio_bar(const struct mmio *m);

void mmio_close(struct mmio *m);

#endif
