#!/bin/sh
# SPDX-License-Identifier: MIT
# Fetch Debian's kernel for ARCH (armhf: linux-image-armmp, a zImage; arm64:
# linux-image-arm64, an uncompressed Image), the metapackage's current version, never a
# hard-coded ABI number, and unpack it into OUT_DIR (default build/linux):
#   OUT_DIR/vmlinuz       the zImage (armhf) or the Image (arm64)
#   OUT_DIR/version       the package version it came from
# As root it enables the architecture and refreshes the package lists if needed.
#   scripts/fetch-linux.sh [OUT_DIR] [armhf|arm64]
set -eu
out=${1:-build/linux}
arch=${2:-armhf}
case "$arch" in
armhf) meta=linux-image-armmp ;;
arm64) meta=linux-image-arm64 ;;
*) echo "fiqmon: no Debian kernel for '$arch' (armhf or arm64)" >&2; exit 2 ;;
esac
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

if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
    if [ "$(id -u)" != 0 ]; then
        echo "fiqmon: enable $arch packages first: sudo dpkg --add-architecture $arch && sudo apt-get update" >&2
        exit 1
    fi
    dpkg --add-architecture "$arch"
    refresh
fi
resolve() {
    apt-cache depends "$meta:$arch" 2>/dev/null |
        awk -v a=":$arch" '/Depends: linux-image-[0-9]/ { sub(a, "", $2); print $2; exit }'
}
pkg=$(resolve)
if [ -z "$pkg" ]; then
    if [ "$(id -u)" = 0 ]; then refresh; fi
    pkg=$(resolve)
fi
[ -n "$pkg" ] || { echo "fiqmon: cannot resolve $meta:$arch" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download "$pkg:$arch" >/dev/null)
dpkg-deb -x "$work"/*.deb "$work/root"
cp "$work"/root/boot/vmlinuz-* "$out/vmlinuz"
dpkg-deb -f "$work"/*.deb Package Version | tr '\n' ' ' > "$out/version"
echo >> "$out/version"
echo "fiqmon: $(cat "$out/version")-> $out/vmlinuz"
