/* SPDX-License-Identifier: MIT */
#include "ktask_btf.h"

#include <stddef.h>

#include "btf.h"
#include "kcode_a64.h"
#include "kmem.h"
#include "kmodule.h"
#include "ktask.h"
#include "vmcoreinfo.h"

#define PTR ((uint32_t)sizeof(kulong_t))
#define LIST_HEAD (2 * PTR)
#define ANY 0u

const char *ktask_btf_missing = "";
const char *ktask_btf_path[KT_STEPS];
const char *ktask_btf_init_how = "";
const char *kmodule_btf_how = "";

/* The structs this file reads, found in one walk of the BTF per kernel. */
enum { S_TASK, S_MODULE, S_COUNT };
static const char *const struct_names[S_COUNT] = {"task_struct", "module"};
static uint32_t struct_id[S_COUNT];
static uint32_t structs_generation;

static const struct btf *btf_structs(void)
{
    const struct btf *b = kernel_btf();

    if (b && structs_generation != kernel_generation) {
        btf_find_structs(b, struct_names, struct_id, S_COUNT);
        structs_generation = kernel_generation;
        kmem_begin();
    }
    return b;
}

/* A member as the walks read it: its kind and size (ANY: any size). */
struct field {
    const char *path, *alt; /* alt: an older kernel's name for it, or NULL */
    uint8_t kind;
    uint32_t size;
};

/* The member f of struct s; *found (if not NULL): the name it has in this kernel. */
static bool field_named(const struct btf *b, unsigned s, const struct field *f,
                        struct btf_member *m, const char **found)
{
    for (unsigned i = 0; i < 2; i++) {
        const char *path = i ? f->alt : f->path;
        bool kind_ok;
        if (!path || !btf_member(b, struct_id[s], path, m))
            continue;
        kind_ok = m->kind == f->kind || (f->kind == BTF_KIND_INT && m->kind == BTF_KIND_ENUM);
        if (kind_ok && (f->size == ANY || m->size == f->size)) {
            if (found)
                *found = path;
            return true;
        }
    }
    ktask_btf_missing = f->path; /* (named after the current kernel's) */
    return false;
}

static bool field(const struct btf *b, unsigned s, const struct field *f, struct btf_member *m)
{
    return field_named(b, s, f, m, NULL);
}

/* --- task_struct -------------------------------------------------------------------- */
static const struct field task_fields[KT_STEPS] = {
    [KT_STACK] = {"stack", NULL, BTF_KIND_PTR, PTR},
    [KT_COMM] = {"comm", NULL, BTF_KIND_ARRAY, KTASK_COMM_LEN},
    [KT_TASKS] = {"tasks", NULL, BTF_KIND_STRUCT, LIST_HEAD},
    [KT_PID] = {"pid", NULL, BTF_KIND_INT, 4},
    [KT_PARENT] = {"real_parent", NULL, BTF_KIND_PTR, PTR},
    [KT_MM] = {"mm", NULL, BTF_KIND_PTR, PTR},
    [KT_STATE] = {"__state", "state", BTF_KIND_INT, ANY}, /* 5.14 renamed it, a long before */
    [KT_ON_CPU] = {"on_cpu", NULL, BTF_KIND_INT, 4},
    [KT_CONTEXT] = {"thread.cpu_context", NULL, BTF_KIND_STRUCT, ANY},
    [KT_THREADS] = {"thread_node", "thread_group", BTF_KIND_STRUCT, LIST_HEAD},
};
static const struct field tgid_field = {"tgid", NULL, BTF_KIND_INT, 4};
static const struct field context_fields[3] = {
    {"thread.cpu_context.fp", NULL, BTF_KIND_INT, PTR},
    {"thread.cpu_context.sp", NULL, BTF_KIND_INT, PTR},
    {"thread.cpu_context.pc", NULL, BTF_KIND_INT, PTR},
};

