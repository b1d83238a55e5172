/* SPDX-License-Identifier: MIT */
#include "fake_port.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "command.h"
#include "cpu_frame.h"
#include "monitor.h"
#include "ring.h"

struct fake_port fake;

/* the fake platform adds no commands */
const struct command platform_commands[] = {{NULL, NULL, NULL, NULL, 0, 0, 0, 0}};

const uint8_t fake_build_id[FAKE_BUILD_ID_LEN] = {
    0xf1, 0x9e, 0x00, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd,
    0xef, 0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe, 0x7f,
};

const struct platform_desc *const platform = &fake.desc;

static const struct boot_target default_boot = {
    .ram_base = FAKE_RAM_BASE,
    .ram_size = FAKE_RAM_SIZE,
    .reserved_base = FAKE_RAM_BASE + 0xf000u,
    .reserved_size = 0x1000u,
    .machine_id = 387,
    .atags_addr = FAKE_RAM_BASE + 0x100u,
    .dtb_addr = FAKE_RAM_BASE + 0xe000u,
    .dtb_max = 0x1000u,
    .payload_addr = 0,
#if FIQMON_AARCH64
    .entry_cpsr = A64_PSTATE_EL1H | A64_PSTATE_I,
#else
    .entry_cpsr = ARM_MODE_SVC | ARM_PSR_I,
#endif
    .entry_world = FRAME_WORLD_SECURE,
};

static const struct platform_desc default_desc = {
    .name = "fakeboard",
    .cpu = "fakecpu",
    .debug_uart = "fakeuart",
    .irq_controller = "fake intc",
    .watchdog_signal = "fake timer line 4",
    .debug_uart_releasable = true,
};

/* --- output ------------------------------------------------------------------------- */

#define OUTPUT_MAX (512u * 1024u)

static char output[OUTPUT_MAX + 1];
static char output_text[OUTPUT_MAX + 1];
static size_t output_len;

void fake_output_reset(void)
{
    output_len = 0;
    output[0] = '\0';
}

const char *fake_output(void)
{
    output[output_len] = '\0';
    return output;
}

const char *fake_output_text(void)
{
    size_t n = 0;

    for (size_t i = 0; i < output_len; i++)
        if (output[i] != '\r')
            output_text[n++] = output[i];
    output_text[n] = '\0';
    return output_text;
}

size_t fake_output_len(void)
{
    return output_len;
}

void port_putc(uint8_t c)
{
    if (output_len == OUTPUT_MAX) {
        fail_msg("fake port: more than %u bytes of output without a reset", OUTPUT_MAX);
        return;
    }
    output[output_len++] = (char)c;
}

/* --- memory ------------------------------------------------------------------------- */

#define FAULTS_MAX 8u

static uint8_t memory[FAKE_RAM_SIZE];
static struct {
    target_addr_t addr;
    uint32_t len;
} faults[FAULTS_MAX];
static unsigned fault_count;

/* More memory at other addresses (fake_mem_map), e.g. where a kernel's data would be. */
#define REGIONS_MAX 4u
static struct {
    target_addr_t base;
    uint32_t size;
    uint8_t *bytes;
} regions[REGIONS_MAX];

uint8_t *fake_mem_map(target_addr_t base, uint32_t size)
{
    for (unsigned i = 0; i < REGIONS_MAX; i++) {
        if (!regions[i].bytes) {
            regions[i].bytes = calloc(size, 1);
            if (!regions[i].bytes) {
                fail_msg("fake_mem_map: out of host memory for 0x%x bytes", (unsigned)size);
                abort();
            }
            regions[i].base = base;
            regions[i].size = size;
            return regions[i].bytes;
        }
    }
    fail_msg("fake_mem_map: more than %u regions", REGIONS_MAX);
    abort();
}

/* The host byte behind target address addr, or NULL if nothing is mapped there. */
static uint8_t *host_byte(target_addr_t addr)
{
    if (addr - FAKE_RAM_BASE < FAKE_RAM_SIZE)
        return &memory[addr - FAKE_RAM_BASE];
    for (unsigned i = 0; i < REGIONS_MAX; i++)
        if (regions[i].bytes && addr - regions[i].base < regions[i].size)
            return &regions[i].bytes[addr - regions[i].base];
    return NULL;
}

