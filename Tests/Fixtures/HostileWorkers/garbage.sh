#!/bin/sh
# Completes connect, then answers the next request with bytes that are not JSON (a NUL,
# invalid UTF-8, unbalanced braces) and stays alive. Expected: protocol-violation.
. "$(dirname "$0")/lib.sh"
record_pipes "$1"
answer_connect
read_request
printf 'garbage \000\377\376 {{{ not json\n'
exec sleep 1000
