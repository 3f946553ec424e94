/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Helpers of the synthesizer's unit tests (test_synth*.c): intents, a
 * port class, and a fixed-seed random source. */
#ifndef OSMQOS_TEST_SYNTH_UTIL_H
#define OSMQOS_TEST_SYNTH_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <osmqos/synth.h>

void intents_set(struct oq_sl_intents *it, unsigned int sl, uint32_t bp,
		 bool high);
void port_init(struct oq_synth_port *in, unsigned int vls, unsigned int cap,
	       uint32_t mtu);

/* xorshift64, one stream per test program: runs are reproducible (the
 * state is synth_rng). */
extern uint64_t synth_rng;
uint32_t rnd(uint32_t n);

#endif /* OSMQOS_TEST_SYNTH_UTIL_H */
