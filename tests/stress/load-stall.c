// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * load-stall: stop ONE thread of a running process for a while, then let
 * it go (tests/stress/load-storm.sh uses it on the plugin's audit writer,
 * to make the audit ring fill up under a storm and show that the SA
 * thread drops and counts records instead of waiting).  SIGSTOP would
 * stop every thread; a ptrace interrupt stops only the one traced.
 *
 *	load-stall TID SECONDS
 *
 * Exit 0 when the thread was stopped for SECONDS and released, 1 when it
 * could not be (no such thread, no permission: run as root or with
 * CAP_SYS_PTRACE), 2 on bad usage.
 */
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>

static int usage(const char *why)
{
	fprintf(stderr,
		"load-stall: %s\nusage: load-stall TID SECONDS (SECONDS "
		"1..600)\n",
		why);
	return 2;
}

/*
 * Stopping a thread inside a critical section would block every other
 * thread on its lock, which is not what a slow disk does.  Accept a stop
 * only inside write(2) or a futex wait (pthread_cond_wait() has released
 * its mutex; a wait for a contended mutex holds none), as
 * /proc/TID/syscall shows them: "1 fd ..." or "202 addr op ...".
 */
static int holds_no_lock(long tid)
{
	char path[64], buf[256];
	unsigned long nr, addr, op;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/proc/%ld/syscall", tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fgets(buf, sizeof(buf), f)
		    ? sscanf(buf, "%lu %lx %lx", &nr, &addr, &op)
		    : 0;
	fclose(f);
	if (n >= 1 && nr == 1)
		return 1; /* write(2) */
	/* futex(2): FUTEX_WAIT (0) or FUTEX_WAIT_BITSET (9), any flags */
	return n == 3 && nr == 202 && ((op & 0x7f) == 0 || (op & 0x7f) == 9);
}

int main(int argc, char **argv)
{
	struct timespec ts;
	char *end;
	long tid, secs;
	int st, tries;

	if (argc != 3)
		return usage("wrong number of arguments");
	tid = strtol(argv[1], &end, 10);
	if (*end || tid <= 0)
		return usage("TID must be a thread id");
	secs = strtol(argv[2], &end, 10);
	if (*end || secs < 1 || secs > 600)
		return usage("SECONDS must be 1..600");

	if (ptrace(PTRACE_SEIZE, (pid_t)tid, NULL, NULL)) {
		fprintf(stderr,
			"load-stall: cannot trace thread %ld: %s; run as root "
			"or with CAP_SYS_PTRACE\n",
			tid, strerror(errno));
		return 1;
	}
	for (tries = 0;; tries++) {
		if (ptrace(PTRACE_INTERRUPT, (pid_t)tid, NULL, NULL) ||
		    waitpid((pid_t)tid, &st, __WALL) < 0) {
			fprintf(stderr,
				"load-stall: cannot stop thread %ld: %s\n", tid,
				strerror(errno));
			ptrace(PTRACE_DETACH, (pid_t)tid, NULL, NULL);
			return 1;
		}
		if (holds_no_lock(tid))
			break;
		if (tries == 1000) {
			fprintf(stderr,
				"load-stall: thread %ld never stopped outside "
				"a lock in 1000 tries; not stalled\n",
				tid);
			ptrace(PTRACE_DETACH, (pid_t)tid, NULL, NULL);
			return 1;
		}
		/* Let it run a little and try again. */
		ptrace(PTRACE_CONT, (pid_t)tid, NULL, NULL);
		ts.tv_sec = 0;
		ts.tv_nsec = 1000000;
		nanosleep(&ts, NULL);
	}
	ts.tv_sec = secs;
	ts.tv_nsec = 0;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	/* A group-stop or signal stop would be resumed by detaching too;
	 * the thread carries on where it was interrupted. */
	if (ptrace(PTRACE_DETACH, (pid_t)tid, NULL, NULL)) {
		fprintf(stderr, "load-stall: cannot release thread %ld: %s\n",
			tid, strerror(errno));
		return 1;
	}
	printf("load-stall: thread %ld stopped for %ld s\n", tid, secs);
	return 0;
}
