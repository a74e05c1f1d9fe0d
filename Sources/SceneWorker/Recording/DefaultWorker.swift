import Protocol

#if canImport(Glibc)
import Glibc
#endif

extension WorkerApp {
    /// What `hostctl worker [options]` calls: runs `WorkerApp.recording` with the test faults
    /// `arguments` ask for. `arguments` are the options only (not the program name, not `worker`):
    ///
    /// - `--hang-in CALLBACK`: block forever inside the first callback of that trace name
    ///   (e.g. `sceneDidEnterBackground`), after writing everything before it, that callback's
    ///   report included; for the host's watchdog tests.
    /// - `--crash-in CALLBACK`: the same, but exit with status 70.
    /// - `--ignore-sigterm`: ignore SIGTERM.
    /// - `--garbage`: write a line that is not JSON right after the handshake's `ready`.
    /// - `--background-task-on-enter-background`: the app begins a background task in
    ///   `sceneDidEnterBackground` and ends it on the notification `finishUpload`.
    /// - `--storyboard-root`: the root is made the storyboard way (`initWithCoder`,
    ///   `awakeFromNib` before `willConnectTo`).
    /// - `--lifecycle-notifications`: report UIKit's lifecycle notifications (LIFECYCLE.md §3e).
    /// - `--help`: print usage to stdout and exit 0.
    ///
    /// `--opt=value` works too. An unknown option, a missing value or an unknown callback name
    /// prints one line to stderr and exits 2.
    public static func runDefaultWorker(arguments: [String]) -> Never {
        switch DefaultWorkerOptions.parse(arguments) {
        case .help:
            print(DefaultWorkerOptions.usage, terminator: "")
            exit(0)
        case .failure(let message):
            writeError("hostctl worker: \(message) (try --help)")
            exit(2)
        case .run(let faults, let options):
            MainActor.assumeIsolated {
                WorkerProcess.run(app: .recording(options), faults: faults)
            }
        }
    }
}

/// Parsing of the default worker's options.
enum DefaultWorkerOptions {
    enum Parsed: Equatable {
        case run(FaultPlan, RecordingOptions = RecordingOptions())
        case help
        case failure(String)
    }

    static let usage = """
        usage: hostctl worker [--hang-in CALLBACK] [--crash-in CALLBACK] [--ignore-sigterm] [--garbage]
                              [--background-task-on-enter-background] [--storyboard-root]
                              [--lifecycle-notifications]
        Speaks the scene host protocol on stdin/stdout (newline-delimited JSON) with the default
        recording app; the host spawns it by default. The app acts on notifications (hostctl
        notify A --name NAME [--value V]) as app code would:
          openDetail       push a controller named by the value (default Detail)
          openDetailLater  push Detail from a main-actor task (value: that many ms later)
          closeDetail      pop; closeAll: pop to the root; closeTo: pop to index N (value N)
          replaceTop       setViewControllers: the top replaced by a new controller (value
                           NAME, default Home); startOver: the whole stack; deepLink: the
                           root and new controllers (value ["A","B"], default List, Detail)
          openSheet        present a page sheet named by the value (default Sheet;
                           fullScreen:NAME presents full screen) from the frontmost
                           controller; closeSheet: the last one dismisses itself;
                           closeAllSheets: the stack's top dismisses them all
          selectTab        select tab N of a tab bar root (value N)
          addChild         add a child to the frontmost controller (value NAME);
                           removeChild removes it
          openWindow       open a new window, or bring session V forward; closeWindow
                           closes its own window for good, or session V's
          finishUpload     end the background task of --background-task-on-enter-background
          exit             call exit() (value: the status, default 0)
        It rebuilds its saved stack, tab and presentation on reconnect.
          --background-task-on-enter-background
                               begin a background task in sceneDidEnterBackground; the
                               notification finishUpload ends it
          --storyboard-root    the root is made the storyboard way: initWithCoder and
                               awakeFromNib before willConnectTo, viewDidLoad after
          --lifecycle-notifications
                               report UIKit's lifecycle notifications after the callbacks
                               that post them, as an app on the UIKit module does
        Test faults:
          --hang-in CALLBACK   block forever inside the first callback of that name (the
                               host's watchdog then kills it)
          --crash-in CALLBACK  exit with status 70 inside the first callback of that name
          --ignore-sigterm     ignore SIGTERM (a terminate then ends in SIGKILL after the
                               terminate limit)
          --garbage            write a non-JSON line right after the handshake (a protocol
                               violation: the host kills it)
        CALLBACK is a trace name, e.g. sceneDidEnterBackground, viewDidLoad, deinit.
        Example: a scene of a running host (hostctl serve) in this worker, with an option:
          hostctl connect A --worker hostctl --worker-arg worker \\
              --worker-arg --lifecycle-notifications

        """

    static func parse(_ arguments: [String]) -> Parsed {
        var plan = FaultPlan()
        var options = RecordingOptions()
        var index = 0
        while index < arguments.count {
            var argument = arguments[index]
            index += 1
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                inlineValue = String(argument[argument.index(after: equals)...])
                argument = String(argument[..<equals])
            }
            func value() -> String? {
                if let inlineValue { return inlineValue }
                guard index < arguments.count else { return nil }
                defer { index += 1 }
                return arguments[index]
            }
            func flag() -> Bool { inlineValue == nil }
            switch argument {
            case "--help", "-h":
                guard flag() else { return .failure("option \(argument) takes no value") }
                return .help
            case "--ignore-sigterm":
                guard flag() else { return .failure("option \(argument) takes no value") }
                plan.ignoreSIGTERM = true
            case "--garbage":
                guard flag() else { return .failure("option \(argument) takes no value") }
                plan.garbageAfterHandshake = true
            case "--background-task-on-enter-background":
                guard flag() else { return .failure("option \(argument) takes no value") }
                options.beginsBackgroundTaskOnEnterBackground = true
            case "--storyboard-root":
                guard flag() else { return .failure("option \(argument) takes no value") }
                options.rootFromStoryboard = true
            case "--lifecycle-notifications":
                guard flag() else { return .failure("option \(argument) takes no value") }
                options.postsLifecycleNotifications = true
            case "--hang-in", "--crash-in":
                guard let name = value(), !name.isEmpty else {
                    return .failure("option \(argument) needs a callback name")
                }
                guard let callback = CallbackName(rawValue: name), callback != .didDiscardSceneSessions else {
                    return .failure("unknown callback '\(name)' for \(argument)")
                }
                if argument == "--hang-in" {
                    plan.hangIn = callback
                } else {
                    plan.crashIn = callback
                }
            default:
                if argument.hasPrefix("-") {
                    return .failure("unknown option '\(argument)'")
                }
                return .failure("unexpected argument '\(argument)'")
            }
        }
        return .run(plan, options)
    }
}
