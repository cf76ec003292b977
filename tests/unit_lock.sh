#!/bin/sh
# unit_lock.sh PROGRAM [ARGS...]: a unit test program run holding the suite's
# lock shared (suite_lock.sh), so that the scripts that must run alone wait
# for it too (make check's LOG_COMPILER), its scratch files where the
# scripts' are (tmpdir.sh).
. "$top_srcdir/tests/suite_lock.sh"
. "$top_srcdir/tests/tmpdir.sh"
exec "$@"
