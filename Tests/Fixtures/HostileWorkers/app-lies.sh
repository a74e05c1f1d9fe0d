#!/bin/sh
# Completes connect, then reports an app change the model forbids: a pop of the root, or the
# change given as its second argument (a JSON line).
# Expected: protocol-violation ("illegal app change pop"); the host's state is unchanged.
. "$(dirname "$0")/lib.sh"
record_pipes "$1"
answer_connect
change='{"type":"change","op":"pop"}'
if [ $# -ge 2 ]; then change=$2; fi
printf '%s\n' "$change"
exec sleep 1000