/* ktl's offsets (at[1..]): the step that is missing, or KT_STEPS. */
static unsigned task_offsets(const struct btf *b)
{
    struct btf_member m;
    uint32_t *ctx[3] = {&ktl.context_fp, &ktl.context_sp, &ktl.context_pc};

    if (!struct_id[S_TASK]) {
        ktask_btf_missing = "struct task_struct";
        return KT_STACK;
    }
    for (unsigned step = KT_STACK; step < KT_STEPS; step++) {
        if (!field_named(b, S_TASK, &task_fields[step], &m, &ktask_btf_path[step]))
            return step;
        ktl.at[step] = m.offset;
        if (step == KT_PID) { /* the walks read tgid right after pid, as the kernel has it */
            if (!field(b, S_TASK, &tgid_field, &m) || m.offset != ktl.at[KT_PID] + 4) {
                ktask_btf_missing = "tgid";
                return step;
            }
        }
        if (step == KT_CONTEXT) {
            for (unsigned i = 0; i < 3; i++) {
                if (!field(b, S_TASK, &context_fields[i], &m))
                    return step;
                *ctx[i] = m.offset - (uint32_t)ktl.at[KT_CONTEXT];
            }
        }
    }
    return KT_STEPS;
}

static bool is_swapper(target_addr_t comm)
{
    static const char name[] = "swapper";

    for (unsigned i = 0; i < sizeof(name) - 1; i++)
        if (kr8(comm + i) != (uint8_t)name[i])
            return false;
    return kr8(comm + 7) == 0 || (kr8(comm + 7) == '/' && kr8(comm + 8) == '0' && !kr8(comm + 9));
}

static bool count_task(const struct ktask *t, void *arg)
{
    (void)t;
    ++*(uint32_t *)arg;
    return true;
}

/* t is init_task: a task (stack, comm), pid 0, its own parent, named swapper/0, and its
 * ring of tasks closes with every node a task. */
static bool init_task_ok(target_addr_t t)
{
    uint32_t n = 0;

    if (!ktask_valid(t) || kr32(t + ktl.at[KT_PID]) || krlong(t + ktl.at[KT_PARENT]) != t ||
        !is_swapper(t + ktl.at[KT_COMM]) || kmem_failed)
        return false;
    ktl.at[KT_INIT_TASK] = t;
    if (ktask_walk(false, count_task, &n) != KT_WALK_DONE || n < 2)
        return false;
    ktl.ring = n - 1; /* (init_task itself is not on its ring) */
    return true;
}

/* Up the real_parent chain from the task at t to the task that is its own parent. */
static target_addr_t chain_top(target_addr_t t)
{
    for (unsigned i = 0; i < KTASK_MAX && t; i++) {
        kulong_t parent;
        if (!ktask_valid(t))
            return 0;
        parent = krlong(t + ktl.at[KT_PARENT]);
        if (kmem_failed)
            return 0;
        if (parent == t)
            return t;
        t = parent;
    }
    return 0;
}

unsigned ktask_btf_discover(target_addr_t running)
{
    static uint32_t offsets_generation;
    static unsigned offsets_found;
    const struct btf *b;
    target_addr_t init;

    if (ktl.generation == kernel_generation && ktl.found == KT_STEPS)
        return KT_STEPS;
    ktask_btf_missing = "";
    if (!(b = btf_structs())) {
        ktask_btf_missing = "no BTF";
        ktl.found = KT_INIT_TASK;
        return ktl.found;
    }
    if (offsets_generation != kernel_generation) { /* the offsets once per kernel */
        offsets_found = task_offsets(b);
        offsets_generation = kernel_generation;
    }
    ktl.generation = kernel_generation;
    if (offsets_found < KT_THREADS) {
        ktl.found = (uint8_t)offsets_found;
        return ktl.found;
    }
    /* init_task: the checks below read every field */
    ktl.found = KT_STEPS;
    kmem_begin();
    ktask_btf_init_how = "real_parent chain from the running task";
    init = chain_top(running);
    if (!init || !init_task_ok(init)) {
        ktask_btf_init_how = "show_state_filter";
        init = kcode_a64_find_address("show_state_filter", init_task_ok);
    }
    kmem_begin();
    if (!init) {
        ktask_btf_missing = "init_task";
        ktask_btf_init_how = "";
        ktl.found = KT_INIT_TASK;
        return ktl.found;
    }
    ktl.at[KT_INIT_TASK] = init;
    ktl.found = (uint8_t)offsets_found; /* KT_THREADS without a thread list */
    if (offsets_found < KT_STEPS)
        ktask_btf_missing = task_fields[KT_THREADS].path;
    return ktl.found;
}

