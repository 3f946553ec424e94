/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * OpenSM's node-name map (node_name_map_name in opensm.conf, the
 * --node-name-map file of ibnetdiscover and its friends; node-name-map(5)):
 * lines "GUID "name"", comments after '#'.  OpenSM names every node by it:
 * a node's print_desc is the map's name for its node GUID, else its
 * NodeDescription made printable.  The QoS policy's port-name matches
 * print_desc, so the CLI reads the same map the same way (the plugin takes
 * print_desc from OpenSM itself).
 *
 * The reader does what complib's parse_node_map does, quirks included:
 * lines are read in pieces of 255 bytes, the GUID is strtoull(, 0) and
 * must end at a blank, '#' or the end, the name is the first run of the
 * rest without '"' or '#' (an unquoted name keeps its trailing blanks and
 * a CR; a '#' or a NUL byte ends even a quoted one), the first of two
 * lines for one GUID wins, and one malformed line makes OpenSM ignore the
 * whole map.
 */
#ifndef OSMQOS_NODE_NAME_MAP_H
#define OSMQOS_NODE_NAME_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/diag.h>
#include <osmqos/fabric.h>

#ifdef __cplusplus
extern "C" {
#endif

/* complib reads the map with fgets into a buffer of this size. */
#define OQ_NODE_NAME_MAP_LINE 256

struct oq_node_name_map;

/*
 * Parse a map's text (file names it in diagnostics).  Returns the map, or
 * NULL after an error (a line OpenSM cannot parse: it then ignores the
 * whole map) or when out of memory (*oom set).  Quirks OpenSM keeps
 * silently are warnings.
 */
struct oq_node_name_map *oq_node_name_map_parse(const char *file,
						const char *text, size_t len,
						struct oq_diags *diags,
						int *oom);
void oq_node_name_map_free(struct oq_node_name_map *m);

/* The map's name for a node GUID, or NULL. */
const char *oq_node_name_map_get(const struct oq_node_name_map *m,
				 uint64_t guid);
size_t oq_node_name_map_size(const struct oq_node_name_map *m);

/*
 * Name every node of a finalized fabric as OpenSM does: the map's name
 * for its GUID (m may be NULL), else its NodeDescription with bytes that
 * are not printable ASCII as blanks, cut to 63 bytes.  The name index is
 * rebuilt.  0, or -1 when out of memory.
 */
int oq_fabric_apply_node_names(struct oq_fabric *f,
			       const struct oq_node_name_map *m);

/*
 * The node a name lookup missed because a node-name map renamed it: the
 * first whose printable NodeDescription is the len bytes at text (with
 * host, also whose description's first word is), and whose name is
 * another.  The map's name wins, as in OpenSM, so this only explains a
 * miss.  NULL when no renamed node has that description.
 */
struct oq_node *oq_fabric_node_renamed(const struct oq_fabric *f,
				       const char *text, size_t len, bool host);

#ifdef __cplusplus
}
#endif
#endif /* OSMQOS_NODE_NAME_MAP_H */
