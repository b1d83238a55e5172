/* SPDX-License-Identifier: MIT */
/* The last watchdog report, kept across a warm reset (Android's "last_kmsg"): a copy of the
 * text as it went out, in fiqmon's own RAM in a section the boot stub never clears, and
 * believed after a reset only if its magic, length and CRC agree. */
#ifndef FIQMON_LAST_REPORT_H
#define FIQMON_LAST_REPORT_H

#include <stddef.h>
#include <stdint.h>

#define LAST_REPORT_SIZE 1536u /* the header, registers and backtrace; the log tail may be cut */

struct last_report {
    uint32_t magic;  /* LAST_REPORT_MAGIC once complete; 0 while being written */
    uint32_t len;    /* bytes of text kept */
    uint32_t cut;    /* bytes that did not fit */
    uint32_t resets; /* resets since it was written */
    uint32_t crc;    /* CRC-32 of the fields above and the text */
    char text[LAST_REPORT_SIZE];
};

extern struct last_report mon_last_report;

/* At every boot: forget a record that does not check out, count a reset for one that does. */
void last_report_boot(struct last_report *r);
void last_report_begin(struct last_report *r);
void last_report_append(struct last_report *r, const char *s, size_t n);
void last_report_end(struct last_report *r);
/* Prints the record ("last" command); 0, or -1 with an error line when there is none. */
int last_report_show(const struct last_report *r);

#endif
