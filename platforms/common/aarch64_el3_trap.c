/* SPDX-License-Identifier: MIT */
#include "aarch64_el3_trap.h"

#define ESR_SYSREG_READ 1u
#define ESR_SYSREG_RT(esr) ((unsigned)((esr) >> 5) & 31u)
/* Op0, Op2, Op1, CRn, CRm of the access: the ISS without Rt and the direction */
#define ESR_SYSREG_ID(esr) ((esr) & 0x3ffc1eu)
#define SYSREG_ID(op0, op1, crn, crm, op2)                                                    \
    ((uint64_t)(op0) << 20 | (uint64_t)(op2) << 17 | (uint64_t)(op1) << 14 |                  \
     (uint64_t)(crn) << 10 | (uint64_t)(crm) << 1)
#define ICC_IAR0_EL1_ID   SYSREG_ID(3, 0, 12, 8, 0)
#define ICC_HPPIR0_EL1_ID SYSREG_ID(3, 0, 12, 8, 2)
#define GIC_SPURIOUS      1023u

struct el3_trap_answer el3_trap_answer(uint64_t esr)
{
    struct el3_trap_answer a = {false, ESR_SYSREG_RT(esr), 0};
    uint64_t id = ESR_SYSREG_ID(esr);

    if (esr >> 26 != ESR_EC_SYSREG || !(esr & ESR_SYSREG_READ) || a.rt == 31)
        return a; /* a write (ignored), another trap, or a read into xzr */
    a.write_rt = true;
    a.value = id == ICC_IAR0_EL1_ID || id == ICC_HPPIR0_EL1_ID ? GIC_SPURIOUS : 0;
    return a;
}
