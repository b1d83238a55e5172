/* SPDX-License-Identifier: MIT */
/* Tasks and modules in the fixture kernel (kernel_fixture.h), in a task_struct layout of
 * its own (offsets unlike Debian's, so only discovery can find them):
 *
 *   tasks      TFIX_TASKS + i * TFIX_TASK_SIZE: init_task (pid 0, "swapper/0"), init (1),
 *              kthreadd (2), a kworker (3), sleepy (10; a second thread, pid 12),
 *              spinner (11, on the CPU), all leaders on init_task's ring in pid order
 *   stacks     TFIX_STACKS + i * 8 KiB, the lowest word STACK_END_MAGIC
 *   code       show_state_filter loads a decoy, then init_task, with movw/movt;
 *              module_get_kallsym loads the modules list head
 *   modules    crc7 and crc8, each inside a page-aligned core block */
#ifndef FIQMON_TEST_TASK_FIXTURE_H
#define FIQMON_TEST_TASK_FIXTURE_H

#include <stdint.h>

#define TFIX_TASKS 0xc0320000u
#define TFIX_TASK_SIZE 0x400u
#define TFIX_NTASKS 7u        /* init_task, 5 leaders, 1 thread */
#define TFIX_STACKS 0xf1000000u
#define TFIX_MODULES_HEAD 0xc0318000u
#define TFIX_MODULE_CORE 0xc0340000u /* module i's core: + i * 0x2000, size 0x2000 */
#define TFIX_SHOW_STATE 0xc0009000u
#define TFIX_MOD_KALLSYM 0xc0009100u

/* Offsets the fixture uses (for checking what discovery finds). */
enum {
    TFIX_OFF_CONTEXT = 16, TFIX_OFF_STATE = 200, TFIX_OFF_STACK = 204, TFIX_OFF_ON_CPU = 220,
    TFIX_OFF_TASKS = 400, TFIX_OFF_MM = 440, TFIX_OFF_PID = 500, TFIX_OFF_PARENT = 512,
    TFIX_OFF_THREADS = 600, TFIX_OFF_COMM = 700, TFIX_OFF_CORE = 200,
};

/* kfix_reset, a whole kernel with kallsyms, tasks and modules, VMCOREINFO published. */
void tfix_build(void);
/* The same with these symbols (sorted; they must name show_state_filter and
 * module_get_kallsym at TFIX_SHOW_STATE and TFIX_MOD_KALLSYM, whose ARM code it writes). */
struct kfix_sym;
void tfix_build_syms(const struct kfix_sym *syms, unsigned n);
/* Address of task i (0: init_task ... TFIX_NTASKS - 1: the thread). */
uint32_t tfix_task(unsigned i);

#endif