/* --- struct module ------------------------------------------------------------------ */
static const struct field module_state = {"state", NULL, BTF_KIND_INT, 4};
static const struct field module_list = {"list", NULL, BTF_KIND_STRUCT, LIST_HEAD};
static const struct field module_name = {"name", NULL, BTF_KIND_ARRAY, ANY};
/* the core's base, and the sizes /proc/modules adds up: 6.1's layouts (data_layout only
 * where modules keep data apart), or 6.4's module_memory array */
static const struct field core_base = {"core_layout.base", NULL, BTF_KIND_PTR, PTR};
static const struct field layout_sizes[] = {
    {"core_layout.size", NULL, BTF_KIND_INT, 4},
    {"init_layout.size", NULL, BTF_KIND_INT, 4},
    {"data_layout.size", NULL, BTF_KIND_INT, 4},
};
static const struct field mem = {"mem", NULL, BTF_KIND_ARRAY, ANY};
static const struct field mem_base = {"mem.base", NULL, BTF_KIND_PTR, PTR};
static const struct field mem_size = {"mem.size", NULL, BTF_KIND_INT, 4};

static bool module_sizes(const struct btf *b)
{
    struct btf_member m, arr;

    kml.sizes = 0;
    if (field(b, S_MODULE, &core_base, &m)) {
        kml.core = m.offset;
        for (unsigned i = 0; i < sizeof(layout_sizes) / sizeof(layout_sizes[0]); i++) {
            if (field(b, S_MODULE, &layout_sizes[i], &m))
                kml.size[kml.sizes++] = m.offset;
            else if (i < 2)
                return false;
        }
        return true;
    }
    if (!field(b, S_MODULE, &mem, &arr) || !field(b, S_MODULE, &mem_base, &m))
        return false;
    kml.core = m.offset;
    if (!field(b, S_MODULE, &mem_size, &m))
        return false;
    for (uint32_t i = 0; i < arr.nelems && i < KMODULE_SIZES; i++)
        kml.size[kml.sizes++] = m.offset + i * arr.elem_size;
    return true;
}

static bool head_ok(target_addr_t head)
{
    return !(head & (PTR - 1)) && kmodule_list_ok(head, &kml.count);
}

bool kmodule_btf_discover(void)
{
    static const char *const users[] = {"module_get_kallsym", "find_module_all", "print_modules"};
    const struct btf *b;
    struct btf_member m;

    if (kml.generation == kernel_generation && kml.head)
        return true;
    kml.generation = kernel_generation;
    kml.head = 0;
    kml.core = 0;
    kml.sizes = 0;
    kmodule_btf_how = "";
    ktask_btf_missing = "";
    if (!(b = btf_structs())) {
        ktask_btf_missing = "no BTF";
        return false;
    }
    if (!struct_id[S_MODULE]) {
        ktask_btf_missing = "struct module";
        return false;
    }
    if (!field(b, S_MODULE, &module_state, &m))
        return false;
    kml.state = m.offset;
    if (!field(b, S_MODULE, &module_list, &m))
        return false;
    kml.list = m.offset;
    if (!field(b, S_MODULE, &module_name, &m) || m.elem_size != 1)
        return false;
    kml.name = m.offset;
    kml.name_len = m.nelems;
    if (!module_sizes(b)) {
        kml.core = 0;
        kml.sizes = 0;
        ktask_btf_missing = "";
    }
    for (unsigned i = 0; i < sizeof(users) / sizeof(users[0]) && !kml.head; i++) {
        kml.head = kcode_a64_find_address(users[i], head_ok);
        kmodule_btf_how = users[i];
    }
    kmem_begin();
    if (!kml.head) {
        kmodule_btf_how = "";
        ktask_btf_missing = "the modules list";
        return false;
    }
    return true;
}
