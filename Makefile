# SPDX-License-Identifier: MIT
# fiqmon: one Makefile for every platform. A platform is a folder platforms/<name>/ with a
# platform.mk (sources, CPU flags, QEMU machine) and a platform_def.h (memory map).
#
#   make [PLATFORM=versatilepb] [DEBUG=1] [V=1] [KNOCK=-1|0|1] [ENTRY=async|halt]
#        [PROFILE=dev|production] [UNLOCK_KEY=FILE]   (docs/lockdown.md)
#        [WATCHDOG=SECONDS]   hard-lockup watchdog at reset: 0 (off) in dev, 10 in production
#        [GDB=0] [LINUX=0] [LOCKDOWN=0] [WATCHDOG=none] [MINIMAL=1]   features left out
#   make run [DEBUG_SERIAL=chardev] [CONSOLE_SERIAL=chardev] [KERNEL=file|debian] [QEMU_EXTRA=...]
#            [INITRD=busybox [KERNEL_ARGS=...]] (virt, KERNEL=debian)   [HYP=1] (virt: Hyp shim)
#   make test | make unit | make qemu-test | make size | make debug | make deps | make clean
#   make linux | make initramfs   Debian's armhf kernel, a busybox initramfs (tests); ARCH=arm64: arm64's

PLATFORM ?= versatilepb
DEBUG    ?= 0
V        ?= 0
KNOCK    ?= 1
ENTRY    ?= async
PROFILE  ?= dev
UNLOCK_KEY ?=
ifeq ($(filter dev production,$(PROFILE)),)
$(error PROFILE must be dev or production, not '$(PROFILE)')
endif
# Features a build may leave out (each 1 = built in). MINIMAL=1: all four out, for the
# smallest monitor (knock, shell, regs, md/mw, irqs, stats, boot, halt/continue).
MINIMAL  ?= 0
ifeq ($(MINIMAL),1)
override GDB := 0
override LINUX := 0
override LOCKDOWN := 0
override WATCHDOG := none
endif
# HYP=1 (virt): fiqmon installs its Hyp shim before the hand-off (docs/one-wire.md).
# CONSOLE=shared (virt): one wire for fiqmon and the kernel's console; implies HYP=1.
# CONSOLE=ring (versatilepb): one wire for fiqmon and a cooperating kernel's console, which
# it writes into a ring fiqmon owns (service call 5; docs/one-wire.md).
ifeq ($(filter async halt,$(ENTRY)),)
$(error ENTRY must be async (a knock opens the shell beside the kernel) or halt, not '$(ENTRY)')
endif
CONSOLE  ?= separate
ifeq ($(filter separate shared ring,$(CONSOLE)),)
$(error CONSOLE must be separate, shared or ring, not '$(CONSOLE)')
endif
ifeq ($(CONSOLE),shared)
override HYP := 1
endif
HYP      ?= 0
GDB      ?= 1
LINUX    ?= 1
LOCKDOWN ?= 1
$(foreach f,MINIMAL GDB LINUX LOCKDOWN HYP,$(if $(filter 0 1,$($(f))),,$(error $(f) must be 0 or 1, not '$($(f))')))
ifeq ($(PROFILE)$(LOCKDOWN),production0)
$(error PROFILE=production needs lockdown: drop LOCKDOWN=0)
endif
# Production: on, at Linux's own hard-lockup threshold (watchdog_thresh = 10 s).
# WATCHDOG=none leaves the watchdog out of the build.
WATCHDOG ?= $(if $(filter production,$(PROFILE)),10,0)
ifeq ($(WATCHDOG),none)
WATCHDOG_BUILT := 0
WATCHDOG_S := 0
else
WATCHDOG_BUILT := 1
WATCHDOG_S := $(WATCHDOG)
ifneq ($(shell echo '$(WATCHDOG)' | grep -xE '[0-9]{1,3}' && test '$(WATCHDOG)' -le 600 && echo ok),$(WATCHDOG) ok)
$(error WATCHDOG must be none (built out), 0 (off) or 1 to 600 seconds, not '$(WATCHDOG)')
endif
endif

PLAT_DIR := platforms/$(PLATFORM)
ifeq ($(wildcard $(PLAT_DIR)/platform.mk),)
$(error unknown PLATFORM '$(PLATFORM)': there is no $(PLAT_DIR)/platform.mk)
endif

BUILD ?= build/$(PLATFORM)
ELF   := $(BUILD)/fiqmon.elf
BIN   := $(BUILD)/fiqmon.bin

include $(PLAT_DIR)/platform.mk
ifeq ($(HYP),1)
ifeq ($(PLAT_HAS_HYP),)
$(error HYP=1: platform $(PLATFORM) has no Hyp shim (virt has); CONSOLE=ring is its one wire)
endif
endif
ifeq ($(CONSOLE),ring)
ifeq ($(PLAT_HAS_CONSOLE_RING),)
$(error CONSOLE=ring: platform $(PLATFORM) has no console ring (versatilepb has))
endif
endif

