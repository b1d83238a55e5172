/* SPDX-License-Identifier: MIT */
#include "btf.h"

#include <stddef.h>
#include <string.h>

#include "kallsyms.h"
#include "kcode_a64.h"
#include "kmem.h"
#include "vmcoreinfo.h"

#define REC 12u                /* a type record without its kind's data */
#define HEAD_WORD 0x0001eb9fu  /* the header's first word: magic, version 1, flags 0 */
#define SCAN_MAX (64u << 20)   /* bytes of rodata a scan covers at most */
#define PAGE 4096u

bool btf_header_at(target_addr_t addr, struct btf *b)
{
    uint32_t hdr_len, type_off, type_len, str_off, str_len;

    kmem_failed = false;
    if (addr & 3 || kr32(addr) != HEAD_WORD)
        return false;
    hdr_len = kr32(addr + 4);
    type_off = kr32(addr + 8);
    type_len = kr32(addr + 12);
    str_off = kr32(addr + 16);
    str_len = kr32(addr + 20);
    if (kmem_failed || hdr_len < BTF_HEADER_LEN || hdr_len > BTF_HEADER_MAX || hdr_len & 3 ||
        type_off & 3 || type_len & 3 || type_len < REC || type_len > BTF_TYPES_LEN_MAX ||
        str_len < 1 || str_len > BTF_TYPES_LEN_MAX || (uint64_t)type_off + type_len > str_off ||
        str_off > BTF_TYPES_LEN_MAX)
        return false;
    b->hdr = addr;
    b->types = addr + hdr_len + type_off;
    b->types_len = type_len;
    b->strings = addr + hdr_len + str_off;
    b->strings_len = str_len;
    b->count = 0;
    /* the empty name first, and the last name ends */
    return kr8(b->strings) == 0 && kr8(b->strings + str_len - 1) == 0 && !kmem_failed;
}

static unsigned kind_of(uint32_t info)
{
    return info >> 24 & 0x1f;
}

static unsigned vlen_of(uint32_t info)
{
    return info & 0xffff;
}

/* Bytes of the record whose info word this is; 0 for an unknown kind. */
static uint32_t record_len(uint32_t info)
{
    uint32_t vlen = vlen_of(info);

    switch (kind_of(info)) {
    case BTF_KIND_INT:
    case BTF_KIND_VAR:
    case BTF_KIND_DECL_TAG:
        return REC + 4;
    case BTF_KIND_PTR:
    case BTF_KIND_FWD:
    case BTF_KIND_TYPEDEF:
    case BTF_KIND_VOLATILE:
    case BTF_KIND_CONST:
    case BTF_KIND_RESTRICT:
    case BTF_KIND_FUNC:
    case BTF_KIND_FLOAT:
    case BTF_KIND_TYPE_TAG:
        return REC;
    case BTF_KIND_ARRAY:
        return REC + 12;
    case BTF_KIND_STRUCT:
    case BTF_KIND_UNION:
    case BTF_KIND_DATASEC:
    case BTF_KIND_ENUM64:
        return REC + 12 * vlen;
    case BTF_KIND_ENUM:
    case BTF_KIND_FUNC_PROTO:
        return REC + 8 * vlen;
    default:
        return 0;
    }
}

bool btf_index(struct btf *b)
{
    uint32_t off = 0, id = 1;

    kmem_failed = false;
    b->shift = 0;
    for (; off < b->types_len && id <= BTF_TYPES_MAX; id++) {
        uint32_t len;

        if (!((id - 1) & ((1u << b->shift) - 1))) {
            uint32_t k = (id - 1) >> b->shift;
            if (k == BTF_MARKS) { /* full: keep every other checkpoint */
                for (unsigned i = 0; i < BTF_MARKS / 2; i++)
                    b->marks[i] = b->marks[2 * i];
                b->shift++;
                k = BTF_MARKS / 2;
            }
            b->marks[k] = off;
        }
        len = record_len(kr32(b->types + off + 4));
        if (!len || kmem_failed || len > b->types_len - off)
            return false;
        off += len;
    }
    b->count = id - 1;
    return off == b->types_len && !kmem_failed;
}

