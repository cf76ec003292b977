/*
 * dmi: the memory's speed from the firmware's SMBIOS tables as the kernel
 * exports them (ROOT/sys/firmware/dmi/entries/17-N/raw: one Memory Device
 * structure, type 17, each; root-readable), so that bandwidth is shown as
 * a share of the channels' peak without --dram-mts.  SMBIOS 3.x (DSP0134)
 * type 17: Size at offset 0Ch (0: no module in the slot), Speed at 15h and
 * Configured Memory Speed at 20h (MT/s; 0 unknown, FFFFh: the value is the
 * Extended Speed / Extended Configured Memory Speed DWORD at 54h / 58h).
 * Any thread.
 */
#ifndef PMUTOP_DMI_H
#define PMUTOP_DMI_H

#include <stddef.h>

/*
 * The slowest populated module's configured speed (else its rated speed),
 * MT/s, under ROOT (NULL or "/": this machine); 0 when no table says, with
 * why in WHY (unreadable without root, no type-17 entry, no speed given).
 */
unsigned dmi_dram_mts(const char *root, char *why, size_t len);

#endif
