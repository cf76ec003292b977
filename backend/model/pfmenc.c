/*
 * pfmenc: libpfm4 wrapper.  The raw value libpfm4 returns is decoded
 * field by field with the PERFEVTSEL layout of seed 000 Appendix II.
 */
#include "pfmenc.h"
#include "pmu_regs.h"

#include <errno.h>
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int pfmenc_init(char *err, size_t errlen)
{
	static int state; /* 0 not tried, 1 ready, -1 failed */
	static char why[128];
	int rc;

	if (!state) {
		/* encode for the PMU a layout names even when this CPU is another one */
		setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
		rc = pfm_initialize();
		state = rc == PFM_SUCCESS ? 1 : -1;
		if (state < 0)
			snprintf(why, sizeof(why), "libpfm4 failed to initialise: %s",
				 pfm_strerror(rc));
	}
	if (state < 0)
		snprintf(err, errlen, "%s", why);
	return state > 0 ? 0 : -EIO;
}

int pfmenc_encode(const char *pmu, const char *name, struct pfmenc_fields *f, char *err,
		  size_t errlen)
{
	pfm_pmu_encode_arg_t arg;
	char full[320], *fstr = NULL;
	uint64_t v;
	int rc = pfmenc_init(err, errlen);

	if (rc)
		return rc;
	memset(f, 0, sizeof(*f));
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.fstr = &fstr;
	snprintf(full, sizeof(full), "%s::%s", pmu, name);
	rc = pfm_get_os_event_encoding(full, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg);
	if (rc != PFM_SUCCESS) {
		snprintf(err, errlen, "%s", pfm_strerror(rc));
		free(arg.codes);
		return -EINVAL;
	}
	v = arg.codes[0];
	f->event = (unsigned)(v & EVTSEL_EVENT_MASK);
	f->umask = (unsigned)((v & EVTSEL_UMASK_MASK) >> EVTSEL_UMASK_SHIFT);
	f->cmask = (unsigned)((v & EVTSEL_CMASK_MASK) >> EVTSEL_CMASK_SHIFT);
	f->inv = (v & EVTSEL_INV) != 0;
	f->edge = (v & EVTSEL_EDGE) != 0;
	f->any = (v & EVTSEL_ANY) != 0;
	/* the OFFCORE_RESPONSE events carry the matrix MSR value as a second code */
	if (arg.count > 1) {
		f->has_offcore = true;
		f->offcore = arg.codes[1];
	}
	snprintf(f->canonical, sizeof(f->canonical), "%s", fstr ? fstr : full);
	free(fstr);
	free(arg.codes);
	return 0;
}
