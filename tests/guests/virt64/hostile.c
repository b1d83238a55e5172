/* SPDX-License-Identifier: MIT */
/* hostile64: a Normal-world kernel that tries, from EL2 and then again from EL1,
 * everything a hostile or buggy kernel could do to the Secure monitor under it, and says
 * what the hardware let it do, one line per attempt:
 *
 *     guest hostile64: elN <what> -> <result>
 *
 * In order, at each EL: mask FIQs (PSTATE.F) and spin until a byte arrives on the console
 * (a test knocks meanwhile: fiqmon must still get in); take the debug UART's interrupt
 * (INTID 40) and fiqmon's service SGI (15) away from Group 0 in the GIC distributor and
 * redistributor, reading back what stuck; read and write fiqmon's Secure RAM, the Secure
 * flash it booted from, its Secure UART and the Secure GPIO that powers the machine off;
 * touch EL3's own registers; and 10000 SMCs with random function ids and arguments
 * (fixed seed; fiqmon's service calls and PSCI left out: they do what they should).
 * Then `guest hostile64: done`, and it idles, polling the console: a 'g' there makes it
 * try Group 0 of the GIC's CPU interface too (group0_attempts). */
#include "console.h"
#include "delay.h"
#include "mmio.h"
#include "smc.h"

#define GICD         0x08000000u
#define GICR_RD      0x080a0000u            /* CPU 0's redistributor */
#define GICR_SGI     (GICR_RD + 0x10000u)   /* ... its SGI and PPI frame */
#define SECURE_FLASH 0x00000000u
#define SECURE_UART  0x09040000u
#define SECURE_GPIO  0x090b0000u
#define SECURE_RAM   0x0e000000u

#define SPIN_REPORT_LOOPS 200000000u        /* between "spinning" lines */
#define SMC_CALLS         10000u

extern volatile uint64_t guest_aborts, guest_undefs; /* start.S counts them */
void guest_drop_to_el1(void (*entry)(void));

static const char *el = "el2";

static void head(const char *what)
{
    con_puts("guest hostile64: ");
    con_puts(el);
    con_putc(' ');
    con_puts(what);
    con_puts(" -> ");
}

/* Single instructions (not inlined) so that a skipped fault skips only the access. */
__attribute__((noinline)) static void store32(uintptr_t addr, uint32_t value)
{
    __asm__ volatile("str %w0, [%1]" : : "r"(value), "r"(addr) : "memory");
}

__attribute__((noinline)) static uint32_t load32(uintptr_t addr)
{
    uint32_t value = 0xbad0bad0u; /* what a skipped load leaves */

    __asm__ volatile("ldr %w0, [%1]" : "+r"(value) : "r"(addr) : "memory");
    return value;
}

static void try_read(const char *what, uintptr_t addr)
{
    uint64_t aborts = guest_aborts;
    uint32_t value = load32(addr);

    head(what);
    if (guest_aborts != aborts) {
        con_puts("aborted\n");
    } else {
        con_puts("read ");
        con_hex32(value);
        con_puts("\n");
    }
}

static void try_write(const char *what, uintptr_t addr, uint32_t value)
{
    uint64_t aborts = guest_aborts;

    store32(addr, value);
    head(what);
    con_puts(guest_aborts != aborts ? "aborted\n" : "no abort\n");
}

/* A GIC register: write it, then read back what stuck (at readback: a set-enable register
 * for a clear-enable one). */
static void try_gic(const char *what, uintptr_t reg, uint32_t value, uintptr_t readback)
{
    uint64_t aborts = guest_aborts;
    uint32_t now;

    store32(reg, value);
    now = load32(readback);
    head(what);
    if (guest_aborts != aborts) {
        con_puts("aborted\n");
        return;
    }
    con_puts("wrote ");
    con_hex32(value);
    con_puts(", reads ");
    con_hex32(now);
    con_puts("\n");
}

static uint64_t read_daif(void)
{
    uint64_t daif;

    __asm__ volatile("mrs %0, daif" : "=r"(daif));
    return daif;
}

/* PSTATE.F set, then a spin until a byte arrives on the console: a test knocks on
 * fiqmon's port meanwhile, then sends the byte. */
