import Protocol

/// The `--help` texts. Each teaches the command with an example.
enum Help {
    static let main = """
        hostctl: a multi-process scene host (UIKit's app/scene lifecycle, one worker process per scene)

        USAGE
          hostctl demo [--trace FILE]          run the built-in multi-window simulation
          hostctl run SCENARIO.json [--trace FILE]
                                               run a scripted simulation
          hostctl verify TRACE.jsonl           check a trace against the lifecycle model
          hostctl timeline TRACE.jsonl [--format svg|perfetto] [-o FILE]
                                               draw a trace: SVG picture or Perfetto JSON
          hostctl stress [--scenes N] [--ops M] [--clients C] [--seed S] [--kill-rate R] [--json]
                                               concurrency stress with invariant checks
          hostctl serve [--socket PATH] [--state-dir DIR] [--worker PATH]
                                               a long-running host controlled over a Unix socket
          hostctl <op> SCENE [--flags] [--socket PATH]
                                               one operation on a serving host (push A --vc Detail)
          hostctl ps [--json] | events [--follow] [--json] | quit [--socket PATH]
                                               inspect, watch or stop a serving host
          hostctl discard SCENE --state-dir DIR
                                               discard a stored session with no host running
          hostctl fuzz --worker PATH [ARG...] [--runs N] [--seed S]
                                               drive your app at random, shrink what breaks
          hostctl bench [--quick] [--json] [--only NAME] [--svg FILE]
                                               benchmarks with floors measured in the same run
          hostctl worker                       worker mode (what the host spawns)

        Every command takes --help. Exit status: 0 success, 1 a check failed,
        2 usage error, 3 runtime failure. The lifecycle model is docs/LIFECYCLE.md.

        EXAMPLES
          hostctl demo --trace demo.jsonl && hostctl verify demo.jsonl
          hostctl timeline demo.jsonl -o demo.svg
        """

    static let demo = """
        hostctl demo [--trace FILE] [--state-dir DIR] [--timeline FILE] [--quiet]

        Runs three scenes (Mail, Notes, Music) and an app-based app without scenes (Clock),
        each in its own worker process, through foreground/background, an interruption (a tap
        refused while inactive), navigation push/pop, a size change, a memory warning, a page
        sheet swiped away, a full-screen modal, a cancelled swipe back, a tab switch (Music is
        a tab bar), a second window Mail's app opens itself, suspension with queued
        notifications, a killed worker restored from its session, and a quit.
        Prints a per-scene timeline of every callback with the pid.

          --trace FILE      also write the trace as JSON Lines (check it with hostctl verify)
          --state-dir DIR   keep scene sessions in DIR (they survive the run, and a rerun
                            restores them; one host at a time)
          --timeline FILE   also draw the run as an SVG timeline (see hostctl timeline --help)
          --quiet           print nothing but errors (hostctl demo --trace /dev/stdout --quiet | jq)

        Example: hostctl demo --trace demo.jsonl --timeline demo.svg && hostctl verify demo.jsonl

        LIMITS
        \(LimitFlags.help)
        """

    static let run = """
        hostctl run SCENARIO.json [--trace FILE] [--quiet]

        Runs a scenario file step by step and prints the per-scene timeline.

          --trace FILE   write the trace as JSON Lines
          --quiet        print nothing but errors
        \(LimitFlags.help)

        A scenario is a JSON object:
          { "config": { "suspendDelayMs": 50 },
            "steps": [ { "op": "connect", "scene": "A" },
                       { "op": "push", "scene": "A", "vc": "Detail" },
                       { "op": "background", "scene": "A" },
                       { "op": "waitFor", "scene": "A", "process": "suspended", "timeoutMs": 2000 } ] }

        \(operationList)
        Any step may carry "expectError": true (the step must be refused or fail).
        config: suspendDelayMs, launchLimitMs, transitionLimitMs, terminateLimitMs,
                backgroundTaskLimitMs, memoryLimitMB, memoryCheckIntervalMs, worker (argv array), stateDir,
                restartLimit, restartWindowMs, prewarm (each limit takes the values its flag takes)
        An unknown op or field is an error naming it (exit 2), before anything runs.
        """

