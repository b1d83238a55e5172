#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the Debian packages fiqmon needs, if any are missing.
#   ensure-deps.sh run   what `make run` needs
#   ensure-deps.sh all   everything (`make test`)
# As root it runs apt-get; otherwise it says exactly what to install and fails.
set -eu

run_pkgs="gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm gcc-aarch64-linux-gnu"
all_pkgs="$run_pkgs gcc libcmocka-dev python3-pytest python3-pytest-xdist gdb-multiarch openocd u-boot-qemu u-boot-tools device-tree-compiler clang"

case "${1:-all}" in
run) want=$run_pkgs ;;
all) want=$all_pkgs ;;
*) echo "usage: $0 run|all" >&2; exit 2 ;;
esac

missing=""
for p in $want; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    case "$status" in
    *" installed") ;;
    *) missing="$missing $p" ;;
    esac
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
    echo "fiqmon: missing Debian packages:$missing" >&2
    echo "fiqmon: install them with: sudo apt-get install$missing" >&2
    exit 1
fi
echo "fiqmon: installing missing Debian packages:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
if ! apt-get install -y --no-install-recommends $missing >/dev/null 2>&1; then
    apt-get update >/dev/null || echo "fiqmon: warning: apt-get update reported errors; installing from the lists as they are" >&2
    apt-get install -y --no-install-recommends $missing
fi
