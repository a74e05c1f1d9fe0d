import HostProcess
import Protocol
import SceneModel

/// Exports a trace in the Chrome Trace Event format (JSON object form), which
/// [Perfetto](https://ui.perfetto.dev) and `chrome://tracing` open directly.
///
/// Layout: the host is trace process 1 (named `host`); each scene is trace process 2, 3, …
/// in order of first appearance, named by a `process_name` metadata event with the scene's
/// identifier. Within a scene:
/// - thread 1 `activation state`: one complete event (`"ph":"X"`, category `state`) per
///   `state` event, named by the state entered, lasting until the next state event;
/// - thread 2 `callbacks`: one instant event (`"ph":"i"`, `"s":"t"`, category `callback`)
///   per callback, args `vc`, `seq` and any notification or restoration data;
/// - thread 3 `worker process`: one instant event (category `process`) per process event,
///   args `pid`, `reason`, `status`, `signal`, `seq`; plus complete events for each worker's
///   lifetime (category `worker`) and each suspension (category `suspension`);
/// - refused operations (`error` events) are instant events on thread 1 (category `error`).
///
/// Times (`ts`, `dur`) are integer microseconds since the host started.
///
/// ```swift
/// let bytes = PerfettoExport.render(host.trace.history)   // write to trace.json
/// ```
public enum PerfettoExport {
    /// The trace process id of the host-wide events.
    public static let hostProcessID = 1
    /// Thread ids within a scene's trace process.
    public static let stateThreadID = 1
    public static let callbackThreadID = 2
    public static let processThreadID = 3

    /// The trace process id of the scene at `index` in `SceneTracks.tracks`.
    public static func processID(forSceneAt index: Int) -> Int { index + 2 }

