#!/bin/sh
# SPDX-License-Identifier: MIT
# Resident footprint of a fiqmon ELF, by section, against the platform's limit.
#   size.sh ELF SIZE_TOOL PLATFORM_DEF_H
set -eu
elf=$1
size_tool=$2
limit=$(awk '$1 == "#define" && $2 == "RESIDENT_LIMIT" { print $3 }' "$3")
limit=$((limit))

"$size_tool" -A "$elf" | awk -v limit="$limit" '
    $1 == ".text" || $1 == ".rodata" { text += $2 }
    $1 == ".data"    { data += $2 }
    $1 == ".bss"     { bss += $2 }
    $1 == ".buffers" || $1 == ".noinit" { buffers += $2 }
    $1 == ".stacks"  { stacks += $2 }
    $1 == ".boot"    { boot += $2 }
    END {
        printf "text:    %6d bytes  (code and constants)\n", text
        printf "data:    %6d bytes\n", data
        printf "bss:     %6d bytes\n", bss
        printf "buffers: %6d bytes  (receive ring, line editor, CPU frame, last report)\n", buffers
        printf "stacks:  %6d bytes  (one per CPU mode; the monitor runs on the FIQ stack)\n", stacks
        printf "boot:    %6d bytes  (relocation stub, not resident)\n", boot
        resident = text + data + bss + buffers + stacks
        printf "resident: %d bytes (limit %d)\n", resident, limit
        if (resident > limit) { print "size: resident footprint over the limit" > "/dev/stderr"; exit 1 }
    }'
