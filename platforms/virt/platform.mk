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
	platforms/common/port_mem_translated.c \
	platforms/virt/platform.c \
	platforms/virt/fiq.c \
	platforms/virt/fiq_noise.S \
	platforms/virt/mem.c \
	platforms/virt/cmd_cp15.c

# HYP=1: the Hyp shim (hyp/), stage 2 over the Normal world; QEMU with virtualization=on
PLAT_HAS_HYP := 1
ifeq ($(HYP),1)
PLAT_SOURCES += hyp/stage2.c platforms/virt/hyp_install.c platforms/virt/hyp_setup.S \
	platforms/virt/hyp_blob.S platforms/virt/debug_unit.c platforms/virt/debug_stop.c
else
PLAT_SOURCES += platforms/common/debug_none.c
endif
# CONSOLE=shared (implies HYP=1): one wire, UART0, for fiqmon and the kernel's console,
# which fiqmon emulates (vdev/pl011_model.c); else the shim passes accesses through
ifeq ($(CONSOLE),shared)
PLAT_SOURCES += vdev/pl011_model.c platforms/virt/console_shared.c
else
PLAT_SOURCES += platforms/common/console_none.c \
	$(if $(filter 1,$(HYP)),platforms/virt/console_passthrough.c)
endif

# SMP=N (1-8): QEMU starts N CPUs; fiqmon parks the others in Secure memory and is their
# PSCI firmware (platforms/virt/smp.c, monitor/psci/). 1: one CPU, no PSCI, as before.
SMP ?= 1
ifeq ($(filter 1 2 3 4 5 6 7 8,$(SMP)),)
$(error SMP must be 1 to 8, not '$(SMP)')
endif
PLAT_DEFINES += -DFIQMON_SMP=$(SMP)
ifneq ($(SMP),1)
ifeq ($(BOOT),uboot)
$(error SMP=$(SMP) with BOOT=uboot: U-Boot would have to hand every CPU over; use SMP=1)
endif
PLAT_SOURCES += platforms/virt/smp.c platforms/virt/smp_entry.S
else
PLAT_SOURCES += platforms/common/cpus_single.c
endif

# only in builds with the watchdog (WATCHDOG=none leaves it out)
PLAT_WATCHDOG_SOURCES := platforms/virt/watchdog_timer.c

# no C file needs ARM state (Thumb-2 has MRC/MCR)
PLAT_ARM_SOURCES :=

QEMU_SYSTEM  := qemu-system-arm
QEMU_MACHINE = -M virt,secure=on$(if $(filter 1,$(HYP)),$(comma)virtualization=on) -cpu cortex-a15 -m 1G -smp $(SMP)

# -serial order on virt: UART0 (the kernel's console), then the Secure UART1 (fiqmon).
# CONSOLE=shared: UART0 only, the one wire.
QEMU_SERIALS = $(if $(filter shared,$(CONSOLE)),-serial $(DEBUG_SERIAL),-serial $(CONSOLE_SERIAL) -serial $(DEBUG_SERIAL))

# Where a raw Linux image goes: fiqmon boots a zImage found there (KERNEL=debian puts
# Debian's there with QEMU's loader), or `make image` records it in the payload header.
KERNEL_LOAD_ADDR := 0x40800000

KERNEL_FILE = $(if $(filter debian,$(KERNEL)),$(LINUX_ZIMAGE),$(KERNEL))

ifeq ($(INITRD),busybox)
# KERNEL=debian INITRD=busybox: the busybox initramfs (make initramfs) at INITRD_ADDR, and
# QEMU's own device tree for this machine with it and console=ttyAMA0 (+ KERNEL_ARGS), in
# the payload.
KERNEL_ARGS ?=
INITRD_ADDR := 0x48000000
INITRD_DTB   = $(BUILD)/initrd.dtb
PLAT_RUN_PREREQ = $(BUILD)/initrd-image.stamp
$(BUILD)/initrd-image.stamp: $(BIN) scripts/mkvirtdtb.sh FORCE
	@test "$(KERNEL)" = debian || { echo "INITRD=busybox needs KERNEL=debian" >&2; exit 2; }
	@$(MAKE) -s --no-print-directory initramfs
	$(Q)scripts/mkvirtdtb.sh "$(QEMU_SYSTEM) $(QEMU_MACHINE)" $(INITRD_DTB) \
		"console=ttyAMA0$(if $(KERNEL_ARGS), $(KERNEL_ARGS))" $(INITRAMFS) $(INITRD_ADDR)
	$(Q)$(MAKE) -s --no-print-directory image KERNEL=$(LINUX_ZIMAGE) DTB=$(INITRD_DTB) INITRD=
	@touch $@
QEMU_LOAD = -bios $(IMAGE) -device loader$(comma)file=$(INITRAMFS)$(comma)addr=$(INITRD_ADDR)$(comma)force-raw=on
else ifeq ($(BOOT),uboot)
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
