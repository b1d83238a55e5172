/* SPDX-License-Identifier: MIT */
/* Written over the start of a zImage for the boot-cost figures (virt): the kernel's first
 * instruction reads CNTPCT (instructions / 16 under -icount shift=0), then the stub prints
 *   "bench stamps ENTRY KERNEL\r\n"
 * (ENTRY: the fiqmon-entry stamp at STAMP_ADDR, KERNEL: its own, 8 hex digits each) on
 * UART0 and spins. Only 0x00-0x23 and 0x30 on are overwritten: the zImage magic at
 * 0x24-0x2f stays, so fiqmon still recognises the image, and the file keeps its size, so
 * U-Boot loads as much as for the real kernel. */
#include "stamp.h"

    .syntax unified
    .arm
    .global _start
_start:
    mrrc    p15, 0, r4, r5, c14         @ the kernel's first instruction
    b       stub
    .org    0x24
    .word   0x016f2818, 0, 0            @ zImage magic, start, end (placeholders)
stub:
    ldr     sp, =STAMP_ADDR             @ a stack below the stamp (fiqmon gives none)
    ldr     r6, =UART0_BASE
    adr     r0, text
    bl      puts
    ldr     r0, =STAMP_ADDR
    ldr     r0, [r0]
    bl      puthex
    mov     r0, #' '
    bl      putc
    mov     r0, r4
    bl      puthex
    adr     r0, crlf
    bl      puts
1:  b       1b

puts:                                   @ r0: NUL-terminated text
    push    {r7, lr}
    mov     r7, r0
2:  ldrb    r0, [r7], #1
    cmp     r0, #0
    popeq   {r7, pc}
    bl      putc
    b       2b

puthex:                                 @ r0: 8 hex digits
    push    {r7, r8, lr}
    mov     r7, r0
    mov     r8, #8
3:  lsr     r0, r7, #28
    cmp     r0, #10
    addlo   r0, r0, #'0'
    addhs   r0, r0, #('a' - 10)
    bl      putc
    lsl     r7, r7, #4
    subs    r8, r8, #1
    bne     3b
    pop     {r7, r8, pc}

putc:                                   @ r0: one byte
    ldr     r1, [r6, #UART_FR]
    tst     r1, #UART_FR_TXFF
    bne     putc
    str     r0, [r6, #UART_DR]
    bx      lr

text:   .asciz  "bench stamps "
crlf:   .asciz  "\r\n"
    .ltorg