static void mask_fiq_and_spin(void)
{
    uint64_t lines = 0;
    int byte = -1;

    __asm__ volatile("msr daifset, #1" ::: "memory");
    head("msr daifset, #1");
    con_puts("daif=");
    con_hex32((uint32_t)read_daif());
    con_puts("\n");
    while (byte < 0) {
        con_puts("guest hostile64: ");
        con_puts(el);
        con_puts(" masked F, spinning until a byte on the console\n");
        lines++;
        for (int i = 0; i < 16 && byte < 0; i++) {
            delay_loops(SPIN_REPORT_LOOPS / 16);
            byte = con_getc_nowait();
        }
    }
    head("spin with F masked");
    con_puts("ended by the console byte after ");
    con_dec(lines);
    con_puts(" lines, daif=");
    con_hex32((uint32_t)read_daif());
    con_puts("\n");
}

static void gic_attempts(void)
{
    /* INTID 40 is bit 8 of the second word of each bit array, byte 40 of the priorities */
    try_gic("gicd ctlr = 0 (groups off)", GICD + 0x0000, 0, GICD + 0x0000);
    try_gic("gicd igroupr1 (intid 40 is bit 8)", GICD + 0x0084, 0xffffffffu, GICD + 0x0084);
    try_gic("gicd igrpmodr1 (intid 40 is bit 8)", GICD + 0x0d04, 0xffffffffu, GICD + 0x0d04);
    try_gic("gicd ipriorityr10 (intid 40 is byte 0)", GICD + 0x0428, 0xffffffffu,
            GICD + 0x0428);
    try_gic("gicd icenabler1 (intid 40 is bit 8), isenabler1", GICD + 0x0184, 1u << 8,
            GICD + 0x0104);
    try_gic("gicd irouter40 = cpu 255", GICD + 0x6140, 0xffu, GICD + 0x6140);
    try_gic("gicr waker = processor asleep", GICR_RD + 0x0014, 1u << 1, GICR_RD + 0x0014);
    try_gic("gicr igroupr0 (sgi 15 is bit 15)", GICR_SGI + 0x0080, 0xffffffffu,
            GICR_SGI + 0x0080);
    try_gic("gicr igrpmodr0 (sgi 15 is bit 15)", GICR_SGI + 0x0d00, 0xffffffffu,
            GICR_SGI + 0x0d00);
    try_gic("gicr ipriorityr3 (sgi 15 is byte 3)", GICR_SGI + 0x040c, 0xffffffffu,
            GICR_SGI + 0x040c);
    try_gic("gicr icenabler0 (sgi 15 is bit 15), isenabler0", GICR_SGI + 0x0180, 1u << 15,
            GICR_SGI + 0x0100);
}

static void secure_memory_attempts(void)
{
    uint64_t aborts = guest_aborts;

    try_read("read secure ram 0e000000", SECURE_RAM);
    try_write("write secure ram 0e000000", SECURE_RAM, 0xdeadbeefu);
    for (uintptr_t a = SECURE_RAM; a < SECURE_RAM + 0x20000; a += 0x1000)
        store32(a, 0xdeadbeefu);
    head("overwrite 32 words of secure ram");
    con_puts("aborted ");
    con_dec(guest_aborts - aborts - 2);
    con_puts(" of 32\n");
    try_read("read secure flash 00000000", SECURE_FLASH);
    try_write("write secure flash 00000000", SECURE_FLASH, 0x00ff00ffu);
    try_read("read secure uart1 fr", SECURE_UART + 0x18);
    try_write("write secure uart1 cr = 0 (disabled)", SECURE_UART + 0x30, 0);
    try_write("write secure uart1 imsc = 0 (no interrupts)", SECURE_UART + 0x38, 0);
    try_write("write secure uart1 dr", SECURE_UART + 0x00, 'X');
    try_write("write secure gpio dir = out", SECURE_GPIO + 0x400, 0xffu);
    try_write("write secure gpio data (power off, reset)", SECURE_GPIO + 0x3fc, 0xffu);
}

