/* SPDX-License-Identifier: MIT */
/* libFuzzer harness for the task and module walks: the unit tests' fixture kernel
 * (task_fixture.h), found and listed once, then corrupted by the input, as a kernel
 * running under fiqmon changes its lists while they are read. ps, ps -t, ps -l and lsmod,
 * with the layout kept and found again from the corrupted image, must stay bounded and
 * never fault.
 *
 * Input: 6-byte records {offset (16 bits), value (32 bits)}; the offset selects a word of
 * the tasks, their stacks' lowest words, the module structures or the list heads. */
#include <string.h>

#include "cmd_tasks.h"
#include "fake_port.h"
#include "kernel_support.h"
#include "ktask.h"
#include "support.h"
#include "task_fixture.h"
#include "vmcoreinfo.h"

static void run(int (*cmd)(int, char **), const char *arg, unsigned max_lines)
{
    char a0[] = "cmd", a1[8];
    char *argv[] = {a0, a1, NULL};

    strcpy(a1, arg ? arg : "");
    fake_output_reset();
    cmd(arg ? 2 : 1, argv);
    fk_check_text(fake_output(), fake_output_len(), max_lines);
}

static uint32_t target(uint32_t sel)
{
    uint32_t words = TFIX_NTASKS * TFIX_TASK_SIZE / 4;

    sel %= words + TFIX_NTASKS + 0x1000;
    if (sel < words)
        return TFIX_TASKS + 4 * sel;
    if ((sel -= words) < TFIX_NTASKS)
        return TFIX_STACKS + sel * 0x2000u;
    sel -= TFIX_NTASKS; /* the modules' core blocks, the signal heads and list heads */
    return sel < 0x800 ? TFIX_MODULE_CORE + 4 * sel : TFIX_MODULES_HEAD - 0x2000 + 4 * sel;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const args[] = {NULL, "-t", "-l"};

    tfix_build();
    run(cmd_ps, NULL, 12); /* layout found on the clean image */
    for (size_t pos = 0; pos + 6 <= size; pos += 6)
        fk_w32(target((uint32_t)data[pos] | (uint32_t)data[pos + 1] << 8),
               fk_le32(data + pos + 2));
    for (unsigned pass = 0; pass < 2; pass++) {
        for (unsigned i = 0; i < 3; i++)
            run(cmd_ps, args[i], KTASK_MAX * 2 + 20);
        run(cmd_lsmod, NULL, 520);
        kernel_vmcoreinfo_forget(); /* second pass: discovery on the corrupted image */
    }
    return 0;
}
