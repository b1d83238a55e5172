/* SPDX-License-Identifier: MIT */
/* A Normal-world kernel that tries everything a hostile or buggy kernel could do to the
 * Secure monitor under it, reports what the hardware let it do, then idles with FIQs
 * (as far as it can tell) masked. fiqmon must still answer the next knock and be
 * unchanged. */
#include <stdint.h>

#define UART0       0x09000000u /* Normal-world console */
#define SECURE_UART 0x09040000u
#define GICD        0x08000000u
#define SECURE_RAM  0x0e000000u
#define DEBUG_INTID 40u

extern volatile uint32_t guest_aborts, guest_undefs; /* start.S counts them */

static void putc_(char c)
{
    volatile uint32_t *uart = (volatile uint32_t *)UART0;
    while (uart[0x18 / 4] & (1u << 5)) {
    }
    uart[0] = (uint32_t)c;
}

static void puts_(const char *s)
{
    for (; *s; s++) {
        if (*s == '\n')
            putc_('\r');
        putc_(*s);
    }
}

static void puthex(uint32_t v)
{
    for (int s = 28; s >= 0; s -= 4)
        putc_("0123456789abcdef"[(v >> s) & 0xf]);
}

static void report(const char *what, uint32_t v)
{
    puts_("guest isolation: ");
    puts_(what);
    puts_(" ");
    puthex(v);
    puts_("\n");
}

/* Not inlined: a faulting store with base writeback would not advance a loop pointer. */
__attribute__((noinline)) static void w32(uint32_t addr, uint32_t v)
{
    *(volatile uint32_t *)addr = v;
}

__attribute__((noinline)) static uint32_t r32(uint32_t addr)
{
    return *(volatile uint32_t *)addr;
}

int main(void);

int main(void)
{
    uint32_t cpsr, word = DEBUG_INTID / 32, bit = 1u << (DEBUG_INTID % 32);

    puts_("guest isolation: started\n");
    __asm__ volatile("cpsid f\n\tmrs %0, cpsr" : "=r"(cpsr));
    report("cpsr after cpsid f", cpsr);

    /* Take the debug UART's interrupt: group 1, lowest priority, no target, disabled. */
    w32(GICD + 0x080 + 4 * word, 0xffffffffu);
    w32(GICD + 0x400 + DEBUG_INTID, 0xffffffffu);
    w32(GICD + 0x800 + DEBUG_INTID, 0);
    w32(GICD + 0x180 + 4 * word, bit);
    report("gicd igroupr (40 is bit 8)", r32(GICD + 0x080 + 4 * word));
    report("gicd ipriorityr 40", r32(GICD + 0x400 + DEBUG_INTID));
    report("gicd isenabler (40 is bit 8)", r32(GICD + 0x100 + 4 * word));

    /* Overwrite fiqmon and silence its UART. */
    for (uint32_t a = SECURE_RAM; a < SECURE_RAM + 0x10000; a += 0x400)
        w32(a, 0xdeadbeefu);
    report("read of secure ram", r32(SECURE_RAM + 0x100));
    w32(SECURE_UART + 0x30, 0);      /* UARTCR: disable */
    w32(SECURE_UART + 0x38, 0);      /* UARTIMSC: no interrupts */
    report("aborts taken", guest_aborts);
    puts_("guest isolation: done\n");
    for (;;)
        __asm__ volatile("wfi");
}