Q := $(if $(filter 1,$(V)),,@)
comma := ,
CROSS   ?= arm-none-eabi-
CC      := $(CROSS)gcc
OBJCOPY := $(CROSS)objcopy
OBJDUMP := $(CROSS)objdump
SIZE    := $(CROSS)size
NM      := $(CROSS)nm

VERSION := $(shell cat VERSION)
VERSION_CODE := $(shell awk -F. '{ printf "0x%02x%02x%02x", $$1, $$2, $$3 }' VERSION)

# Thumb for size: the one hot path, the FIQ's noise path, is ARM assembly (fiq_noise.S).
# LTO: -3.3 KiB (docs/benchmarks.md); per-file -marm survives it as a per-function target.
CODE_SET ?= -mthumb

ifeq ($(DEBUG),1)
OPT := -Og -DDEBUG=1
else
OPT := -Os -flto
endif

# monitor/ in sub-areas (docs/architecture.md); each is on the include path.
MONITOR_AREAS   := $(sort $(patsubst %/,%,$(dir $(wildcard monitor/*/*.c monitor/*/*.h))))
MONITOR_ALL_SOURCES := $(sort $(wildcard monitor/*/*.c))
# what each feature brings (build_options.h)
FEATURE_SOURCES_GDB      := $(wildcard monitor/gdb/*.c)
FEATURE_SOURCES_LINUX    := $(wildcard monitor/linux/*.c) monitor/cmd/cmd_kernel_info.c \
	$(wildcard monitor/cmd/cmd_tasks*.c)
FEATURE_SOURCES_LOCKDOWN := $(wildcard monitor/lockdown/*.c)
# breakpoints need the kernel's debug exceptions, which only the Hyp shim brings to fiqmon
FEATURE_SOURCES_BREAKPOINTS := $(wildcard monitor/debug/*.c) monitor/cmd/cmd_break.c
FEATURE_SOURCES_WATCHDOG := $(wildcard monitor/watchdog/*.c monitor/report/*.c)
MONITOR_SOURCES := $(filter-out $(if $(filter 0,$(GDB)),$(FEATURE_SOURCES_GDB)) \
	$(if $(filter 0,$(LINUX)),$(FEATURE_SOURCES_LINUX)) \
	$(if $(filter 0,$(LOCKDOWN)),$(FEATURE_SOURCES_LOCKDOWN)) \
	$(if $(filter 0,$(HYP)),$(FEATURE_SOURCES_BREAKPOINTS)) \
	$(if $(filter 0,$(WATCHDOG_BUILT)),$(FEATURE_SOURCES_WATCHDOG)),$(MONITOR_ALL_SOURCES))
# One core for both architectures: a file for one only is either named *_a64.c (AArch64) or
# listed here (AArch32: its frame and registers, the EHABI unwinder, the task layout found
# in ARM code; AArch64: the kernel's BTF and the task layout read from it; docs/aarch64.md).
# The host's unit tests build all of them.
MONITOR_AARCH32_ONLY := monitor/core/cpu_frame.c monitor/cmd/cmd_regs.c monitor/cmd/cmd_tasks_a32.c \
	monitor/linux/unwind.c monitor/linux/prologue.c monitor/linux/kcode.c \
	monitor/linux/ktask_layout.c monitor/linux/kmodule_layout.c
MONITOR_AARCH64_ONLY := monitor/linux/btf.c monitor/linux/ktask_btf.c
MONITOR_SOURCES := $(filter-out $(if $(filter aarch64,$(PLAT_ARCH)),$(MONITOR_AARCH32_ONLY),\
	%_a64.c $(MONITOR_AARCH64_ONLY)),$(MONITOR_SOURCES))
MONITOR_INCLUDES := -Imonitor $(addprefix -I,$(MONITOR_AREAS))

CPPFLAGS := $(MONITOR_INCLUDES) -Idrivers -Iplatforms -Iplatforms/common -I$(PLAT_DIR) -Iboot -I$(BUILD) -Ihyp -Ivdev \
	-DKNOCK_DEFAULT=$(KNOCK) -DENTRY_HALTS_DEFAULT=$(if $(filter halt,$(ENTRY)),1,0) $(PLAT_DEFINES)
CFLAGS := -std=c11 $(PLAT_CPU_FLAGS) $(CODE_SET) $(OPT) -g -ffreestanding -fno-common \
	-ffunction-sections -fdata-sections -fno-unwind-tables -fno-asynchronous-unwind-tables \
	--param=min-pagesize=0 \
	-Wall -Wextra -Werror -Wshadow -Wundef -Wstrict-prototypes -Wmissing-prototypes \
	-include build_info.h -MMD -MP
ASFLAGS := $(PLAT_CPU_FLAGS) $(if $(filter aarch64,$(PLAT_ARCH)),,-marm) -g -MMD -MP
# newlib's nano specs on the AArch32 parts; the AArch64 toolchain (a Linux one) links
# nothing but libgcc (PLAT_LIBC), boot/libc_min.c has the rest
PLAT_LIBC ?= --specs=nano.specs
LDFLAGS := -nostartfiles $(filter-out -lgcc,$(PLAT_LIBC)) -Wl,--gc-sections -Wl,--build-id=sha1 \
	-Wl,-Map=$(BUILD)/fiqmon.map -Wl,--fatal-warnings -Wl,--no-warn-rwx-segments

# boot/*.S is AArch32 code shared by armv5 and armv7; aarch64 has all its own
BOOT_SOURCES    := boot/main.c boot/libc_min.c \
	$(if $(filter aarch64,$(PLAT_ARCH)),,boot/syscalls.c $(wildcard boot/*.S)) \
	$(sort $(wildcard boot/$(PLAT_ARCH)/*.S))
SOURCES := $(BOOT_SOURCES) $(MONITOR_SOURCES) $(PLAT_SOURCES) \
	$(if $(filter 1,$(WATCHDOG_BUILT)),$(PLAT_WATCHDOG_SOURCES))
OBJECTS := $(patsubst %,$(BUILD)/obj/%.o,$(SOURCES)) $(BUILD)/obj/text_tokens.c.o

# Output texts are packed (scripts/strpack.py, monitor/util/text.h): each C source is
# compiled from its copy under $(BUILD)/packed, whose output literals the packer has
# compressed with one token table for the whole build (text_tokens.c).
PACK := /usr/bin/python3 scripts/strpack.py
C_SOURCES := $(filter %.c,$(SOURCES))
# the list of sources packed, rewritten only when it changes: an option that adds or
# drops a source (SMP, HYP, CONSOLE) repacks a build directory packed without it
define source_list
$(1): FORCE
	@mkdir -p $$(@D)
	@echo '$(2)' | cmp -s - $$@ || echo '$(2)' > $$@
endef
$(eval $(call source_list,$(BUILD)/packed.list,$(C_SOURCES)))
$(BUILD)/packed/.stamp: $(C_SOURCES) scripts/strpack.py $(BUILD)/packed.list
	@mkdir -p $(@D)
	@$(if $(Q),echo "  PACK    $(BUILD)/packed")
	$(Q)$(PACK) $(@D) $(C_SOURCES)
	@touch $@
# the packer rewrites a copy only when it changes: make then sees it unchanged
$(addprefix $(BUILD)/packed/,$(C_SOURCES)) $(BUILD)/packed/text_tokens.c: $(BUILD)/packed/.stamp ;

# C files that stay in ARM state: on ARMv5, anything that touches CP15 (Thumb-1 has no
# MRC/MCR).
$(patsubst %,$(BUILD)/obj/%.o,$(PLAT_ARM_SOURCES)): CFLAGS += -marm
# the compiler's own calls to memset/memcpy appear after link-time optimisation: their
# definitions must be ordinary code by then, not LTO bytecode that was already dropped
$(BUILD)/obj/boot/libc_min.c.o: CFLAGS += -fno-lto

.PHONY: all clean run debug size test unit qemu-test deps image flash linux initramfs virt-guests layers \
	bench bench-quick FORCE
.DEFAULT_GOAL := all

all: $(ELF) $(BIN) $(BUILD)/fiqmon.lst

# Version, git id and the compiler flags in a header that changes only when they do: every
# object depends on it, so changing OPT, PROFILE or the like rebuilds what it affects.
$(BUILD)/build_info.h: FORCE
	@mkdir -p $(@D)
	@{ echo '#define FIQMON_VERSION "$(VERSION)"'; \
	   echo '#define FIQMON_VERSION_CODE $(VERSION_CODE)'; \
	   echo '#define FIQMON_GIT "'"$$(git describe --always --dirty 2>/dev/null || echo unknown)"'"'; \
	   echo '#define FIQMON_PRODUCTION $(if $(filter production,$(PROFILE)),1,0)'; \
	   echo '#define FIQMON_HAVE_UNLOCK_KEY $(if $(UNLOCK_KEY),1,0)'; \
	   echo '#define WATCHDOG_DEFAULT_S $(WATCHDOG_S)u'; \
	   echo '#define FIQMON_GDB $(GDB)'; \
	   echo '#define FIQMON_LINUX $(LINUX)'; \
	   echo '#define FIQMON_LOCKDOWN $(LOCKDOWN)'; \
	   echo '#define FIQMON_WATCHDOG $(WATCHDOG_BUILT)'; \
	   echo '#define FIQMON_HYP $(HYP)'; \
	   echo '#define FIQMON_BREAKPOINTS $(HYP)'; \
	   echo '#define FIQMON_CONSOLE_SHARED $(if $(filter shared ring,$(CONSOLE)),1,0)'; \
	   echo '/* built with: $(CPPFLAGS) $(CFLAGS) $(ASFLAGS) */'; \
	 } > $@.tmp.$$$$; cmp -s $@.tmp.$$$$ $@ || mv $@.tmp.$$$$ $@; rm -f $@.tmp.$$$$

# The unlock key as C bytes, for monitor/lockdown/lockdown.c only; production refuses to build
# without one.
$(BUILD)/unlock_key.h: FORCE
	@mkdir -p $(@D)
	@scripts/unlock-key.sh "$(UNLOCK_KEY)" $(PROFILE) $@
$(BUILD)/obj/monitor/lockdown/lockdown.c.o: $(BUILD)/unlock_key.h

$(BUILD)/obj/%.c.o: $(BUILD)/packed/%.c $(BUILD)/build_info.h
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/%.S.o: %.S $(BUILD)/build_info.h
	@mkdir -p $(@D)
	@$(if $(Q),echo "  AS      $<")
	$(Q)$(CC) $(CPPFLAGS) $(ASFLAGS) -c $< -o $@

$(BUILD)/fiqmon.ld: linker/fiqmon.ld.S $(PLAT_DIR)/platform_def.h $(BUILD)/build_info.h
	@mkdir -p $(@D)
	$(Q)$(CC) -E -P -x c $(CPPFLAGS) $< -o $@

$(ELF): $(OBJECTS) $(BUILD)/fiqmon.ld
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -T $(BUILD)/fiqmon.ld $(OBJECTS) $(filter -lgcc,$(PLAT_LIBC)) -o $@

$(BIN): $(ELF)
	$(Q)$(OBJCOPY) -O binary $< $@

$(BUILD)/fiqmon.lst: $(ELF)
	$(Q)$(OBJDUMP) -d -S $< > $@

# --- "flashed ahead of the kernel": fiqmon + payload header + kernel [+ dtb | cmdline] ---
IMAGE   := $(BUILD)/fiqmon-image.bin
DTB     ?=
CMDLINE ?=
PAYLOAD_KIND ?=
LOAD_ADDR := $(shell awk '$$2 == "LOAD_ADDR" { print $$3 }' $(PLAT_DIR)/platform_def.h)

image: $(BIN) FORCE
	@test -n "$(KERNEL)" || { echo "make image: give KERNEL=FILE" >&2; exit 2; }
	@test -f "$(KERNEL)" || { echo "make image: KERNEL=$(KERNEL): no such file" >&2; exit 2; }
	/usr/bin/python3 scripts/mkimage.py --fiqmon $(BIN) --kernel $(KERNEL) \
		$(if $(DTB),--dtb $(DTB)) $(if $(CMDLINE),--cmdline "$(CMDLINE)") \
		$(if $(PAYLOAD_KIND),--kind $(PAYLOAD_KIND)) \
		--linux-load $(KERNEL_LOAD_ADDR) -o $(IMAGE)

# Write the combined image to a real board with OpenOCD. DRY_RUN=1 prints the commands.
OPENOCD_INTERFACE ?= interface/ftdi/olimex-arm-usb-ocd-h.cfg
DRY_RUN ?= 0
flash: image
	openocd -f $(OPENOCD_INTERFACE) -f $(PLAT_DIR)/openocd.cfg \
		-c "init" -c "fiqmon_flash $(IMAGE) $(DRY_RUN)" -c "shutdown"

# Debian's armhf linux-image-armmp zImage (apt-get download), for KERNEL=debian; arm64's
# linux-image-arm64 Image with ARCH=arm64 (or PLATFORM=virt64).
LINUX_ARCH   ?= $(if $(filter arm64,$(ARCH)),arm64,armhf)
LINUX_DIR    := build/linux$(if $(filter arm64,$(LINUX_ARCH)),-arm64)
LINUX_ZIMAGE := $(LINUX_DIR)/vmlinuz
linux: deps
	@scripts/fetch-linux.sh $(LINUX_DIR) $(LINUX_ARCH)

# A busybox initramfs with known processes and modules of that kernel (docs/tasks.md); of
# the arm64 one with ARCH=arm64 (or PLATFORM=virt64).
INITRAMFS := build/initramfs$(if $(filter arm64,$(LINUX_ARCH)),-arm64)/initramfs.cpio.gz
initramfs: linux
	@test -s $(INITRAMFS) || /usr/bin/python3 scripts/mkinitramfs.py $(LINUX_DIR) $(INITRAMFS) \
		$(LINUX_ARCH)

# Normal-world test guests for virt (Cortex-A15): built here, run under fiqmon by tests.
VIRT_GUESTS := build/guests/virt/isolation.elf build/guests/virt/lockup.elf \
	build/guests/virt/flood.elf build/guests/virt/uartbench.elf \
	build/guests/virt/smpintegrity.elf build/guests/virt/psci.elf build/guests/virt/smpidle.elf \
	build/guests/virt/steps.elf
build/guests/virt/%.elf: tests/guests/virt/%.c tests/guests/virt/start.S tests/guests/virt/guest.ld \
		tests/guests/virt/console.h tests/guests/flood_work.h
	@mkdir -p $(@D)
	$(Q)$(CC) -mcpu=cortex-a15 -marm -mfloat-abi=soft -Os -Wall -Wextra -Werror -ffreestanding \
		-nostdlib -T tests/guests/virt/guest.ld $(filter %.c %.S,$^) -o $@
# the SMP guests: a second entry for the CPUs they start, and smpintegrity's loop
build/guests/virt/smpintegrity.elf: tests/guests/virt/smp_start.S tests/guests/virt/smpintegrity.S \
	tests/guests/integrity_mix.inc tests/guests/virt/smc.h
build/guests/virt/psci.elf: tests/guests/virt/smp_start.S tests/guests/virt/smc.h
build/guests/virt/smpidle.elf: tests/guests/virt/smp_start.S tests/guests/virt/smc.h
build/guests/virt/steps.elf: tests/guests/virt/steps_tour.S
virt-guests: $(VIRT_GUESTS)

# Normal-world test guests for virt64 (Cortex-A57, entered at EL2): tests/guests/virt64/.
# C is general-registers only (integrity's FP/SIMD state lives in its own assembly); MMU
# off, so every access must be aligned.
VIRT64_GUESTS := build/guests/virt64/hello.elf build/guests/virt64/integrity.elf \
	build/guests/virt64/smpidle.elf \
	build/guests/virt64/hostile.elf
VIRT64_GUEST_DIR := tests/guests/virt64
VIRT64_GUEST_FLAGS := -mcpu=cortex-a57 -ffreestanding -nostdlib -static -fno-pie -no-pie \
	-mstrict-align -mgeneral-regs-only -mbranch-protection=none -fno-stack-protector \
	-fno-asynchronous-unwind-tables -std=c11 -Os -g -Wall -Wextra -Werror -Wshadow \
	-Wstrict-prototypes -Wmissing-prototypes -Wl,--build-id=none -Wl,--no-warn-rwx-segments
build/guests/virt64/%.elf: $(VIRT64_GUEST_DIR)/%.c $(VIRT64_GUEST_DIR)/start.S \
		$(VIRT64_GUEST_DIR)/console.c $(VIRT64_GUEST_DIR)/guest.ld $(wildcard $(VIRT64_GUEST_DIR)/*.h)
	@mkdir -p $(@D)
	$(Q)aarch64-linux-gnu-gcc $(VIRT64_GUEST_FLAGS) -T $(VIRT64_GUEST_DIR)/guest.ld \
		$(filter %.c %.S,$^) -o $@
build/guests/virt64/integrity.elf: $(VIRT64_GUEST_DIR)/integrity.S
build/guests/virt64/hostile.elf: $(VIRT64_GUEST_DIR)/el1.S
.PHONY: virt64-guests
virt64-guests: $(VIRT64_GUESTS)

size: $(ELF)
	@scripts/size.sh $(ELF) $(SIZE) $(PLAT_DIR)/platform_def.h

# --- test guests (tests/guests/README.md) ------------------------------------------------
# make guests [GUEST_BUILD=build/guests] [GUEST_BASE=0x00200000] [GUEST_CONSOLE=0x101f2000]
# A guest is tests/guests/<name>.c and/or <name>.S plus tests/guests/common/; each becomes
# $(GUEST_BUILD)/<name>.elf and .bin. Build a variant (other base or console) into its own
# GUEST_BUILD. versatilepb only.
GUEST_BUILD   ?= build/guests
GUEST_BASE    ?= 0x00200000
GUEST_CONSOLE ?= 0x101f2000
GUEST_DIR     := tests/guests
GUEST_NAMES   := $(sort $(basename $(notdir $(wildcard $(GUEST_DIR)/*.c $(GUEST_DIR)/*.S))))
GUEST_COMMON  := $(patsubst $(GUEST_DIR)/%,$(GUEST_BUILD)/obj/%.o,\
	$(sort $(filter-out %.ld.S,$(wildcard $(GUEST_DIR)/common/*.c $(GUEST_DIR)/common/*.S))))
GUEST_CPPFLAGS := -I$(GUEST_DIR)/common -Idrivers -Iplatforms/versatilepb -Iboot \
	-DGUEST_BASE=$(GUEST_BASE) -DCONSOLE_UART_BASE=$(GUEST_CONSOLE)
GUEST_CFLAGS := -std=c11 -mcpu=arm926ej-s -marm -Os -g -ffreestanding -nostdlib -fno-common \
	-ffunction-sections -fdata-sections -fno-tree-loop-distribute-patterns \
	-fno-delete-null-pointer-checks -fno-unwind-tables -fno-asynchronous-unwind-tables \
	-Wall -Wextra -Werror -Wshadow -Wundef -Wstrict-prototypes -Wmissing-prototypes -MMD -MP
GUEST_ASFLAGS := -mcpu=arm926ej-s -marm -g -MMD -MP
GUEST_LDFLAGS := -nostdlib -Wl,--gc-sections -Wl,--fatal-warnings -Wl,--no-warn-rwx-segments

.PHONY: guests
guests: $(foreach g,$(GUEST_NAMES),$(GUEST_BUILD)/$(g).elf $(GUEST_BUILD)/$(g).bin)

$(GUEST_BUILD)/obj/%.c.o: $(GUEST_DIR)/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(GUEST_CPPFLAGS) $(GUEST_CFLAGS) -c $< -o $@

$(GUEST_BUILD)/obj/%.S.o: $(GUEST_DIR)/%.S
	@mkdir -p $(@D)
	@$(if $(Q),echo "  AS      $<")
	$(Q)$(CC) $(GUEST_CPPFLAGS) $(GUEST_ASFLAGS) -c $< -o $@

$(GUEST_BUILD)/guest.ld: $(GUEST_DIR)/common/guest.ld.S platforms/versatilepb/platform_def.h
	@mkdir -p $(@D)
	$(Q)$(CC) -E -P -x c $(GUEST_CPPFLAGS) $< -o $@

$(foreach g,$(GUEST_NAMES),$(eval $(GUEST_BUILD)/$(g).elf: $(GUEST_COMMON) $(GUEST_BUILD)/guest.ld \
	$(patsubst $(GUEST_DIR)/%,$(GUEST_BUILD)/obj/%.o,$(wildcard $(GUEST_DIR)/$(g).[cS]))))

$(GUEST_BUILD)/%.elf:
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(GUEST_CFLAGS) $(GUEST_LDFLAGS) -Wl,-Map=$(GUEST_BUILD)/$*.map \
		-T $(GUEST_BUILD)/guest.ld $(filter %.o,$^) -o $@
	$(Q)$(OBJDUMP) -d $@ > $(GUEST_BUILD)/$*.lst

$(GUEST_BUILD)/%.bin: $(GUEST_BUILD)/%.elf
	$(Q)$(OBJCOPY) -O binary $< $@

-include $(wildcard $(GUEST_BUILD)/obj/*.d $(GUEST_BUILD)/obj/common/*.d)

# KERNEL=build/guests/NAME.elf (the README's examples) builds that guest first: a fresh
# clone has none.
GUEST_FILES := $(foreach g,$(GUEST_NAMES),$(GUEST_BUILD)/$(g).elf $(GUEST_BUILD)/$(g).bin) \
	$(VIRT_GUESTS) $(VIRT64_GUESTS)
image: $(filter $(GUEST_FILES),$(KERNEL))

# --- QEMU -------------------------------------------------------------------------------
# Defaults: the debug port on this terminal (Ctrl-A x quits QEMU), the kernel console in a
# file beside the build.
DEBUG_SERIAL   ?= mon:stdio
CONSOLE_SERIAL ?= file:$(BUILD)/console.log
KERNEL         ?=
BOOT           ?=
QEMU_EXTRA     ?=
QEMU_COMMON := -nographic -nic none -monitor none -audiodev none,id=snd0
QEMU_CMD = $(QEMU_SYSTEM) $(QEMU_MACHINE) $(QEMU_COMMON) $(QEMU_SERIALS) $(QEMU_LOAD) $(QEMU_EXTRA)

KERNEL_PREREQ = $(if $(PLAT_RUN_PREREQ),$(PLAT_RUN_PREREQ),$(if $(filter debian,$(KERNEL)),linux,$(if $(KERNEL),image)))
run: deps-run all $(KERNEL_PREREQ)
	@echo "fiqmon on $(PLATFORM): debug port $(DEBUG_SERIAL), kernel console $(CONSOLE_SERIAL)" >&2
	@echo "knock with \$$3#33; Ctrl-A x quits QEMU" >&2
	exec $(QEMU_CMD)

debug: deps-run all $(KERNEL_PREREQ)
	$(QEMU_CMD) -s -S & \
	gdb-multiarch -q $(ELF) -ex 'target remote 127.0.0.1:1234'; kill %1

# --- tests ------------------------------------------------------------------------------
HOST_CC     ?= gcc
UNIT_BUILD  := build/unit
UNIT_CFLAGS := -std=c11 -g -O1 -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter \
	-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
	$(MONITOR_INCLUDES) -Iplatforms -Iplatforms/common -Itests/unit -Ihyp -Ivdev
UNIT_TESTS  := $(patsubst tests/unit/%.c,$(UNIT_BUILD)/%,\
	$(filter-out %_a64.c,$(sort $(wildcard tests/unit/test_*.c))))
# (the fake port has CPUs of its own: the every-core calls, several CPUs)
UNIT_SUPPORT := $(filter-out tests/unit/test_%.c,$(wildcard tests/unit/*.c))
# the Hyp shim's portable parts (hyp/README: the rest is entry code)
UNIT_HYP := $(filter-out hyp/hyp_main.c,$(wildcard hyp/*.c)) $(wildcard vdev/*.c) \
	platforms/common/aarch64_el3_trap.c
# the host tests run monitor/ with its texts packed as on the target (the real expander)
UNIT_PACKED := $(addprefix $(UNIT_BUILD)/packed/,$(MONITOR_ALL_SOURCES)) $(UNIT_BUILD)/packed/text_tokens.c
$(eval $(call source_list,$(UNIT_BUILD)/packed.list,$(MONITOR_ALL_SOURCES)))
$(UNIT_BUILD)/packed/.stamp: $(MONITOR_ALL_SOURCES) scripts/strpack.py $(UNIT_BUILD)/packed.list
	@mkdir -p $(@D)
	$(Q)$(PACK) $(@D) $(MONITOR_ALL_SOURCES)
	@touch $@
$(UNIT_PACKED): $(UNIT_BUILD)/packed/.stamp ;

# what every unit test links: compiled once (not once per test program)
UNIT_HEADERS := $(wildcard monitor/*.h monitor/*/*.h tests/unit/*.h hyp/*.h vdev/*.h platforms/*.h)
UNIT_OBJS := $(patsubst %.c,$(UNIT_BUILD)/obj/%.o,$(patsubst $(UNIT_BUILD)/%,%,$(UNIT_PACKED)) \
	$(UNIT_SUPPORT) $(UNIT_HYP))
$(UNIT_BUILD)/obj/packed/%.o: $(UNIT_BUILD)/packed/%.c $(UNIT_HEADERS)
	@mkdir -p $(@D)
	$(Q)$(HOST_CC) $(UNIT_CFLAGS) -c $< -o $@
$(UNIT_BUILD)/obj/%.o: %.c $(UNIT_HEADERS)
	@mkdir -p $(@D)
	$(Q)$(HOST_CC) $(UNIT_CFLAGS) -c $< -o $@

# (pattern-built objects would otherwise be deleted as intermediates after each link)
.SECONDARY: $(UNIT_OBJS)
$(UNIT_BUILD)/test_%: tests/unit/test_%.c $(UNIT_OBJS) $(UNIT_HEADERS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOST_CC) $(UNIT_CFLAGS) $< $(UNIT_OBJS) -lcmocka -o $@

# A second build of monitor/ as AArch64 compiles it (FIQMON_AARCH64=1: its frame, 64-bit
# target addresses, *_a64.c instead of the AArch32-only files) with virt64's options (no
# debug unit, watchdog or shared console), and the fake port built the same way, for
# tests/unit/test_*_a64.c: what differs between the architectures (the GDB stub's
# registers and addresses).
UNIT64_DEFS    := -DFIQMON_AARCH64=1 -DFIQMON_BREAKPOINTS=0 -DFIQMON_WATCHDOG=0 \
	-DFIQMON_CONSOLE_SHARED=0
UNIT64_SOURCES := $(filter-out $(MONITOR_AARCH32_ONLY) $(FEATURE_SOURCES_BREAKPOINTS) \
	$(FEATURE_SOURCES_WATCHDOG),$(MONITOR_ALL_SOURCES))
UNIT64_OBJS    := $(patsubst %.c,$(UNIT_BUILD)/obj64/%.o,$(addprefix packed/,$(UNIT64_SOURCES)) \
	packed/text_tokens.c tests/unit/fake_port.c tests/unit/expect.c tests/unit/gdb_packets.c)
UNIT64_TESTS   := $(patsubst tests/unit/%.c,$(UNIT_BUILD)/%,$(sort $(wildcard tests/unit/test_*_a64.c)))
$(UNIT_BUILD)/obj64/packed/%.o: $(UNIT_BUILD)/packed/%.c $(UNIT_HEADERS)
	@mkdir -p $(@D)
	$(Q)$(HOST_CC) $(UNIT_CFLAGS) $(UNIT64_DEFS) -c $< -o $@
$(UNIT_BUILD)/obj64/%.o: %.c $(UNIT_HEADERS)
	@mkdir -p $(@D)
	$(Q)$(HOST_CC) $(UNIT_CFLAGS) $(UNIT64_DEFS) -c $< -o $@
.SECONDARY: $(UNIT64_OBJS)
$(UNIT_BUILD)/test_%_a64: tests/unit/test_%_a64.c $(UNIT64_OBJS) $(UNIT_HEADERS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOST_CC) $(UNIT_CFLAGS) $(UNIT64_DEFS) $< $(UNIT64_OBJS) -lcmocka -o $@

unit: deps $(UNIT_TESTS) $(UNIT64_TESTS)
	@scripts/run-unit-tests.sh $(UNIT_TESTS) $(UNIT64_TESTS)

# libFuzzer harnesses: each tests/fuzz/fuzz_NAME.c becomes build/fuzz/fuzz_NAME, linked with
# the other tests/fuzz/*.c, the unit tests' fake port and monitor/. Harnesses run parsers
# outside monitor_fiq_full(), so monitor_frame() is wrapped (tests/fuzz/support.h).
# `make fuzz [FUZZ_SECONDS=60]` runs each that long; fuzz-smoke runs them all in 10 s.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_BUILD   := build/fuzz
# (no -Werror: clang warns where the target's gcc does not; the unit and target builds gate)
FUZZ_CFLAGS  := -std=c11 -g -O1 -Wall -Wextra -Wshadow -Wno-unused-parameter \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
	$(MONITOR_INCLUDES) -Iplatforms -Itests/unit -Itests/fuzz
FUZZ_LDFLAGS := -Wl,--wrap=monitor_frame -lcmocka
FUZZ_HARNESSES := $(patsubst tests/fuzz/%.c,$(FUZZ_BUILD)/%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_SUPPORT   := $(filter-out tests/fuzz/fuzz_%.c,$(wildcard tests/fuzz/*.c)) tests/unit/fake_port.c \
	tests/unit/kernel_fixture.c tests/unit/task_fixture.c tests/unit/btf_fixture.c

# monitor/ and the support compiled once for every harness (instrumented, not linked with
# libFuzzer's main: -fsanitize=fuzzer-no-link)
FUZZ_HEADERS := $(wildcard monitor/*.h monitor/*/*.h tests/fuzz/*.h tests/unit/*.h platforms/*.h)
FUZZ_OBJ_CFLAGS := $(subst -fsanitize=fuzzer$(comma),-fsanitize=fuzzer-no-link$(comma),$(FUZZ_CFLAGS))
FUZZ_OBJS := $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(patsubst $(UNIT_BUILD)/%,%,$(UNIT_PACKED)) \
	$(FUZZ_SUPPORT))
$(FUZZ_BUILD)/obj/packed/%.o: $(UNIT_BUILD)/packed/%.c $(FUZZ_HEADERS)
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_OBJ_CFLAGS) -c $< -o $@
$(FUZZ_BUILD)/obj/%.o: %.c $(FUZZ_HEADERS)
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_OBJ_CFLAGS) -c $< -o $@

.SECONDARY: $(FUZZ_OBJS)
$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJS) $(FUZZ_HEADERS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZCC  $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $< $(FUZZ_OBJS) $(FUZZ_LDFLAGS) -o $@

.PHONY: fuzz fuzz-smoke
fuzz: deps $(FUZZ_HARNESSES)
	@scripts/run-fuzz.sh $(FUZZ_SECONDS) $(FUZZ_HARNESSES)

fuzz-smoke: deps $(FUZZ_HARNESSES)
	@scripts/run-fuzz.sh --total 10 $(FUZZ_HARNESSES)

# The suite runs on every core (pytest-xdist, whole modules per worker: a module's shared
# kernel boot stays one boot). What the workers only read is built first, here, once.
PYTEST_JOBS ?= $(shell nproc)
qemu-test: deps all guests virt-guests virt64-guests kernels
	/usr/bin/python3 -m pytest -q -n $(PYTEST_JOBS) --dist loadscope --durations=15 tests/qemu \
		$(PYTEST_ARGS)

# What fiqmon costs, in instructions and bytes (docs/benchmarks.md); `make test` runs a
# quick variant so the bench code cannot rot.
bench: deps
	/usr/bin/python3 scripts/bench.py --json build/bench.json

bench-quick: deps linux guests virt-guests virt64-guests
	/usr/bin/python3 scripts/bench.py --quick --json build/bench-quick.json

# No include or call cycle between the sub-areas of monitor/ (docs/architecture.md).
layers: deps
	@/usr/bin/python3 scripts/check-layers.py $(MONITOR_INCLUDES) -Iplatforms -Itests/unit

# Both Debian kernels and their initramfs (the armhf one first, in this make: apt-get
# runs one at a time).
.PHONY: kernels
kernels: initramfs
	@$(MAKE) -s --no-print-directory initramfs ARCH=arm64

# The kernels download while the host tests, the bench and the QEMU suite's own builds
# run (none needs another's output but the bench's guests and kernel, built first); the
# QEMU suite then has both cores to itself.
test: deps
	$(MAKE) layers
	$(MAKE) -j$(shell nproc) unit fuzz-smoke bench-quick kernels all guests virt-guests \
		virt64-guests
	$(MAKE) qemu-test

deps:
	@scripts/ensure-deps.sh all

deps-run:
	@scripts/ensure-deps.sh run

clean:
	rm -rf build

FORCE:

-include $(OBJECTS:.o=.d)
ifeq ($(HYP),1)
include hyp/hyp.mk
endif