/* The record of type id. */
static bool type_at(const struct btf *b, uint32_t id, target_addr_t *rec)
{
    uint32_t k, off, n;

    if (!id || id > b->count)
        return false;
    k = (id - 1) >> b->shift;
    off = b->marks[k];
    for (n = (k << b->shift) + 1; n < id; n++) { /* fewer than 2^shift records */
        uint32_t len = record_len(kr32(b->types + off + 4));
        if (!len || len > b->types_len - off)
            return false;
        off += len;
    }
    *rec = b->types + off;
    return !kmem_failed;
}

/* The string at name_off is s (len bytes, then its end). */
static bool name_is(const struct btf *b, uint32_t name_off, const char *s, size_t len)
{
    target_addr_t a = b->strings + name_off;

    if (name_off >= b->strings_len || len > b->strings_len - name_off)
        return false;
    for (size_t i = 0; i < len; i++)
        if (kr8(a + i) != (uint8_t)s[i])
            return false;
    return kr8(a + len) == 0 && !kmem_failed;
}

unsigned btf_find_structs(const struct btf *b, const char *const *names, uint32_t *ids,
                          unsigned n)
{
    uint32_t off = 0;
    unsigned found = 0;

    kmem_failed = false;
    for (unsigned i = 0; i < n; i++)
        ids[i] = 0;
    for (uint32_t id = 1; id <= b->count && found < n && !kmem_failed; id++) {
        target_addr_t rec = b->types + off;
        uint32_t info = kr32(rec + 4), name_off, len = record_len(info);

        if (!len || len > b->types_len - off)
            return found;
        off += len;
        if (kind_of(info) != BTF_KIND_STRUCT || !vlen_of(info) || !(name_off = kr32(rec)))
            continue;
        for (unsigned i = 0; i < n; i++) {
            if (!ids[i] && name_is(b, name_off, names[i], strlen(names[i]))) {
                ids[i] = id;
                found++;
                break;
            }
        }
    }
    return found;
}

/* id through typedefs and qualifiers to the type they name, and its record; false for
 * void (id 0) or a chain too long. */
static bool resolve(const struct btf *b, uint32_t *id, target_addr_t *rec)
{
    for (unsigned i = 0; i < BTF_CHAIN_MAX; i++) {
        uint32_t kind;
        if (!type_at(b, *id, rec))
            return false;
        kind = kind_of(kr32(*rec + 4));
        if (kind != BTF_KIND_TYPEDEF && kind != BTF_KIND_VOLATILE && kind != BTF_KIND_CONST &&
            kind != BTF_KIND_RESTRICT && kind != BTF_KIND_TYPE_TAG)
            return !kmem_failed;
        *id = kr32(*rec + 8);
    }
    return false;
}

static bool is_aggregate(uint32_t info)
{
    return kind_of(info) == BTF_KIND_STRUCT || kind_of(info) == BTF_KIND_UNION;
}

/* Member name (len bytes) of the struct or union at rec, looked for in its anonymous
 * members too, depth of them at most and *budget members in all: its bit offset and
 * type. */
static bool find_member(const struct btf *b, target_addr_t rec, const char *name, size_t len,
                        unsigned depth, uint32_t *budget, uint32_t *bits, uint32_t *type)
{
    uint32_t info = kr32(rec + 4), vlen = vlen_of(info);

    for (uint32_t i = 0; i < vlen && !kmem_failed; i++) {
        target_addr_t m = rec + REC + 12 * i;
        uint32_t name_off = kr32(m), mtype = kr32(m + 4), off = kr32(m + 8);
        uint32_t at = info >> 31 ? off & 0xffffff : off; /* kind_flag: bitfield size on top */
        target_addr_t inner;

        if (!*budget)
            return false;
        --*budget;
        if (name_off) {
            if (name_is(b, name_off, name, len)) {
                *bits = at;
                *type = mtype;
                return true;
            }
            continue;
        }
        /* an anonymous struct or union: its members are this one's */
        if (depth && resolve(b, &mtype, &inner) && is_aggregate(kr32(inner + 4)) &&
            find_member(b, inner, name, len, depth - 1, budget, bits, type)) {
            *bits += at;
            return true;
        }
    }
    return false;
}

