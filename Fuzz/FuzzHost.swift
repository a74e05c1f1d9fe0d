// libFuzzer entry point for the host's parsers of untrusted text: the control-socket request
// decoder (`hostctl serve`), the scenario parser (`hostctl run FILE`) and the trace line
// parser with the JSON Lines verifier (`hostctl verify`). Built by `Fuzz/run.sh host`
// together with Sources/HostTools into the module HostTools (so its package API such as
// `JSONLinesVerification` is visible), against Protocol, SceneModel and HostProcess built as
// modules of their own (Fuzz/host-build.sh); it is not part of Package.swift.
//
// The first input byte picks the entry point, modulo 3, and the rest is its input: a byte
// ≡ 0 (`c`, 99) the control socket, ≡ 1 (`s`, 115) a scenario file, ≡ 2 (`t`, 116) a
// trace, so every seed in Fuzz/corpus-host is a text file starting with its letter.
//
// The decoders can only answer with a value or their own typed error (typed throws); on top
// of that the target traps (a reported crash) when a property fails:
// - control: an accepted request re-encodes to one newline-free frame that decodes to the
//   same request; a refused one keeps the request's `id` whenever the frame was a JSON
//   object, and its code says why; a server frame (reply or event) a client decodes
//   survives a second encode/decode unchanged;
// - scenario: an accepted scenario re-encoded (config and steps, each step through
//   `Step.jsonObject`) parses to the same scenario; each step also decodes alone
//   (`Scenario.step(fromJSON:)`) and as a control request to the same step;
// - trace: an accepted line re-encodes (`appendJSONLine`) to one line that decodes to the
//   same event (`t` to the microsecond, clamped as the writer documents) and re-encodes to
//   the same bytes, also through an `events` frame; a refused line's error names a field
//   that is really absent, mistyped or out of range; the verifier gives the same result for
//   any chunking of the trace;
// - every error message is one line without control characters, of bounded length (hostctl
//   prints each as exactly one line; docs/HARDENING.md).

import HostProcess
import Protocol
import SceneModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHost(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, size > 0 else { return 0 }
    let selector = data[0]
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch selector % 3 {
    case 0:
        checkControlRequest(body)
        checkServerFrame(body)
    case 1:
        checkScenario(body)
    default:
        checkTraceLine(body)
        // The selector's other bits pick the chunk size (1...16) for the verifier.
        checkTraceVerifier(body, chunkSize: Int(selector / 3) % 16 + 1)
    }
    return 0
}

private func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("property failed: \(message())") }
}

private func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes.prefix(400), as: UTF8.self)
}

private func encoded(_ value: JSONValue) -> [UInt8] {
    var bytes: [UInt8] = []
    JSONWriter.write(value, into: &bytes)
    return bytes
}

/// An error message is one line of reasonable length without control characters: `hostctl`
/// prints it as exactly one line on stderr (`hostctl run`, `verify`, the client of `serve`),
/// so hostile text inside it must not add lines or reach the terminal as an escape
/// sequence, nor turn into a huge message.
private func checkMessage(_ message: String, input: [UInt8]) {
    require(!message.isEmpty, "empty error message")
    require(message.utf8.count <= 2048 + 8 * input.count, "error message of \(message.utf8.count) bytes")
    require(!message.utf8.contains { $0 < 0x20 }, "control character in the error message: \(message.debugDescription)")
}

// MARK: - Control socket

private func checkControlRequest(_ frame: [UInt8]) {
    let parsed = try? JSONParser.parse(frame)
    let request: ControlRequest
    do {
        request = try ControlRequest(frame: frame)
    } catch {
        // Typed: `error` is a `ControlRequest.DecodingError`.
        checkMessage(error.error.message, input: frame)
        switch parsed {
        case nil:
            require(error.id == .null, "id \(error.id) from an unreadable frame")
            require([.parseError, .nestingTooDeep].contains(error.error.code), "unreadable frame: \(error)")
        case .object(let object)?:
            require(error.id == object["id"] ?? .null, "refusal lost the id: \(error) for \(text(frame))")
            require(
                [.invalidMessage, .unknownOperation, .invalidParameters].contains(error.error.code),
                "refused object: \(error)"
            )
        case _?:
            require(error.id == .null && error.error.code == .invalidMessage, "refused non-object: \(error)")
        }
        return
    }
    guard case .object(let object)? = parsed else {
        require(false, "accepted a frame that is not a JSON object: \(text(frame))")
        return
    }
    require(request.id == object["id"] ?? .null, "id changed: \(request.id)")
    let written = request.frame
    require(written.last == UInt8(ascii: "\n"), "request frame without newline")
    require(!written.dropLast().contains(UInt8(ascii: "\n")), "newline inside a request frame")
    do {
        let decoded = try ControlRequest(frame: Array(written.dropLast()))
        require(decoded == request, "request round trip: \(request) became \(decoded)")
    } catch {
        require(false, "re-encoded request \(text(written)) refused: \(error)")
    }
}

