/* SPDX-License-Identifier: MIT */
#include "btf_fixture.h"

#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "fake_port.h"
#include "kernel_fixture.h"
#include "task_fixture.h"

#define TYPES_MAX 0x10000u
#define STRINGS_MAX 0x4000u

static uint8_t types[TYPES_MAX];
static char strings[STRINGS_MAX];
static uint32_t types_len, strings_len, next_id;

static void put32(uint32_t v)
{
    if (types_len + 4 > TYPES_MAX)
        fail_msg("btf_fixture: too many types");
    memcpy(types + types_len, &v, 4);
    types_len += 4;
}

static uint32_t str(const char *s)
{
    uint32_t at = strings_len, n = (uint32_t)strlen(s) + 1;

    if (!*s)
        return 0;
    if (strings_len + n > STRINGS_MAX)
        fail_msg("btf_fixture: too many strings");
    memcpy(strings + strings_len, s, n);
    strings_len += n;
    return at;
}

static uint32_t record(const char *name, unsigned kind, unsigned vlen, bool kind_flag,
                       uint32_t size_or_type)
{
    put32(str(name));
    put32((kind_flag ? 1u << 31 : 0) | kind << 24 | vlen);
    put32(size_or_type);
    return next_id++;
}

void bfix_start(void)
{
    types_len = 0;
    strings[0] = '\0';
    strings_len = 1;
    next_id = 1;
}

uint32_t bfix_next_id(void)
{
    return next_id;
}

uint32_t bfix_int(const char *name, uint32_t size)
{
    uint32_t id = record(name, BFIX_INT, 0, false, size);

    put32(8 * size); /* encoding 0, offset 0, bits */
    return id;
}

uint32_t bfix_ref(unsigned kind, const char *name, uint32_t type)
{
    return record(name, kind, 0, false, type);
}

uint32_t bfix_fwd(const char *name)
{
    return record(name, BFIX_FWD, 0, false, 0);
}

uint32_t bfix_array(uint32_t elem, uint32_t nelems)
{
    uint32_t id = record("", BFIX_ARRAY, 0, false, 0);

    put32(elem);
    put32(1); /* index type: int, the first type every blob here has */
    put32(nelems);
    return id;
}

uint32_t bfix_struct(unsigned kind, const char *name, uint32_t size, unsigned vlen,
                     bool kind_flag)
{
    return record(name, kind, vlen, kind_flag, size);
}

void bfix_member(const char *name, uint32_t type, uint32_t bit_offset)
{
    put32(str(name));
    put32(type);
    put32(bit_offset);
}

uint32_t bfix_other(unsigned kind, unsigned vlen)
{
    uint32_t id;

    switch (kind) {
    case BFIX_ENUM:
        id = record("", kind, vlen, false, 4);
        for (unsigned i = 0; i < vlen; i++) {
            put32(str("E"));
            put32(i);
        }
        return id;
    case BFIX_ENUM64:
        id = record("e64", kind, vlen, false, 8);
        for (unsigned i = 0; i < vlen; i++) {
            put32(str("F"));
            put32(i);
            put32(0);
        }
        return id;
    case BFIX_FUNC_PROTO:
        id = record("", kind, vlen, false, 1);
        for (unsigned i = 0; i < vlen; i++) {
            put32(str("arg"));
            put32(1);
        }
        return id;
    case BFIX_DATASEC:
        id = record(".data..percpu", kind, vlen, false, 64);
        for (unsigned i = 0; i < vlen; i++) {
            put32(1);
            put32(8 * i);
            put32(4);
        }
        return id;
    case BFIX_VAR:
    case BFIX_DECL_TAG:
        id = record(kind == BFIX_VAR ? "var" : "tag", kind, 0, false, 1);
        put32(0);
        return id;
    case BFIX_FLOAT:
        return record("double", kind, 0, false, 8);
    default: /* FUNC */
        return record("fn", kind, 0, false, 1);
    }
}

void bfix_rename(const char *from, const char *to)
{
    unsigned n = 0;

    if (strlen(to) != strlen(from))
        fail_msg("bfix_rename: names of equal length only");
    for (uint32_t at = 1; at < strings_len; at += (uint32_t)strlen(strings + at) + 1) {
        if (strcmp(strings + at, from) == 0) {
            memcpy(strings + at, to, strlen(to));
            n++;
        }
    }
    if (!n)
        fail_msg("bfix_rename: no string '%s'", from);
}

