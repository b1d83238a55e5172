/* SPDX-License-Identifier: MIT */
/* Which command classes (CMD_*) each GDB packet needs: the stub refuses a packet with E01
 * when the session's permissions (lockdown, read-only) lack any of them. */
#include "gdb_stub.h"

#include <string.h>

/* Packets a locked stub still answers: GDB's connection sequence, which shows nothing of
 * the target, and the ways out (D, k, $3#33). qRcmd ("monitor CMD") is here because the
 * command it carries meets the dispatcher's own check: that is how `monitor unlock`
 * works. The thread packets name the CPUs and whether they stopped, nothing of what they
 * run. A trailing '*' matches any continuation. */
static const char *const gdb_handshake[] = {
    "?", "3", "D*", "k", "H*", "qSupported*", "QStartNoAckMode", "vMustReplyEmpty",
    "qXfer:features:read:*", "qAttached*", "qC", "qfThreadInfo", "qsThreadInfo", "qTStatus",
    "qOffsets", "qSymbol*", "vCont?", "qRcmd,*", "T*", "qThreadExtraInfo,*",
};

static bool gdb_match(const char *b, size_t len, const char *pat)
{
    size_t n = strlen(pat);
    bool prefix = pat[n - 1] == '*';

    n -= prefix;
    return (prefix ? len >= n : len == n) && memcmp(b, pat, n) == 0;
}

/* vCont;ACTION[:THREAD]...: resuming (c, C) is the session's own business; any other
 * action (step, range step, stop) moves the kernel. */
static uint32_t gdb_vcont_needs(const char *b, size_t len)
{
    for (size_t i = 0; i + 1 < len; i++)
        if (b[i] == ';' && b[i + 1] != 'c' && b[i + 1] != 'C')
            return CMD_GDB | CMD_CONTROLS_KERNEL;
    return CMD_GDB;
}

/* C SIG;ADDR moves the pc (C SIG alone does not). A loop, not memchr: the AArch64 build's
 * small C library (boot/libc_min.c) has none. */
static bool gdb_has_semicolon(const char *b, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (b[i] == ';')
            return true;
    return false;
}

uint32_t gdb_packet_needs(const char *b, size_t len)
{
    if (len == 0)
        return CMD_GDB;
    for (size_t i = 0; i < sizeof(gdb_handshake) / sizeof(gdb_handshake[0]); i++)
        if (gdb_match(b, len, gdb_handshake[i]))
            return 0;
    switch (b[0]) {
    case 'g':
    case 'p':
        return CMD_GDB | CMD_READS_REGS;
    case 'm':
        return CMD_GDB | CMD_READS_MEM;
    case 'M':
    case 'X':
    case 'Z': /* a breakpoint is a write */
    case 'z':
        return CMD_GDB | CMD_WRITES_MEM;
    case 'G': /* registers: the interrupted context, and its pc */
    case 'P':
        return CMD_GDB | CMD_WRITES_MEM | CMD_CONTROLS_KERNEL;
    case 'c': /* c [ADDR] */
        return len > 1 ? CMD_GDB | CMD_CONTROLS_KERNEL : CMD_GDB;
    case 'C': /* C SIG[;ADDR] */
        return gdb_has_semicolon(b, len) ? CMD_GDB | CMD_CONTROLS_KERNEL : CMD_GDB;
    case 's':
    case 'S':
        return CMD_GDB | CMD_CONTROLS_KERNEL;
    case 'v':
        if (gdb_match(b, len, "vCont;*"))
            return gdb_vcont_needs(b + 5, len - 5);
        break;
    case 'q':
        if (gdb_match(b, len, "qCRC:*") || gdb_match(b, len, "qSearch:memory:*"))
            return CMD_GDB | CMD_READS_MEM;
        break;
    default:
        break;
    }
    return CMD_ALL_PERMISSIONS; /* a packet this table does not know: fail closed */
}