/// What a client reads back: replies and `{"event":…}` frames.
private func checkServerFrame(_ frame: [UInt8]) {
    let first: ControlServerFrame
    do {
        first = try ControlServerFrame(frame: frame)
    } catch {
        checkMessage(error.message, input: frame)
        return
    }
    // Decoding may normalise (a reply's unknown code, a row's rounded figures); from then on
    // encode and decode must be a fixed point.
    let once = serverFrameBytes(first)
    guard let second = try? ControlServerFrame(frame: Array(once.dropLast())) else {
        require(false, "re-encoded server frame refused: \(text(once))")
        return
    }
    let twice = serverFrameBytes(second)
    require(once == twice, "server frame not stable: \(text(once)) then \(text(twice))")
}

private func serverFrameBytes(_ frame: ControlServerFrame) -> [UInt8] {
    switch frame {
    case .event(let event):
        var bytes: [UInt8] = []
        ControlServerFrame.eventFrame(event, into: &bytes)
        return bytes
    case .reply(let reply):
        return reply.frame
    }
}

// MARK: - Scenario files

private func checkScenario(_ bytes: [UInt8]) {
    let scenario: Scenario
    do {
        scenario = try Scenario(json: bytes)
    } catch {
        // Typed: `error` is a `ScenarioError`.
        checkMessage(error.message, input: bytes)
        return
    }
    let written = encoded(scenarioJSON(scenario))
    do {
        let reparsed = try Scenario(json: written)
        require(reparsed == scenario, "scenario round trip: \(scenario) became \(reparsed)")
    } catch {
        require(false, "re-encoded scenario \(text(written)) refused: \(error)")
    }
    for entry in scenario.entries {
        let object = entry.step.jsonObject
        do {
            let step = try Scenario.step(fromJSON: .object(object))
            require(step == entry.step, "step round trip: \(entry.step) became \(step)")
        } catch {
            require(false, "re-encoded step \(text(encoded(.object(object)))) refused: \(error)")
        }
        // A scenario step is a control request as it stands, plus an id.
        var request = object
        request["id"] = .int(7)
        do {
            let decoded = try ControlRequest(json: .object(request))
            require(decoded == ControlRequest(id: .int(7), body: .step(entry.step)), "step as request: \(decoded)")
        } catch {
            require(false, "step \(text(encoded(.object(request)))) refused as a request: \(error)")
        }
    }
}

/// The scenario as a file would write it; `Scenario(json:)` must read back the same value.
private func scenarioJSON(_ scenario: Scenario) -> JSONValue {
    func milliseconds(_ duration: Duration) -> JSONValue {
        let components = duration.components
        return .int(Int(components.seconds) * 1000 + Int(components.attoseconds / 1_000_000_000_000_000))
    }
    let limits = scenario.limits
    var config: [String: JSONValue] = [:]
    if let value = limits.suspendDelay { config["suspendDelayMs"] = milliseconds(value) }
    if let value = limits.launchLimit { config["launchLimitMs"] = milliseconds(value) }
    if let value = limits.transitionLimit { config["transitionLimitMs"] = milliseconds(value) }
    if let value = limits.terminateLimit { config["terminateLimitMs"] = milliseconds(value) }
    if let value = limits.backgroundTaskLimit { config["backgroundTaskLimitMs"] = milliseconds(value) }
    if let value = limits.memoryLimitBytes { config["memoryLimitMB"] = .int(value >> 20) }
    if let value = limits.memoryCheckInterval { config["memoryCheckIntervalMs"] = milliseconds(value) }
    if let value = limits.worker { config["worker"] = .array(value.map { .string($0) }) }
    if let value = limits.stateDirectory { config["stateDir"] = .string(value) }
    if let policy = limits.restartPolicy {
        config["restartLimit"] = .int(policy.maximumRestarts)
        config["restartWindowMs"] = milliseconds(policy.window)
    }
    let steps: [JSONValue] = scenario.entries.map { entry in
        var object = entry.step.jsonObject
        if entry.expectsError { object["expectError"] = .bool(true) }
        return .object(object)
    }
    var root: [String: JSONValue] = ["steps": .array(steps)]
    if !config.isEmpty { root["config"] = .object(config) }
    return .object(root)
}

// MARK: - Trace

