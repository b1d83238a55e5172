# SPDX-License-Identifier: MIT
# QEMU virt, AArch64 Cortex-A57 with EL3 and EL2, GICv3: fiqmon at EL3 (docs/aarch64.md).

PLAT_ARCH      := aarch64
CROSS          := aarch64-linux-gnu-
# No SIMD/FP in fiqmon: the interrupted context's q0-q31, FPSR and FPCR stay untouched
# without saving them. Strict alignment: EL3 runs with its MMU off (Device memory).
PLAT_CPU_FLAGS := -mcpu=cortex-a57 -mgeneral-regs-only -mstrict-align -fno-pie
PLAT_ASFLAGS   :=
PLAT_LIBC      := -nostdlib -static -no-pie -lgcc
CODE_SET       :=
BOOT_DELAY_MS ?= 1000
PLAT_DEFINES   := -DBOOT_DELAY_MS=$(BOOT_DELAY_MS)
# Everything virt has but breakpoints and the one wire (HYP=1, CONSOLE=shared: below;
# docs/aarch64.md says why).

ifneq ($(HYP),0)
$(error HYP=1: virt64 has no Hyp shim (the kernel owns EL2))
endif
ifneq ($(filter-out separate,$(CONSOLE)),)
$(error CONSOLE=$(CONSOLE): virt64 has only a separate console)
endif
PLAT_SOURCES   := \
	drivers/pl011.c \
	drivers/gicv3.c \
	drivers/pl061.c \
	platforms/common/aarch64_el3_features.c \
	platforms/common/aarch64_el3_trap.c \
	platforms/common/build_id.c \
	platforms/common/platform_common.c \
	platforms/common/pl011_debug_port.c \
	platforms/common/port_mem_translated.c \
	platforms/common/console_none.c \
	platforms/common/debug_none.c \
	platforms/virt64/platform.c \
	platforms/virt64/fiq.c \
	platforms/virt64/fiq_noise.S \
	platforms/virt64/mem.c
# SMP=N (1-8): QEMU starts N CPUs; fiqmon parks the others in Secure memory and is their
# PSCI firmware (platforms/virt64/smp.c, monitor/psci/). 1: one CPU, no PSCI.
SMP ?= 1
ifeq ($(filter 1 2 3 4 5 6 7 8,$(SMP)),)
$(error SMP must be 1 to 8, not '$(SMP)')
endif
PLAT_DEFINES += -DFIQMON_SMP=$(SMP)
ifneq ($(SMP),1)
PLAT_SOURCES += platforms/virt64/smp.c platforms/virt64/smp_entry.S
else
PLAT_SOURCES += platforms/common/cpus_single.c
endif

PLAT_WATCHDOG_SOURCES := platforms/virt64/watchdog_timer.c
PLAT_ARM_SOURCES :=

QEMU_SYSTEM  := qemu-system-aarch64
QEMU_CPU     ?= cortex-a57
QEMU_MACHINE = -M virt,secure=on,virtualization=on,gic-version=3 -cpu $(QEMU_CPU) -m 1G -smp $(SMP)

# -serial order on virt: UART0 (the kernel's console), then the Secure UART1 (fiqmon).
QEMU_SERIALS = -serial $(CONSOLE_SERIAL) -serial $(DEBUG_SERIAL)

# fiqmon runs from the Secure flash (-bios). KERNEL=debian: Debian's arm64 Image (make linux
# ARCH=arm64) placed at KERNEL_LOAD_ADDR by QEMU, where fiqmon looks; any other
# KERNEL=FILE (a test guest's ELF): the combined image in flash (make image).
KERNEL_LOAD_ADDR := 0x40200000
LINUX_ARCH := arm64
QEMU_LOAD = $(if $(filter debian,$(KERNEL)),-bios $(BIN) -device loader$(comma)file=$(LINUX_ZIMAGE)$(comma)addr=$(KERNEL_LOAD_ADDR)$(comma)force-raw=on,$(if $(KERNEL),-bios $(IMAGE),-bios $(BIN)))

ifeq ($(INITRD),busybox)
# KERNEL=debian INITRD=busybox: the arm64 busybox initramfs (make initramfs ARCH=arm64) at
# INITRD_ADDR, named on the kernel's command line (initrd=ADDR,SIZE) in QEMU's own runtime
# device tree, which fiqmon hands over unchanged: -append writes /chosen/bootargs into it.
# (-append needs -kernel; with -bios QEMU only offers that Image on fw_cfg, which nothing
# reads: the kernel that boots is the loader's copy at KERNEL_LOAD_ADDR. A dumped and
# edited device tree made the kernel abort: docs/tasks.md.) KERNEL_ARGS adds to the line.
KERNEL_ARGS ?=
INITRD_ADDR := 0x48000000
PLAT_RUN_PREREQ = virt64-initrd
.PHONY: virt64-initrd
virt64-initrd:
	@test "$(KERNEL)" = debian || { echo "INITRD=busybox needs KERNEL=debian" >&2; exit 2; }
	@$(MAKE) -s --no-print-directory initramfs
QEMU_LOAD += -kernel $(LINUX_ZIMAGE) \
	-append "console=ttyAMA0 initrd=$(INITRD_ADDR),$(shell stat -c %s $(INITRAMFS) 2>/dev/null)$(if $(KERNEL_ARGS), $(KERNEL_ARGS))" \
	-device loader$(comma)file=$(INITRAMFS)$(comma)addr=$(INITRD_ADDR)$(comma)force-raw=on
endif
