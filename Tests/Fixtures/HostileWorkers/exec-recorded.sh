#!/bin/sh
# Records its pipes, then becomes the given command: `exec-recorded.sh RECORD hostctl worker
# --crash-in sceneDidEnterBackground` (the real worker crashing in the middle of a transition).
. "$(dirname "$0")/lib.sh"
record_pipes "$1"
shift
exec "$@"
