/* SPDX-License-Identifier: MIT */
/* AArch64's registers for GDB (gdb_regs.h): the aarch64 core feature, in GDB's aarch64
 * order: x0-x30, sp, pc (64 bits), cpsr (32 bits: PSTATE as SPSR_EL3 holds it). sp is
 * the interrupted context's own (frame_sp(): SP_EL0 in an EL0/ELxt context, SP_EL1 or
 * SP_EL2 in EL1h/EL2h).
 *
 * The description has no FP feature (v0-v31, fpsr, fpcr), and GDB does not require one:
 * fiqmon is built with -mgeneral-regs-only and never saves those registers, so it could
 * show them only by reading them live at EL3 (FP instructions in the monitor), and reporting
 * 34 registers as unavailable on every g would only make each reply longer. GDB then
 * simply has no $v0..$v31. */
#include "gdb_regs.h"

#if FIQMON_AARCH64
#define SLOT_SP 31u
#define SLOT_PC 32u

#define X(n) "<reg name=\"x" #n "\" bitsize=\"64\"/>"
const char gdb_target_xml[] =
    "<?xml version=\"1.0\"?><!DOCTYPE target SYSTEM \"gdb-target.dtd\">"
    "<target><architecture>aarch64</architecture><feature name=\"org.gnu.gdb.aarch64.core\">"
    /* PSTATE's fields, as GDB prints them: [ EL=1 SP I F ] */
    "<flags id=\"pstate_bits\" size=\"4\">"
    "<field name=\"SP\" start=\"0\" end=\"0\"/><field name=\"EL\" start=\"2\" end=\"3\"/>"
    "<field name=\"nRW\" start=\"4\" end=\"4\"/><field name=\"F\" start=\"6\" end=\"6\"/>"
    "<field name=\"I\" start=\"7\" end=\"7\"/><field name=\"A\" start=\"8\" end=\"8\"/>"
    "<field name=\"D\" start=\"9\" end=\"9\"/><field name=\"IL\" start=\"20\" end=\"20\"/>"
    "<field name=\"SS\" start=\"21\" end=\"21\"/><field name=\"V\" start=\"28\" end=\"28\"/>"
    "<field name=\"C\" start=\"29\" end=\"29\"/><field name=\"Z\" start=\"30\" end=\"30\"/>"
    "<field name=\"N\" start=\"31\" end=\"31\"/></flags>"
    X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
    X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29)
    X(30)
    "<reg name=\"sp\" bitsize=\"64\" type=\"data_ptr\"/>"
    "<reg name=\"pc\" bitsize=\"64\" type=\"code_ptr\"/>"
    "<reg name=\"cpsr\" bitsize=\"32\" type=\"pstate_bits\"/></feature></target>";
#undef X
const uint16_t gdb_target_xml_len = sizeof(gdb_target_xml) - 1;

_Static_assert(GDB_REG_PSR == 33u, "x0-x30, sp, pc, cpsr");
_Static_assert(GDB_REGS_HEX == (GDB_REG_SLOTS - 1u) * 16u + 8u, "three 64-bit, one 32-bit");

/* GDB's aarch64 numbers are the slots. */
int gdb_reg_slot(uint32_t n)
{
    return n < GDB_REG_SLOTS ? (int)n : -1;
}

unsigned gdb_reg_bytes(unsigned s)
{
    return s == GDB_REG_PSR ? 4 : 8;
}

static uint64_t *slot_reg(struct cpu_frame *f, unsigned s)
{
    if (s < SLOT_SP)
        return &f->x[s];
    return s == SLOT_SP ? frame_sp(f) : &f->pc;
}

target_addr_t gdb_reg_get(struct cpu_frame *f, unsigned s)
{
    return s == GDB_REG_PSR ? f->pstate : *slot_reg(f, s);
}

void gdb_reg_set(struct cpu_frame *f, unsigned s, target_addr_t v)
{
    if (s == GDB_REG_PSR)
        f->pstate = (uint32_t)v;
    else
        *slot_reg(f, s) = v;
}

/* The flags, the interrupt masks and the rest GDB may change; M[4:0] (the exception level,
 * which stack pointer, AArch32 or not) never: the exception return from EL3 would enter
 * whatever level it names, EL3 included, with the kernel's registers. */
bool gdb_psr_ok(uint32_t old, uint32_t val)
{
    return !((old ^ val) & (A64_PSTATE_M_MASK | A64_PSTATE_NRW));
}
#endif
