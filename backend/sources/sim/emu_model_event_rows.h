/*
 * emu_model_event_rows: the cores a row of the event table is for (bit
 * 1 << enum emu_ports of each), by name.  For the two files of rows only.
 */
#ifndef PMUTOP_EMU_MODEL_EVENT_ROWS_H
#define PMUTOP_EMU_MODEL_EVENT_ROWS_H

#include "emu_model_events_int.h"

#define SNC (1u << EMU_PORTS_SUNNY_COVE)  /* Ice Lake, Tiger Lake */
#define GLC_ (1u << EMU_PORTS_GOLDEN_COVE) /* Sapphire and Granite Rapids, Alder Lake's P-cores */
#define LNC (1u << EMU_PORTS_LION_COVE)   /* Lunar and Arrow Lake's P-cores */
#define SKL (1u << EMU_PORTS_SKYLAKE)     /* Skylake client and server (with emu_model_skl.c) */
#define ZEN (1u << EMU_PORTS_ZEN)         /* AMD Zen 2 to 5 (with emu_model_amd.c) */
/* Golden Cove's encodings, Lion Cove's the same where its data has the event */
#define GLC (GLC_ | LNC)
#define GRM (1u << EMU_PORTS_GRACEMONT) /* Alder Lake's E-cores */
#define SKM (1u << EMU_PORTS_SKYMONT)   /* Lunar and Arrow Lake's E-cores */
#define ATOM (GRM | SKM)
#define SRV EMU_EV_SERVERS_ONLY /* only the servers' cores (AMX, FP16) */
#define GLC_SRV (GLC_ | SRV)

#endif
