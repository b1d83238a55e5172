/* SPDX-License-Identifier: MIT */
/* Production lockdown (docs/lockdown.md): which command classes the debug port may use.
 *
 *   PROFILE=dev         unlocked at reset and after every session; no key needed
 *   PROFILE=production  locked at reset and whenever the debugger is left; `unlock` opens it
 *                       to whoever holds the build's key (UNLOCK_KEY=FILE)
 *
 *                 unlock NONCE-ANSWER
 *       LOCKED ------------------------> UNLOCKED          readonly: from then until reset,
 *         ^  |  5 wrong answers             |               no CMD_WRITES_MEM,
 *         |  +------> LOCKED OUT            |  lock, exit,  CMD_CONTROLS_KERNEL, CMD_REBOOTS
 *         +---------- (until reset) <-------+  release      whatever the state
 *
 * Challenge-response: `unlock` prints a nonce N (16 bytes, never repeated: SHA-256 of a
 * counter, the previous draw, a free-running timer and the timing of every monitor entry);
 * `unlock HEX` answers with HMAC-SHA256(key, N), which tools/fiqmon-unlock computes. Each
 * nonce takes one answer. A wrong answer costs LOCKDOWN_DELAY_MS times the failures so far
 * (busy-waited in FIQ context) and after LOCKDOWN_MAX_FAILURES nothing unlocks until reset.
 *
 * The state lives here and nowhere else: the session core asks lockdown_permissions()
 * through its features table (monitor_features.h) whenever it needs the mask. */
#ifndef FIQMON_LOCKDOWN_H
#define FIQMON_LOCKDOWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "build_options.h"
#include "command.h"
#include "hmac.h"

#define LOCKDOWN_NONCE_SIZE   16u
#define LOCKDOWN_MAX_FAILURES 5u
/* Back-off per failure so far (100, 200, ... ms): short, because the lockout after
 * LOCKDOWN_MAX_FAILURES is what stops guessing, and the wait stops the kernel. */
#ifndef LOCKDOWN_DELAY_MS
#define LOCKDOWN_DELAY_MS 100u
#endif
/* Key length the build accepts (scripts/unlock-key.sh): longer adds nothing to HMAC-SHA256. */
#define LOCKDOWN_KEY_MIN 16u
#define LOCKDOWN_KEY_MAX 64u

/* What a locked session may use: only commands without flags (help, version, unlock, lock,
 * readonly, exit). */
#define LOCKDOWN_LOCKED_PERMISSIONS 0u
/* What readonly takes away for good: every write and every change of the kernel's flow. */
#define LOCKDOWN_READONLY_FORBIDDEN (CMD_WRITES_MEM | CMD_CONTROLS_KERNEL | CMD_REBOOTS)

/* The build's profile and key (PROFILE=, UNLOCK_KEY=) unless a test sets others; takes
 * effect at the next lockdown_init(). key is not copied. */
void lockdown_configure(bool production, const uint8_t *key, unsigned key_len);

/* Reset: locked in production, readonly off, no failures, the nonce state restarted.
 * Called by monitor_init(). */
void lockdown_init(void);
/* Leaving the debugger (exit, detach, boot, release): production relocks. */
void lockdown_leave(void);
/* Each full-path FIQ: mixes the timer's count into the nonce pool (a few instructions). */
void lockdown_stir(void);

/* The CMD_* flags commands may have now. */
uint32_t lockdown_permissions(void);
bool lockdown_locked(void);
bool lockdown_readonly(void);
bool lockdown_locked_out(void);
unsigned lockdown_failures(void);

/* Draws the next nonce (what `unlock` does before printing it). */
void lockdown_nonce(uint8_t nonce[LOCKDOWN_NONCE_SIZE]);

enum lockdown_result {
    LOCKDOWN_OK,           /* a nonce was drawn; or the answer was right: unlocked */
    LOCKDOWN_WRONG,        /* wrong; the back-off has been waited */
    LOCKDOWN_LOCKED_OUT,   /* wrong for the last time, or locked out already */
    LOCKDOWN_NO_CHALLENGE, /* no nonce outstanding */
    LOCKDOWN_NO_KEY,       /* this build has no key */
};
/* `unlock` without arguments: draws and records a nonce to be answered. Returns
 * LOCKDOWN_OK with the nonce in *nonce, or why not. */
enum lockdown_result lockdown_challenge(uint8_t nonce[LOCKDOWN_NONCE_SIZE]);
/* The answer to the outstanding nonce, which it consumes. */
enum lockdown_result lockdown_answer(const uint8_t mac[HMAC_SHA256_SIZE]);
/* `lock`: back to the locked set (readonly and failures stay). false: no key to unlock. */
bool lockdown_lock(void);
/* `readonly`: until reset. */
void lockdown_set_readonly(void);

#if FIQMON_LOCKDOWN
/* The build's key, for the boot code that wipes the copy left in the loaded image. */
const uint8_t *lockdown_build_key(unsigned *len);

/* One line for `version`: the profile and state. */
void lockdown_report(void);
#else /* LOCKDOWN=0: no key, nothing locked */
static inline const uint8_t *lockdown_build_key(unsigned *len)
{
    *len = 0;
    return NULL;
}
static inline void lockdown_report(void) {}
#endif

/* Commands (monitor/commands.c) */
int cmd_unlock(int argc, char **argv);
int cmd_lock(int argc, char **argv);
int cmd_readonly(int argc, char **argv);

#endif
