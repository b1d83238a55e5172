#!/bin/sh
# SPDX-License-Identifier: MIT
# Fetch Debian's armhf linux-image-armmp kernel (the metapackage's current version, never a
# hard-coded ABI number) and unpack its zImage into OUT_DIR (default build/linux):
#   OUT_DIR/vmlinuz       the zImage
#   OUT_DIR/version       the package version it came from
# As root it enables the armhf architecture and refreshes the package lists if needed.
set -eu
out=${1:-build/linux}
mkdir -p "$out"
out=$(cd "$out" && pwd)

if [ -s "$out/vmlinuz" ] && [ -s "$out/version" ]; then
    exit 0
fi

# A mirror caught mid-sync fails one index ("File has unexpected size") while the others,
# and the kernel package, are fine: warn and go on; resolving the package says if not.
refresh() {
    apt-get update >/dev/null 2>&1 || echo "fiqmon: warning: apt-get update reported errors; trying the package lists as they are" >&2
}

if ! dpkg --print-foreign-architectures | grep -qx armhf; then
    if [ "$(id -u)" != 0 ]; then
        echo "fiqmon: enable armhf packages first: sudo dpkg --add-architecture armhf && sudo apt-get update" >&2
        exit 1
    fi
    dpkg --add-architecture armhf
    refresh
fi
pkg=$(apt-cache depends linux-image-armmp:armhf 2>/dev/null | awk '/Depends: linux-image-[0-9]/ { sub(":armhf", "", $2); print $2; exit }')
if [ -z "$pkg" ]; then
    if [ "$(id -u)" = 0 ]; then refresh; fi
    pkg=$(apt-cache depends linux-image-armmp:armhf | awk '/Depends: linux-image-[0-9]/ { sub(":armhf", "", $2); print $2; exit }')
fi
[ -n "$pkg" ] || { echo "fiqmon: cannot resolve linux-image-armmp:armhf" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download "$pkg:armhf" >/dev/null)
dpkg-deb -x "$work"/*.deb "$work/root"
cp "$work"/root/boot/vmlinuz-* "$out/vmlinuz"
dpkg-deb -f "$work"/*.deb Package Version | tr '\n' ' ' > "$out/version"
echo >> "$out/version"
echo "fiqmon: $(cat "$out/version")-> $out/vmlinuz"
