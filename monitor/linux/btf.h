/* SPDX-License-Identifier: MIT */
/* The kernel's description of its own types (CONFIG_DEBUG_INFO_BTF): the .BTF section
 * (__start_BTF .. __stop_BTF) that Debian's arm64 kernel keeps in its read-only data,
 * read in place through kmem, never copied (Documentation/bpf/btf.rst):
 *
 *   header   u16 magic 0xeb9f, u8 version 1, u8 flags 0, u32 hdr_len (24), then u32
 *            type_off, type_len, str_off, str_len: offsets from the end of the header
 *   types    one record per type, ids 1, 2, ... in order: {name_off, info (vlen in bits
 *            0-15, kind in 24-28, kind_flag in 31), size or type}, then the kind's own
 *            data (a struct's members: {name_off, type, bit offset}, 12 bytes each)
 *   strings  NUL-terminated names; offset 0 is ""
 *
 * Nothing indexes the records, so a type id is found by walking from a checkpoint: the
 * one walk over every type made when the blob is found keeps the byte offset of every
 * 2^shift-th id (at most BTF_MARKS of them), and an id is then at most 2^shift - 1 records
 * from its checkpoint. Members are looked up by name, through anonymous structs and
 * unions, and a path ("thread.cpu_context.fp") member by member. Every walk is bounded,
 * every read goes through kmem (fault-safe), nothing is allocated. */
#ifndef FIQMON_BTF_H
#define FIQMON_BTF_H

#include <stdbool.h>
#include <stdint.h>

#include "target.h"

#define BTF_MAGIC 0xeb9fu
#define BTF_VERSION 1u
#define BTF_HEADER_LEN 24u           /* the header as version 1 defines it */
#define BTF_HEADER_MAX 256u          /* a longer header is no BTF fiqmon knows */
#define BTF_TYPES_MAX (1u << 20)     /* type ids walked at most (6.1 arm64: 110,000) */
#define BTF_TYPES_LEN_MAX (64u << 20) /* bytes of each section at most */
#define BTF_MARKS 256u               /* checkpoints of the type index */
#define BTF_PATH_MAX 8u              /* members in a path */
#define BTF_ANON_DEPTH 4u            /* anonymous structs/unions nested inside one another */
#define BTF_MEMBERS_MAX 4096u        /* members looked at for one name (task_struct: ~250) */
#define BTF_CHAIN_MAX 16u            /* typedef/const/volatile/... in a row */

enum btf_kind {
    BTF_KIND_UNKN, BTF_KIND_INT, BTF_KIND_PTR, BTF_KIND_ARRAY, BTF_KIND_STRUCT,
    BTF_KIND_UNION, BTF_KIND_ENUM, BTF_KIND_FWD, BTF_KIND_TYPEDEF, BTF_KIND_VOLATILE,
    BTF_KIND_CONST, BTF_KIND_RESTRICT, BTF_KIND_FUNC, BTF_KIND_FUNC_PROTO, BTF_KIND_VAR,
    BTF_KIND_DATASEC, BTF_KIND_FLOAT, BTF_KIND_DECL_TAG, BTF_KIND_TYPE_TAG, BTF_KIND_ENUM64,
    BTF_KIND_COUNT
};

struct btf {
    target_addr_t hdr;     /* the header (__start_BTF) */
    target_addr_t types;   /* the first record */
    target_addr_t strings; /* the string section */
    uint32_t types_len, strings_len;
    uint32_t count;        /* type ids 1..count */
    uint8_t shift;         /* marks[k]: byte offset of type id (k << shift) + 1 */
    uint32_t marks[BTF_MARKS];
};

/* A member as a path resolves it: its byte offset in the outermost struct, and its type
 * with typedefs and qualifiers looked through. */
struct btf_member {
    uint32_t offset;   /* bytes from the start of the struct the path began in */
    uint32_t type;     /* the resolved type's id */
    uint8_t kind;      /* its kind (BTF_KIND_INT, _PTR, _ARRAY, _STRUCT, ...) */
    uint32_t size;     /* its size in bytes; a pointer: sizeof(kulong_t); an array: all of it */
    uint32_t nelems;   /* an array's element count (else 1) */
    uint32_t elem_size; /* an array's element size (else size) */
};

/* The header at addr is a version 1 BTF header whose sections are consistent (types a
 * whole number of words, strings after them beginning and ending with a NUL): fills b's
 * addresses and lengths (not the index). */
bool btf_header_at(target_addr_t addr, struct btf *b);
/* Walks every type record once: they must end exactly at the end of the type section,
 * every kind known. Fills count and the checkpoints. */
bool btf_index(struct btf *b);
/* Ids of the structs named names[0..n) (with members, not forward declarations), in one
 * walk; 0 for each not found. Returns how many were found. */
unsigned btf_find_structs(const struct btf *b, const char *const *names, uint32_t *ids,
                          unsigned n);
/* The member at path ("pid", "thread.cpu_context.pc") of struct or union id; a step
 * into an array of structs ("mem.size") is into its element 0. False if a name is not
 * there, a step is not a struct, or a member is a bitfield not on a byte. */
bool btf_member(const struct btf *b, uint32_t id, const char *path, struct btf_member *m);

/* The running kernel's BTF (needs ksyms_ready()): found once per kernel_generation, first
 * where the kernel's own code takes __start_BTF's address (btf_parse_vmlinux,
 * btf_vmlinux_read: kcode_a64.h), else by a scan of the read-only data between _etext and
 * _sinittext for the header's first two words; then indexed. NULL if there is none. */
const struct btf *kernel_btf(void);
/* How it was found: "adrp in btf_parse_vmlinux" (or btf_vmlinux_read: the code that
 * loads it), "a scan of the rodata"; "" if it was not. */
const char *kernel_btf_how(void);

#endif
