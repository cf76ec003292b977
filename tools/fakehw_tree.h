/*
 * fakehw_tree: the static files of a fake machine's root; see fakehw_tree.c.
 */
#ifndef PMUTOP_FAKEHW_TREE_H
#define PMUTOP_FAKEHW_TREE_H

#include <stdbool.h>
#include <stdint.h>

struct emu;

/* Every directory of PATH, as mkdir -p. */
void fakehw_mkdirs(const char *path);

/*
 * The static tree of E's machine under ROOT; LOCKDOWN: the kernel says
 * [integrity]; MSR_SAFE_VERSION: msr-safe's module version file, NULL for none.
 */
void fakehw_tree(const char *root, struct emu *e, bool lockdown, const char *msr_safe_version);

/* --model: the family and model the tree says, in cpuid leaf 1 and cpuinfo (0: the machine's) */
extern unsigned fakehw_family, fakehw_model;
/* cpuid leaf 1's EAX (the machine's) saying --model's family and model, its stepping kept */
uint32_t fakehw_leaf1(uint32_t eax);

#endif
