/* SPDX-License-Identifier: MIT */
/* A fake platform for the host unit tests: everything platforms/platform.h asks for, with
 * knobs and records the tests can reach. Its description (fake.desc) is the one
 * `platform` points to, and tests may change it.
 *
 *   output     port_putc appends to a capture buffer
 *   memory     64 KiB at FAKE_RAM_BASE, little-endian, plus regions mapped with
 *              fake_mem_map, plus fault ranges inside or outside them; anything else
 *              faults. Faulting accesses change nothing. Virtual and
 *              physical addresses are the same; the fake records which space each
 *              access was made in. Addresses are target_addr_t: the fake also serves
 *              the AArch64 build of the monitor (tests/unit/test_*_a64.c), where a
 *              region may lie anywhere in 64 bits.
 *   receiver   port_rx_poll delivers one scripted chunk per call into mon_rx
 *   reboot     port_reboot jumps back to fake_expect_reboot, or fails the test
 *   timer      port_entropy returns fake.entropy, then adds fake.entropy_step to it;
 *              port_clock_ms the same with fake.clock_ms and fake.clock_step_ms;
 *              port_delay_ms only records (no test waits)
 *   cpus       fake.desc.cpus CPUs (default one): CPU 0 is the monitor's (monitor_frame()),
 *              the others are off until fake_cpu_set turns them on; a roundup
 *              (port_cpus_hold) stops every online one that is not in fake.cpus_late,
 *              and only a stopped one shows its context
 */
#ifndef FIQMON_FAKE_PORT_H
#define FIQMON_FAKE_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "handoff.h"
#include "platform.h"

#define FAKE_RAM_BASE 0x10000000u
#define FAKE_RAM_SIZE 0x10000u
#define FAKE_BUILD_ID_LEN 20u
#define FAKE_IRQ_LINES_MAX 64u

/* Back to the defaults below: no output, memory zeroed, no fault ranges, no script, the
 * default irq table, every counter 0. */
void fake_port_reset(void);

/* --- output --- */
void fake_output_reset(void);
/* Everything port_putc received since the last reset, NUL-terminated. */
const char *fake_output(void);
/* The same with every '\r' removed (valid until the next call). */
const char *fake_output_text(void);
size_t fake_output_len(void);

/* --- memory --- */
/* Host pointer to target address addr (must lie in the fake RAM); for setting up and
 * inspecting memory behind the port's back. */
uint8_t *fake_mem(target_addr_t addr);
void fake_mem_write(target_addr_t addr, const void *data, size_t len);
/* Accesses touching any byte of [addr, addr + len) fault from now on. */
void fake_mem_add_fault(target_addr_t addr, uint32_t len);
/* Maps size more bytes (zeroed) at base, besides the fake RAM: e.g. a kernel's virtual
 * addresses 0xc0000000... (at most 4 regions, not touching each other or the fake RAM).
 * Returns the host pointer; fake_mem() works there too. Unmapped by fake_port_reset. */
uint8_t *fake_mem_map(target_addr_t base, uint32_t size);

/* --- receiver --- */
/* Queue a chunk: the next port_rx_poll that finds it first puts its bytes into mon_rx. */
void fake_rx_script(const void *bytes, size_t len);
void fake_rx_script_str(const char *s);
/* Chunks not yet delivered. */
unsigned fake_rx_pending(void);
/* A long stream (a flood): once the scripted chunks are out, each port_rx_poll delivers the
 * next per_poll bytes of it. The bytes are not copied: keep them alive. */
void fake_rx_stream(const void *bytes, size_t len, size_t per_poll);
/* What the stream has not delivered yet; *len its length. The stream stops here. */
const uint8_t *fake_rx_stream_stop(size_t *len);
/* port_rx_poll fails the test after this many polls in a row found nothing scripted
 * (a halted monitor would otherwise spin for ever). */
#define FAKE_RX_IDLE_POLLS_MAX 1000u

/* --- interrupt controller --- */
void fake_irq_set_lines(const struct port_irq_line *lines, unsigned n);

/* --- every core --- */
#define FAKE_CPUS_MAX 8u
struct cpu_frame;
/* CPU n (1 <= n < FAKE_CPUS_MAX, n < fake.desc.cpus) on or off, with the context it saves
 * when a roundup stops it (the fake keeps a copy: fake_cpu_frame). */
