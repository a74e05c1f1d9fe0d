#!/bin/sh
# Completes connect, starts a grandchild that inherits (and holds) the worker's pipes,
# records its pid on a fourth line of the record file, and exits 0. Expected: the host sees
# the death at once (pidfd, not pipe EOF), reason crashed (an exit nobody asked for), and
# kills the grandchild with the worker's process group.
. "$(dirname "$0")/lib.sh"
record_pipes "$1"
answer_connect
sleep 1000 &
echo "$!" >> "$1"
exit 0
