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
	platforms/common/pl011_debug_port.c \
	platforms/virt/platform.c \
	platforms/virt/fiq.c \
	platforms/virt/mem.c \
	platforms/virt/cmd_cp15.c

QEMU_SYSTEM  := qemu-system-arm
QEMU_MACHINE := -M virt,secure=on -cpu cortex-a15 -m 1G -smp 1

# -serial order on virt: UART0 (the kernel's console), then the Secure UART1 (fiqmon).
QEMU_SERIALS = -serial $(CONSOLE_SERIAL) -serial $(DEBUG_SERIAL)

# Where a raw Linux image goes: fiqmon boots a zImage found there (KERNEL=debian puts
# Debian's there with QEMU's loader), or `make image` records it in the payload header.
KERNEL_LOAD_ADDR := 0x40800000

# fiqmon runs from the Secure flash (-bios). KERNEL=debian: Debian's zImage placed at
# KERNEL_LOAD_ADDR by QEMU; any other KERNEL=FILE: the combined image in flash.
QEMU_LOAD = $(if $(filter debian,$(KERNEL)),-bios $(BIN) -device loader$(comma)file=$(LINUX_ZIMAGE)$(comma)addr=$(KERNEL_LOAD_ADDR)$(comma)force-raw=on,$(if $(KERNEL),-bios $(IMAGE),-bios $(BIN)))
