/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The CLI's options, declared once.  Each subcommand describes itself in
 * a struct oq_cmd_spec: its options in a table of struct oq_opt, the ones
 * several subcommands take by reference to their one definition
 * (OQ_USE), its own ones in place.  oq_cli_parse() parses argv and
 * oq_cli_usage() writes --help from that table alone, so every subcommand
 * has the same letters, the same -h/--help and -V/--version, the same
 * rules (a repeated option, '-' for standard input, SL ranges) and the
 * same error messages.  rdma-core's ibdiag_process_opts() is the model:
 * common options defined once, each tool adding its own.
 *
 * A value goes into the subcommand's options struct at the entry's
 * offset; that struct starts with a struct oq_cli_common, which holds the
 * values of the shared options (OQ_OPTS_STRUCT checks it).
 */
#ifndef OSMQOS_CLI_OPTS_H
#define OSMQOS_CLI_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* How an option's argument is read, and what its value is. */
enum oq_opt_kind {
	OQ_OPT_FLAG,   /* no argument; bool true.  May be repeated. */
	OQ_OPT_TEXT,   /* const char *, as given */
	OQ_OPT_INPUT,  /* const char *: a file to read, "-" standard input */
	OQ_OPT_OUTPUT, /* const char *: a file to write */
	OQ_OPT_PORT,   /* const char *: a port of the fabric, oq_cli_port() */
	OQ_OPT_PAIR,   /* const char *[2]: the argument and the next one */
	OQ_OPT_NUM,    /* struct oq_num: decimal or 0x, within min..max */
	OQ_OPT_SLS,    /* struct oq_mask: SLs 0-15 and ranges, "0-3,7" */
	OQ_OPT_VLS,    /* struct oq_mask: data VLs 0-14, the same syntax */
	OQ_OPT_WORD,   /* int: the index of the argument in words[] */
	OQ_OPT_CUSTOM, /* the entry's parse() reads it */
};

struct oq_num {
	unsigned long long v;
	bool given;
};

struct oq_mask {
	uint16_t bits;
	bool given;
};

/* Entry flags. */
#define OQ_OPT_REQUIRED 0x1u /* the subcommand cannot run without it */
#define OQ_OPT_REPEATABLE                                                      \
	0x2u /* may be given again (CUSTOM only; each                          \
	      * occurrence goes to parse()); any other                         \
	      * option given twice is an error */

/* The options several subcommands take, each defined once (cli_opts.c). */
enum oq_common_opt {
	OQ_CO_NONE,
	OQ_CO_POLICY,	   /* -p, --policy FILE */
	OQ_CO_FABRIC,	   /* -f, --fabric TOPO */
	OQ_CO_PARTITIONS,  /* -k, --partitions FILE */
	OQ_CO_OPENSM_CONF, /* -c, --opensm-conf FILE */
	OQ_CO_PORT,	   /* --port PORT: ports of the fabric */
	OQ_CO_JSON,	   /* -j, --json */
	OQ_CO_SID,	   /* --sid N */
	OQ_CO_QOS_CLASS,   /* -Q, --qos-class N */
	OQ_CO_PKEY,	   /* --pkey N */
	OQ_CO_SL,	   /* --sl N */
	OQ_CO_MTU_BYTES,   /* -M, --mtu BYTES */
	OQ_CO_PROFILE,	   /* --profile iba|cx2-2k */
	OQ_CO_SVG,	   /* --svg FILE */
	OQ_CO_CA,	   /* -C, --ca NAME */
	OQ_CO_CA_PORT,	   /* -P, --ca-port N */
	OQ_CO_TIMEOUT,	   /* -t, --timeout MS */
	OQ_CO_NODE_NAME_MAP, /* --node-name-map FILE */
	OQ_CO_PUBLISH_DIR, /* -d, --publish-dir DIR */
	OQ_CO_ALL,	   /* --all: every item, not a summary */
	OQ_CO_COUNT
};

/* The values of the shared options: the first member of every
 * subcommand's options struct. */
struct oq_cli_common {
	const char *policy, *fabric, *partitions, *opensm_conf;
	const char *port;
	bool json;
	struct oq_num sid, qos_class, pkey, sl, mtu;
	int profile; /* enum oq_profile */
	const char *svg;
	const char *ca;
	struct oq_num ca_port, timeout;
	const char *node_name_map;
	const char *publish_dir;
	bool all;
	/* Set by the caller before parsing: a partitions file opensm.conf
	 * names that does not exist is the command's own diagnostic (check
	 * counts its warnings), not a warning the parser prints. */
	bool partitions_own_warning;
	/* Set by the parser: opensm.conf's partitions file (the path), which
	 * does not exist, so OpenSM has only its Default partition; news
	 * when it is not OpenSM's default path (a warning). */
	const char *absent_partitions;
	bool absent_partitions_news;
};

