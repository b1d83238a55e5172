/* SPDX-License-Identifier: MIT */
/* GDB Remote Serial Protocol stub: byte-fed, no heap, one fixed buffer.
 *
 * The monitor owns the debug port; it feeds every received byte of a GDB session to
 * gdb_stub_feed() and acts on what comes back:
 *
 *   GDB_STAY       keep polling the port; the CPU stays halted
 *   GDB_RESUME     c / vCont;c: let the kernel run (return from the FIQ). The session goes
 *                  on: keep feeding bytes from later FIQs; when 0x03 arrives the stub says
 *                  GDB_INTERRUPT, and once the CPU is stopped again (that FIQ, a knock, a
 *                  service request) call gdb_stub_stopped() with its frame.
 *   GDB_INTERRUPT  0x03 (Ctrl-C) while the kernel runs: stop it, then gdb_stub_stopped()
 *   GDB_DETACH     D (after its OK) or k (no reply): resume the kernel, the session is over.
 *                  A debug monitor never kills what it debugs.
 *   GDB_SHELL      the packet $3#33 (kgdb's "escape to the shell"): the session is over,
 *                  drop to the fiqmon shell; the CPU stays halted (or, if it was running,
 *                  is where the FIQ found it)
 *
 *       start / stopped           c, vCont;c
 *   OFF ---------------> HALTED ------------> RUNNING
 *    ^                    |  ^                   |  0x03 -> GDB_INTERRUPT; monitor calls
 *    +-- D, k, $3#33 -----+  +---- stopped ------+  gdb_stub_stopped() (reply T02)
 *
 * While RUNNING only framing, acks, 0x03 and $3#33 are handled; other packets are acked
 * and dropped (GDB sends none in all-stop mode). In OFF every byte is ignored.
 *
 * Framing: $body#cs, '+' acks a good checksum, '-' a bad one or a body longer than
 * GDB_PACKET_SIZE. A '-' outside a packet resends the last reply (at most GDB_MAX_RESENDS
 * times), a '+' forgets it; after QStartNoAckMode neither side acks. An m reply is not kept:
 * it is streamed from memory to the port (so its size is not bounded by the buffer), and a
 * resend regenerates it, reading the memory again (E14 if it now faults at once).
 *
 * Every reply is run-length encoded as the protocol allows (GDB expands it before anything
 * else): a run of N >= 4 equal characters goes out as the character, '*' and the count
 * character N + 28 (' ' for 4 up to '~' for 98; longer runs are split). Counts that would
 * be '#' or '$' (7, 8) or '+' or '-' (15, 17) are never sent: such a run is sent one
 * shorter, the rest literally. Binary data in replies (qXfer) escapes '#', '$', '}' and '*'
 * as '}', c ^ 0x20 first; the encoding then applies to what goes on the wire.
 *
 * Threads are CPUs, id = index + 1 (as QEMU's gdbstub): qfThreadInfo lists the online ones
 * (port_cpu), qC names the selected one, Hg ID selects the CPU g/G/p/P act on (0, -1: keep),
 * Hc ID is only checked, T ID says OK for an online CPU, qThreadExtraInfo gives "CPU n
 * [halted]" or "[running]" (it did not answer the roundup: its registers get E03). A
 * malformed id gets E22, one that is no online CPU E03. Stop replies name thread 1 (CPU 0
 * takes every stop) and select it. CPU 0's context is the session's frame; the others'
 * are their roundup frames, which exist only while the monitor holds them.
 *
 * Registers follow the target description served by qXfer:features:read:target.xml, one
 * per architecture (gdb_regs.h). AArch32: r0-r12, sp, lr, pc (GDB numbers 0-15) and cpsr
 * (25); the g/G packet carries those 17 in that order, 32-bit little-endian. They are the
 * interrupted mode's view of the saved frame (frame_reg()), so an edit lands where the
 * FIQ exit reloads it. A cpsr write may not change the mode to or from anything but usr,
 * fiq, irq, svc, abt, und, sys (E22). AArch64: x0-x30, sp, pc (64-bit) and cpsr (32-bit,
 * PSTATE), GDB's aarch64 numbers 0-33, in that order; sp is the interrupted context's
 * (frame_sp()); a cpsr write may not change M[4:0], the exception level, stack pointer
 * and width (E22); no SIMD/FP registers (fiqmon never saves them). p/P of a number the
 * description lacks, a P value not exactly the register's width, a G not exactly all of
 * them: E22.
 *
 * Memory goes through port_mem_read/write in the virtual space (aligned words as width 4,
 * the rest bytewise). Addresses (m, M, X, c ADDR) are the target's width (target_addr_t:
 * 32 or 64 bits; more significant digits than that are E22); lengths and every other
 * number are at most 32 bits. m reads at most GDB_PACKET_SIZE / 2 bytes, and stops at the
 * top of the address space; a fault on the first byte gives E14, a read that faults
 * later returns the bytes before the fault; a range of M/X past the top is E14. M (hex) and X
 * (binary: '}' escapes the next byte, which is XORed with 0x20; GDB escapes '#', '$', '}'
 * and '*') write LEN bytes; X with no data is GDB's probe and gets OK, which makes GDB use
 * X for its writes. Data that does not decode to exactly LEN bytes (a short or long X, an
 * escape at the end) gives E22 and writes nothing. A write that faults gives E14: what
 * lies before the faulting access (aligned words, else bytes) is written, nothing after.
 * Malformed arguments give E22. There is no binary read (the x packet, "binary-upload"):
 * GDB asks for it only from version 16; the gdb-multiarch of these tests is 13.
 *
 * Lockdown: a packet that needs a command class the session lacks (locked, or read-only:
 * gdb_packet_needs()) gets E01; the connection handshake is always answered.
 *
 * monitor CMD (qRcmd) runs CMD as the shell would, with the shell's permissions minus
 * GDB_RCMD_FORBIDDEN; what it prints is gathered in the back half of the buffer (the
 * command line fills at most the front half) and goes to GDB as O packets of up to
 * (GDB_PACKET_SIZE - 1) / 2 bytes (1023), then OK. O packets are sent once (never resent on
 * '-').
 *
 * No breakpoints or single-step without a debug unit (every platform but virt with HYP=1;
 * AArch64 has none yet): Z, z, s and S get E01. Not the empty reply: on that GDB
 * falls back to writing its own breakpoint instructions into the kernel's text with M/X
 * and resuming into them (they trap into the kernel's handlers, not fiqmon's); on an error
 * it reports "Cannot insert breakpoint" and keeps the target stopped. vCont? offers only
 * c and C. Every packet not listed in gdb_stub.c gets the empty reply.
 *
 * Stack: a few dozen bytes beyond what a qRcmd command needs; the buffer is in the struct.
 * The run-length encoder's state is static (one stub sends at a time).
 */
