#!/bin/sh
# The emulated kernels' PMUs as Linux's drivers write them (issue 45.3),
# and pmutop counting against them.  Every expected value here is read from
# the driver named beside it (Linux 6.12 unless said; the file and the
# table or line), not from pmutop's encodings:
#   uncore_snbep.c: DEFINE_UNCORE_FORMAT_ATTR, the *_formats_attr lists,
#     spr_uncore_imc_events, gnr_uncore_imc_events (6a8a48644c4b),
#     icx_uncore_imc_freerunning_events, spr_uncore_imc_freerunning_events,
#     spr_uncore_mmio_init (imc_free_running boxes: the imc boxes / 2)
#   uncore_snb.c: adl_uncore_formats_attr, adl_uncore_imc_formats_attr,
#     tgl_uncore_imc_events, tgl/adl_uncore_imc_free_running (2 boxes),
#     adl_uncore_arb (2 boxes), snb_uncore_arb (1), icl_uncore_clockbox
#   rapl.c: model_spr (PKG, RAM, PSYS), RAPL_EVENT_ATTR_STR energy-psys 05H
#   amd/uncore.c: amd_uncore_l3_ctx_init (event8, threadmask2 from 19h)
# Linux names a type's PMU uncore_NAME, or uncore_NAME_N with more than one box.
. "$top_srcdir/tests/lib.sh"
plan 24

pmus() { run "$PMUTOP" --sim "$1" --list-pmus; }

pmus sapphire-rapids
expect_match "SPR uncore_cha: tid_en at config:16 (tid_en2), filter_tid config1:0-9 (filter_tid5)" \
	"$out" "format: edge=config:18 event=config:0-7 filter_tid=config1:0-9 inv=config:23 thresh=config:24-31 tid_en=config:16 umask=config:8-15,32-63"
expect_match "SPR uncore_imc: spr_uncore_raw_formats_attr's umask_ext4 (config:8-15,32-55)" \
	"$out" "format: edge=config:18 event=config:0-7 inv=config:23 thresh=config:24-31 umask=config:8-15,32-55
  event cas_count_read = event=0x05,umask=0xcf (x 6.103515625e-05 MiB)"
expect_match "SPR uncore_imc: clockticks is event=0x01,umask=0x00" "$out" \
	"event clockticks = event=0x01,umask=0x00"
expect_match "SPR: four uncore_imc_free_running boxes (8 channels / 2) of dclk and the queues' cycles" \
	"$out" "uncore_imc_free_running: boxes 0-3 (4)"
expect_match "... rpq_cycles at umask 0x20, wpq_cycles 0x21" "$out" \
	"  event rpq_cycles = event=0xff,umask=0x20
  event wpq_cycles = event=0xff,umask=0x21"
expect_match "SPR power: energy-psys (model_spr's PSYS, event 05H)" "$out" \
	"event energy-psys = event=0x05 (x 2.328306437e-10 Joules)"

pmus icelake-sp
expect_match "ICX uncore_cha: snr_uncore_cha_formats_attr (umask_ext2, tid_en at 19, filter_tid5)" \
	"$out" "format: edge=config:18 event=config:0-7 filter_tid=config1:0-9 inv=config:23 thresh=config:24-31 tid_en=config:19 umask=config:8-15,32-57"
expect_match "ICX uncore_imc: snr_uncore_imc_events' clockticks event=0x00,umask=0x00" "$out" \
	"event clockticks = event=0x00,umask=0x00"
expect_match "ICX uncore_imc_free_running: read 0x20, write 0x21 (icx_uncore_imc_freerunning_events)" \
	"$out" "  event read = event=0xff,umask=0x20 (x 6.103515625e-05 MiB)"
expect_is "ICX power: model_hsx, no energy-psys" "$(printf '%s\n' "$out" | grep -c energy-psys)" 0

pmus granite-rapids
expect_match "GNR uncore_imc: the schedulers' CAS counts (gnr_uncore_imc_events)" "$out" \
	"  event cas_count_read_sch0 = event=0x05,umask=0xcf (x 6.103515625e-05 MiB)
  event cas_count_read_sch1 = event=0x06,umask=0xcf (x 6.103515625e-05 MiB)"
expect_is "GNR: no uncore_imc_free_running (gnr_uncores has none)" \
	"$(printf '%s\n' "$out" | grep -c '^uncore_imc_free_running')" 0

pmus alderlake
expect_match "ADL: two uncore_imc_free_running boxes (adl_uncore_imc_free_running)" "$out" \
	"uncore_imc_free_running: boxes 0-1 (2)"
expect_match "... data_read 0x20, data_total 0x10, data_write 0x30 (tgl_uncore_imc_events)" "$out" \
	"  event data_read = event=0xff,umask=0x20 (x 6.103515625e-05 MiB)
  event data_total = event=0xff,umask=0x10 (x 6.103515625e-05 MiB)
  event data_write = event=0xff,umask=0x30 (x 6.103515625e-05 MiB)"
expect_match "ADL uncore_imc_0/1: the controllers, chmask at config:8-11 (adl_uncore_imc_formats_attr)" \
	"$out" "uncore_imc: boxes 0-1 (2)"
expect_match "... format event, chmask, edge" "$out" "format: chmask=config:8-11 edge=config:18 event=config:0-7"
expect_match "ADL uncore_cbox: adl_uncore_formats_attr's threshold (config:24-29)" "$out" \
	"format: edge=config:18 event=config:0-7 inv=config:23 threshold=config:24-29 umask=config:8-15"
expect_match "ADL: uncore_arb_0 and _1 (adl_uncore_arb: 2 boxes), uncore_clock" "$out" \
	"uncore_arb: boxes 0-1 (2)"

pmus tigerlake
expect_match "TGL: one arb (snb_uncore_arb), named uncore_arb" "$out" "
uncore_arb, type"
expect_match "TGL: uncore_clock counts clockticks at event=0xff (icl_uncore_events)" "$out" \
	"  event clockticks = event=0xff"

pmus genoa
expect_match "Genoa amd_l3: event8 (config:0-7), threadmask2 and family 19h's fields" "$out" \
	"format: coreid=config:42-44 enallcores=config:47 enallslices=config:46 event=config:0-7 sliceid=config:48-50 threadmask=config:56-57 umask=config:8-15"

# counting against them: Alder Lake's uncore_imc_0/1 are controllers, not
# channels; the memory bandwidth is the free-running counters' (2 channels x
# the scenario's 8.3e7 read lines a second x 64 bytes)
run "$PMUTOP" --sim alderlake:memory-bound --source perf -b -n 3 -d 0.5 --format json
expect_rc "ADL through perf: runs" 0
near "ADL: read bandwidth from uncore_imc_free_running_0/1's data_read" \
	"$(field "$out" socket 0 read_bytes_per_s)" "$((2 * 83000000 * 64))" 0.05
near "ADL: write bandwidth from their data_write (umask 0x30)" \
	"$(field "$out" socket 0 write_bytes_per_s)" "$((2 * 42000000 * 64))" 0.05
