/* SPDX-License-Identifier: MIT */
/* This build's features, for monitor_init() (boot/main.c and the host tests). */
#ifndef FIQMON_FIQMON_FEATURES_H
#define FIQMON_FIQMON_FEATURES_H

#include "monitor_features.h"

extern const struct monitor_features fiqmon_features;

#endif