void fake_cpu_set(unsigned n, bool online, const struct cpu_frame *context);
/* CPU n's context as the fake keeps it: what the monitor reads and edits while it is
 * stopped. */
struct cpu_frame *fake_cpu_frame(unsigned n);

/* --- reboot --- */
/* Runs fn(arg). Returns true if it called port_reboot (which never returns: it jumps back
 * here), false if fn returned normally. */
bool fake_expect_reboot(void (*fn)(void *), void *arg);

/* --- knobs and records --- */
struct fake_port {
    /* knobs */
    uint32_t fiqs_taken;         /* port_fiqs_taken */
    const char *mem_unavailable; /* port_mem_unavailable */
    uint32_t secret_base;        /* port_mem_secret: [base, base + size) */
    uint32_t secret_size;
    struct platform_desc desc; /* what `platform` says (boot: port_boot_target) */
    uint32_t rom_base;           /* writes in [base, base + size) succeed and change nothing */
    uint32_t rom_size;
    uint32_t device_base;        /* port_mem_is_memory is false in [base, base + size) */
    uint32_t device_size;
    uint32_t self_crc;       /* port_self_crc */
    uint32_t entropy;        /* port_entropy's next value */
    uint32_t entropy_step;   /* added after each port_entropy (default 0: a stopped timer) */
    uint32_t clock_ms;       /* port_clock_ms's next value */
    uint32_t clock_step_ms;  /* added after each port_clock_ms (default 0: a stopped clock) */
    uint32_t cpus_late;      /* CPUs (a bit each) that answer no roundup or sample */
    unsigned debug_bps, debug_wps; /* port_debug_slots (default 0: no debug unit) */
    uint32_t debug_vectors;        /* port_debug_vectors */
    /* records */
    enum port_mem_space space;    /* last port_mem_space */
    unsigned reads[5], writes[5]; /* successful accesses, by width */
    unsigned space_accesses[3];   /* accesses (faulting too), by the space they were made in */
    unsigned faults;              /* refused accesses */
    unsigned bad_widths;          /* accesses with a width other than 1, 2, 4 */
    bool uart_claimed;            /* last port_debug_uart_claim */
    unsigned uart_claims;         /* port_debug_uart_claim calls */
    unsigned rx_polls;
    /* one wire (desc.console_shared): what the kernel's console received, in order; a
     * BREAK is recorded as the byte 0xff00 */
    uint16_t console_rx[4096];
    unsigned console_rx_len;
    unsigned console_rx_room;     /* refuse bytes once this many are in (0: no limit) */
    bool console_held;            /* last port_console_hold */
    unsigned console_replays;     /* port_console_replay calls */
    unsigned reboots;
    unsigned entropy_reads;
    unsigned clock_reads;
    unsigned delays;              /* port_delay_ms calls */
    uint32_t delay_ms_last;       /* and their arguments */
    uint32_t delay_ms_total;
    bool cpus_held;               /* last port_cpus_hold */
    unsigned cpu_holds;           /* port_cpus_hold(true) calls */
    unsigned cpu_samples;         /* port_cpus_sample calls */
    /* the debug unit's registers as the monitor left them */
    bool kernel_thumb;   /* port_debug_kernel_thumb */
    bool mmu_on;         /* port_debug_translation: the kernel's tables (default: MMU off) */
    uint32_t ttbr0, ttbr1, ttbcr;
    unsigned code_syncs; /* port_debug_code_sync calls, and the last address */
    uint32_t code_sync_addr;
    bool bp_on[16];
    uint32_t bp_addr[16];
    bool wp_on[16];
    uint32_t wp_addr[16], wp_len[16];
    unsigned wp_kind[16];
    /* CPUs 1..7's breakpoint registers (CPU 0's are bp_on/bp_addr above): the table, or
     * a step's own (port_debug_step_*); and whether a step turned their watchpoints off */
    bool cpu_bp_on[FAKE_CPUS_MAX][16];
    uint32_t cpu_bp_addr[FAKE_CPUS_MAX][16];
    bool cpu_wps_off[FAKE_CPUS_MAX];
};
extern struct fake_port fake;

/* Called with every port_mem_read (value 0) and port_mem_write before the fake decides
 * whether it faults; NULL (the default) for none. For oracles such as the fuzz harnesses'. */
extern void (*fake_on_mem_access)(bool write, target_addr_t addr, unsigned width, uint32_t value);

extern const uint8_t fake_build_id[FAKE_BUILD_ID_LEN];

#endif
