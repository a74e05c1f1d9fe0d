import HostProcess
import Protocol
import SceneModel

/// A trace turned into one track per scene: activation-state spans, worker lifetimes,
/// suspensions, process markers and callback ticks, with times in seconds since the host
/// started. Pure data: the SVG timeline and the Perfetto export both draw from it.
///
/// ```swift
/// let tracks = SceneTracks(events: host.trace.history)
/// for track in tracks.tracks { print(track.scene, track.states.count) }
/// ```
public struct SceneTracks: Sendable, Hashable {
    /// One track per scene, in the order the scenes first appear in the trace.
    public var tracks: [SceneTrack]
    /// The host-wide events (no `scene`): `started`, `quit`, `stopped`, host errors.
    public var hostEvents: [TraceEvent]
    /// The left edge of the timeline: 0 when the trace starts near the host's start
    /// (the usual case), else the first event's time.
    public var startTime: Double
    /// The time of the last event; open spans end here.
    public var endTime: Double
    /// How many events the trace holds.
    public var eventCount: Int

    /// The largest time magnitude drawn, in seconds.
    package static let drawableTimeLimit = 1e12

    private static func withDrawableTime(_ event: TraceEvent) -> TraceEvent {
        guard !(event.time.magnitude <= drawableTimeLimit) else { return event }
        var event = event
        event.time = event.time.isNaN ? 0 : min(max(event.time, -drawableTimeLimit), drawableTimeLimit)
        return event
    }

    /// The duration shown, `endTime - startTime`, never less than a microsecond.
    public var duration: Double { max(endTime - startTime, 1e-6) }

    /// Splits `events` (in trace order) into per-scene tracks.
    public init(events: [TraceEvent]) {
        eventCount = events.count
        // A hand-made trace may hold any finite time; a host's are seconds since it started.
        // Times beyond ±10¹² s (31,000 years) are drawn there, so the scale stays finite.
        let events = events.map(Self.withDrawableTime)
        let times = events.map(\.time).filter(\.isFinite)
        let first = times.min() ?? 0
        let last = times.max() ?? 0
        // A trace recorded by a host starts within a few ms of 0: show the axis from 0.
        startTime = first >= 0 && first <= (last - first) * 0.1 + 0.001 ? 0 : first
        endTime = max(last, startTime)

        var builders: [String: Int] = [:]
        var building: [TrackBuilder] = []
        hostEvents = []
        for event in events {
            guard let scene = event.scene else {
                hostEvents.append(event)
                continue
            }
            let index: Int
            if let existing = builders[scene] {
                index = existing
            } else {
                index = building.count
                builders[scene] = index
                building.append(TrackBuilder(scene: scene, index: index, startTime: startTime))
            }
            building[index].add(event)
        }
        let end = endTime
        tracks = building.map { $0.finish(at: end) }
    }

    /// The track of `scene`, if the trace mentions it.
    public func track(for scene: String) -> SceneTrack? {
        tracks.first { $0.scene == scene }
    }
}

/// Everything the trace says about one scene.
public struct SceneTrack: Sendable, Hashable {
    /// The session's identifier.
    public var scene: String
    /// Position in `SceneTracks.tracks` (order of first appearance).
    public var index: Int
    /// One span per `state` event, from that event to the scene's next state event (or the
    /// end of the trace), named by the state entered. `unattached` spans are included.
    public var states: [StateSpan]
    /// One span per worker process, from `spawned` to `exited` (or the end of the trace).
    public var workers: [WorkerSpan]
    /// One span per suspension, from `suspended` to `resumed` or `exited` (or the end).
    public var suspensions: [SuspensionSpan]
    /// One marker per `process` event, in order.
    public var processMarkers: [ProcessMarker]
    /// One tick per `callback` event, in order (`callbackBursts(gap:maximumSpan:)` groups
    /// the ones close together).
    public var callbacks: [CallbackTick]
    /// The `error` events of this scene (refused operations, model violations).
    public var errors: [TraceEvent]
    /// The controllers presented over the stack, in order.
    public var presentations: [PresentationSpan] = []

    /// An empty track for `scene`.
    public init(scene: String, index: Int) {
        self.scene = scene
        self.index = index
        states = []
        workers = []
        suspensions = []
        processMarkers = []
        callbacks = []
        errors = []
    }

    /// The worker pids this scene had, in order.
    public var pids: [Int32] { workers.compactMap(\.pid) }
}

/// The scene was in `state` from `start` to `end`.
public struct StateSpan: Sendable, Hashable {
    /// The state entered (`to` of the state event).
    public var state: ActivationState
    /// The state left (`from` of the state event).
    public var previous: ActivationState
    /// Seconds since the host started.
    public var start: Double
    /// Seconds since the host started; the trace's end for an open span.
    public var end: Double
    /// The `seq` of the state event that began the span.
    public var seq: Int
    /// True when the trace ends before the scene leaves the state.
    public var isOpen: Bool

    public init(state: ActivationState, previous: ActivationState, start: Double, end: Double, seq: Int, isOpen: Bool) {
        self.state = state
        self.previous = previous
        self.start = start
        self.end = end
        self.seq = seq
        self.isOpen = isOpen
    }
}

