/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * UTF-8 validation for the plugin's text outputs (the audit trail's JSON,
 * the published JSON and Prometheus labels), which all replace invalid
 * bytes of a NodeDescription or a policy name.  Header-only: the audit
 * formatter is also built alone into its unit test and fuzzer.
 */
#ifndef OSMQOS_PLUGIN_UTF8_H
#define OSMQOS_PLUGIN_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * Length of the valid UTF-8 sequence starting at s (at most n bytes), or 0
 * when it is invalid: a stray continuation byte, a cut sequence, an
 * overlong form, a surrogate, or a code point above U+10FFFF.
 */
static inline size_t oq_utf8_seq(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

#endif /* OSMQOS_PLUGIN_UTF8_H */
