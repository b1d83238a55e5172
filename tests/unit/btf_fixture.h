/* SPDX-License-Identifier: MIT */
/* Writes BTF blobs (Documentation/bpf/btf.rst) for the tests, with its own copy of the
 * format (not monitor/linux/btf.h's): types are added one by one, each getting the next
 * id, members right after their struct; bfix_write() puts header, types and strings into
 * the fake port's memory.
 *
 * And the fixture kernel of task_fixture.h as an arm64 kernel shows it to fiqmon (still
 * with 32-bit longs, the host's target width): its BTF describing the fixture's own
 * task_struct and struct module, the code that computes their addresses in AArch64 (ADRP
 * with ADD, or LDR of a GOT slot), _etext and _sinittext around the BTF for the scan. */
#ifndef FIQMON_TEST_BTF_FIXTURE_H
#define FIQMON_TEST_BTF_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

/* kinds (the format's numbers) */
enum {
    BFIX_INT = 1, BFIX_PTR, BFIX_ARRAY, BFIX_STRUCT, BFIX_UNION, BFIX_ENUM, BFIX_FWD,
    BFIX_TYPEDEF, BFIX_VOLATILE, BFIX_CONST, BFIX_RESTRICT, BFIX_FUNC, BFIX_FUNC_PROTO,
    BFIX_VAR, BFIX_DATASEC, BFIX_FLOAT, BFIX_DECL_TAG, BFIX_TYPE_TAG, BFIX_ENUM64
};

/* An empty blob (the string section holds "" only). */
void bfix_start(void);
/* The id the next type will get. */
uint32_t bfix_next_id(void);
uint32_t bfix_int(const char *name, uint32_t size);
/* PTR, TYPEDEF, VOLATILE, CONST, RESTRICT, TYPE_TAG: a kind that names another type. */
uint32_t bfix_ref(unsigned kind, const char *name, uint32_t type);
uint32_t bfix_fwd(const char *name);
uint32_t bfix_array(uint32_t elem, uint32_t nelems);
/* STRUCT or UNION of size bytes with vlen members: call bfix_member vlen times next.
 * kind_flag: member offsets carry a bitfield size in their top 8 bits. */
uint32_t bfix_struct(unsigned kind, const char *name, uint32_t size, unsigned vlen,
                     bool kind_flag);
void bfix_member(const char *name, uint32_t type, uint32_t bit_offset);
/* A type of every other kind, with vlen items where it has them (for the record lengths). */
uint32_t bfix_other(unsigned kind, unsigned vlen);
/* Rewrites every name from (a type's or a member's) to to, of the same length, in the
 * blob not yet written: to hide it. */
void bfix_rename(const char *from, const char *to);

/* Writes the blob at addr (4-aligned); returns its total size. */
uint32_t bfix_write(uint32_t addr);
/* Offsets of the sections inside the blob written last (for corrupting it). */
uint32_t bfix_types_len(void);
uint32_t bfix_strings_len(void);

/* --- the fixture kernel with BTF ------------------------------------------------------ */
#define BFIX_BTF 0xc0150004u      /* the blob: not page-aligned, between _etext and _sinittext */
#define BFIX_ETEXT 0xc0100000u
#define BFIX_SINITTEXT 0xc0180000u
#define BFIX_PARSE_VMLINUX 0xc0009200u /* btf_parse_vmlinux: ADRP + LDR of the GOT slot */
#define BFIX_GOT 0xc0008ff0u       /* the slot (a page below the code: ADRP backwards) */
#define BFIX_INIT_LAYOUT 240u      /* struct module's init_layout in the fixture */

enum bfix_code {
    BFIX_CODE_GOT,  /* btf_parse_vmlinux loads __start_BTF from its GOT slot */
    BFIX_CODE_NONE, /* no function takes its address: only the scan finds it */
};
/* tfix_build()'s kernel with arm64's code and the BTF of its layouts at BFIX_BTF; rename
 * (if not NULL) is applied to the blob first ({from, to}). */
void bfix_build_kernel(enum bfix_code code, const char *const rename[2]);

#endif
