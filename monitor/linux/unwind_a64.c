/* SPDX-License-Identifier: MIT */
#include "unwind_a64.h"

uint64_t unwind_a64_strip_pac(uint64_t addr, unsigned va_bits)
{
    uint64_t top = va_bits && va_bits < 64 ? ~0ull << va_bits : 0;

    return addr >> 55 & 1 ? addr | top : addr;
}

#if FIQMON_AARCH64
#include "console.h"
#include "cpu_frame.h"
#include "kallsyms.h"
#include "kmem.h"
#include "monitor.h"
#include "vmcoreinfo.h"

static unsigned va_bits(void)
{
    const struct vmci *v = kernel_vmcoreinfo(false);

    return v && vmci_has(v, VMCI_BIT(VMCI_VA_BITS)) && v->value[VMCI_VA_BITS] >= 36 &&
                   v->value[VMCI_VA_BITS] <= 52
               ? (unsigned)v->value[VMCI_VA_BITS]
               : 48u;
}

uint64_t unwind_a64_kernel_pac_strip(uint64_t addr)
{
    return unwind_a64_strip_pac(addr, va_bits());
}

static void print_frame(unsigned n, uint64_t addr)
{
    con_printf("#%-2u %016lx ", n, (unsigned long)addr);
    ksym_print(addr);
    con_puts("\n");
}

static bool same_function(uint64_t a, uint64_t b)
{
    struct ksym sa, sb;

    return ksym_lookup(a, &sa) && ksym_lookup(b, &sb) && sa.addr == sb.addr;
}

static bool in_text(uint64_t a)
{
    struct ksym s;

    return ksym_lookup(a, &s);
}

/* The chain of frame records from fp, frames numbered from n. */
static void chain(uint64_t fp, unsigned n, unsigned bits)
{
    kmem_failed = false;
    for (unsigned i = 0; i < UNWIND_A64_MAX_FRAMES; i++) {
        uint64_t next, ret;

        if (!fp) {
            con_puts("bt: end of the chain\n");
            return;
        }
        if (fp & 7) {
            con_printf("bt: stopped: frame record at %016lx is misaligned\n", (unsigned long)fp);
            return;
        }
        next = kr64(fp);
        ret = unwind_a64_strip_pac(kr64(fp + 8), bits);
        if (kmem_failed) {
            con_printf("bt: stopped: frame record at %016lx does not read\n", (unsigned long)fp);
            return;
        }
        if (!ret) { /* the final record of a task (its pt_regs): fp and lr 0 */
            con_puts("bt: end of the chain\n");
            return;
        }
        print_frame(n++, ret);
        if (next == fp) {
            con_puts("bt: stopped: the frame record points at itself\n");
            return;
        }
        fp = next;
    }
    con_printf("bt: stopped after %u frames (fiqmon's limit)\n", UNWIND_A64_MAX_FRAMES);
}

void unwind_a64_backtrace(struct cpu_frame *f)
{
    unsigned bits = va_bits(), n = 0;
    uint64_t pc = f->pc, fp = f->x[29], lr = unwind_a64_strip_pac(f->x[30], bits);
    uint64_t record_lr;

    kmem_begin();
    if ((f->pstate & A64_PSTATE_NRW) || !(f->pstate & A64_PSTATE_M_MASK & ~3u)) {
        /* EL0 (or AArch32 user code): its frame chain is the program's, not the kernel's */
        con_printf("bt: in user mode at pc=%016lx\n", (unsigned long)pc);
        return;
    }
    con_puts("bt: frame records (x29)\n");
    print_frame(n++, pc);
    record_lr = fp ? unwind_a64_strip_pac(kr64(fp + 8), bits) : 0;
    /* a leaf, or a function before its prologue stored x29/x30 (or after its epilogue
     * loaded them): its caller is only in x30 */
    if (in_text(lr) && !same_function(lr, pc) && lr != record_lr) {
        con_puts("bt: #0 has not stored its frame record: its caller from x30\n");
        print_frame(n++, lr);
    }
    chain(fp, n, bits);
}

void unwind_a64_backtrace_from(uint64_t pc, uint64_t fp)
{
    unsigned bits = va_bits();

    kmem_begin();
    con_puts("bt: frame records (x29)\n");
    print_frame(0, unwind_a64_strip_pac(pc, bits));
    chain(fp, 1, bits);
}
#endif
