/*
 * doctor_sched: whether the sampler thread can take the lowest real-time
 * priority (engine_thread.c), which keeps the turns of the groups pmutop
 * rotates itself regular on a busy machine.  Tried on the calling thread
 * and put back at once.  See doctor_int.h.
 */
#include "doctor_int.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

void doctor_sampler(struct doctor_ctx *c, struct doctor_line *l)
{
	struct sched_param old, fifo = { .sched_priority = 1 };
	int policy = sched_getscheduler(0), err = 0;

	(void)c;
	if (policy < 0 || sched_getparam(0, &old)) {
		l->state = DOCTOR_NA;
		snprintf(l->found, sizeof(l->found), "not checked: %s", strerror(errno));
		return;
	}
	if (policy != SCHED_FIFO && sched_setscheduler(0, SCHED_FIFO, &fifo))
		err = errno;
	else if (policy != SCHED_FIFO)
		sched_setscheduler(0, policy, &old);
	if (!err) {
		snprintf(l->found, sizeof(l->found),
			 "SCHED_FIFO 1 available: where pmutop rotates groups itself (the register "
			 "source) its sampler takes it, so their turns stay regular on a busy machine "
			 "(--no-realtime: normal priority)");
		return;
	}
	l->state = DOCTOR_WARN;
	snprintf(l->found, sizeof(l->found),
		 "normal priority only (%s): on a busy machine the register source's rotated "
		 "figures lean toward the phases its sampler ran in (README: Accuracy; through "
		 "perf the kernel rotates them)", strerror(err));
	snprintf(l->fix, sizeof(l->fix),
		 "run pmutop as root, or give it CAP_SYS_NICE (setcap cap_sys_nice=ep pmutop) or an "
		 "rtprio limit of 1 (limits.conf)");
}