uint32_t bfix_write(uint32_t addr)
{
    uint32_t header[6] = {0x0001eb9fu, 24, 0, types_len, types_len, strings_len};

    fake_mem_write(addr, header, sizeof(header));
    fake_mem_write(addr + 24, types, types_len);
    fake_mem_write(addr + 24 + types_len, strings, strings_len);
    return 24 + types_len + strings_len;
}

uint32_t bfix_types_len(void)
{
    return types_len;
}

uint32_t bfix_strings_len(void)
{
    return strings_len;
}

/* --- the fixture kernel as arm64 shows it ---------------------------------------------- */
static const struct kfix_sym syms[] = {
    {KFIX_STEXT, 'T', "_stext"},
    {TFIX_SHOW_STATE, 'T', "show_state_filter"},
    {TFIX_MOD_KALLSYM, 'T', "module_get_kallsym"},
    {BFIX_PARSE_VMLINUX, 'T', "btf_parse_vmlinux"},
    {BFIX_PARSE_VMLINUX + 0x100u, 'T', "btf_vmlinux_read"},
    {BFIX_ETEXT, 'T', "_etext"},
    {BFIX_SINITTEXT, 'T', "_sinittext"},
    {BFIX_SINITTEXT + 0x1000u, 'T', "_einittext"},
};

/* The fixture's task_struct and struct module (task_fixture.h) in BTF, with 4-byte longs,
 * plus a type of every other kind and near-misses of the names fiqmon looks for. */
static void layouts(void)
{
    uint32_t t_int, t_uint, t_char, t_ulong, t_voidp, t_list, t_pid, t_taskp, t_ctx, t_thread;
    uint32_t t_comm, t_stack, t_anon, t_state, t_state_enum, t_layout, t_name;
    static const char *const regs[7] = {"x19", "x20", "x21", "x22", "x23", "x24", "x25"};

    bfix_start();
    t_int = bfix_int("int", 4);
    t_uint = bfix_int("unsigned int", 4);
    t_char = bfix_int("char", 1);
    t_ulong = bfix_int("long unsigned int", 4);
    t_voidp = bfix_ref(BFIX_PTR, "", 0);
    t_list = bfix_struct(BFIX_STRUCT, "list_head", 8, 2, false);
    bfix_member("next", t_list + 1, 0);
    bfix_member("prev", t_list + 1, 32);
    bfix_ref(BFIX_PTR, "", t_list);
    t_pid = bfix_ref(BFIX_TYPEDEF, "pid_t", t_int);
    t_taskp = bfix_ref(BFIX_PTR, "", bfix_fwd("task_struct")); /* a declaration first */
    for (unsigned k = BFIX_ENUM; k <= BFIX_ENUM64; k++)
        if (k != BFIX_FWD && k != BFIX_TYPEDEF && k != BFIX_VOLATILE && k != BFIX_CONST &&
            k != BFIX_RESTRICT && k != BFIX_TYPE_TAG)
            bfix_other(k, 3);
    bfix_ref(BFIX_RESTRICT, "", t_voidp);
    bfix_ref(BFIX_TYPE_TAG, "user", t_voidp);
    t_ctx = bfix_struct(BFIX_STRUCT, "cpu_context", 40, 10, false);
    for (unsigned i = 0; i < 7; i++)
        bfix_member(regs[i], t_ulong, 32 * i);
    bfix_member("fp", t_ulong, 28 * 8);
    bfix_member("sp", t_ulong, 32 * 8);
    bfix_member("pc", t_ulong, 36 * 8);
    t_thread = bfix_struct(BFIX_STRUCT, "thread_struct", 40, 1, false);
    bfix_member("cpu_context", t_ctx, 0);
    t_comm = bfix_array(t_char, 16);
    t_stack = bfix_ref(BFIX_CONST, "", t_voidp);
    t_anon = bfix_struct(BFIX_STRUCT, "", 8, 2, false); /* struct { mm, active_mm } */
    bfix_member("mm", t_voidp, 0);
    bfix_member("active_mm", t_voidp, 32);
    t_state = bfix_ref(BFIX_VOLATILE, "", t_uint);
    bfix_struct(BFIX_STRUCT, "task_structure", 4, 1, false); /* not the one */
    bfix_member("pid", t_int, 0);
    bfix_struct(BFIX_UNION, "task_struct", 4, 1, false); /* a union is no struct */
    bfix_member("pid", t_int, 0);
    /* kind_flag: every offset may carry a bitfield size in its top byte, as the kernel's */
    bfix_struct(BFIX_STRUCT, "task_struct", TFIX_TASK_SIZE, 15, true);
    bfix_member("thread_info_flags", t_ulong, 0);
    bfix_member("thread", t_thread, 8 * TFIX_OFF_CONTEXT);
    bfix_member("__state", t_state, 8 * TFIX_OFF_STATE);
    bfix_member("stack", t_stack, 8 * TFIX_OFF_STACK);
    bfix_member("on_cpu", t_int, 8 * TFIX_OFF_ON_CPU);
    bfix_member("tasks", t_list, 8 * TFIX_OFF_TASKS);
    bfix_member("", t_anon, 8 * TFIX_OFF_MM);
    bfix_member("pid", t_pid, 8 * TFIX_OFF_PID);
    bfix_member("tgid", t_pid, 8 * TFIX_OFF_PID + 32);
    bfix_member("real_parent", t_taskp, 8 * TFIX_OFF_PARENT);
    bfix_member("parent", t_taskp, 8 * TFIX_OFF_PARENT + 32);
    bfix_member("thread_node", t_list, 8 * TFIX_OFF_THREADS);
    bfix_member("comm", t_comm, 8 * TFIX_OFF_COMM);
    bfix_member("in_execve", t_uint, 1u << 24 | (8 * 900 + 3)); /* a bitfield */
    bfix_member("sched_reset", t_uint, 1u << 24 | (8 * 900 + 4));
    /* struct module */
    t_state_enum = bfix_other(BFIX_ENUM, 4);
    t_layout = bfix_struct(BFIX_STRUCT, "module_layout", 20, 3, false);
    bfix_member("base", t_voidp, 0);
    bfix_member("size", t_uint, 32);
    bfix_member("text_size", t_uint, 64);
    t_name = bfix_array(t_char, 60);
    bfix_fwd("module");
    bfix_struct(BFIX_STRUCT, "module", 300, 5, false);
    bfix_member("state", t_state_enum, 0);
    bfix_member("list", t_list, 32);
    bfix_member("name", t_name, 96);
    bfix_member("core_layout", t_layout, 8 * TFIX_OFF_CORE);
    bfix_member("init_layout", t_layout, 8 * BFIX_INIT_LAYOUT);
}

