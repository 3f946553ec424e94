// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Audit log writer: bounded ring filled by the SA thread, drained by one
 * background thread that formats and write(2)s batches.  See audit.h for
 * the contract and docs/audit.md for the file.
 *
 * Locking: one mutex guards the ring indexes and all counters.  Submitters
 * hold it only to copy one record in; the writer holds it only to look at
 * and to retire a batch, never across formatting or I/O.  The slots of a
 * batch the writer is working on stay inside [head, head+count), so no
 * submitter touches them until the writer retires them.
 */
#define _GNU_SOURCE /* pthread_setname_np */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <osmqos/clock.h>

#include "audit.h"
#include "audit_int.h"

/* Bytes formatted before one write(2); at least one maximal line more. */
#define BATCH_BYTES (64 * 1024)
/*
 * How often an idle writer looks at its path.  The path is looked at
 * before a batch whenever a second has passed since the last look, so
 * after a quiet spell the first records go to the new file; the idle look
 * only lets go of a file rotated away while no records came (its space
 * freed once logrotate deletes it).  Each wake-up of the thread costs
 * opensm CPU (about a millisecond at 2,700 nodes on the VMs of
 * docs/performance.md "The plugin's threads between sweeps"): five a
 * second were a cost an idle SM showed in top and each sweep in its CPU.
 */
#define IDLE_CHECK_MS 30000
/*
 * Under a query storm, waking the writer and calling write(2) for every
 * record would cost the SA more than answering.  The writer lets records
 * gather for up to COALESCE_MS after the first one, or until BATCH_WAKE
 * are queued, and writes them in one go.
 */
#define COALESCE_MS 20
#define BATCH_WAKE 512
/* "records dropped, queue full" is logged at most this often. */
#define DROP_LOG_SECS 10
/* How often the writer looks whether the path still names its file. */
#define PATH_CHECK_MS 1000

