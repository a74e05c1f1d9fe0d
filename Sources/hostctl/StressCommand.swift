import CLISupport
import Glibc
import HostProcess
import HostTools

/// `hostctl stress [--scenes N] [--ops M] [--clients C] [--seed S] [--kill-rate R] [--scale N] [--json] [--trace FILE]`
enum StressCommand {
    static func run(_ arguments: inout Arguments) async throws -> ExitCode {
        if arguments.wantsHelp {
            print(Help.stress)
            return .success
        }
        var options = StressOptions()
        if let scenes = try arguments.intOption("--scenes", in: 1...100_000) { options.scenes = scenes }
        let ops = try arguments.intOption("--ops", in: 0...1_000_000_000)
        if let ops { options.ops = ops }
        if let clients = try arguments.intOption("--clients", in: 1...10_000) { options.clients = clients }
        if let text = try arguments.option("--seed") {
            guard let seed = UInt64(text) else {
                throw UsageError("hostctl stress: --seed must be an integer in 0...\(UInt64.max), got \"\(text)\"")
            }
            options.seed = seed
        }
        if let text = try arguments.option("--kill-rate") {
            guard let rate = Double(text), rate >= 0, rate <= 1 else {
                throw UsageError("hostctl stress: --kill-rate must be a number in 0...1, got \"\(text)\"")
            }
            options.killRate = rate
        }
        if let text = try arguments.option("--mix") {
            guard let mix = StressOptions.Mix(rawValue: text) else {
                throw UsageError("hostctl stress: --mix must be full or steady, got \"\(text)\"")
            }
            options.mix = mix
        }
        if let scale = try arguments.intOption("--scale", in: 1...100_000) {
            if let ops, ops != 0 {
                throw UsageError("hostctl stress: --scale N is --scenes N --ops 0; it does not take --ops")
            }
            options.scenes = scale
            options.ops = 0
        }
        if let ms = try arguments.intOption("--reply-timeout-ms", in: 1...86_400_000) {
            options.replyTimeout = .milliseconds(ms)
        }
        if let ms = try arguments.intOption("--timer-slack-ms", in: 1...3_600_000) {
            options.timerSlack = .milliseconds(ms)
        }
        let json = try arguments.flag("--json")
        let tracePath = try arguments.option("--trace")
        let tuning = try LimitFlags.tuning(&arguments) ?? .plain
        let worker = try WorkerFlags.parse(&arguments, mustBeRunnable: true) ?? [currentExecutablePath(), "worker"]
        try arguments.finish()

        var configuration = StressOptions.configuration(worker: worker)
        configuration.tuning = tuning
        let report: StressReport
        do {
            report = try await StressRunner(options: options, configuration: configuration, tracePath: tracePath)
                .run(reporting: { printError($0) })
        } catch {
            printError("hostctl stress: \(error)")
            return error.exitCode
        }
        if json {
            print(report.jsonLine)
        } else {
            print(report.detailLine)
            print(report.summaryLine)
        }
        if report.violationCount > 0 { return .checkFailed }
        // A run in which no request reached a scene checked nothing (at --kill-rate 1 every
        // operation is a kill, and no worker is ever live to kill): not a pass.
        if options.ops > 0, report.accepted + report.refused + report.failed == 0 {
            printError(
                "hostctl stress: no operation reached a scene (accepted=0 refused=0), so nothing was checked; "
                    + "lower --kill-rate (every operation was a kill, with no worker live to kill)"
            )
            return .checkFailed
        }
        return .success
    }
}

extension Help {
    static let stress = """
        hostctl stress [--scenes N] [--ops M] [--clients C] [--seed S] [--kill-rate R] [--mix full|steady]
                       [--worker PATH [--worker-arg ARG]...] [--json] [--trace FILE]
        hostctl stress --scale N [--worker PATH [--worker-arg ARG]...] [--json]

        Concurrency stress with invariant checks. C concurrent clients send M random
        operations in total (legal and illegal: connect, scene- or app-based, activate,
        deactivate, background, foreground, push, pop, present, dismiss, swipeDismiss,
        swipeBack, tap, resize, memoryWarning, notify, begin/endBackgroundTask, openURL,
        continueUserActivity, addChild, removeChild, disconnect, terminate; and the
        notifications openWindow and closeWindow, on which the default worker's app opens a
        window, a new scene with its own worker, or closes one itself) to N scenes, each scene
        a worker process; with --kill-rate R that share of the operations is a SIGKILL of a
        random live worker (the windows the apps opened included) from outside the host. The
        operation sequence is a function of the seed; the interleaving is not.
        Limits are short (suspend after 20 ms, background tasks expire after 300 ms).

        Checked, each broken invariant one "violation:" line on stderr:
          - the trace passes the lifecycle model, and the host rejected no worker event;
          - every request got exactly one reply;
          - a refused request changed nothing (it came between transitions, the model agrees it
            was illegal, and nothing it would have done shows up in the trace); its client
            saw the same status before and after it; and it left the timers alone: the
            suspension or background-task expiration and kill its scene owed still came
            (the clients pause 10 times, or every 2,500 operations in a longer run, the
            last before the quit, until no scene owes a timer; "timers=T" on the line before the summary counts those seen in time; a
            host that stood still meanwhile, recording nothing while requests waited, is
            reported as that stall; a slow one's time between its events while a request
            it was to refuse waited is taken off the timer's lateness);
          - what the host did for an app (a window opened or closed) was asked for: the
            app got as many openWindow/closeWindow notifications, and each spawn, clean exit
            and refusal is a request's or such an app request's;
          - no worker crashed or hit a watchdog, and none is alive after the quit;
          - the audit read every event: it reads each round's at the pause, and the host
            holds only its newest 16 MiB of events (so a long run's memory stays flat);
          - the host holds no more file descriptors after the quit than before it started.

          --scenes N        scenes S0..S(N-1) (default 8)
          --ops M           operations in total, kills included (default 2000); 0: scale check
          --clients C       concurrent clients (default 4)
          --seed S          the operation sequence's seed (default 1)
          --kill-rate R     share of operations that SIGKILL a live worker, 0...1 (default 0)
          --mix full|steady full (default): every operation, workers come and go; steady:
                            every scene connects first, then only transitions of live
                            workers (no connect, disconnect, terminate, openURL, no
                            windows opened or closed by the apps): the host's
                            transition throughput without process churn
          --scale N         scale check: N scenes connect at once and must all reach
                            foregroundActive, then the host quits; reports the time and the
                            host's memory (VmRSS, VmHWM). Same as --scenes N --ops 0.
          --reply-timeout-ms N   a request unanswered this long is a violation (default 120000)
          --timer-slack-ms N     how late a timer's event may come before it counts as
                            missing: at least N, or ten times the timer's delay (default
                            1000); raise it on a machine loaded by other work
          --json            print the report as one JSON object instead (the last line)
          --trace FILE      write the run's trace as JSON Lines
          --tuning plain|throughput   how hard the host works for speed (default plain: it
                            changes no process's affinity or scheduling class; see
                            hostctl serve --help)
          --worker PATH     the worker every scene runs (default: this hostctl with worker);
                            --worker-arg ARG adds an argument, repeat it for more

        The last line is the summary:
          ops=M scenes=N clients=C seed=S kills=K violations=V ops/s=X p50=Yus p99=Zus
        Exit status: 0 no violation, 1 violations (or a run in which no request reached a
        scene: nothing was checked), 2 usage error, 3 the host could not start.

        EXAMPLES
          hostctl stress --scenes 64 --ops 100000 --clients 8 --kill-rate 0.01
          hostctl stress --scale 1000
        """
}
