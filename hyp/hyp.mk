# SPDX-License-Identifier: MIT
# The Hyp shim (HYP=1): its own small image, linked at the platform's HYP_BASE and carried
# inside fiqmon (platforms/<name>/hyp_blob.S). Included by the Makefile.
HYP_BUILD   := $(BUILD)/hyp
HYP_BLOB    := $(HYP_BUILD)/hyp.bin
HYP_OBJS    := $(HYP_BUILD)/hyp_entry.o $(HYP_BUILD)/hyp_main.o $(HYP_BUILD)/hyp_trap.o
# ARM state; no unaligned accesses: Hyp runs with its MMU off (Strongly-ordered memory)
HYP_CFLAGS  := $(PLAT_CPU_FLAGS) -marm -mno-unaligned-access -Os -g -std=c11 -ffreestanding \
	-fno-common -ffunction-sections -fdata-sections -fno-unwind-tables \
	-fno-asynchronous-unwind-tables -Wall -Wextra -Werror -Wshadow -Wundef \
	-Wstrict-prototypes -Wmissing-prototypes -Ihyp -I$(PLAT_DIR) -MMD -MP

$(HYP_BUILD)/%.o: hyp/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $< (hyp)")
	$(Q)$(CC) $(HYP_CFLAGS) -c $< -o $@

$(HYP_BUILD)/%.o: hyp/%.S
	@mkdir -p $(@D)
	@$(if $(Q),echo "  AS      $< (hyp)")
	$(Q)$(CC) $(HYP_CFLAGS) -c $< -o $@

$(HYP_BUILD)/hyp.ld: hyp/hyp.ld.S hyp/hyp_abi.h $(PLAT_DIR)/platform_def.h
	@mkdir -p $(@D)
	$(Q)$(CC) -E -P -x c -Ihyp -I$(PLAT_DIR) $< -o $@

$(HYP_BUILD)/hyp.elf: $(HYP_OBJS) $(HYP_BUILD)/hyp.ld
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(HYP_CFLAGS) -nostdlib -Wl,--gc-sections -Wl,--fatal-warnings \
		-Wl,--no-warn-rwx-segments -Wl,-Map=$(HYP_BUILD)/hyp.map -T $(HYP_BUILD)/hyp.ld \
		$(HYP_OBJS) -lgcc -o $@
	$(Q)$(OBJDUMP) -d $@ > $(HYP_BUILD)/hyp.lst

$(HYP_BLOB): $(HYP_BUILD)/hyp.elf
	$(Q)$(OBJCOPY) -O binary $< $@

$(BUILD)/obj/$(PLAT_DIR)/hyp_blob.S.o: $(HYP_BLOB)
$(BUILD)/obj/$(PLAT_DIR)/hyp_blob.S.o: ASFLAGS += -DHYP_BLOB='"$(HYP_BLOB)"'

-include $(HYP_OBJS:.o=.d)
