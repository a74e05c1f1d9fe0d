#!/bin/sh
# Completes connect, then answers the next request with one 100 MiB line and stays alive.
# Expected: protocol-violation as soon as the line passes the frame limit, with the host's
# memory bounded (the rest of the line is read and dropped, never buffered).
. "$(dirname "$0")/lib.sh"
record_pipes "$1"
answer_connect
read_request
head -c 104857600 /dev/zero | tr '\0' 'a'
printf '\n'
exec sleep 1000
