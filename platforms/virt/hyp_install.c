/* SPDX-License-Identifier: MIT */
/* Install the Hyp shim (HYP=1): copy it into the Normal world's RAM at HYP_BASE, build the
 * stage-2 identity map that leaves out the shim, fiqmon's Secure RAM and the emulated
 * page, and arm Hyp mode. The kernel is then entered in NS SVC as without it. Every other
 * CPU arms its own Hyp registers (banked) with the same shim and tables, on its own stack,
 * each time PSCI turns it on. */
#include <string.h>

#include "armv7_cp15.h"
#include "hyp_abi.h"
#include "hyp_trap.h"
#include "platform_def.h"
#include "stage2.h"
#include "virt.h"

extern const uint8_t hyp_blob[], hyp_blob_end[];
void virt_hyp_arm(uint32_t hvbar, uint32_t sp, uint32_t vttbr_lo, uint32_t vttbr_hi);

static const struct stage2_region normal_world[] = {
    {RAM_BASE, RAM_SIZE, S2_NORMAL},
    {SECURE_RAM_BASE, SECURE_RAM_SIZE, S2_ABSENT}, /* Secure anyway: a trap, not an abort */
    {HYP_BASE, HYP_REGION_SIZE, S2_ABSENT},
    {HYP_EMULATED_BASE, 0x1000, S2_ABSENT},
};

bool virt_hyp_installed;

bool virt_hyp_install(void)
{
    uint32_t pfr1;
    stage2_table *tables = (stage2_table *)(HYP_BASE + HYP_TABLES);

    __asm__ volatile("mrc p15, 0, %0, c0, c1, 1" : "=r"(pfr1)); /* ID_PFR1 */
    if (!((pfr1 >> 12) & 0xfu))
        return false; /* no Virtualization Extensions (QEMU: virtualization=off) */
    memset((void *)HYP_BASE, 0, HYP_TABLES);
    memcpy((void *)HYP_BASE, hyp_blob, (size_t)(hyp_blob_end - hyp_blob));
    if (!stage2_build(tables, HYP_TABLES_COUNT, HYP_BASE + HYP_TABLES, normal_world,
                      sizeof(normal_world) / sizeof(normal_world[0])))
        return false;
    virt_hyp_installed = true;
    virt_hyp_arm_cpu(0);
    return true;
}

void virt_hyp_arm_cpu(unsigned cpu)
{
    if (!virt_hyp_installed || cpu >= HYP_CPUS)
        return;
    virt_hyp_arm(HYP_BASE, HYP_BASE + HYP_STACK_TOP - cpu * HYP_STACK_SIZE,
                 HYP_BASE + HYP_TABLES, 0);
}

static struct hyp_stats *shim_stats(void)
{
    return (struct hyp_stats *)*(const uint32_t *)(HYP_BASE + HYP_STATS_PTR);
}

/* Every CPU's counters, summed. */
void virt_hyp_stats(struct hyp_stats *out)
{
    const struct hyp_stats *per_cpu = shim_stats();

    memset(out, 0, sizeof(*out));
    for (unsigned i = 0; i < HYP_CPUS; i++) {
        out->emulated += per_cpu[i].emulated;
        out->ignored += per_cpu[i].ignored;
        out->other += per_cpu[i].other;
        out->debug += per_cpu[i].debug;
        out->cp14 += per_cpu[i].cp14;
    }
}

void virt_hyp_cpu_stats(unsigned cpu, struct hyp_stats *out)
{
    memcpy(out, &shim_stats()[cpu < HYP_CPUS ? cpu : 0], sizeof(*out));
}

void virt_hyp_stats_reset(void)
{
    memset(shim_stats(), 0, HYP_CPUS * sizeof(struct hyp_stats));
}
