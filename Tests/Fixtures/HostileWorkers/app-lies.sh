#!/bin/sh
# Completes connect, then reports an app change the model forbids (a pop of the root).
# Expected: protocol-violation ("illegal app change pop"); the host's state is unchanged.
. "$(dirname "$0")/lib.sh"
record_pipes "$1"
answer_connect
printf '{"type":"change","op":"pop"}\n'
exec sleep 1000
