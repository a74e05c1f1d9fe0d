#!/bin/sh
# Completes connect, then acknowledges the next request (id 2) with the id of the request
# it already answered (1), and stays alive. Expected: protocol-violation (a reply to no
# pending request).
. "$(dirname "$0")/lib.sh"
record_pipes "$1"
answer_connect
read_request
printf '{"type":"reply","id":1}\n'
exec sleep 1000