#ifndef FIQMON_GDB_STUB_H
#define FIQMON_GDB_STUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "command.h"
#include "cpu_frame.h"
#include "monitor_features.h"

/* Longest packet body GDB may send (advertised as PacketSize), and the reply buffer. 2 KiB:
 * GDB then reads 1 KiB per m packet, whose framing, request and acks cost about 1 % on the
 * wire (docs/benchmarks.md has the trade against memory). */
#define GDB_PACKET_SIZE 0x800u
/* Times one reply is resent on '-' before the stub gives it up. */
#define GDB_MAX_RESENDS 4u
/* Command classes "monitor CMD" may not use: GDB owns run control (c, D), so halt,
 * continue, boot, ... from inside a session would pull the CPU from under it. */
#define GDB_RCMD_FORBIDDEN CMD_CONTROLS_KERNEL

/* The session core's remote actions (monitor_features.h), under the stub's names. */
enum gdb_action {
    GDB_STAY = REMOTE_STAY,
    GDB_RESUME = REMOTE_RESUME,
    GDB_INTERRUPT = REMOTE_INTERRUPT,
    GDB_DETACH = REMOTE_DETACH,
    GDB_SHELL = REMOTE_SHELL,
};

enum gdb_mode {
    GDB_OFF,
    GDB_HALTED,
    GDB_RUNNING,
};

struct gdb_stub {
    struct cpu_frame *frame; /* the halted CPU's saved context; NULL unless HALTED */
    uint8_t mode;            /* enum gdb_mode */
    uint8_t cpu;             /* the thread (CPU index) g, G, p, P act on (Hg) */
    uint8_t rx;              /* framing state */
    uint8_t csum;            /* sum of the body bytes so far */
    uint8_t csum_hi;         /* first checksum digit, 0xff if not a hex digit */
    bool overflow;           /* the body did not fit */
    bool no_ack;             /* QStartNoAckMode */
    bool break_reasons;      /* GDB takes swbreak/hwbreak stop reasons (qSupported) */
    bool have_reply;         /* a reply GDB has not acked: buf[0..out), or ... */
    bool reply_mem;          /* ... the m reply for mem_addr/mem_len (regenerated) */
    uint8_t resends;         /* of that reply */
    uint16_t len;            /* body bytes received */
    uint16_t out;            /* reply bytes */
    target_addr_t mem_addr;  /* the last m packet's range */
    uint32_t mem_len;
    /* The body being received, then (once it is dispatched) the reply to it. */
    char buf[GDB_PACKET_SIZE];
};

/* The monitor's stub (in .bss.buffers). */
extern struct gdb_stub gdb;

/* Begins a session (ack mode, nothing pending) on a CPU halted with context *f. Sends
 * nothing: GDB speaks first. */
void gdb_stub_start(struct gdb_stub *g, struct cpu_frame *f);

/* One received byte. */
enum gdb_action gdb_stub_feed(struct gdb_stub *g, uint8_t c);

/* The kernel stopped again after GDB_RESUME (0x03, a knock, or the debug unit on CPU cpu,
 * which becomes the selected thread): now halted, CPU 0's context *own; sends the stop
 * reply (T02thread:NN; for SIGINT, T05 for the debug unit's stops). */
void gdb_stub_stopped(struct gdb_stub *g, struct cpu_frame *own, unsigned cpu);

/* Handles a packet that was already framed and checksum-verified elsewhere (body without
 * '$', '#', checksum). Sends no ack: the caller sends '+' first (a new session is in ack
 * mode). Any partial packet being received is dropped. A body longer than GDB_PACKET_SIZE
 * is ignored. */
enum gdb_action gdb_stub_packet(struct gdb_stub *g, const char *body, size_t len);

/* For the knock detector's "$qSupported...#xx" / "$?#3f": start a session on *f, ack the
 * packet and handle it. */
enum gdb_action gdb_stub_start_packet(struct gdb_stub *g, struct cpu_frame *f, const char *body,
                                      size_t len);

/* The CMD_* flags a packet (body without $, #, checksum) needs; 0 for the connection
 * handshake, which a locked stub still answers (gdb_packet_class.c). */
uint32_t gdb_packet_needs(const char *body, size_t len);

/* The stub as the session core sees it (monitor_features.h). */
extern const struct remote_ops gdb_remote_ops;

static inline bool gdb_stub_active(const struct gdb_stub *g)
{
    return g->mode != GDB_OFF;
}

static inline bool gdb_stub_running(const struct gdb_stub *g)
{
    return g->mode == GDB_RUNNING;
}

#endif
