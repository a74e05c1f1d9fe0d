#!/bin/sh
# Answers the handshake, runs the first launch callbacks, then exits 3 in the middle of
# connect. Expected: crashed, status 3; connect fails.
. "$(dirname "$0")/lib.sh"
record_pipes "$1"
read_request
read_request
printf '{"type":"ready","protocol":1,"pid":%d}\n{"type":"callback","name":"willFinishLaunching"}\n{"type":"callback","name":"didFinishLaunching"}\n' $$
exit 3
