/*
 * msr_explain: what a failed open, read or write of a register device
 * means, in one line that says what to do (the driver missing, a refused
 * user, msr-safe's allowlist, lockdown, the write filter).  See msr.h.
 * Any thread.
 */
#include "msr.h"
#include "fdlimit.h"
#include "rootfs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void msr_explain(int err, const char *op, int cpu, uint32_t reg, const char *path,
		 const char *root, const struct msr_allowlist *allow, char *buf, size_t len)
{
	char name[64], filter[64], lockdown[128];

	msr_allow_name(allow, reg, name, sizeof(name));
	switch (-err) {
	case EMFILE:
	case ENFILE: {
		/* one device per CPU is open: the limit, raised as far as allowed, is short */
		char why[400];

		if (fdlimit_room(cpu + 1, why, sizeof(why)))
			snprintf(buf, len, "cannot open %s: %s; pmutop keeps one device open per CPU: "
				 "%s", path, strerror(-err), why);
		else
			snprintf(buf, len, "cannot open %s: %s (the system's open-file table is full?)",
				 path, strerror(-err));
		return;
	}
	case ENOENT:
		snprintf(buf, len, "%s does not exist: load the msr driver with 'modprobe msr' "
			 "(or install msr-safe), or run 'pmutop --sim nehalem-ep' to see an "
			 "emulated machine", path);
		return;
	case EACCES:
		if (strcmp(op, "write") == 0 && !msr_allow_find(allow, reg)) {
			snprintf(buf, len, "pmutop refuses to write MSR %s on CPU %d: it is not a "
				 "performance-monitoring register on pmutop's allowlist", name, cpu);
			return;
		}
		/* fall through */
	case EPERM:
		if (strcmp(op, "open") && strstr(path, "msr_safe")) {
			/* msr-safe answers only for the registers (and bits) on its allowlist */
			snprintf(buf, len, "msr-safe refused to %s MSR %s on CPU %d: its allowlist "
				 "lacks pmutop's registers; as root: pmutop --msr-safe-allowlist > "
				 "/dev/cpu/msr_allowlist", op, name, cpu);
			return;
		}
		if (strcmp(op, "write") == 0) {
			rootfs_read_line(root, "sys/module/msr/parameters/allow_writes", filter,
					 sizeof(filter));
			rootfs_read_line(root, "sys/kernel/security/lockdown", lockdown,
					 sizeof(lockdown));
			if (strstr(lockdown, "[integrity]") || strstr(lockdown, "[confidentiality]"))
				snprintf(buf, len, "the kernel refused writing MSR %s on CPU %d: it is "
					 "locked down (%s, usually because of Secure Boot); boot "
					 "with lockdown=none or use msr-safe", name, cpu, lockdown);
			else if (strcmp(filter, "off") == 0 || strcmp(filter, "default") == 0)
				snprintf(buf, len, "the kernel refused writing MSR %s on CPU %d: msr "
					 "writes are filtered (allow_writes=%s); as root: echo on > "
					 "/sys/module/msr/parameters/allow_writes", name, cpu, filter);
			else
				snprintf(buf, len, "the kernel refused writing MSR %s on CPU %d "
					 "(write filtering or lockdown); check "
					 "/sys/module/msr/parameters/allow_writes and "
					 "/sys/kernel/security/lockdown", name, cpu);
			return;
		}
		if (-err == EPERM && geteuid() != 0) {
			/* the file's permissions let this user in; the driver wants the capability */
			snprintf(buf, len, "the msr driver refuses %s to a user without "
				 "CAP_SYS_RAWIO (the file itself lets this user in): as root, setcap "
				 "cap_sys_rawio+ep $(command -v pmutop); or use msr-safe with 'pmutop "
				 "--msr-safe-allowlist'", path);
			return;
		}
		snprintf(buf, len, "permission denied opening %s: run pmutop as root, or give it "
			 "CAP_SYS_RAWIO (setcap cap_sys_rawio+ep pmutop) and read access to "
			 "/dev/cpu/*/msr, or install msr-safe with the allowlist 'pmutop "
			 "--msr-safe-allowlist' prints", path);
		return;
	case EIO:
		snprintf(buf, len, "CPU %d cannot %s MSR %s: the register is not implemented on "
			 "this CPU model (the layout may not match it; see 'pmutop --doctor')", cpu,
			 op, name);
		return;
	case ENXIO:
	case ENODEV:
		snprintf(buf, len, "CPU %d is offline or does not exist (%s MSR %s)", cpu, op, name);
		return;
	}
	snprintf(buf, len, "cannot %s MSR %s on CPU %d through %s: %s", op, name, cpu, path,
		 strerror(-err));
}

