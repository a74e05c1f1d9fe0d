#!/bin/sh
# Ignores SIGTERM, then becomes the real worker: `ignore-term.sh RECORD hostctl worker`.
# The disposition survives exec. Expected: `kill --signal TERM` leaves it running;
# terminate still ends it (reason terminated).
. "$(dirname "$0")/lib.sh"
record_pipes "$1"
shift
trap '' TERM
exec "$@"
