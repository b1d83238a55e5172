/* SPDX-License-Identifier: MIT */
/* GDB remote packets as the stub's tests build and read them, with their own checksum
 * code (not the stub's): shared by test_gdb_stub.c (AArch32) and test_gdb_stub_a64.c. */
#ifndef FIQMON_TEST_GDB_PACKETS_H
#define FIQMON_TEST_GDB_PACKETS_H

#include <stddef.h>

/* "$body#cs" for n bytes of body (one of a few rotating static buffers). */
const char *pktn(const void *body, size_t n);
const char *pkt(const char *body);

/* The wire as GDB reads it: every packet's checksum checked on the wire bytes, each '*'
 * run expanded (the character before it, repeated count - 29 more times), then the packet
 * framed again around the expanded body with this file's checksum. Fails the test on what
 * the protocol forbids or what saves nothing: a count outside ' '..'~', a count of '#',
 * '$', '+' or '-', a '*' with nothing before it, four equal literal characters in a row.
 * Other bytes (acks) are copied. */
const char *expand_wire(const char *out, size_t len);

#endif
