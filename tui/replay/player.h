/*
 * player: a recording played on the screen (--replay FILE): the samples at
 * their recorded pace times a speed, paused, stepped, or from a time on.
 *
 * The file is read once at open for an index of its samples (byte offset,
 * time, interval) and its marks; a sample is read again from its line when
 * shown, so memory is bounded by the index, not the recording.  A timerfd
 * (player_fd) fires when the next sample is due.  The recorded machine is
 * drawn from the header's hwloc XML.  UI thread.
 */
#ifndef PMUTOP_PLAYER_H
#define PMUTOP_PLAYER_H

#include <stdbool.h>
#include <stddef.h>

#include "frontend.h"
#include "replay.h"

struct player;

/* Open PATH, index it and show its first sample.  0, or -errno with one line in ERR. */
int player_open(const char *path, struct player **out, char *err, size_t errlen);

const struct replay_about *player_about(const struct player *p);

/* The recorded machine (owned by the player). */
const struct topo *player_topo(const struct player *p);

/* Readable when the next sample is due. */
int player_fd(const struct player *p);

/* The timer fired: on to the next sample when playing.  True when the shown sample changed. */
bool player_tick(struct player *p);

/* The sample shown (the player holds it), and its index; how many there are. */
const struct sample *player_sample(const struct player *p);
int player_pos(const struct player *p);
int player_count(const struct player *p);

/* Sample I read again (the caller releases it), or NULL. */
struct sample *player_sample_at(struct player *p, int i);

/* Play or pause; step DELTA samples (paused); go to T seconds from the start (paused as it was). */
void player_pause(struct player *p, bool paused);
bool player_paused(const struct player *p);
void player_step(struct player *p, int delta);
/* 0, or -EINVAL when TEXT is not a time ("75", "1:15"). */
int player_goto(struct player *p, const char *text);

/* Speed: DIR > 0 twice as fast, < 0 half as fast (1/8 to 64). */
void player_speed(struct player *p, int dir);

/* Marks of the recording with their times, for the history. */
int player_marks(const struct player *p, const struct mark **out);

/*
 * Why the replay stopped, or "": the file was cut or rewritten while it
 * played (a sample it indexed cannot be read again as it was); the player
 * then stays paused on the last sample it could show.
 */
const char *player_error(const struct player *p);

/* "REPLAY run.jsonl 12/340 0:12 of 5:40 x2 playing" ("... stopped" after an error) */
void player_position(const struct player *p, char *buf, size_t len);

/* The same for a narrow header: "REPLAY 12/340 playing". */
void player_position_short(const struct player *p, char *buf, size_t len);

void player_free(struct player *p);

#endif