/* Size, kind, elements of the resolved type id. */
static bool describe(const struct btf *b, uint32_t id, struct btf_member *m)
{
    target_addr_t rec;
    uint32_t info, elem;

    if (!resolve(b, &id, &rec))
        return false;
    info = kr32(rec + 4);
    m->type = id;
    m->kind = (uint8_t)kind_of(info);
    m->nelems = 1;
    switch (m->kind) {
    case BTF_KIND_PTR:
        m->size = sizeof(kulong_t);
        break;
    case BTF_KIND_ARRAY:
        elem = kr32(rec + REC);
        m->nelems = kr32(rec + REC + 8);
        if (!resolve(b, &elem, &rec))
            return false;
        info = kr32(rec + 4);
        m->elem_size = kind_of(info) == BTF_KIND_PTR ? sizeof(kulong_t) : kr32(rec + 8);
        m->size = m->elem_size * m->nelems;
        return !kmem_failed;
    default:
        m->size = kr32(rec + 8);
    }
    m->elem_size = m->size;
    return !kmem_failed;
}

bool btf_member(const struct btf *b, uint32_t id, const char *path, struct btf_member *m)
{
    uint32_t offset = 0;
    const char *p = path;

    kmem_failed = false;
    for (unsigned step = 0; step < BTF_PATH_MAX; step++) {
        size_t len = 0;
        const char *dot;

        while (p[len] && p[len] != '.')
            len++;
        dot = p[len] ? p + len : NULL;
        target_addr_t rec;
        uint32_t bits, budget = BTF_MEMBERS_MAX;

        if (!len || !resolve(b, &id, &rec))
            return false;
        if (kind_of(kr32(rec + 4)) == BTF_KIND_ARRAY) { /* a member of its element 0 */
            id = kr32(rec + REC);
            if (!resolve(b, &id, &rec))
                return false;
        }
        if (!is_aggregate(kr32(rec + 4)) ||
            !find_member(b, rec, p, len, BTF_ANON_DEPTH, &budget, &bits, &id) || bits & 7)
            return false;
        offset += bits / 8;
        if (!dot) {
            m->offset = offset;
            return describe(b, id, m);
        }
        p = dot + 1;
    }
    return false;
}

/* --- the running kernel's --------------------------------------------------------------- */

static struct btf kb;
static uint32_t kb_generation; /* kernel_generation kb was looked for in; 0: never */
static const char *kb_how = "";

static bool candidate(target_addr_t addr)
{
    return btf_header_at(addr, &kb);
}

static target_addr_t sym_at;

static void got(const struct ksym *s)
{
    sym_at = s->addr;
}

/* Where a symbol is (kallsyms also names _etext and _sinittext); 0 if it is not. */
static target_addr_t address_of(const char *name)
{
    sym_at = 0;
    return ksym_find(name, 1, got) == 1 ? sym_at : 0;
}

/* The read-only data between the text and the init text, a word at a time: the header's
 * first word, then the whole header. A page that faults is skipped. */
static bool scan(void)
{
    target_addr_t lo = address_of("_etext") & ~(target_addr_t)3, hi = address_of("_sinittext");
    uint32_t words;

    if (!lo)
        return false;
    words = hi > lo && hi - lo <= SCAN_MAX ? (uint32_t)(hi - lo) / 4 : SCAN_MAX / 4;
    for (uint32_t i = 0; i < words; i++) {
        target_addr_t a = lo + 4 * (target_addr_t)i;
        kmem_failed = false;
        if (kr32(a) == HEAD_WORD && candidate(a))
            return true;
        if (kmem_failed) /* on to the next page */
            i += (uint32_t)((PAGE - (a & (PAGE - 1))) / 4) - 1;
    }
    return false;
}

static bool find(void)
{
    static const char *const users[] = {"btf_parse_vmlinux", "btf_vmlinux_read"};
    static const char *const hows[] = {"adrp in btf_parse_vmlinux", "adrp in btf_vmlinux_read"};

    for (unsigned i = 0; i < sizeof(users) / sizeof(users[0]); i++) {
        if (kcode_a64_find_address(users[i], candidate)) {
            kb_how = hows[i];
            return true;
        }
    }
    if (scan()) {
        kb_how = "a scan of the rodata";
        return true;
    }
    return false;
}

const struct btf *kernel_btf(void)
{
    if (kb_generation != kernel_generation) {
        kb_generation = kernel_generation;
        kb_how = "";
        memset(&kb, 0, sizeof(kb));
        if (!find() || !btf_index(&kb)) {
            kb.hdr = 0;
            kb_how = "";
        }
        kmem_begin();
    }
    return kb.hdr ? &kb : NULL;
}

const char *kernel_btf_how(void)
{
    return kb_how;
}
