# Shared by the hostile worker fixtures (sourced, not run). Each fixture is started by the
# host as `FIXTURE RECORD_FILE [ARGS...]` and first records the pipes it got from the host
# (fds 0, 1, 2) in RECORD_FILE, one `pipe:[INODE]` per line, so the test can check that
# the host keeps none of them open once the worker is gone.

record_pipes() {
    # Read first, then redirect: while the redirection is in place fd 1 is the file.
    in=$(readlink "/proc/$$/fd/0")
    out=$(readlink "/proc/$$/fd/1")
    err=$(readlink "/proc/$$/fd/2")
    printf '%s\n%s\n%s\n' "$in" "$out" "$err" > "$1.tmp"
    # Renamed into place so the test never reads a half-written file.
    mv "$1.tmp" "$1"
}

# Reads one request line from the host; exits quietly at EOF (the host closed our stdin).
read_request() {
    IFS= read -r line || exit 0
}

# Speaks the protocol just well enough to complete `connect` to the foreground with root
# view controller Root: reads hello and connect, answers ready, the launch and first
# appearance callbacks, and the reply to request 1.
answer_connect() {
    read_request # {"op":"hello","protocol":1}
    read_request # {"id":1,"op":"connect",...}
    configuration='{"type":"callback","name":"configurationForConnecting"}\n'
    case "$line" in
    *'"reconnect":true'*) configuration='' ;;
    esac
    printf '{"type":"ready","protocol":1,"pid":%d}\n{"type":"callback","name":"willFinishLaunching"}\n{"type":"callback","name":"didFinishLaunching"}\n'"$configuration"'{"type":"callback","name":"willConnectTo"}\n{"type":"callback","name":"loadView","vc":"Root"}\n{"type":"callback","name":"viewDidLoad","vc":"Root"}\n{"type":"callback","name":"viewWillAppear","vc":"Root"}\n{"type":"callback","name":"viewIsAppearing","vc":"Root"}\n{"type":"callback","name":"viewWillLayoutSubviews","vc":"Root"}\n{"type":"callback","name":"viewDidLayoutSubviews","vc":"Root"}\n{"type":"callback","name":"sceneWillEnterForeground"}\n{"type":"callback","name":"sceneDidBecomeActive"}\n{"type":"callback","name":"viewDidAppear","vc":"Root"}\n{"type":"reply","id":1}\n' $$
}
