#!/bin/sh
# Never answers the handshake. Expected: watchdog at the launch limit.
. "$(dirname "$0")/lib.sh"
record_pipes "$1"
exec sleep 1000