static void say(struct oq_audit *w, enum oq_audit_log_level lvl,
		const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void say(struct oq_audit *w, enum oq_audit_log_level lvl,
		const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	if (!w->log_fn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	w->log_fn(w->log_ctx, lvl, msg);
}

/* A deadline ms from now for the writer's condition variables (they wait
 * on CLOCK_MONOTONIC, the clock of oq_clock_ns()). */
static void deadline_in(struct timespec *ts, int ms)
{
	uint64_t due = oq_clock_ns() + (uint64_t)ms * 1000000ull;

	ts->tv_sec = (time_t)(due / 1000000000ull);
	ts->tv_nsec = (long)(due % 1000000000ull);
}

/*
 * Open for appending without following a symlink at the last component;
 * a file we create gets exactly OQ_AUDIT_FILE_MODE.  O_NONBLOCK keeps a
 * FIFO planted at the path from blocking the open; it is refused below.
 * Returns the fd, or -1 with a reason in why.
 */
static int open_audit_file(const char *path, char *why, size_t len)
{
	const int flags =
		O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK;
	bool created = false;
	struct stat sb = {0};
	int fd = -1, tries;

	/* O_EXCL tells us whether we created it (then set the mode whatever
	 * the umask); retry if the file vanishes or appears in between. */
	for (tries = 0; tries < 4 && fd < 0; tries++) {
		fd = open(path, flags | O_CREAT | O_EXCL, OQ_AUDIT_FILE_MODE);
		if (fd >= 0) {
			created = true;
			break;
		}
		if (errno != EEXIST)
			break;
		fd = open(path, flags);
		if (fd < 0 && errno != ENOENT)
			break;
	}
	if (fd < 0) {
		if (errno == ELOOP)
			oq_audit_why_not_file(path, S_IFLNK, why, len);
		else if (errno == ENXIO)
			/* What opening a FIFO with no reader (O_NONBLOCK),
			 * or a socket, for writing says. */
			oq_audit_why_not_file(path, S_IFIFO, why, len);
		else if (errno == EISDIR)
			oq_audit_why_not_file(path, S_IFDIR, why, len);
		else
			snprintf(why, len,
				 "cannot open %s: %s; check that its "
				 "directory exists and is writable",
				 path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		oq_audit_why_not_file(path, sb.st_mode, why, len);
		close(fd);
		return -1;
	}
	/* Someone else's file, or one with something else in it: the
	 * trail is not appended to it (audit_path.c says why). */
	if (!created && !oq_audit_file_fits(path, &sb, geteuid(), why, len)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	if (created && fchmod(fd, OQ_AUDIT_FILE_MODE)) {
		snprintf(why, len, "cannot set mode 0%o on %s: %s",
			 OQ_AUDIT_FILE_MODE, path, strerror(errno));
		close(fd);
		return -1;
	}
	if (fcntl(fd, F_SETFL, O_WRONLY | O_APPEND) < 0) {
		snprintf(why, len, "cannot set flags on %s: %s", path,
			 strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static void remember_bad_path(struct oq_audit *w)
{
	struct stat ps;

	w->bad_valid = true;
	w->bad_missing = lstat(w->path, &ps) != 0;
	w->bad_dev = w->bad_missing ? 0 : ps.st_dev;
	w->bad_ino = w->bad_missing ? 0 : ps.st_ino;
}

/* The open file has no link left: what is written to it reaches no file. */
static bool open_file_deleted(struct oq_audit *w)
{
	struct stat fs;

	return !fstat(w->fd, &fs) && !fs.st_nlink;
}

static void do_reopen(struct oq_audit *w, const char *why_reopen)
{
	char why[512];
	/* What failed last time failing again (a path still missing, tried
	 * every check; the same file or link) is not said again. */
	bool was_valid = w->bad_valid, was_missing = w->bad_missing;
	dev_t was_dev = w->bad_dev;
	ino_t was_ino = w->bad_ino;
	int fd = open_audit_file(w->path, why, sizeof(why));
	bool same;

	if (fd < 0) {
		remember_bad_path(w);
		same = was_valid && was_missing == w->bad_missing &&
		       was_dev == w->bad_dev && was_ino == w->bad_ino;
		if (open_file_deleted(w)) {
			if (!w->orphaned || !same)
				say(w, OQ_AUDIT_LOG_ERROR,
				    "audit: records are being lost: the open "
				    "file was deleted (or moved to another "
				    "file system) and reopening %s failed: "
				    "%s; put a regular file (or nothing) back "
				    "at that path, or restart opensm with "
				    "audit= naming the trail's new place; the "
				    "path is tried again at each look (before "
				    "a batch, at most once a second), and "
				    "records lost until then count as dropped",
				    w->path, why);
			w->orphaned = true;
			return;
		}
		if (!same)
			say(w, OQ_AUDIT_LOG_ERROR,
			    "audit: reopen failed: %s; still writing to the "
			    "previously open file, and trying again at each "
			    "look while the path is missing",
			    why);
		return;
	}
	close(w->fd);
	w->fd = fd;
	w->mid_line = false;
	w->bad_valid = false;
	pthread_mutex_lock(&w->lock);
	w->st.reopens++;
	pthread_mutex_unlock(&w->lock);
	say(w, OQ_AUDIT_LOG_INFO, "audit: reopened %s%s", w->path, why_reopen);
	if (w->orphaned)
		say(w, OQ_AUDIT_LOG_INFO,
		    "audit: writing %s again; %llu records were lost while "
		    "the open file was deleted",
		    w->path, (unsigned long long)w->orphan_lost);
	w->orphaned = false;
	w->orphan_lost = 0;
}

/*
 * Rotation without a signal: OpenSM keeps SIGHUP for itself (it starts a
 * heavy sweep), so the writer also notices, before a batch at most once a
 * second and every IDLE_CHECK_MS while idle, that the path was renamed,
 * removed or replaced, and reopens it.  That its open file was deleted is
 * also looked at before every batch (writing: one fstat), so no record is
 * counted written into a file that is gone.
 */
static bool path_moved(struct oq_audit *w, bool writing)
{
	uint64_t now;
	struct stat ps, fs;

	if (atomic_load(&w->no_path_check))
		return false;
	if (writing && !w->orphaned && open_file_deleted(w))
		return true;
	now = oq_clock_ns();
	if (w->last_path_check_ns &&
	    oq_ms_since(w->last_path_check_ns) < PATH_CHECK_MS)
		return false;
	w->last_path_check_ns = now;
	/* Deleted (and not reopened yet): tried every check, like a path
	 * that is missing. */
	if (w->orphaned || open_file_deleted(w))
		return true;
	/* Missing: tried every check (the directory may be back; a file
	 * moved away may be deleted next, taking what is written to it). */
	if (lstat(w->path, &ps))
		return errno == ENOENT;
	if (fstat(w->fd, &fs))
		return false;
	if (ps.st_dev == fs.st_dev && ps.st_ino == fs.st_ino)
		return false;
	return !(w->bad_valid && !w->bad_missing && ps.st_dev == w->bad_dev &&
		 ps.st_ino == w->bad_ino);
}

/* writing: a batch is about to be written. */
static void maybe_reopen(struct oq_audit *w, bool writing)
{
	if (atomic_exchange(&w->reopen_req, false))
		do_reopen(w, "");
	else if (path_moved(w, writing))
		do_reopen(w, " (it was moved, removed or replaced)");
}

/* write(2) all of data; false on error (errno set), *done gets the
 * bytes that reached the file either way. */
static bool write_all(struct oq_audit *w, const char *data, size_t len,
		      size_t *done)
{
	const char *p = data;

	*done = 0;

	while (len) {
		int fail = atomic_load(&w->fail_errno);
		ssize_t n;

		if (fail) {
			errno = fail;
			n = -1;
		} else {
			n = write(w->fd, p, len);
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = EIO;
			if (p != data && p[-1] != '\n')
				w->mid_line = true;
			return false;
		}
		p += n;
		len -= (size_t)n;
		*done += (size_t)n;
	}
	return true;
}

/* Write n formatted lines in buf[0..len); returns how many complete
 * lines reached the file (the rest are lost, counted by the caller). */
static size_t flush_chunk(struct oq_audit *w, size_t len, size_t n)
{
	size_t done = 0, lines = 0, i;
	int err;

	/* End a partial line left by an earlier failure so every complete
	 * line still parses on its own. */
	if (w->mid_line) {
		if (!write_all(w, "\n", 1, &done)) {
			done = 0;
			goto fail;
		}
		w->mid_line = false;
	}
	if (write_all(w, w->buf, len, &done)) {
		if (w->in_error) {
			w->in_error = false;
			say(w, OQ_AUDIT_LOG_INFO,
			    "audit: writing %s again after %llu failed "
			    "writes; %llu records were lost",
			    w->path, (unsigned long long)w->err_writes,
			    (unsigned long long)w->err_lost);
		}
		return n;
	}
fail:
	err = errno;
	/* a short write before the error: its complete lines are in */
	for (i = 0; i < done; i++)
		lines += w->buf[i] == '\n';
	pthread_mutex_lock(&w->lock);
	w->st.write_errors++;
	pthread_mutex_unlock(&w->lock);
	if (!w->in_error) {
		w->in_error = true;
		w->err_writes = 0;
		w->err_lost = 0;
		say(w, OQ_AUDIT_LOG_ERROR,
		    "audit: cannot write %s: %s; dropping audit records "
		    "until writes succeed again (the SA is not affected); "
		    "free space on its file system or check it for errors",
		    w->path, strerror(err));
	}
	w->err_writes++;
	return lines;
}

/* Give taken slots back to submitters, and account for them. */
static void retire(struct oq_audit *w, size_t taken, size_t written,
		   size_t lines)
{
	pthread_mutex_lock(&w->lock);
	w->head = (w->head + taken) % w->cap;
	w->count -= taken;
	/* Drained: start again at slot 0, so a steady stream reuses the
	 * same few hundred slots (cache-warm) instead of cycling through
	 * the whole ring (10 MiB by default) and missing the cache on
	 * every record, in the SA thread and here. */
	if (!w->count)
		w->head = 0;
	w->retired += taken;
	w->st.written += written;
	w->st.lines += lines;
	w->st.dropped += taken - written;
	pthread_cond_broadcast(&w->drained);
	pthread_mutex_unlock(&w->lock);
}

/* Identity of an answer without its time: the bytes after the time
 * field (records are zeroed before they are filled, so padding and the
 * unused ends of strings are zeros and equal answers are equal bytes). */
#define REC_KEY_OFF offsetof(struct oq_audit_record, requester_guid)
#define REC_KEY_LEN (sizeof(struct oq_audit_record) - REC_KEY_OFF)

static const void *rec_key(const struct oq_audit_record *r)
{
	return (const char *)r + REC_KEY_OFF;
}

/* Cheap hash of the fields that tell answers apart; equal keys are then
 * compared whole. */
static uint64_t rec_hash(const struct oq_audit_record *r)
{
	uint64_t h = r->requester_guid * 0x9e3779b97f4a7c15ull;

	h ^= r->src.guid + 0x632be59bd9b4e019ull + (h << 6) + (h >> 2);
	h ^= r->dst.guid + 0x632be59bd9b4e019ull + (h << 6) + (h >> 2);
	h ^= r->sid + r->comp_mask + ((uint64_t)r->g_slid << 32) + r->g_dlid +
	     (h << 6) + (h >> 2);
	h ^= (uint64_t)(uint32_t)r->rule + ((uint64_t)r->g_sl << 40) +
	     ((uint64_t)r->requester_lid << 48);
	return h ^ (h >> 29);
}

/* Group the batch's identical answers: agg_reps[] gets the position of
 * each distinct answer's first record, agg_count[]/agg_last[] its count
 * and last time.  Returns the number of distinct answers. */
static size_t group_batch(struct oq_audit *w, size_t start, size_t n)
{
	size_t i, reps = 0, mask = w->agg_cap - 1, j;

	for (i = 0; i < n; i++) {
		const struct oq_audit_record *r =
			&w->ring[(start + i) % w->cap];
		uint32_t k;

		for (j = rec_hash(r) & mask; w->agg_slot[j];
		     j = (j + 1) & mask) {
			k = w->agg_slot[j] - 1;
			if (!memcmp(rec_key(&w->ring[(start + k) % w->cap]),
				    rec_key(r), REC_KEY_LEN))
				break;
		}
		if (w->agg_slot[j]) {
			k = w->agg_slot[j] - 1;
			w->agg_count[k]++;
			w->agg_last[k] = r->time;
			continue;
		}
		w->agg_slot[j] = (uint32_t)i + 1;
		w->agg_count[i] = 1;
		w->agg_reps[reps++] = (uint32_t)i;
	}
	/* Empty the table for the next batch (batches come at most every
	 * COALESCE_MS or BATCH_WAKE records). */
	if (reps)
		memset(w->agg_slot, 0, w->agg_cap * sizeof(*w->agg_slot));
	return reps;
}

/* Lines [from, to) of a chunk -> the records they stand for. */
static size_t chunk_records(const struct oq_audit *w, size_t from, size_t to)
{
	size_t i, recs = 0;

	for (i = from; i < to; i++)
		recs += w->line_recs[i];
	return recs;
}

/* Write a chunk of lines; the records of its complete lines count as
 * written, the others as lost. */
static size_t flush_lines(struct oq_audit *w, size_t pos, size_t lines,
			  size_t *n_lines)
{
	size_t ok = flush_chunk(w, pos, lines);

	*n_lines += ok;
	w->err_lost += chunk_records(w, ok, lines);
	return chunk_records(w, 0, ok);
}

/* Format and write ring slots [start, start+n), one line per distinct
 * answer, and retire them once written. */
static void write_batch(struct oq_audit *w, size_t start, size_t n)
{
	size_t pos = 0, lines = 0, written = 0, n_lines = 0, reps, i;

	/* Written to a deleted file they would be in no file: dropped. */
	if (w->orphaned) {
		w->orphan_lost += n;
		retire(w, n, 0, 0);
		return;
	}
	reps = group_batch(w, start, n);
	for (i = 0; i < reps; i++) {
		uint32_t k = w->agg_reps[i];
		const struct oq_audit_record *r =
			&w->ring[(start + k) % w->cap];
		size_t len;

		/* buf holds BATCH_BYTES + OQ_AUDIT_LINE_MAX */
		if (pos >= BATCH_BYTES) {
			written += flush_lines(w, pos, lines, &n_lines);
			pos = 0;
			lines = 0;
		}
		len = oq_audit_format_n(r, w->agg_count[k], &w->agg_last[k],
					w->buf + pos, OQ_AUDIT_LINE_MAX);
		if (!len)
			continue; /* cannot happen: counted as dropped */
		w->line_recs[lines++] = w->agg_count[k];
		pos += len;
	}
	if (lines)
		written += flush_lines(w, pos, lines, &n_lines);
	retire(w, n, written, n_lines);
}

/* When a count of records dropped on a full queue may be logged again:
 * DROP_LOG_SECS after the last one (0: never logged, so at once). */
static uint64_t full_log_due_ns(const struct oq_audit *w)
{
	return w->last_full_log_ns
		       ? w->last_full_log_ns + DROP_LOG_SECS * 1000000000ull
		       : 0;
}

static void log_full_drops(struct oq_audit *w, bool force)
{
	uint64_t full, now;

	pthread_mutex_lock(&w->lock);
	full = w->st.dropped_full;
	pthread_mutex_unlock(&w->lock);
	if (full == w->logged_full)
		return;
	now = oq_clock_ns();
	if (!force && now < full_log_due_ns(w))
		return;
	say(w, OQ_AUDIT_LOG_ERROR,
	    "audit: %llu records dropped because the queue of %zu was full "
	    "(%llu in total); the audit file system is too slow or stalled "
	    "(check it, or put the trail on a local disk)",
	    (unsigned long long)(full - w->logged_full), w->cap,
	    (unsigned long long)full);
	w->logged_full = full;
	w->last_full_log_ns = now;
}

/* The writer holds w->lock.  True while a small batch should wait for
 * more records (see COALESCE_MS); *until is the end of that wait. */
static bool coalesce(struct oq_audit *w, bool *waiting, struct timespec *until)
{
	if (w->stop || !w->count || w->count >= BATCH_WAKE ||
	    w->count >= w->cap / 2) {
		*waiting = false;
		return false;
	}
	if (!*waiting) {
		deadline_in(until, COALESCE_MS);
		*waiting = true;
	}
	if (oq_clock_ns() >= (uint64_t)until->tv_sec * 1000000000ull +
				     (uint64_t)until->tv_nsec) {
		*waiting = false;
		return false;
	}
	return true;
}

/* The writer holds w->lock.  How long an idle writer sleeps: until its
 * next look at the path, or sooner when a count of records dropped on a
 * full queue waits to be logged (log_full_drops). */
static int idle_wait_ms(const struct oq_audit *w)
{
	uint64_t due = full_log_due_ns(w), now = oq_clock_ns();

	if (w->st.dropped_full == w->logged_full)
		return IDLE_CHECK_MS;
	return due > now ? (int)((due - now) / 1000000u) + 1 : 1;
}

static void *writer_main(void *arg)
{
	struct oq_audit *w = arg;
	struct timespec until;
	bool waiting = false;

	/* Named for top -H and ps -L (and the load test, which stops it). */
	pthread_setname_np(pthread_self(), "osmqos-audit");
	pthread_mutex_lock(&w->lock);
	for (;;) {
		size_t start, n;

		if (!w->paused && coalesce(w, &waiting, &until)) {
			pthread_cond_timedwait(&w->wake, &w->lock, &until);
			continue;
		}
		if (!w->stop && (w->paused || !w->count)) {
			struct timespec ts;

			deadline_in(&ts, idle_wait_ms(w));
			/* A reopen asked while the writer was busy. */
			if (!atomic_load(&w->reopen_req))
				pthread_cond_timedwait(&w->wake, &w->lock, &ts);
			pthread_mutex_unlock(&w->lock);
			maybe_reopen(w, false);
			log_full_drops(w, false);
			pthread_mutex_lock(&w->lock);
			/* The phases line's audit CPU counts the looks too. */
			w->st.cpu_ns = oq_thread_cpu_ns();
			continue;
		}
		if (!w->count)
			break; /* stopping and drained */
		start = w->head;
		n = w->count;
		pthread_mutex_unlock(&w->lock);

		maybe_reopen(w, true);
		write_batch(w, start, n);
		log_full_drops(w, false);
		pthread_mutex_lock(&w->lock);
		w->st.cpu_ns = oq_thread_cpu_ns();
	}
	pthread_mutex_unlock(&w->lock);
	log_full_drops(w, true);
	return NULL;
}

static void free_agg(struct oq_audit *w)
{
	free(w->agg_slot);
	free(w->agg_count);
	free(w->agg_last);
	free(w->agg_reps);
	free(w->line_recs);
}

static void init_cond(pthread_cond_t *c)
{
	pthread_condattr_t a;

	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(c, &a);
	pthread_condattr_destroy(&a);
}

struct oq_audit *oq_audit_create(const char *path, size_t capacity,
				 oq_audit_log_fn log_fn, void *ctx)
{
	struct oq_audit *w;
	sigset_t all, old;
	char why[512];
	int err;

	if (!path || !*path) {
		if (log_fn)
			log_fn(ctx, OQ_AUDIT_LOG_ERROR,
			       "audit: no file name given; set audit=PATH");
		errno = EINVAL;
		return NULL;
	}
	if (!capacity)
		capacity = OQ_AUDIT_DEFAULT_CAPACITY;
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->log_fn = log_fn;
	w->log_ctx = ctx;
	w->cap = capacity;
	w->fd = -1;
	w->path = strdup(path);
	w->ring = calloc(capacity, sizeof(*w->ring));
	w->buf = malloc(BATCH_BYTES + OQ_AUDIT_LINE_MAX);
	for (w->agg_cap = 16; w->agg_cap < 2 * capacity; w->agg_cap <<= 1)
		;
	w->agg_slot = calloc(w->agg_cap, sizeof(*w->agg_slot));
	w->agg_count = malloc(capacity * sizeof(*w->agg_count));
	w->agg_last = malloc(capacity * sizeof(*w->agg_last));
	w->agg_reps = malloc(capacity * sizeof(*w->agg_reps));
	w->line_recs = malloc(capacity * sizeof(*w->line_recs));
	if (!w->path || !w->ring || !w->buf || !w->agg_slot || !w->agg_count ||
	    !w->agg_last || !w->agg_reps || !w->line_recs) {
		say(w, OQ_AUDIT_LOG_ERROR,
		    "audit: out of memory for a queue of %zu records; lower "
		    "the queue size",
		    capacity);
		err = ENOMEM;
		goto fail;
	}
	w->fd = open_audit_file(path, why, sizeof(why));
	if (w->fd < 0) {
		err = errno;
		say(w, OQ_AUDIT_LOG_ERROR, "audit: %s", why);
		goto fail;
	}
	atomic_init(&w->reopen_req, false);
	atomic_init(&w->fail_errno, 0);
	atomic_init(&w->no_path_check, false);
	pthread_mutex_init(&w->lock, NULL);
	init_cond(&w->wake);
	init_cond(&w->drained);

	/* The writer takes no signals: OpenSM's own threads handle them. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&w->thread, NULL, writer_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		say(w, OQ_AUDIT_LOG_ERROR,
		    "audit: cannot start the writer thread: %s", strerror(err));
		pthread_cond_destroy(&w->drained);
		pthread_cond_destroy(&w->wake);
		pthread_mutex_destroy(&w->lock);
		goto fail;
	}
	return w;
fail:
	if (w->fd >= 0)
		close(w->fd);
	free(w->buf);
	free_agg(w);
	free(w->ring);
	free(w->path);
	free(w);
	errno = err;
	return NULL;
}

void oq_audit_close(struct oq_audit *w, struct oq_audit_stats *st)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->stop = true;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	/* do not leave a cut line without its newline */
	if (w->mid_line && write(w->fd, "\n", 1) != 1)
		say(w, OQ_AUDIT_LOG_ERROR,
		    "audit: %s ends in a cut line (write error); readers skip "
		    "it",
		    w->path);
	/* After the join: the writer has drained the ring. */
	if (st)
		oq_audit_get_stats(w, st);
	close(w->fd);
	pthread_cond_destroy(&w->drained);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(w->buf);
	free_agg(w);
	free(w->ring);
	free(w->path);
	free(w);
}

void oq_audit_destroy(struct oq_audit *w)
{
	oq_audit_close(w, NULL);
}

int oq_audit_submit(struct oq_audit *w, const struct oq_audit_record *rec)
{
	struct timespec now = {0, 0};
	struct oq_audit_record *slot;

	if (!w || !rec)
		return -1;
	if (!rec->time.tv_sec && !rec->time.tv_nsec)
		clock_gettime(CLOCK_REALTIME, &now);

	pthread_mutex_lock(&w->lock);
	w->st.submitted++;
	if (w->count == w->cap) {
		w->st.dropped++;
		w->st.dropped_full++;
		pthread_mutex_unlock(&w->lock);
		return -1;
	}
	slot = &w->ring[(w->head + w->count) % w->cap];
	*slot = *rec;
	if (now.tv_sec)
		slot->time = now;
	w->count++;
	w->enqueued++;
	if (w->count == 1 || w->count == BATCH_WAKE)
		pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	return 0;
}

int oq_audit_flush(struct oq_audit *w, int timeout_ms)
{
	struct timespec ts;
	uint64_t target;
	int ret = 0;

	deadline_in(&ts, timeout_ms);
	pthread_mutex_lock(&w->lock);
	target = w->enqueued;
	pthread_cond_signal(&w->wake);
	while (w->retired < target) {
		if (pthread_cond_timedwait(&w->drained, &w->lock, &ts) ==
		    ETIMEDOUT) {
			ret = w->retired < target ? -1 : 0;
			break;
		}
	}
	pthread_mutex_unlock(&w->lock);
	return ret;
}

void oq_audit_get_stats(struct oq_audit *w, struct oq_audit_stats *st)
{
	pthread_mutex_lock(&w->lock);
	*st = w->st;
	pthread_mutex_unlock(&w->lock);
}