uint8_t *fake_mem(target_addr_t addr)
{
    if (!host_byte(addr)) {
        fail_msg("fake_mem: 0x%08llx is outside the fake RAM", (unsigned long long)addr);
        abort();
    }
    return host_byte(addr);
}

void fake_mem_write(target_addr_t addr, const void *data, size_t len)
{
    if (len == 0)
        return;
    fake_mem(addr + (target_addr_t)len - 1); /* checks the end */
    memcpy(fake_mem(addr), data, len);
}

void fake_mem_add_fault(target_addr_t addr, uint32_t len)
{
    if (fault_count == FAULTS_MAX) {
        fail_msg("fake_mem_add_fault: more than %u ranges", FAULTS_MAX);
        return;
    }
    faults[fault_count].addr = addr;
    faults[fault_count].len = len;
    fault_count++;
}

/* [addr, addr + width) lies in the fake RAM and touches no fault range. An access that
 * would wrap past the top of the address space (TARGET_ADDR_MAX) is simply outside. */
static bool accessible(target_addr_t addr, unsigned width)
{
    uint64_t start = addr, end = (uint64_t)addr + width;

    if (width != 1 && width != 2 && width != 4) {
        fake.bad_widths++;
        return false;
    }
    if (addr > TARGET_ADDR_MAX - (width - 1) || !host_byte(addr) || !host_byte(addr + width - 1))
        return false; /* (regions never touch, so both ends in one means all of it) */
    for (unsigned i = 0; i < fault_count; i++) {
        uint64_t fs = faults[i].addr, fe = fs + faults[i].len;
        if (start < fe && fs < end)
            return false;
    }
    return true;
}

static void count_space(void)
{
    if ((unsigned)fake.space < 3)
        fake.space_accesses[fake.space]++;
}

void (*fake_on_mem_access)(bool write, target_addr_t addr, unsigned width, uint32_t value);

bool port_mem_read(target_addr_t addr, unsigned width, uint32_t *value)
{
    uint32_t v = 0;

    if (fake_on_mem_access)
        fake_on_mem_access(false, addr, width, 0);
    count_space();
    if (!accessible(addr, width)) {
        fake.faults++;
        return false;
    }
    for (unsigned i = 0; i < width; i++)
        v |= (uint32_t)*host_byte(addr + i) << (8 * i);
    *value = v;
    fake.reads[width]++;
    return true;
}

bool port_mem_write(target_addr_t addr, unsigned width, uint32_t value)
{
    if (fake_on_mem_access)
        fake_on_mem_access(true, addr, width, value);
    count_space();
    if (!accessible(addr, width)) {
        fake.faults++;
        return false;
    }
    for (unsigned i = 0; i < width && addr + i - fake.rom_base >= fake.rom_size; i++)
        *host_byte(addr + i) = (uint8_t)(value >> (8 * i));
    fake.writes[width]++;
    return true;
}

bool port_mem_is_memory(target_addr_t addr)
{
    return addr - fake.device_base >= fake.device_size;
}

const char *port_mem_unavailable(void)
{
    return fake.mem_unavailable;
}

void port_mem_space(enum port_mem_space space)
{
    fake.space = space;
}

bool port_mem_secret(target_addr_t pa, unsigned len)
{
    uint64_t start = pa, end = (uint64_t)pa + len;
    uint64_t sb = fake.secret_base, se = sb + fake.secret_size;

    return start < se && sb < end;
}

/* --- receiver ----------------------------------------------------------------------- */

#define CHUNKS_MAX 32u
#define CHUNK_BYTES 512u

static struct {
    uint8_t bytes[CHUNK_BYTES];
    size_t len;
} chunks[CHUNKS_MAX];
static unsigned chunk_first, chunk_count, idle_polls;

void fake_rx_script(const void *bytes, size_t len)
{
    if (chunk_count == CHUNKS_MAX || len > CHUNK_BYTES) {
        fail_msg("fake_rx_script: at most %u chunks of %u bytes", CHUNKS_MAX, CHUNK_BYTES);
        return;
    }
    unsigned i = (chunk_first + chunk_count) % CHUNKS_MAX;
    memcpy(chunks[i].bytes, bytes, len);
    chunks[i].len = len;
    chunk_count++;
}