private func checkTraceLine(_ line: [UInt8]) {
    let event: TraceEvent
    do {
        event = try TraceEvent(jsonLine: line)
    } catch {
        checkTraceError(error, line: line)
        return
    }
    var written: [UInt8] = []
    event.appendJSONLine(to: &written)
    require(written.last == UInt8(ascii: "\n"), "trace line without newline")
    require(!written.dropLast().contains(UInt8(ascii: "\n")), "newline inside a trace line: \(text(written))")
    let decoded: TraceEvent
    do {
        decoded = try TraceEvent(jsonLine: written)
    } catch {
        require(false, "re-encoded trace line \(text(written)) refused: \(error)")
        return
    }
    // `t` is written with six decimals, a non-finite or huge one clamped; the rest is exact.
    var expected = event
    expected.time = decoded.time
    require(decoded == expected, "trace round trip: \(event) became \(decoded)")
    let clamped = event.time.isFinite ? min(max(event.time, -1e12), 1e12) : 0
    require(
        abs(decoded.time - clamped) <= 1e-6 + clamped.magnitude * 0x1p-50,
        "t \(event.time) written as \(decoded.time)"
    )
    var again: [UInt8] = []
    decoded.appendJSONLine(to: &again)
    require(again == written, "trace line not stable: \(text(written)) then \(text(again))")
    // The same event as an `events` frame of the control socket.
    var frame: [UInt8] = []
    ControlServerFrame.eventFrame(decoded, into: &frame)
    require(frame.last == UInt8(ascii: "\n") && !frame.dropLast().contains(UInt8(ascii: "\n")), "event frame lines")
    do {
        let read = try ControlServerFrame(frame: Array(frame.dropLast()))
        require(read == .event(decoded), "event frame round trip: \(read)")
    } catch {
        require(false, "event frame \(text(frame)) refused: \(error)")
    }
}

/// The trace fields that hold numbers; every other known field holds a string (or any JSON).
private let numericFields: Set<String> = ["seq", "t", "pid", "status", "code", "tab", "tabs"]

/// A refusal names a field that is really absent, mistyped or out of range.
private func checkTraceError(_ error: TraceDecodingError, line: [UInt8]) {
    checkMessage(error.description, input: line)
    let parsed = try? JSONParser.parse(line)
    if case .invalidJSON = error {
        require(parsed == nil, "invalidJSON for a line the parser reads")
        return
    }
    guard let parsed else {
        require(false, "\(error) for a line the parser refuses")
        return
    }
    guard case .object(let fields) = parsed else {
        require(error == .notAnObject, "\(error) for a non-object")
        return
    }
    switch error {
    case .invalidJSON, .notAnObject:
        require(false, "\(error) for an object")
    case .missingField(let field):
        require(fields[field] == nil, "missing \(field), which is there")
    case .wrongType(let field, _):
        switch fields[field] {
        case nil: require(false, "wrong type of absent \(field)")
        case .string?: require(numericFields.contains(field), "a string is the wrong type for \(field)")
        case .int?: require(!numericFields.contains(field), "an integer is the wrong type for \(field)")
        case .double?: require(field != "t", "a double is the wrong type for t")
        default: break
        }
    case .unknownValue(let field, let value):
        require(fields[field] == .string(value), "unknown value \(value) is not \(field)'s")
    case .outOfRange(let field, let value):
        guard case .int(let number)? = fields[field] else {
            require(false, "out of range \(field) is not an integer")
            return
        }
        require(String(number) == value && Int32(exactly: number) == nil, "\(field) \(number) is in range")
    }
}

/// `hostctl verify` on the whole input as a trace, in one piece and in chunks.
private func checkTraceVerifier(_ trace: [UInt8], chunkSize: Int) {
    let whole = TraceVerifier.verify(jsonLines: trace)
    var verification = JSONLinesVerification()
    var position = 0
    while position < trace.count {
        let end = min(trace.count, position + chunkSize)
        verification.feed(trace[position..<end])
        position = end
    }
    let chunked = verification.finish()
    require(whole == chunked, "chunking changed the verdict: \(whole) vs \(chunked)")
    // Every line is one event, the last one included when it has no newline, except blank
    // ones, which the verifier skips (an editor's trailing blank line).
    var slices = trace.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    if slices.last?.isEmpty == true { slices.removeLast() }
    let lines = slices.count(where: { !TraceEvent.isBlank($0) })
    require(whole.eventCount <= lines, "\(whole.eventCount) events from \(lines) lines")
    if let failure = whole.failure {
        // The first bad line: every line before it an event or blank (blank ones count in
        // the line numbers, not in the events).
        let before = slices.prefix(max(0, failure.line - 1))
        require(
            failure.line >= 1 && before.count(where: { !TraceEvent.isBlank($0) }) == whole.eventCount,
            "failure at line \(failure.line) after \(whole.eventCount) events"
        )
        checkMessage(failure.description, input: trace)
    } else {
        require(whole.eventCount == lines, "\(whole.eventCount) events from \(lines) valid lines")
    }
}
