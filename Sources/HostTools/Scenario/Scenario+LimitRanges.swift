import HostProcess

extension Scenario {
    /// One numeric host limit as a scenario's `config` and the command-line flags both take
    /// it: its `config` key, its flag and the values it accepts.
    ///
    /// There is one table (`all`) so that the two ways in cannot disagree: a `config`
    /// accepting `"memoryCheckIntervalMs": 0` where `--memory-check-interval-ms 0` was
    /// refused made the memory monitor spin a CPU.
    public struct LimitRange: Sendable, Hashable {
        /// The `config` key, such as `launchLimitMs`.
        public let key: String
        /// The flag, such as `--launch-limit-ms`.
        public let flag: String
        /// The values accepted.
        public let range: ClosedRange<Int>

        /// A scenario's `config` message for a value outside `range`.
        public var configMessage: String {
            "\"\(key)\" must be an integer in \(range.lowerBound)...\(range.upperBound)"
        }
    }

    /// The numeric limits. Zero is accepted only where it means something: no suspend
    /// delay, no restarts. A watchdog or check interval of 0 would fire at once or spin.
    public enum LimitRanges {
        private static let day = 86_400_000
        public static let suspendDelay = LimitRange(key: "suspendDelayMs", flag: "--suspend-delay-ms", range: 0...day)
        public static let launchLimit = LimitRange(key: "launchLimitMs", flag: "--launch-limit-ms", range: 1...day)
        public static let transitionLimit = LimitRange(
            key: "transitionLimitMs",
            flag: "--transition-limit-ms",
            range: 1...day
        )
        public static let terminateLimit = LimitRange(
            key: "terminateLimitMs",
            flag: "--terminate-limit-ms",
            range: 1...day
        )
        public static let backgroundTaskLimit = LimitRange(
            key: "backgroundTaskLimitMs",
            flag: "--background-task-limit-ms",
            range: 1...day
        )
        /// Mebibytes, up to 1 PiB.
        public static let memoryLimit = LimitRange(
            key: "memoryLimitMB",
            flag: "--memory-limit-mb",
            range: 1...(1 << 30)
        )
        public static let memoryCheckInterval = LimitRange(
            key: "memoryCheckIntervalMs",
            flag: "--memory-check-interval-ms",
            range: 1...day
        )
        public static let restartLimit = LimitRange(key: "restartLimit", flag: "--restart-limit", range: 0...1_000_000)
        public static let restartWindow = LimitRange(
            key: "restartWindowMs",
            flag: "--restart-window-ms",
            range: 1...day
        )

        /// Workers started ahead (0 turns prewarming off).
        public static let prewarm = LimitRange(key: "prewarm", flag: "--prewarm", range: 0...16)

        public static let all = [
            suspendDelay, launchLimit, transitionLimit, terminateLimit, backgroundTaskLimit, memoryLimit,
            memoryCheckInterval, restartLimit, restartWindow, prewarm,
        ]
    }
}