void fake_rx_script_str(const char *s)
{
    fake_rx_script(s, strlen(s));
}

unsigned fake_rx_pending(void)
{
    return chunk_count;
}

static const uint8_t *stream;
static size_t stream_len, stream_per_poll;

void fake_rx_stream(const void *bytes, size_t len, size_t per_poll)
{
    stream = bytes;
    stream_len = len;
    stream_per_poll = per_poll;
}

const uint8_t *fake_rx_stream_stop(size_t *len)
{
    const uint8_t *rest = stream;

    *len = stream_len;
    stream = NULL;
    stream_len = 0;
    return rest;
}

void port_rx_poll(void)
{
    fake.rx_polls++;
    if (!chunk_count && stream_len) {
        size_t n = stream_len < stream_per_poll ? stream_len : stream_per_poll;
        idle_polls = 0;
        for (size_t i = 0; i < n; i++)
            ring_put(&mon_rx, stream[i]);
        stream += n;
        stream_len -= n;
        return;
    }
    if (!chunk_count) {
        if (++idle_polls >= FAKE_RX_IDLE_POLLS_MAX) {
            fail_msg("fake port: polled %u times in a row with nothing scripted "
                     "(a halted monitor waiting for input that never comes)",
                     idle_polls);
        }
        return;
    }
    idle_polls = 0;
    for (size_t i = 0; i < chunks[chunk_first].len; i++)
        ring_put(&mon_rx, chunks[chunk_first].bytes[i]);
    chunk_first = (chunk_first + 1) % CHUNKS_MAX;
    chunk_count--;
}

bool port_console_rx(uint8_t c, bool brk)
{
    if ((fake.console_rx_room && fake.console_rx_len >= fake.console_rx_room) ||
        fake.console_rx_len == sizeof(fake.console_rx) / sizeof(fake.console_rx[0]))
        return false;
    fake.console_rx[fake.console_rx_len++] = brk ? 0xff00u : c;
    return true;
}

void port_console_hold(bool on)
{
    fake.console_held = on;
}

void port_console_replay(void)
{
    fake.console_replays++;
}

void port_debug_uart_claim(bool claim)
{
    fake.uart_claimed = claim;
    fake.uart_claims++;
}

/* --- interrupt controller ----------------------------------------------------------- */

static struct port_irq_line irq_lines[FAKE_IRQ_LINES_MAX];
static unsigned irq_line_count;

static const struct port_irq_line default_irq_lines[] = {
    {NULL, false, false, false, 0},
    {"fake service", false, true, true, 2},
    {"timer", true, true, false, 0},
    {NULL, false, false, false, 0},
    {"fake debug uart", true, true, true, 41},
};

void fake_irq_set_lines(const struct port_irq_line *lines, unsigned n)
{
    if (n > FAKE_IRQ_LINES_MAX) {
        fail_msg("fake_irq_set_lines: at most %u lines", FAKE_IRQ_LINES_MAX);
        return;
    }
    memcpy(irq_lines, lines, n * sizeof(*lines));
    irq_line_count = n;
}

unsigned port_irq_lines(void)
{
    return irq_line_count;
}

void port_irq_line(unsigned line, struct port_irq_line *out)
{
    if (line >= irq_line_count) {
        fail_msg("port_irq_line(%u): the fake has %u lines", line, irq_line_count);
        return;
    }
    *out = irq_lines[line];
}

uint32_t port_fiqs_taken(void)
{
    return fake.fiqs_taken;
}

/* --- timer -------------------------------------------------------------------------- */

uint32_t port_entropy(void)
{
    uint32_t v = fake.entropy;

    fake.entropy += fake.entropy_step;
    fake.entropy_reads++;
    return v;
}

uint32_t port_clock_ms(void)
{
    uint32_t v = fake.clock_ms;

    fake.clock_ms += fake.clock_step_ms;
    fake.clock_reads++;
    return v;
}

void port_delay_ms(uint32_t ms)
{
    fake.delays++;
    fake.delay_ms_last = ms;
    fake.delay_ms_total += ms;
}

/* --- reboot ------------------------------------------------------------------------- */

static jmp_buf *reboot_return;

