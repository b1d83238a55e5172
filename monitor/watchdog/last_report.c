/* SPDX-License-Identifier: MIT */
#include "last_report.h"

#include <stdbool.h>

#include "console.h"
#include "crc32.h"

#define LAST_REPORT_MAGIC 0x4c415354u /* "LAST" */

/* Not in .bss: the boot stub clears .bss, and this must outlive a reset. */
__attribute__((section(".noinit.last_report"))) struct last_report mon_last_report;

static uint32_t record_crc(const struct last_report *r)
{
    /* the header up to crc, then the text: a torn or stale record fails one or the other */
    uint32_t crc = crc32_update(0, (const uint8_t *)r, offsetof(struct last_report, crc));
    return crc32_update(crc, (const uint8_t *)r->text, r->len);
}

static bool record_valid(const struct last_report *r)
{
    /* magic first: a cold boot's RAM costs no CRC run (boot time is budgeted) */
    return r->magic == LAST_REPORT_MAGIC && r->len <= LAST_REPORT_SIZE && r->crc == record_crc(r);
}

void last_report_boot(struct last_report *r)
{
    if (!record_valid(r)) {
        r->magic = 0;
        r->len = 0;
        return;
    }
    r->resets++;
    r->crc = record_crc(r);
}

void last_report_begin(struct last_report *r)
{
    r->magic = 0;
    r->len = 0;
    r->cut = 0;
    r->resets = 0;
}

void last_report_append(struct last_report *r, const char *s, size_t n)
{
    size_t room = LAST_REPORT_SIZE - r->len, take = n < room ? n : room;

    for (size_t i = 0; i < take; i++)
        r->text[r->len + i] = s[i];
    r->len += (uint32_t)take;
    r->cut += (uint32_t)(n - take);
}

void last_report_end(struct last_report *r)
{
    r->magic = LAST_REPORT_MAGIC;
    r->crc = record_crc(r);
}

int last_report_show(const struct last_report *r)
{
    if (!record_valid(r))
        return con_error("no watchdog report saved (none since power-on)");
    if (r->resets)
        con_printf("fiqmon: last watchdog report, from before %u reset%s:\n", (unsigned)r->resets,
                   r->resets == 1 ? "" : "s");
    else
        con_puts("fiqmon: last watchdog report, from this boot:\n");
    con_write(r->text, r->len);
    if (r->len && r->text[r->len - 1] != '\n')
        con_puts("\n"); /* cut mid-line */
    if (r->cut)
        con_printf("fiqmon: (%u more bytes did not fit in %u)\n", (unsigned)r->cut,
                   LAST_REPORT_SIZE);
    return 0;
}
