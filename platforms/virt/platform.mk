# SPDX-License-Identifier: MIT
# QEMU virt, AArch32 Cortex-A15 with the Security Extensions: fiqmon in the Secure world.

PLAT_ARCH      := armv7
PLAT_CPU_FLAGS := -mcpu=cortex-a15 -mfloat-abi=soft
BOOT_DELAY_MS ?= 1000
PLAT_DEFINES   := -DBOOT_DELAY_MS=$(BOOT_DELAY_MS)
PLAT_SOURCES   := \
	drivers/pl011.c \
	drivers/gicv2.c \
	drivers/pl061.c \
	platforms/common/build_id.c \
	platforms/common/platform_common.c \
	platforms/common/pl011_debug_port.c \
	platforms/virt/platform.c \
	platforms/virt/fiq.c \
	platforms/virt/fiq_noise.S \
	platforms/virt/mem.c \
	platforms/virt/cmd_cp15.c

# only in builds with the watchdog (WATCHDOG=none leaves it out)
PLAT_WATCHDOG_SOURCES := platforms/virt/watchdog_timer.c

# no C file needs ARM state (Thumb-2 has MRC/MCR)
PLAT_ARM_SOURCES :=

QEMU_SYSTEM  := qemu-system-arm
QEMU_MACHINE := -M virt,secure=on -cpu cortex-a15 -m 1G -smp 1

# -serial order on virt: UART0 (the kernel's console), then the Secure UART1 (fiqmon).
QEMU_SERIALS = -serial $(CONSOLE_SERIAL) -serial $(DEBUG_SERIAL)

# Where a raw Linux image goes: fiqmon boots a zImage found there (KERNEL=debian puts
# Debian's there with QEMU's loader), or `make image` records it in the payload header.
KERNEL_LOAD_ADDR := 0x40800000

KERNEL_FILE = $(if $(filter debian,$(KERNEL)),$(LINUX_ZIMAGE),$(KERNEL))

ifeq ($(BOOT),uboot)
# Debian's U-Boot as the firmware: it runs a boot script from a virtio FAT disk (a folder
# under the build), which loads fiqmon (a standalone uImage) and the zImage, then bootm.
UBOOT_BIN  := /usr/lib/u-boot/qemu_arm/u-boot.bin
UBOOT_DISK  = $(BUILD)/uboot-disk
UBOOT_LOAD  := 0x40200000
PLAT_RUN_PREREQ = $(UBOOT_DISK)/boot.scr.uimg
QEMU_LOAD = -bios $(UBOOT_BIN) \
	-drive if=virtio$(comma)format=raw$(comma)readonly=on$(comma)file=fat:$(UBOOT_DISK)

$(UBOOT_DISK)/boot.scr.uimg: platforms/virt/uboot-boot.cmd $(BIN) $(if $(filter debian,$(KERNEL)),linux) FORCE
	@test -n "$(KERNEL_FILE)" || { echo "BOOT=uboot needs KERNEL=debian or KERNEL=zImage" >&2; exit 2; }
	@mkdir -p $(UBOOT_DISK)
	$(Q)mkimage -A arm -O u-boot -T standalone -C none -a $(UBOOT_LOAD) -e $(UBOOT_LOAD) \
		-n fiqmon -d $(BIN) $(UBOOT_DISK)/fiqmon.uimg >/dev/null
	$(Q)cp $(KERNEL_FILE) $(UBOOT_DISK)/vmlinuz
	$(Q)mkimage -A arm -O linux -T script -C none -n fiqmon-boot \
		-d platforms/virt/uboot-boot.cmd $@ >/dev/null
else
# fiqmon runs from the Secure flash (-bios). KERNEL=debian: Debian's zImage placed at
# KERNEL_LOAD_ADDR by QEMU; any other KERNEL=FILE: the combined image in flash.
QEMU_LOAD = $(if $(filter debian,$(KERNEL)),-bios $(BIN) -device loader$(comma)file=$(LINUX_ZIMAGE)$(comma)addr=$(KERNEL_LOAD_ADDR)$(comma)force-raw=on,$(if $(KERNEL),-bios $(IMAGE),-bios $(BIN)))
endif
