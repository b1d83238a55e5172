#!/bin/sh
# SPDX-License-Identifier: MIT
# QEMU's own device tree for a machine, packed, with a command line and an initramfs:
#   mkvirtdtb.sh "QEMU MACHINE ARGS" OUT.dtb BOOTARGS INITRD_FILE INITRD_ADDR
set -eu
qemu_machine=$1 out=$2 bootargs=$3 initrd=$4 addr=$5
raw=$out.raw
# shellcheck disable=SC2086 # the machine arguments are words
$qemu_machine -machine dumpdtb="$raw" -nographic -nic none -monitor none \
    -audiodev none,id=snd0 >/dev/null
dtc -q -I dtb -O dtb -o "$out" "$raw"
rm -f "$raw"
size=$(stat -c %s "$initrd")
fdtput -t s "$out" /chosen bootargs "$bootargs"
fdtput -t x "$out" /chosen linux,initrd-start "$(printf %x $((addr)))"
fdtput -t x "$out" /chosen linux,initrd-end "$(printf %x $((addr + size)))"
