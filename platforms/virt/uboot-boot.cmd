# U-Boot script (mkimage -T script): chainload fiqmon, which then boots the kernel.
# `go` cannot start fiqmon with Debian's U-Boot 2023.01 (see docs/u-boot.md): bootm of a
# standalone image can. fiqmon starts in Secure SVC, installs itself in Secure RAM, finds
# the zImage at 0x40800000 and boots it in the Normal world with QEMU's device tree.
echo fiqmon: chainloading from U-Boot
fatload virtio 0:1 0x41000000 fiqmon.uimg
fatload virtio 0:1 0x40800000 vmlinuz
setenv autostart yes
bootm 0x41000000
