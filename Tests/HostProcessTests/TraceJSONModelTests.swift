import Foundation
import HostProcess
import HostTools
import Protocol
import SceneModel
import Testing

/// The trace line format (CLI.md) and verification of JSON Lines.
@Suite struct TraceJSONModelTests {
    private func line(_ event: TraceEvent) -> String {
        var buffer: [UInt8] = []
        event.appendJSONLine(to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    private func decode(_ text: String) throws(TraceDecodingError) -> TraceEvent {
        try TraceEvent(jsonLine: Array(text.utf8))
    }

    private func expectRoundTrip(_ event: TraceEvent, sourceLocation: SourceLocation = #_sourceLocation) {
        var buffer: [UInt8] = []
        event.appendJSONLine(to: &buffer)
        #expect(buffer.last == UInt8(ascii: "\n"), sourceLocation: sourceLocation)
        #expect(buffer.dropLast().contains(UInt8(ascii: "\n")) == false, sourceLocation: sourceLocation)
        do {
            let decoded = try TraceEvent(jsonLine: buffer)
            #expect(decoded == event, "\(String(decoding: buffer, as: UTF8.self))", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(error) for \(String(decoding: buffer, as: UTF8.self))", sourceLocation: sourceLocation)
        }
    }

    // MARK: Round trips

    @Test func roundTripOfEachKind() {
        expectRoundTrip(
            TraceEvent(
                seq: 1,
                time: 0.012345,
                kind: .callback,
                scene: "A",
                name: "viewDidAppear",
                viewController: "Root"
            )
        )
        expectRoundTrip(
            TraceEvent(
                seq: 2,
                time: 1.5,
                kind: .callback,
                scene: "A",
                name: "willConnectTo",
                restoration: .object(["stack": .array([.string("Root"), .string("Detail")]), "n": .int(2)])
            )
        )
        expectRoundTrip(
            TraceEvent(
                seq: 3,
                time: 2,
                kind: .callback,
                scene: "A",
                name: "didReceiveNotification",
                notification: "refresh",
                value: .object(["count": .int(3), "ok": .bool(true), "x": .null])
            )
        )
        expectRoundTrip(
            TraceEvent(seq: 4, time: 3.25, kind: .state, scene: "A", from: .background, to: .foregroundInactive)
        )
        expectRoundTrip(TraceEvent(seq: 5, time: 4, kind: .process, scene: "A", processEvent: .spawned, pid: 4242))
        expectRoundTrip(TraceEvent(seq: 6, time: 4.5, kind: .process, scene: "A", processEvent: .suspended, pid: 4242))
        expectRoundTrip(TraceEvent(seq: 7, time: 5, kind: .process, scene: "A", processEvent: .resumed, pid: 4242))
        expectRoundTrip(
            TraceEvent(
                seq: 8,
                time: 6,
                kind: .process,
                scene: "A",
                processEvent: .exited,
                pid: 4242,
                reason: .killed,
                signal: "KILL"
            )
        )
        expectRoundTrip(
            TraceEvent(
                seq: 9,
                time: 7,
                kind: .process,
                scene: "A",
                processEvent: .exited,
                pid: 4242,
                reason: .backgroundTaskTimeout,
                status: 0
            )
        )
        expectRoundTrip(TraceEvent(seq: 10, time: 8, kind: .host, name: "started"))
        expectRoundTrip(
            TraceEvent(
                seq: 11,
                time: 9,
                kind: .error,
                scene: "A",
                op: "push",
                code: 1,
                message: "scene A is in background"
            )
        )
        expectRoundTrip(
            TraceEvent(seq: 12, time: 10, kind: .callback, scene: "A", name: "didReceiveNotification", value: .null)
        )
        for reason in TerminationReason.allCases {
            expectRoundTrip(
                TraceEvent(seq: 13, time: 11, kind: .process, scene: "B", processEvent: .exited, pid: 7, reason: reason)
            )
        }
        for from in ActivationState.allCases {
            for to in ActivationState.allCases {
                expectRoundTrip(TraceEvent(seq: 14, time: 12, kind: .state, scene: "B", from: from, to: to))
            }
        }
    }

    @Test func roundTripOfAwkwardValues() {
        expectRoundTrip(
            TraceEvent(
                seq: Int.max,
                time: 123_456.654321,
                kind: .error,
                scene: "scène \"quoted\"\n\ttab \u{1F600}",
                op: "op\\",
                code: Int.min,
                message: "line\u{0001}control"
            )
        )
        expectRoundTrip(
            TraceEvent(
                seq: 1,
                time: 0,
                kind: .process,
                scene: "A",
                processEvent: .exited,
                pid: Int32.max,
                reason: .crashed,
                status: Int32.min
            )
        )
    }

    @Test func fieldOrderAndFormat() {
        let event = TraceEvent(
            seq: 17,
            time: 0.012345,
            kind: .callback,
            scene: "A",
            name: "n",
            viewController: "V",
            from: .unattached,
            to: .background,
            processEvent: .exited,
            pid: 9,
            reason: .crashed,
            status: 1,
            signal: "SEGV",
            restoration: .object(["b": .int(1), "a": .int(2)]),
            notification: "note",
            value: .bool(false),
            op: "push",
            code: 2,
            message: "m"
        )
        #expect(
            line(event)
                == #"{"seq":17,"t":0.012345,"type":"callback","scene":"A","name":"n","vc":"V","from":"unattached","to":"background","event":"exited","pid":9,"reason":"crashed","status":1,"signal":"SEGV","restoration":{"a":2,"b":1},"notification":"note","value":false,"op":"push","code":2,"message":"m"}"#
                + "\n"
        )
        #expect(
            line(TraceEvent(seq: 1, time: 0, kind: .host, name: "started"))
                == #"{"seq":1,"t":0.000000,"type":"host","name":"started"}"# + "\n"
        )
    }

