#!/bin/sh
# Completes connect, then closes its stdout (the protocol stream) and stays alive.
# Expected: protocol-violation, WorkerConnection.stdoutClosedGrace after the EOF.
. "$(dirname "$0")/lib.sh"
record_pipes "$1"
answer_connect
exec 1>&-
exec sleep 1000
