/* SPDX-License-Identifier: MIT */
#ifndef FIQMON_AARCH64_EL3_FEATURES_H
#define FIQMON_AARCH64_EL3_FEATURES_H

/* At boot, on each CPU: let the lower ELs use what this CPU implements (pointer
 * authentication, MTE, SVE, SME, fine-grained traps, ...) instead of trapping it to EL3. */
void aarch64_el3_enable_features(void);

#endif
