/* SPDX-License-Identifier: MIT */
/* The Hyp shim's image (built from hyp/ by hyp/hyp.mk), carried in fiqmon's constants and
 * copied to HYP_BASE by virt_hyp_install(). */
    .section .rodata.hyp_blob, "a", %progbits
    .balign 4
    .global hyp_blob, hyp_blob_end
hyp_blob:
    .incbin HYP_BLOB
hyp_blob_end:
