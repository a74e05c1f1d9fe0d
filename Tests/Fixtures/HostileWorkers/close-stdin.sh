#!/bin/sh
# Completes connect, then closes its stdin (the host's request stream) and stays alive.
# Expected: the next request's write finds the pipe closed; the worker is killed as a
# protocol-violation the stdin grace after, and the request fails with that death.
. "$(dirname "$0")/lib.sh"
record_pipes "$1"
answer_connect
exec 0<&-
exec sleep 1000