/// One worker process of a scene, from spawn to exit.
public struct WorkerSpan: Sendable, Hashable {
    /// The worker's pid (nil if the trace did not say).
    public var pid: Int32?
    /// When it was spawned (seconds since the host started).
    public var start: Double
    /// When it exited, or the trace's end.
    public var end: Double
    /// The `exited` marker, nil when the trace ends with the worker alive.
    public var exit: ProcessMarker?
    /// True when the trace ends with the worker alive.
    public var isOpen: Bool { exit == nil }

    public init(pid: Int32?, start: Double, end: Double, exit: ProcessMarker?) {
        self.pid = pid
        self.start = start
        self.end = end
        self.exit = exit
    }
}

/// A suspended worker, from `suspended` to `resumed` or `exited`.
public struct SuspensionSpan: Sendable, Hashable {
    /// The suspended worker's pid.
    public var pid: Int32?
    /// When it was suspended (seconds since the host started).
    public var start: Double
    /// When it was resumed or exited, or the trace's end.
    public var end: Double
    /// True when the trace ends with the worker still suspended.
    public var isOpen: Bool

    public init(pid: Int32?, start: Double, end: Double, isOpen: Bool) {
        self.pid = pid
        self.start = start
        self.end = end
        self.isOpen = isOpen
    }
}

/// A `process` event: `spawned`, `suspended`, `resumed` or `exited`.
public struct ProcessMarker: Sendable, Hashable {
    /// Which process event.
    public var event: TraceEvent.ProcessEvent
    /// Seconds since the host started.
    public var time: Double
    /// The event's `seq`.
    public var seq: Int
    /// The worker's pid.
    public var pid: Int32?
    /// For `exited`: why.
    public var reason: TerminationReason?
    /// For `exited` by exit: the status.
    public var status: Int32?
    /// For `exited` by signal: its name without `SIG`.
    public var signal: String?

    public init(
        event: TraceEvent.ProcessEvent,
        time: Double,
        seq: Int,
        pid: Int32?,
        reason: TerminationReason? = nil,
        status: Int32? = nil,
        signal: String? = nil
    ) {
        self.event = event
        self.time = time
        self.seq = seq
        self.pid = pid
        self.reason = reason
        self.status = status
        self.signal = signal
    }

    /// A short label: `spawned`, `resumed`, or for exits the reason with the signal or a
    /// non-zero status (`killed SIGKILL`, `crashed status 3`, `disconnected`).
    public var label: String {
        guard event == .exited else { return event.rawValue }
        var text = reason?.rawValue ?? "exited"
        if let signal { text += " SIG\(signal)" } else if let status, status != 0 { text += " status \(status)" }
        return text
    }

    /// A full description: `exited: killed, signal KILL, pid 9308`.
    public var detail: String {
        var parts: [String] = []
        if let reason { parts.append(reason.rawValue) }
        if let signal { parts.append("signal \(signal)") }
        if let status { parts.append("status \(status)") }
        if let pid { parts.append("pid \(pid)") }
        return parts.isEmpty ? event.rawValue : "\(event.rawValue): " + parts.joined(separator: ", ")
    }
}

/// A `callback` event.
public struct CallbackTick: Sendable, Hashable {
    /// The callback's name.
    public var name: String
    /// `vc`: the view controller, for view-controller callbacks.
    public var viewController: String?
    /// Seconds since the host started.
    public var time: Double
    /// The event's `seq`.
    public var seq: Int
    /// The whole event (restoration, notification and value live here).
    public var event: TraceEvent

    /// A tick for a `callback` event.
    public init(_ event: TraceEvent) {
        self.name = event.name ?? "?"
        self.viewController = event.viewController
        self.time = event.time
        self.seq = event.seq
        self.event = event
    }

    /// `viewDidLoad (Root)`, `didReceiveNotification sync`, or just the name.
    public var label: String {
        var text = name
        if let viewController { text += " (\(viewController))" }
        if let notification = event.notification { text += " \(notification)" }
        return text
    }
}

/// Callbacks of one scene close together in time: a connect or a background runs a dozen
/// callbacks within a millisecond, too close for a tick each to be seen or hovered, so the
/// SVG timeline draws a burst as one tick that names them all.
public struct CallbackBurst: Sendable, Hashable {
    /// The callbacks, in trace order; never empty.
    public var callbacks: [CallbackTick]
    /// The earliest callback's time (seconds since the host started).
    public var start: Double
    /// The latest callback's time.
    public var end: Double

    /// A burst of one callback.
    public init(_ tick: CallbackTick) {
        callbacks = [tick]
        start = tick.time
        end = tick.time
    }

    /// Adds `tick` at the end.
    public mutating func append(_ tick: CallbackTick) {
        callbacks.append(tick)
        start = min(start, tick.time)
        end = max(end, tick.time)
    }
}

