/* SPDX-License-Identifier: MIT */
/* cp15: the Normal world's system registers, as they were when the monitor was entered. */
#include <stddef.h>

#include "command.h"
#include "text.h"
#include "console.h"
#include "virt.h"

static int cmd_cp15(int argc, char **argv)
{
    const struct ns_sysregs *r = &ns_sysregs;

    (void)argc;
    (void)argv;
    con_printf("sctlr=%08x ttbr0=%08x ttbr1=%08x ttbcr=%08x\n", (unsigned)r->sctlr,
               (unsigned)r->ttbr0, (unsigned)r->ttbr1, (unsigned)r->ttbcr);
    con_printf("dacr=%08x contextidr=%08x vbar=%08x\n", (unsigned)r->dacr,
               (unsigned)r->contextidr, (unsigned)r->vbar);
    con_printf("dfsr=%08x dfar=%08x ifsr=%08x ifar=%08x\n", (unsigned)r->dfsr,
               (unsigned)r->dfar, (unsigned)r->ifsr, (unsigned)r->ifar);
    return 0;
}

const struct command platform_commands[] = {
    {"cp15", "", TEXT("Normal world SCTLR, TTBRs, DACR, fault regs"), cmd_cp15, CMD_READS_REGS,
     0, 0, 0},
    {NULL, NULL, NULL, NULL, 0, 0, 0, 0},
};