__attribute__((noinline)) static uint64_t read_scr_el3(void)
{
    uint64_t v = 0;

    __asm__ volatile("mrs %0, scr_el3" : "+r"(v));
    return v;
}

__attribute__((noinline)) static void write_scr_el3(uint64_t v)
{
    __asm__ volatile("msr scr_el3, %0" : : "r"(v));
}

static void el3_register_attempts(void)
{
    uint64_t undefs = guest_undefs;

    read_scr_el3();
    head("mrs scr_el3");
    con_puts(guest_undefs != undefs ? "undefined\n" : "read\n");
    undefs = guest_undefs;
    write_scr_el3(0); /* NS = 0: the Secure world's memory for the taking */
    head("msr scr_el3");
    con_puts(guest_undefs != undefs ? "undefined\n" : "written\n");
}

/* xorshift64: a fixed seed, the same 10000 calls in every run */
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t random64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Function ids the fuzz leaves out: fiqmon's service calls (0x82000004 enters the
 * debugger), and PSCI's (SMC32 and SMC64), which may legitimately stop the CPU. */
static int fid_left_out(uint32_t fid)
{
    return (fid >= 0x82000001u && fid <= 0x82000004u) || (fid & 0xbfffffe0u) == 0x84000000u;
}

static void smc_fuzz(void)
{
    uint64_t minus_one = 0, changed = 0;

    for (unsigned call = 0; call < SMC_CALLS; call++) {
        uint64_t regs[8], args[8];

        do
            args[0] = random64();
        while (fid_left_out((uint32_t)args[0]));
        for (unsigned i = 1; i < 8; i++)
            args[i] = random64();
        for (unsigned i = 0; i < 8; i++)
            regs[i] = args[i];
        smc_call(regs);
        minus_one += (uint32_t)regs[0] == 0xffffffffu;
        changed += regs[4] != args[4] || regs[5] != args[5] || regs[6] != args[6] ||
                   regs[7] != args[7];
    }
    head("smc fuzz");
    con_dec(SMC_CALLS);
    con_puts(" calls, ");
    con_dec(minus_one);
    con_puts(" returned -1, ");
    con_dec(changed);
    con_puts(" changed x4-x7, the guest survived\n");
}

static void everything(void)
{
    mask_fiq_and_spin();
    gic_attempts();
    secure_memory_attempts();
    el3_register_attempts();
    smc_fuzz();
    head("aborts and undefined instructions so far");
    con_dec(guest_aborts);
    con_puts(" and ");
    con_dec(guest_undefs);
    con_puts("\n");
}

/* Group 0 of the GIC CPU interface: with SCR_EL3.FIQ set, a Normal-world access traps to
 * EL3. Only on request (a 'g' on the console after `done`): it is a test of its own. */
__attribute__((noinline)) static void write_icc_igrpen0(uint64_t v)
{
    __asm__ volatile("msr icc_igrpen0_el1, %0" : : "r"(v));
}

__attribute__((noinline)) static uint64_t read_icc_iar0(void)
{
    uint64_t v = 0xbad0bad0u;

    __asm__ volatile("mrs %0, icc_iar0_el1" : "+r"(v));
    return v;
}

static void group0_attempts(void)
{
    uint64_t undefs = guest_undefs;
    uint64_t intid;

    head("msr icc_igrpen0_el1 = 0 (group 0 off)");
    write_icc_igrpen0(0);
    con_puts(guest_undefs != undefs ? "undefined\n" : "no exception\n");
    undefs = guest_undefs;
    head("mrs icc_iar0_el1 (take fiqmon's interrupt)");
    intid = read_icc_iar0();
    if (guest_undefs != undefs) {
        con_puts("undefined\n");
    } else {
        con_puts("read ");
        con_hex32((uint32_t)intid);
        con_puts("\n");
    }
    con_puts("guest hostile64: group 0 done\n");
}

static void el1_main(void)
{
    el = "el1";
    everything();
    con_puts("guest hostile64: done\n");
    for (;;)
        if (con_getc_nowait() == 'g')
            group0_attempts();
}

int main(void);

int main(void)
{
    con_puts("guest hostile64: started\n");
    everything();
    guest_drop_to_el1(el1_main);
    return 0;
}