extension SceneTrack {
    /// The callbacks in bursts, in order: a callback joins the burst before it when it comes
    /// within `gap` seconds of the previous callback and the burst would still last at most
    /// `maximumSpan` seconds. The bound keeps a steady stream of callbacks from merging
    /// into one long burst that says little about when each one ran.
    public func callbackBursts(gap: Double, maximumSpan: Double) -> [CallbackBurst] {
        var bursts: [CallbackBurst] = []
        var previousTime = -Double.infinity
        for tick in callbacks {
            let joins =
                bursts.last.map {
                    (tick.time - previousTime).magnitude <= gap
                        && max($0.end, tick.time) - min($0.start, tick.time) <= maximumSpan
                } ?? false
            // In place: appending to a copy of the last burst would copy its callbacks each time.
            if joins { bursts[bursts.count - 1].append(tick) } else { bursts.append(CallbackBurst(tick)) }
            previousTime = tick.time
        }
        return bursts
    }
}

/// Accumulates one scene's track.
private struct TrackBuilder {
    package var track: SceneTrack
    package var startTime: Double
    package var openState: StateSpan?
    package var openWorker: WorkerSpan?
    package var openSuspension: SuspensionSpan?
    package var presentations = PresentationTracker()

    package init(scene: String, index: Int, startTime: Double) {
        track = SceneTrack(scene: scene, index: index)
        self.startTime = startTime
    }

    package mutating func add(_ event: TraceEvent) {
        presentations.add(event)
        switch event.kind {
        case .callback:
            track.callbacks.append(CallbackTick(event))
        case .state:
            closeState(at: event.time)
            openState = StateSpan(
                state: event.to ?? .unattached,
                previous: event.from ?? .unattached,
                start: event.time,
                end: event.time,
                seq: event.seq,
                isOpen: true
            )
        case .process:
            guard let what = event.processEvent else { return }
            let marker = ProcessMarker(
                event: what,
                time: event.time,
                seq: event.seq,
                pid: event.pid,
                reason: event.reason,
                status: event.status,
                signal: event.signal
            )
            track.processMarkers.append(marker)
            switch what {
            case .spawned, .attached:
                closeSuspension(at: event.time)
                closeWorker(at: event.time, exit: nil)
                openWorker = WorkerSpan(pid: event.pid, start: event.time, end: event.time, exit: nil)
            case .suspended:
                closeSuspension(at: event.time)
                openSuspension = SuspensionSpan(pid: event.pid, start: event.time, end: event.time, isOpen: true)
            case .resumed:
                closeSuspension(at: event.time)
            case .exited, .detached:
                closeSuspension(at: event.time)
                if openWorker == nil {
                    // The trace began with this worker already running.
                    openWorker = WorkerSpan(pid: event.pid, start: startTime, end: startTime, exit: nil)
                }
                closeWorker(at: event.time, exit: marker)
            }
        case .error:
            track.errors.append(event)
        case .host:
            break
        }
    }

    private mutating func closeState(at time: Double) {
        guard var span = openState else { return }
        span.end = max(time, span.start)
        span.isOpen = false
        track.states.append(span)
        openState = nil
    }

    private mutating func closeWorker(at time: Double, exit: ProcessMarker?) {
        guard var span = openWorker else { return }
        span.end = max(time, span.start)
        span.exit = exit
        track.workers.append(span)
        openWorker = nil
    }

    private mutating func closeSuspension(at time: Double) {
        guard var span = openSuspension else { return }
        span.end = max(time, span.start)
        span.isOpen = false
        track.suspensions.append(span)
        openSuspension = nil
    }

    package func finish(at end: Double) -> SceneTrack {
        var track = track
        track.presentations = presentations.finish(at: end)
        if var span = openState {
            span.end = max(end, span.start)
            track.states.append(span)
        }
        if var span = openWorker {
            span.end = max(end, span.start)
            track.workers.append(span)
        }
        if var span = openSuspension {
            span.end = max(end, span.start)
            track.suspensions.append(span)
        }
        return track
    }
}

// MARK: - Reading a whole trace

/// A trace line that is not a trace event, with its 1-based line number.
public struct TraceLineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// What is wrong with the line.
    public var problem: TraceDecodingError

    public init(line: Int, problem: TraceDecodingError) {
        self.line = line
        self.problem = problem
    }

    public var description: String { "line \(line): \(problem)" }
}

extension TraceEvent {
    /// Decodes a whole JSON Lines trace held in memory. Every line must be one event or
    /// blank (`isBlank`: skipped); a final newline is optional. Throws the first bad line with
    /// its number.
    public static func events(jsonLines bytes: [UInt8]) throws(TraceLineError) -> [TraceEvent] {
        var events: [TraceEvent] = []
        var lineNumber = 0
        var start = 0
        let newline = UInt8(ascii: "\n")
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: newline) ?? bytes.count
            lineNumber += 1
            if TraceEvent.isBlank(bytes[start..<end]) {
                start = end + 1
                continue
            }
            do {
                events.append(try TraceEvent(jsonLine: Array(bytes[start..<end])))
            } catch {
                throw TraceLineError(line: lineNumber, problem: error)
            }
            start = end + 1
        }
        return events
    }

    /// Whether a trace line holds nothing but spaces, tabs and a carriage return: no event,
    /// and no error either (a blank line an editor left).
    package static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
        line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
    }
}