bool fake_expect_reboot(void (*fn)(void *), void *arg)
{
    jmp_buf here;
    jmp_buf *volatile outer = reboot_return;

    reboot_return = &here;
    if (setjmp(here)) {
        reboot_return = outer;
        return true;
    }
    fn(arg);
    reboot_return = outer;
    return false;
}

void port_reboot(void)
{
    fake.reboots++;
    if (reboot_return)
        longjmp(*reboot_return, 1);
    fail_msg("port_reboot: the test did not expect a reboot");
    abort();
}

/* --- identity ----------------------------------------------------------------------- */

const uint8_t *port_build_id(unsigned *len)
{
    *len = FAKE_BUILD_ID_LEN;
    return fake_build_id;
}

void port_watchdog_arm(bool on)
{
    (void)on;
}

void port_watchdog_held(void)
{
}

/* AArch64's allregs: two system registers with fixed values. */
unsigned port_sysregs(struct port_sysreg *out, unsigned max)
{
    static const struct port_sysreg regs[] = {
        {"sctlr_el1", 0x30d0198du},
        {"vbar_el1", 0xffff800008010800ull},
    };
    unsigned n = 0;

    for (; n < max && n < sizeof(regs) / sizeof(regs[0]); n++)
        out[n] = regs[n];
    return n;
}

void port_monitor_stack_paint(void)
{
}

uint32_t port_monitor_stack_used(uint32_t *size)
{
    *size = 1024;
    return 0;
}

uint32_t port_self_crc(void)
{
    return fake.self_crc;
}

const struct boot_target *port_boot_target(void)
{
    return &fake.desc.boot;
}

/* --- reset -------------------------------------------------------------------------- */

/* --- every core --------------------------------------------------------------------- */

static struct {
    bool online;
    struct cpu_frame context;
} cpus[FAKE_CPUS_MAX];

static unsigned cpu_count(void)
{
    return fake.desc.cpus ? fake.desc.cpus : 1u;
}

void fake_cpu_set(unsigned n, bool online, const struct cpu_frame *context)
{
    if (n == 0 || n >= FAKE_CPUS_MAX || n >= cpu_count())
        fail_msg("fake_cpu_set(%u): CPUs 1 to %u here", n, cpu_count() - 1);
    cpus[n].online = online;
    if (context)
        cpus[n].context = *context;
}

struct cpu_frame *fake_cpu_frame(unsigned n)
{
    assert_true(n < FAKE_CPUS_MAX);
    return &cpus[n].context;
}

/* The online CPUs that do not answer. */
static uint32_t late_cpus(void)
{
    uint32_t late = 0;

    for (unsigned n = 1; n < cpu_count() && n < FAKE_CPUS_MAX; n++)
        if (cpus[n].online && (fake.cpus_late & (1u << n)))
            late |= 1u << n;
    return late;
}

uint32_t port_cpus_hold(bool hold)
{
    fake.cpus_held = hold;
    fake.cpu_holds += hold;
    return hold ? late_cpus() : 0;
}

uint32_t port_cpus_sample(void)
{
    fake.cpu_samples++;
    return late_cpus();
}

void port_cpu(unsigned n, struct port_cpu *out)
{
    struct cpu_frame *f = n ? &cpus[n].context : monitor_frame();

    if (n >= cpu_count() || n >= FAKE_CPUS_MAX)
        fail_msg("port_cpu(%u): the fake has %u CPUs", n, cpu_count());
    *out = (struct port_cpu){.online = n == 0 || cpus[n].online};
    out->stopped = out->online && (n == 0 ? f != NULL : fake.cpus_held && !(fake.cpus_late & (1u << n)));
    if (out->online && f) {
        out->pc = f->pc;
        out->cpsr = frame_psr(f);
    }
    out->frame = out->stopped ? f : NULL;
}

/* The table (every CPU's), and each CPU's step registers over it (a bit per slot). */
static struct {
    bool bp_on[16], wp_on[16];
    uint32_t bp_addr[16], wp_addr[16], wp_len[16];
    unsigned wp_kind[16];
    uint32_t step_bps[FAKE_CPUS_MAX];
} unit;

