/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the BTF reader and the layouts read from it: the unit tests'
 * fixture kernel as arm64 shows it (btf_fixture.h), its BTF blob (header, type records,
 * strings) and the GOT slot that points at it corrupted by the input; then the blob is
 * found and indexed, task_struct and struct module resolved, the tasks and modules
 * walked. Everything must stay bounded and never fault, whatever the records say.
 *
 * Input: 6-byte records {offset (16 bits), value (32 bits)}; the offset selects a word of
 * the blob (most of them), the slot, or a word of the tasks. */
#include "btf.h"
#include "btf_fixture.h"
#include "fake_port.h"
#include "kallsyms.h"
#include "kernel_support.h"
#include "kmodule.h"
#include "ktask.h"
#include "ktask_btf.h"
#include "support.h"
#include "task_fixture.h"
#include "vmcoreinfo.h"

static bool count(const struct ktask *t, void *arg)
{
    (void)t;
    ++*(unsigned *)arg;
    return true;
}

static bool count_module(const struct kmodule *m, void *arg)
{
    (void)m;
    ++*(unsigned *)arg;
    return true;
}

static uint32_t target(uint32_t sel, uint32_t blob_words)
{
    uint32_t task_words = TFIX_NTASKS * TFIX_TASK_SIZE / 4;

    sel %= blob_words + 1 + task_words;
    if (sel < blob_words)
        return BFIX_BTF + 4 * sel;
    if (sel == blob_words)
        return BFIX_GOT;
    return TFIX_TASKS + 4 * (sel - blob_words - 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct vmci *v;
    uint32_t blob_words;
    unsigned n = 0;

    bfix_build_kernel(BFIX_CODE_GOT, NULL);
    blob_words = (24 + bfix_types_len() + bfix_strings_len() + 3) / 4;
    for (size_t pos = 0; pos + 6 <= size; pos += 6)
        fk_w32(target((uint32_t)data[pos] | (uint32_t)data[pos + 1] << 8, blob_words),
               fk_le32(data + pos + 2));
    v = kernel_vmcoreinfo(true);
    FUZZ_CHECK(v && ksyms_ready(v), "the fixture kernel is not found");
    if (ktask_btf_discover(tfix_task(5)) >= KT_THREADS) {
        enum ktask_walk_end end = ktask_walk(ktl.found == KT_STEPS, count, &n);
        FUZZ_CHECK(n <= 2 * KTASK_MAX + 1, "walked %u tasks (end %d)", n, (int)end);
    }
    n = 0;
    if (kmodule_btf_discover()) {
        kmodule_walk(count_module, &n);
        FUZZ_CHECK(n <= KMODULE_MAX, "walked %u modules", n);
    }
    return 0;
}