/* Make sure a subcommand's options struct starts with the common part. */
#define OQ_OPTS_STRUCT(type)                                                   \
	_Static_assert(offsetof(type, c) == 0,                                 \
		       #type " must start with struct oq_cli_common c")

struct oq_opt;
/* A CUSTOM option's reader: value points at the entry's offset.  Returns
 * 0, or an exit status after printing the error (oq_usage_error). */
typedef int (*oq_opt_parse_fn)(void *value, const char *arg,
			       const struct oq_opt *o);

/*
 * One entry of a subcommand's table: an option (name), a shared option
 * used here (common, with flags and, if help is set, this subcommand's
 * words for it), a heading in the help (only help), or the end (all 0).
 */
struct oq_opt {
	const char *name; /* long name without "--" */
	int letter;	  /* short option, 0 for none */
	enum oq_opt_kind kind;
	const char *arg;  /* the argument in the help: "FILE" */
	const char *help; /* one paragraph, wrapped by the help writer */
	size_t off;	  /* value's offset in the options struct */
	unsigned long long min, max; /* NUM */
	const char *const *words;    /* WORD, NULL-terminated */
	oq_opt_parse_fn parse;	     /* CUSTOM */
	unsigned int flags;
	enum oq_common_opt common;
	const char *alias; /* more long names for it, "a,b" (not listed) */
};

/* A subcommand's own option: long name, letter (0: none), kind, argument
 * name, help and offset, then any other field (.min, .max, .parse, ...). */
#define OQ_OPT(nm, let, k, a, h, o, ...)                                       \
	{                                                                      \
		.name = (nm), .letter = (let), .kind = (k), .arg = (a),        \
		.help = (h), .off = (o), __VA_ARGS__                           \
	}
/* A shared option; with flags; with this subcommand's help for it. */
#define OQ_USE(id)                                                             \
	{                                                                      \
		.common = (id)                                                 \
	}
#define OQ_USE_F(id, fl)                                                       \
	{                                                                      \
		.common = (id), .flags = (fl)                                  \
	}
#define OQ_USE_H(id, fl, text)                                                 \
	{                                                                      \
		.common = (id), .flags = (fl), .help = (text)                  \
	}
/* A heading in the option list; the end of the table. */
#define OQ_HEADING(text)                                                       \
	{                                                                      \
		.help = (text)                                                 \
	}
#define OQ_OPT_END                                                             \
	{                                                                      \
		.name = NULL                                                   \
	}

/* A subcommand as `osmqos --help`, its --help and its parser see it. */
struct oq_cmd_spec {
	const char *name;
	const char *summary; /* one line for `osmqos --help` */
	const char *about;   /* what it does, after the usage lines */
	/* Usage lines after the generated one, each after "osmqos NAME ". */
	const char *const *forms;
	/* One operand (check's POLICY): its name and where it goes (the
	 * offset of the option it stands for, if any). */
	const char *operand;
	size_t operand_off;
	const struct oq_opt *opts;
	const char *notes;	 /* after the options */
	/* What its output file holds and the suffix of a name beside the
	 * input ("the stock copy", "stock": qos-policy.stock.conf), for
	 * the refusal of an output that is one of its inputs. */
	const char *output_what, *output_suffix;
	const char *exit_status; /* "0 ok, 1 invalid policy, ..." */
	int (*run)(int argc, char **argv);
};

/* oq_cli_parse(): the options are read, run the subcommand. */
#define OQ_CLI_RUN (-1)

/*
 * Parse argv (argv[0] is the subcommand) into opts, the subcommand's
 * options struct, which the caller has zeroed and given its defaults.
 * -h/--help and -V/--version print and return OQ_EXIT_OK; an error is
 * printed with what to do next and returns OQ_EXIT_USAGE.  Otherwise
 * returns OQ_CLI_RUN.
 */
int oq_cli_parse(const struct oq_cmd_spec *s, int argc, char **argv,
		 void *opts);

/* The subcommand's --help, generated from its table. */
void oq_cli_usage(const struct oq_cmd_spec *s, FILE *out);
/* The version line of --version and -V (every subcommand's too): osmqos's
 * version and the OpenSM release it models. */
void oq_cli_version(FILE *out);

/* The shared option id's definition (tests, the man page check). */
const struct oq_opt *oq_cli_common_opt(enum oq_common_opt id);

/*
 * A list of numbers 0..max and LO-HI ranges, "0-3,7", read as the policy
 * language reads its ranges (decimal or 0x hex, blanks around '-', HI-LO
 * swapped), into a bit mask.  0, or -1 with the offending item copied to
 * bad (empty when the list is).
 */
int oq_cli_parse_list(const char *s, unsigned int max, uint16_t *bits,
		      char *bad, size_t badlen);

/*
 * The local-port options given (-C/--ca, -P/--ca-port, -t/--timeout), in
 * words for an error ("-C/--ca and -t/--timeout") into buf; how many.
 * A command that reads its fabric from a file, or asks nothing, refuses
 * them rather than ignore them.
 */
int oq_cli_local_port_opts(const struct oq_cli_common *c, char *buf,
			   size_t len);

#endif /* OSMQOS_CLI_OPTS_H */
