/* SPDX-License-Identifier: MIT */
/* AArch32's registers for GDB (gdb_regs.h): ARM's core feature, r0-r15 as the interrupted
 * mode sees them (frame_reg(): its banked sp and lr) and the cpsr. gdb_regs_a64.c is
 * AArch64's. */
#include "gdb_regs.h"

#if !FIQMON_AARCH64
#define GDB_REG_CPSR 25u /* cpsr's number in the target description */

/* The registers GDB gets in g/G and by number in p/P: ARM's core feature. */
const char gdb_target_xml[] =
    "<?xml version=\"1.0\"?><!DOCTYPE target SYSTEM \"gdb-target.dtd\">"
    "<target><architecture>arm</architecture><feature name=\"org.gnu.gdb.arm.core\">"
    "<reg name=\"r0\" bitsize=\"32\"/><reg name=\"r1\" bitsize=\"32\"/>"
    "<reg name=\"r2\" bitsize=\"32\"/><reg name=\"r3\" bitsize=\"32\"/>"
    "<reg name=\"r4\" bitsize=\"32\"/><reg name=\"r5\" bitsize=\"32\"/>"
    "<reg name=\"r6\" bitsize=\"32\"/><reg name=\"r7\" bitsize=\"32\"/>"
    "<reg name=\"r8\" bitsize=\"32\"/><reg name=\"r9\" bitsize=\"32\"/>"
    "<reg name=\"r10\" bitsize=\"32\"/><reg name=\"r11\" bitsize=\"32\"/>"
    "<reg name=\"r12\" bitsize=\"32\"/><reg name=\"sp\" bitsize=\"32\" type=\"data_ptr\"/>"
    "<reg name=\"lr\" bitsize=\"32\"/><reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\"/>"
    "<reg name=\"cpsr\" bitsize=\"32\" regnum=\"25\"/></feature></target>";
const uint16_t gdb_target_xml_len = sizeof(gdb_target_xml) - 1;

int gdb_reg_slot(uint32_t n)
{
    if (n < 16)
        return (int)n;
    return n == GDB_REG_CPSR ? (int)GDB_REG_PSR : -1;
}

unsigned gdb_reg_bytes(unsigned s)
{
    (void)s;
    return 4;
}

static uint32_t *slot_reg(struct cpu_frame *f, unsigned s)
{
    return s < 16 ? frame_reg(f, s) : &f->cpsr;
}

target_addr_t gdb_reg_get(struct cpu_frame *f, unsigned s)
{
    return *slot_reg(f, s);
}

void gdb_reg_set(struct cpu_frame *f, unsigned s, target_addr_t v)
{
    *slot_reg(f, s) = v;
}

static bool classic_mode(uint32_t psr)
{
    switch (psr & ARM_MODE_MASK) {
    case ARM_MODE_USR:
    case ARM_MODE_FIQ:
    case ARM_MODE_IRQ:
    case ARM_MODE_SVC:
    case ARM_MODE_ABT:
    case ARM_MODE_UND:
    case ARM_MODE_SYS:
        return true;
    default:
        return false;
    }
}

/* GDB may change the mode only among the ones the frame fully describes. */
bool gdb_psr_ok(uint32_t old, uint32_t val)
{
    return !((old ^ val) & ARM_MODE_MASK) || (classic_mode(old) && classic_mode(val));
}
#endif
