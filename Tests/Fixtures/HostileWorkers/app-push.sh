#!/bin/sh
# Completes connect, then its app pushes Detail on its own (a `change` message and the
# push's callbacks with origin app), then answers the host's pop (request 2).
# Expected: the host follows the push (stack Root, Detail), so its pop is legal.
. "$(dirname "$0")/lib.sh"
record_pipes "$1"
answer_connect
app='"origin":"app"'
printf '{"type":"change","op":"push","vc":"Detail"}\n'
for step in 'loadView Detail' 'viewDidLoad Detail' 'viewWillDisappear Root' 'viewWillAppear Detail' \
    'viewIsAppearing Detail' 'viewWillLayoutSubviews Detail' 'viewDidLayoutSubviews Detail' 'viewDidDisappear Root' 'viewDidAppear Detail'; do
    set -- $step
    printf '{"type":"callback","name":"%s","vc":"%s",%s}\n' "$1" "$2" "$app"
done
read_request # {"id":2,"op":"pop"}
for step in 'viewWillDisappear Detail' 'viewWillAppear Root' 'viewIsAppearing Root' \
    'viewDidDisappear Detail' 'viewDidAppear Root' 'deinit Detail'; do
    set -- $step
    printf '{"type":"callback","name":"%s","vc":"%s"}\n' "$1" "$2"
done
printf '{"type":"reply","id":2}\n'
exec sleep 1000