    static let verify = """
        hostctl verify TRACE.jsonl

        Checks a trace against the lifecycle model (docs/LIFECYCLE.md): seq 1, 2, 3, …
        without a gap (a missing event is a lost one), each scene's callbacks in the model's order, state events matching
        their callbacks, nothing after sceneDidDisconnect but what the model allows.
        Exit 0 when valid; 1 with the first violation (seq, scene, expected, got); 2 when
        the file cannot be opened; 3 when a read fails or a line is longer than 4 MiB. A trace of any length is
        checked as it is read, one line at a time. TRACE.jsonl - reads the trace from stdin:

          hostctl demo --trace /dev/stdout --quiet | hostctl verify -
        """

    static let timeline = """
        hostctl timeline TRACE.jsonl [--format svg|perfetto] [-o FILE]

        Draws a trace (from --trace of demo, run or serve) so people can look at it.

          --format svg        (default) a self-contained SVG picture: one track per scene,
                              activation states as coloured spans (green active, amber
                              inactive, blue background, hatched while suspended), worker
                              spawn/suspend/resume/exit markers (a red X with the exit
                              reason), callbacks as ticks. Hover a tick for the names and
                              times of its callbacks (a burst shares one tick).
          --format perfetto   Chrome Trace Event JSON: open it at https://ui.perfetto.dev
                              or chrome://tracing. One process per scene with threads for
                              the activation state, the callbacks and the worker process.
          -o FILE             where to write; - or no -o: stdout
          TRACE.jsonl         - reads the trace from stdin

        Exit 2 for bad arguments, 3 when the trace cannot be read, is larger than 16 MiB,
        or a line is not a trace event (the message names the line).

        EXAMPLES
          hostctl demo --trace demo.jsonl
          hostctl timeline demo.jsonl -o demo.svg
          hostctl timeline demo.jsonl --format perfetto -o demo.json
          hostctl demo --timeline demo.svg          # the same picture, straight from the run
        """

    /// `ops: connect (background, root, worker), activate, …`: the model's operations and
    /// their fields, wrapped.
    static var operationList: String {
        var lines: [String] = []
        var line = "ops:"
        let operations = LifecycleOperation.allCases
        for (index, operation) in operations.enumerated() {
            let item = " " + operation.usageSummary + (index == operations.count - 1 ? "" : ",")
            if line.count + item.count > 90 {
                lines.append(line)
                line = "    "
            }
            line += item
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    static let fuzz = """
        hostctl fuzz --worker PATH [ARG...] [--seed S] [--runs N] [--steps M] [--seconds T]
                     [--instances N] [--root NAME] [--out FILE] [--json]
        hostctl fuzz --replay FILE --worker PATH [ARG...]

        Finds your app's lifecycle bugs: drives it through random legal lifecycles (the
        foreground and the background, suspension, the system killing it while suspended
        and the user coming back, interruptions, memory warnings, size changes, navigation,
        and the user's hands: rows tapped, swiped and dragged, fields, buttons, bar buttons and alert
        actions chosen from what its screen shows), each run against real workers, and
        checks that
          - the trace verifies against the lifecycle model;
          - after the system kills the suspended app, the user comes back to the screen
            they left (views whose accessibility identifier ends in .transient excepted);
          - the app is never killed for a legal lifecycle (crash, watchdog, a background
            task never ended, a protocol violation).
        The first failure is shrunk to a minimal run, written as a scenario to FILE with a
        report beside it (FILE.txt: the steps, the two screens side by side, the timeline);
        hostctl fuzz --replay FILE --worker PATH replays it with the same checks. Exit 1 when
        something failed, 0 when every run held, 3 when the app started in no run (never said
        ready: check --worker and its arguments) or the report cannot be written.

          --worker PATH     the app (its worker executable); words after PATH are its
                            first arguments, then any --worker-arg ARG (repeatable)
          --seed S          seeds every run: the same seed gives the same runs and the same
                            failure, on any machine (default 1)
          --runs N          at most N runs (default 200)
          --steps M         steps per run (default 20)
          --seconds T       start no run after T seconds
          --instances N     app instances at once (default: the CPUs, at least 2)
          --root NAME       the controller the app launches with (default Root: the
                            UIKit module's ViewController)
          --out FILE        where the shrunk scenario goes (default fuzz-failure.json)
          --json            one JSON object on stdout instead of the summary line
          --replay FILE     run a saved failure again and check the same invariants

        A progress line shows on a terminal. The summary says how many steps per second
        ran and how long shrinking took.

        Example: hostctl fuzz --worker .build/debug/MyApp --seconds 60 --out failure.json
        """
}
