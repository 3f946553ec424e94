// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* A command's output (cmd_output.h). */
#include <stdio.h>
#include <stdlib.h>

#include "cmd_output.h"

char *fx_cmd_output(const char *cmd, size_t *len)
{
	char *buf = NULL, *b;
	size_t cap = 0, n;
	FILE *p = popen(cmd, "r");

	if (!p)
		return NULL;
	*len = 0;
	do {
		if (*len == cap) {
			cap = cap ? cap * 2 : 1 << 20;
			b = realloc(buf, cap + 1);
			if (!b) {
				free(buf);
				pclose(p);
				return NULL;
			}
			buf = b;
		}
		n = fread(buf + *len, 1, cap - *len, p);
		*len += n;
	} while (n > 0);
	if (pclose(p)) {
		free(buf);
		return NULL;
	}
	buf[*len] = '\0';
	return buf;
}