static uint32_t adrp(unsigned rd, uint32_t pc, uint32_t target)
{
    int32_t pages = (int32_t)((target >> 12) - (pc >> 12));
    uint32_t imm = (uint32_t)pages & 0x1fffffu;

    return 0x90000000u | (imm & 3u) << 29 | (imm >> 2) << 5 | rd;
}

static uint32_t add(unsigned rd, unsigned rn, uint32_t imm12)
{
    return 0x91000000u | (imm12 & 0xfffu) << 10 | rn << 5 | rd;
}

static uint32_t ldr(unsigned rt, unsigned rn, uint32_t byte_offset)
{
    return 0xf9400000u | (byte_offset / 8) << 10 | rn << 5 | rt;
}

#define NOP 0xd503201fu
#define RET 0xd65f03c0u

/* The address of target into rd: ADRP, a NOP between (pairs need not be adjacent), ADD. */
static uint32_t load(uint32_t at, unsigned rd, uint32_t target)
{
    kfix_w32(at, adrp(rd, at, target));
    kfix_w32(at + 4, NOP);
    kfix_w32(at + 8, add(rd, rd, target & 0xfff));
    return at + 12;
}

void bfix_build_kernel(enum bfix_code code, const char *const rename[2])
{
    uint32_t at;

    tfix_build_syms(syms, sizeof(syms) / sizeof(syms[0]));
    /* show_state_filter: a decoy (init_uts_ns is no task), then init_task */
    at = load(TFIX_SHOW_STATE, 3, KFIX_UTS);
    at = load(at, 2, tfix_task(0));
    kfix_w32(at, RET);
    /* module_get_kallsym: a decoy (no list), then the modules list head */
    at = load(TFIX_MOD_KALLSYM, 1, KFIX_UTS);
    at = load(at, 0, TFIX_MODULES_HEAD);
    kfix_w32(at, RET);
    /* btf_parse_vmlinux: a decoy (no BTF there), then __start_BTF from its GOT slot */
    at = load(BFIX_PARSE_VMLINUX, 0, BFIX_BTF + 0x1000u);
    if (code == BFIX_CODE_GOT) {
        kfix_w32(at, adrp(1, at, BFIX_GOT));
        kfix_w32(at + 4, ldr(1, 1, BFIX_GOT & 0xfff));
        kfix_w32(BFIX_GOT, BFIX_BTF);
        at += 8;
    }
    kfix_w32(at, RET);
    layouts();
    if (rename)
        bfix_rename(rename[0], rename[1]);
    bfix_write(BFIX_BTF);
}
