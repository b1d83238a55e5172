# SPDX-License-Identifier: MIT
# QEMU versatilepb: ARM926EJ-S, PL190 VIC, PL011 UARTs. No TrustZone.

# Debug port: 0, 1 or 2 (UART0 is QEMU's first -serial).
DEBUG_UART ?= 0

PLAT_ARCH      := armv5
PLAT_CPU_FLAGS := -mcpu=arm926ej-s -mfloat-abi=soft
BOOT_DELAY_MS ?= 1000
PLAT_DEFINES   := -DDEBUG_UART=$(DEBUG_UART) -DBOOT_DELAY_MS=$(BOOT_DELAY_MS)
PLAT_SOURCES   := platforms/common/cpus_single.c platforms/common/debug_none.c \
	drivers/pl011.c \
	drivers/pl190_vic.c \
	drivers/versatile_sysctl.c \
	drivers/sp804.c \
	platforms/common/port_mem_physical.c \
	platforms/common/build_id.c \
	platforms/common/platform_common.c \
	platforms/common/armv5_monitor_window.c \
	platforms/common/pl011_debug_port.c \
	$(if $(filter ring,$(CONSOLE)),platforms/versatilepb/console_ring.c,platforms/common/console_none.c) \
	platforms/versatilepb/platform.c \
	platforms/versatilepb/fiq.c \
	platforms/versatilepb/fiq_noise.S

# CONSOLE=ring: a cooperating kernel's console on the debug wire (console_ring.c)
PLAT_HAS_CONSOLE_RING := 1

PLAT_ARM_SOURCES := \
	platforms/common/armv5_monitor_window.c

QEMU_SYSTEM  := qemu-system-arm
QEMU_MACHINE := -M versatilepb -cpu arm926 -m 128M -global pl041.audiodev=snd0

# QEMU numbers -serial options UART0, UART1, UART2; the debug port takes its UART's slot
# and the kernel console the first other one.
ifeq ($(DEBUG_UART),0)
QEMU_SERIALS = -serial $(DEBUG_SERIAL) -serial $(CONSOLE_SERIAL)
else ifeq ($(DEBUG_UART),1)
QEMU_SERIALS = -serial $(CONSOLE_SERIAL) -serial $(DEBUG_SERIAL)
else ifeq ($(DEBUG_UART),2)
QEMU_SERIALS = -serial $(CONSOLE_SERIAL) -serial null -serial $(DEBUG_SERIAL)
else
$(error DEBUG_UART must be 0, 1 or 2)
endif

# Where `make image` loads a raw Linux image (zImage relocates itself as needed).
KERNEL_LOAD_ADDR := 0x01000000

# fiqmon alone: QEMU's ELF loader. With KERNEL=: the combined image, as flash would hold it,
# placed at LOAD_ADDR, with the CPU started there.
QEMU_LOAD = $(if $(KERNEL),-device loader$(comma)file=$(IMAGE)$(comma)addr=$(LOAD_ADDR)$(comma)force-raw=on \
	-device loader$(comma)addr=$(LOAD_ADDR)$(comma)cpu-num=0,-kernel $(ELF))