    /// The export as compact JSON bytes, ending in a newline.
    public static func render(_ events: [TraceEvent]) -> [UInt8] {
        var buffer: [UInt8] = []
        JSONWriter.write(document(SceneTracks(events: events)), into: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        return buffer
    }

    /// The export as a JSON value: `{"traceEvents": [...], "displayTimeUnit": "ms"}`.
    public static func document(_ tracks: SceneTracks) -> JSONValue {
        var out: [JSONValue] = []

        // The host.
        out.append(metadata("process_name", pid: hostProcessID, tid: 0, ["name": .string("host")]))
        out.append(metadata("process_sort_index", pid: hostProcessID, tid: 0, ["sort_index": .int(0)]))
        out.append(metadata("thread_name", pid: hostProcessID, tid: 1, ["name": .string("host events")]))
        for event in tracks.hostEvents {
            let name = event.kind == .error ? "refused: \(event.op ?? "?")" : (event.name ?? event.kind.rawValue)
            out.append(
                instant(
                    name,
                    category: event.kind.rawValue,
                    pid: hostProcessID,
                    tid: 1,
                    time: event.time,
                    args: commonArgs(event)
                )
            )
        }

        for track in tracks.tracks {
            let pid = processID(forSceneAt: track.index)
            out.append(metadata("process_name", pid: pid, tid: 0, ["name": .string(track.scene)]))
            out.append(metadata("process_sort_index", pid: pid, tid: 0, ["sort_index": .int(track.index + 1)]))
            if !track.pids.isEmpty {
                let labels = "worker pid " + track.pids.map { String($0) }.joined(separator: ", ")
                out.append(metadata("process_labels", pid: pid, tid: 0, ["labels": .string(labels)]))
            }
            out.append(metadata("thread_name", pid: pid, tid: stateThreadID, ["name": .string("activation state")]))
            out.append(metadata("thread_name", pid: pid, tid: callbackThreadID, ["name": .string("callbacks")]))
            out.append(metadata("thread_name", pid: pid, tid: processThreadID, ["name": .string("worker process")]))

            for span in track.states {
                var args: [String: JSONValue] = [
                    "from": .string(span.previous.rawValue),
                    "to": .string(span.state.rawValue),
                    "seq": .int(span.seq),
                ]
                if span.isOpen { args["open"] = .bool(true) }
                out.append(
                    complete(
                        span.state.rawValue,
                        category: "state",
                        pid: pid,
                        tid: stateThreadID,
                        start: span.start,
                        end: span.end,
                        args: args
                    )
                )
            }
            for tick in track.callbacks {
                out.append(
                    instant(
                        tick.name,
                        category: "callback",
                        pid: pid,
                        tid: callbackThreadID,
                        time: tick.time,
                        args: commonArgs(tick.event)
                    )
                )
            }
            for worker in track.workers {
                var args: [String: JSONValue] = [:]
                if let value = worker.pid { args["pid"] = .int(Int(value)) }
                if let exit = worker.exit { args["exit"] = .string(exit.label) }
                let name = worker.pid.map { "worker pid \($0)" } ?? "worker"
                out.append(
                    complete(
                        name,
                        category: "worker",
                        pid: pid,
                        tid: processThreadID,
                        start: worker.start,
                        end: worker.end,
                        args: args
                    )
                )
            }
            for presentation in track.presentations {
                out.append(
                    complete(
                        "presented " + presentation.label,
                        category: "presentation",
                        pid: pid,
                        tid: processThreadID,
                        start: presentation.start,
                        end: presentation.end,
                        args: [
                            "vc": .string(presentation.viewController), "style": .string(presentation.style.rawValue),
                        ]
                    )
                )
            }
            for suspension in track.suspensions {
                var args: [String: JSONValue] = [:]
                if let value = suspension.pid { args["pid"] = .int(Int(value)) }
                out.append(
                    complete(
                        "suspended",
                        category: "suspension",
                        pid: pid,
                        tid: processThreadID,
                        start: suspension.start,
                        end: suspension.end,
                        args: args
                    )
                )
            }
            for marker in track.processMarkers {
                var args: [String: JSONValue] = ["seq": .int(marker.seq)]
                if let value = marker.pid { args["pid"] = .int(Int(value)) }
                if let reason = marker.reason { args["reason"] = .string(reason.rawValue) }
                if let status = marker.status { args["status"] = .int(Int(status)) }
                if let signal = marker.signal { args["signal"] = .string(signal) }
                out.append(
                    instant(
                        marker.event.rawValue,
                        category: "process",
                        pid: pid,
                        tid: processThreadID,
                        time: marker.time,
                        args: args
                    )
                )
            }
            for error in track.errors {
                out.append(
                    instant(
                        "refused: \(error.op ?? "?")",
                        category: "error",
                        pid: pid,
                        tid: stateThreadID,
                        time: error.time,
                        args: commonArgs(error)
                    )
                )
            }
        }
        return .object([
            "traceEvents": .array(out),
            "displayTimeUnit": .string("ms"),
        ])
    }

    /// Microseconds, rounded (trace times have microsecond precision).
    package static func microseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return 0 }
        return Int((min(max(seconds, -1e12), 1e12) * 1e6).rounded())
    }

    private static func metadata(_ name: String, pid: Int, tid: Int, _ args: [String: JSONValue]) -> JSONValue {
        .object([
            "ph": .string("M"), "name": .string(name), "pid": .int(pid), "tid": .int(tid),
            "args": .object(args),
        ])
    }

    private static func instant(
        _ name: String,
        category: String,
        pid: Int,
        tid: Int,
        time: Double,
        args: [String: JSONValue]
    ) -> JSONValue {
        .object([
            "ph": .string("i"), "s": .string("t"), "name": .string(name), "cat": .string(category),
            "pid": .int(pid), "tid": .int(tid), "ts": .int(microseconds(time)), "args": .object(args),
        ])
    }

    private static func complete(
        _ name: String,
        category: String,
        pid: Int,
        tid: Int,
        start: Double,
        end: Double,
        args: [String: JSONValue]
    ) -> JSONValue {
        let begin = microseconds(start)
        return .object([
            "ph": .string("X"), "name": .string(name), "cat": .string(category),
            "pid": .int(pid), "tid": .int(tid), "ts": .int(begin),
            "dur": .int(max(0, microseconds(end) - begin)), "args": .object(args),
        ])
    }

    /// The fields of a callback, host or error event worth showing as args.
    private static func commonArgs(_ event: TraceEvent) -> [String: JSONValue] {
        var args: [String: JSONValue] = ["seq": .int(event.seq)]
        if let vc = event.viewController { args["vc"] = .string(vc) }
        if let notification = event.notification { args["notification"] = .string(notification) }
        if let value = event.value { args["value"] = value }
        if let restoration = event.restoration { args["restoration"] = restoration }
        if let pid = event.pid { args["pid"] = .int(Int(pid)) }
        if let op = event.op { args["op"] = .string(op) }
        if let code = event.code { args["code"] = .int(code) }
        if let message = event.message { args["message"] = .string(message) }
        if event.kind == .error, let name = event.name { args["name"] = .string(name) }
        return args
    }
}