    @Test func timeHasMicrosecondPrecision() {
        func t(_ time: Double) -> String {
            let text = line(TraceEvent(seq: 1, time: time, kind: .host))
            let start = text.range(of: #""t":"#)!.upperBound
            return String(text[start...].prefix { $0 != "," })
        }
        #expect(t(0.012345) == "0.012345")
        #expect(t(1.5) == "1.500000")
        #expect(t(12.3456789) == "12.345679")
        #expect(t(0.0000004) == "0.000000")
        #expect(t(59.9999996) == "60.000000")
        #expect(t(86_400.000001) == "86400.000001")
        #expect(t(-0.25) == "-0.250000")
        #expect(t(.nan) == "0.000000")
        let decoded = try? decode(line(TraceEvent(seq: 1, time: 12.3456789, kind: .host)))
        #expect(decoded?.time == 12.345679)
    }

    // MARK: Decoding

    @Test func decodingAcceptsIntegerTimeTrailingNewlineAndUnknownFields() throws {
        let event = try decode(
            #"{"seq":3,"t":2,"type":"state","scene":"A","from":"background","to":"unattached","future":[1,{"x":null}]}"#
                + "\n"
        )
        #expect(event == TraceEvent(seq: 3, time: 2, kind: .state, scene: "A", from: .background, to: .unattached))
    }

    @Test func malformedLinesAreTypedErrors() {
        func failure(_ text: String) -> TraceDecodingError? {
            do {
                _ = try decode(text)
                return nil
            } catch {
                return error
            }
        }
        if case .invalidJSON = failure(#"{"seq":1,"#) {} else { Issue.record("truncated line") }
        if case .invalidJSON = failure("") {} else { Issue.record("empty line") }
        if case .invalidJSON = failure(#"{"seq":1,"seq":2,"t":0,"type":"host"}"#) {
        } else {
            Issue.record("duplicate key")
        }
        #expect(failure("[1]") == .notAnObject)
        #expect(failure(#"{"t":0,"type":"host"}"#) == .missingField("seq"))
        #expect(failure(#"{"seq":1,"type":"host"}"#) == .missingField("t"))
        #expect(failure(#"{"seq":1,"t":0}"#) == .missingField("type"))
        #expect(failure(#"{"seq":"1","t":0,"type":"host"}"#) == .wrongType(field: "seq", expected: "an integer"))
        #expect(failure(#"{"seq":1.5,"t":0,"type":"host"}"#) == .wrongType(field: "seq", expected: "an integer"))
        #expect(failure(#"{"seq":1,"t":"0","type":"host"}"#) == .wrongType(field: "t", expected: "a number"))
        #expect(failure(#"{"seq":1,"t":0,"type":"bogus"}"#) == .unknownValue(field: "type", value: "bogus"))
        #expect(
            failure(#"{"seq":1,"t":0,"type":"state","scene":"A","from":"background","to":"sideways"}"#)
                == .unknownValue(field: "to", value: "sideways")
        )
        #expect(
            failure(#"{"seq":1,"t":0,"type":"process","scene":"A","event":"paused"}"#)
                == .unknownValue(field: "event", value: "paused")
        )
        #expect(
            failure(#"{"seq":1,"t":0,"type":"process","scene":"A","event":"exited","reason":"old-age"}"#)
                == .unknownValue(field: "reason", value: "old-age")
        )
        #expect(
            failure(#"{"seq":1,"t":0,"type":"process","scene":"A","event":"spawned","pid":1099511627776}"#)
                == .outOfRange(field: "pid", value: "1099511627776")
        )
        #expect(
            failure(#"{"seq":1,"t":0,"type":"host","scene":null}"#) == .wrongType(field: "scene", expected: "a string")
        )
        #expect(failure(#"{"seq":1,"t":0,"type":"callback","scene":"A"}"#) == .missingField("name"))
        #expect(failure(#"{"seq":1,"t":0,"type":"state","scene":"A","to":"background"}"#) == .missingField("from"))
        #expect(failure(#"{"seq":1,"t":0,"type":"process","scene":"A"}"#) == .missingField("event"))
        #expect(failure(#"{"seq":1,"t":0,"type":"process","scene":"A","event":"exited"}"#) == .missingField("pid"))
        #expect(
            failure(#"{"seq":1,"t":0,"type":"process","scene":"A","event":"exited","pid":7}"#)
                == .missingField("reason")
        )
        // A tab count the host never records: `verify` once built arrays of it (a crash at -1).
        for tabs in [-1, 0, 33, 1 << 40] {
            #expect(
                failure(#"{"seq":1,"t":0,"type":"callback","scene":"A","name":"willConnectTo","tabs":\#(tabs)}"#)
                    == .outOfRange(field: "tabs", value: String(tabs))
            )
        }
        #expect(
            TraceDecodingError.unknownValue(field: "to", value: "sideways").description
                == "field `to`: unknown value \"sideways\""
        )
    }

    // MARK: Verifying JSON Lines

    private func jsonLines(_ events: [TraceEvent]) -> [UInt8] {
        var buffer: [UInt8] = []
        for event in events { event.appendJSONLine(to: &buffer) }
        return buffer
    }

    @Test func verifiesAValidTrace() {
        let life = fullLife()
        let result = TraceVerifier.verify(jsonLines: jsonLines(life))
        #expect(result.isValid)
        #expect(result.eventCount == life.count)
        // Without the final newline too.
        let cut = TraceVerifier.verify(jsonLines: Array(jsonLines(life).dropLast()))
        #expect(cut == result)
    }

    /// A blank line (an editor's trailing newline, a line of spaces) is no event and no error;
    /// line numbers still count it.
    @Test func blankLinesAreSkipped() throws {
        let life = fullLife()
        let blank = Array("\n  \t\r\n".utf8)
        let padded = Array(jsonLines(Array(life.prefix(3)))) + blank + jsonLines(Array(life.dropFirst(3))) + blank
        let result = TraceVerifier.verify(jsonLines: padded)
        #expect(result.isValid && result.eventCount == life.count)
        #expect(try TraceEvent.events(jsonLines: padded).map(\.seq) == life.map(\.seq))
        // A bad line after them is reported with its line in the file.
        let bad = padded + Array("{\"seq\":\n".utf8)
        #expect(TraceVerifier.verify(jsonLines: bad).failure?.line == life.count + 5)
        #expect(throws: TraceLineError.self) { try TraceEvent.events(jsonLines: bad) }
    }

    @Test func reportsTheFirstViolationWithItsLine() {
        var life = fullLife()
        life.swapAt(13, 14)  // a state event before its callback (seq renumbered below)
        for index in life.indices { life[index].seq = index + 1 }
        let result = TraceVerifier.verify(jsonLines: jsonLines(life))
        #expect(result.eventCount == 13)
        guard case .violation(let violation) = result.failure?.problem else {
            Issue.record("expected a violation, got \(String(describing: result.failure))")
            return
        }
        #expect(result.failure?.line == 14)
        #expect(violation.seq == 14)
        #expect(violation.scene == "A")
        #expect(violation.expected.hasSuffix(" or callback sceneDidBecomeActive"))
        #expect(
            result.failure?.description.hasPrefix("line 14: seq 14, scene A: expected callback openURLContexts or ")
                == true
        )
        #expect(
            result.failure?.description.hasSuffix(
                "callback sceneDidBecomeActive, got state foregroundInactive -> foregroundActive"
            ) == true
        )
    }

    @Test func reportsAMalformedLineWithItsNumber() {
        var bytes = jsonLines(Array(fullLife().prefix(2)))
        bytes += Array(#"{"seq":3,"t":0.1,"type":"state","scene":"A","from":"nowhere","to":"background"}"#.utf8) + [10]
        bytes += jsonLines(Array(fullLife()[3...]))
        let result = TraceVerifier.verify(jsonLines: bytes)
        #expect(result.eventCount == 2)
        #expect(
            result.failure
                == TraceVerificationFailure(
                    line: 3,
                    problem: .malformed(.unknownValue(field: "from", value: "nowhere"))
                )
        )

        // A blank line is skipped (`blankLinesAreSkipped`), not malformed.
        let blank = TraceVerifier.verify(jsonLines: jsonLines(Array(fullLife().prefix(2))) + [10])
        #expect(blank.isValid && blank.eventCount == 2)
    }

    @Test func verifiesAFile() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("trace-\(UInt64.random(in: 0...UInt64.max)).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Big enough to span several read chunks.
        var events: [TraceEvent] = []
        var builder = TraceBuilder()
        builder.connectToForeground()
        for index in 0..<3_000 { builder.notification("tick", .int(index)) }
        events = builder.events
        let bytes = jsonLines(events)
        #expect(bytes.count > 3 * 65_536)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let result = try TraceVerifier.verify(contentsOf: path)
        #expect(result.isValid)
        #expect(result.eventCount == events.count)

        #expect(throws: TraceFileError.self) { try TraceVerifier.verify(contentsOf: path + ".missing") }
    }
}