void fake_port_reset(void)
{
    memset(cpus, 0, sizeof(cpus));
    memset(&fake, 0, sizeof(fake));
    memset(&unit, 0, sizeof(unit));
    fake_on_mem_access = NULL;
    fake.desc = default_desc;
    fake.desc.boot = default_boot;
    fake.space = PORT_MEM_VIRTUAL;
    fake_output_reset();
    memset(memory, 0, sizeof(memory));
    fault_count = 0;
    for (unsigned i = 0; i < REGIONS_MAX; i++) {
        free(regions[i].bytes);
        regions[i].bytes = NULL;
    }
    chunk_first = chunk_count = idle_polls = 0;
    stream = NULL;
    stream_len = stream_per_poll = 0;
    fake_irq_set_lines(default_irq_lines,
                       (unsigned)(sizeof(default_irq_lines) / sizeof(default_irq_lines[0])));
}

/* --- the debug unit ------------------------------------------------------------------- */

void port_debug_slots(unsigned *breakpoints, unsigned *watchpoints)
{
    *breakpoints = fake.debug_bps;
    *watchpoints = fake.debug_wps;
}


static void cpu_bp(unsigned cpu, unsigned n, bool on, uint32_t addr)
{
    bool *reg_on = cpu ? &fake.cpu_bp_on[cpu][n] : &fake.bp_on[n];
    uint32_t *reg_addr = cpu ? &fake.cpu_bp_addr[cpu][n] : &fake.bp_addr[n];

    *reg_on = on;
    *reg_addr = on ? addr : 0;
}

/* CPU 0's watchpoint registers: the table, unless a step on CPU 0 turned them off */
static void cpu0_wps(void)
{
    for (unsigned n = 0; n < 16; n++) {
        bool on = unit.wp_on[n] && !fake.cpu_wps_off[0];
        fake.wp_on[n] = on;
        fake.wp_addr[n] = on ? unit.wp_addr[n] : 0;
        fake.wp_len[n] = on ? unit.wp_len[n] : 0;
        fake.wp_kind[n] = on ? unit.wp_kind[n] : 0;
    }
}

void port_debug_breakpoint(unsigned n, uint32_t addr, bool on)
{
    assert_true(n < fake.debug_bps);
    unit.bp_on[n] = on;
    unit.bp_addr[n] = on ? addr : 0;
    for (unsigned c = 0; c < FAKE_CPUS_MAX; c++)
        if (!(unit.step_bps[c] & (1u << n)))
            cpu_bp(c, n, on, addr);
}

void port_debug_watchpoint(unsigned n, uint32_t addr, uint32_t len, unsigned kind, bool on)
{
    assert_true(n < fake.debug_wps);
    unit.wp_on[n] = on;
    unit.wp_addr[n] = on ? addr : 0;
    unit.wp_len[n] = on ? len : 0;
    unit.wp_kind[n] = on ? kind : 0;
    cpu0_wps();
}

void port_debug_step_breakpoint(unsigned cpu, unsigned n, uint32_t addr, bool on)
{
    assert_true(cpu < FAKE_CPUS_MAX && n < fake.debug_bps);
    unit.step_bps[cpu] |= 1u << n;
    cpu_bp(cpu, n, on, addr);
}

void port_debug_step_watchpoints_off(unsigned cpu)
{
    assert_true(cpu < FAKE_CPUS_MAX);
    fake.cpu_wps_off[cpu] = true;
    cpu0_wps();
}

void port_debug_step_end(unsigned cpu)
{
    assert_true(cpu < FAKE_CPUS_MAX);
    unit.step_bps[cpu] = 0;
    fake.cpu_wps_off[cpu] = false;
    for (unsigned n = 0; n < 16; n++)
        cpu_bp(cpu, n, unit.bp_on[n], unit.bp_addr[n]);
    cpu0_wps();
}

uint32_t port_debug_vectors(void)
{
    return fake.debug_vectors;
}

bool port_debug_translation(uint32_t *ttbr0, uint32_t *ttbr1, uint32_t *ttbcr)
{
    *ttbr0 = fake.ttbr0;
    *ttbr1 = fake.ttbr1;
    *ttbcr = fake.ttbcr;
    return fake.mmu_on;
}

bool port_debug_kernel_thumb(void)
{
    return fake.kernel_thumb;
}

void port_debug_code_sync(uint32_t addr)
{
    fake.code_syncs++;
    fake.code_sync_addr = addr;
}
