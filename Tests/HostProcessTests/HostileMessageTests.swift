import HostProcess
import HostTools
import Protocol
import SceneModel
import Testing

/// Names quoted from hostile input (a control request, a scenario file, a trace line) come
/// out of every error message escaped: `hostctl` prints each message as exactly one line,
/// so a newline or an escape sequence inside a name must not add lines or reach the
/// terminal. Found by the host fuzz target (Fuzz/FuzzHost.swift, docs/HARDENING.md).
@Suite struct HostileMessageTests {
    private func expectOneLine(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!message.utf8.contains { $0 < 0x20 }, "\(message.debugDescription)", sourceLocation: sourceLocation)
    }

    private func scenarioError(_ json: String) -> String? {
        do {
            _ = try Scenario(json: Array(json.utf8))
            return nil
        } catch {
            return error.message
        }
    }

    private func requestError(_ json: String) -> String? {
        do {
            _ = try ControlRequest(frame: Array(json.utf8))
            return nil
        } catch {
            return error.error.message
        }
    }

    @Test("a scenario file's field names, ops, states and signals are quoted and escaped")
    func scenarioMessages() {
        let cases: [(json: String, message: String)] = [
            (#"{"steps":[],"a\nb":1}"#, #"unknown top-level field "a\nb" (expected "config" and "steps")"#),
            (#"{"config":{"x\u001b[2J":1},"steps":[]}"#, #"config: unknown field "x\u001b[2J" (known: "#),
            (#"{"steps":[{"op":"fly\r\n"}]}"#, #"step 1: unknown op "fly\r\n" (known: "#),
            (#"{"steps":[{"op":"push","scene":"A","vc":"B","v\tc":1}]}"#, #"step 1 (push): unknown field "v\tc""#),
            (#"{"steps":[{"op":"waitFor","scene":"A","state":"up\n"}]}"#, #"step 1 (waitFor): unknown state "up\n""#),
            (#"{"steps":[{"op":"waitFor","scene":"A","process":"\u0007"}]}"#, #"unknown process state "\u0007""#),
            (#"{"steps":[{"op":"kill","scene":"A","signal":"TERM\nX"}]}"#, #"step 1 (kill): unknown signal "TERM\nX""#),
        ]
        for (json, message) in cases {
            guard let error = scenarioError(json) else {
                Issue.record("accepted \(json)")
                continue
            }
            expectOneLine(error)
            #expect(error.contains(message), "\(error)")
        }
    }

    @Test("a long hostile name is cut short in the message")
    func longNamesAreCut() {
        let key = String(repeating: "k", count: 5000)
        let error = scenarioError(#"{"steps":[],"\#(key)":1}"#) ?? ""
        let cut = String(repeating: "k", count: 64) + "…"
        #expect(error == #"unknown top-level field "\#(cut)" (expected "config" and "steps")"#)
    }

    @Test("a long scene name is cut short, in a scenario's error and in verify's")
    func longSceneNamesAreCut() {
        let scene = String(repeating: "S", count: 100_000)
        let cut = #""\#(String(repeating: "S", count: 64))…""#
        let error = scenarioError(#"{"steps":[{"op":"connect","scene":"\#(scene)"}]}"#) ?? ""
        #expect(error.utf8.count < 400 && error.contains("invalid scene identifier \(cut)"), "\(error.prefix(300))")
        var verifier = TraceVerifier()
        _ = verifier.check(TraceEvent(seq: 1, time: 0, kind: .host, name: "started"))
        let violation = verifier.check(
            TraceEvent(seq: 2, time: 0, kind: .process, scene: scene, processEvent: .spawned, pid: 5)
        )
        let message = violation?.description ?? ""
        #expect(message.utf8.count < 400, "\(message.prefix(300))")
        #expect(message.hasPrefix("seq 2, scene \(cut): expected a scene identifier"), "\(message.prefix(300))")
    }

    @Test("a control request's op, fields and signal are quoted and escaped")
    func controlMessages() {
        let cases: [(json: String, message: String)] = [
            (#"{"id":1,"op":"x\u001b[2J"}"#, #"unknown op "x\u001b[2J" (known: "#),
            (#"{"id":1,"op":"ps","a\nb":true}"#, #"ps: unknown field "a\nb""#),
            (#"{"id":1,"op":"events","\n":1}"#, #"events: unknown field "\n""#),
            (#"{"id":1,"op":"kill","scene":"A","signal":"0000f\f00"}"#, #"kill: unknown signal "0000f\f00""#),
            (#"{"id":1,"op":"x\ny","expectError":true}"#, #"unknown op "x\ny" (known: "#),
        ]
        for (json, message) in cases {
            guard let error = requestError(json) else {
                Issue.record("accepted \(json)")
                continue
            }
            expectOneLine(error)
            #expect(error.hasPrefix(message), "\(error)")
        }
        // Through the step parser alone too.
        do {
            _ = try Scenario.step(fromJSON: .object(["op": .string("x\ny"), "expectError": .bool(true)]))
            Issue.record("accepted an unknown op")
        } catch {
            expectOneLine(error.message)
            #expect(error.message.hasPrefix(#"unknown op "x\ny" (known: "#), "\(error.message)")
        }
    }

    @Test("a trace line's unknown value is quoted and escaped")
    func traceLineMessages() {
        do {
            _ = try TraceEvent(jsonLine: Array(#"{"seq":1,"t":0,"type":"x\ny"}"#.utf8))
            Issue.record("accepted an unknown type")
        } catch {
            #expect(error.description == #"field `type`: unknown value "x\ny""#)
        }
    }

    @Test("`hostctl verify`'s violations escape the names they quote from the trace")
    func verifierMessages() {
        func failure(_ lines: String) -> String {
            TraceVerifier.verify(jsonLines: Array(lines.utf8)).failure?.description ?? "valid"
        }
        #expect(
            failure(#"{"seq":1,"t":0,"type":"callback","scene":"A","name":"a\nb"}"#)
                == #"line 1: seq 1, scene A: expected process spawned or callback didDiscardSceneSessions, got callback "a\nb""#
        )
        #expect(
            failure(#"{"seq":2,"t":0,"type":"callback","scene":"A\r","name":"loadView","vc":"\u001b[2J"}"#)
                == #"line 1: seq 2, scene "A\r": expected seq 1 (the first event), got seq 2 (callback loadView (vc "\u001b[2J"))"#
        )
        #expect(
            failure(#"{"seq":5,"t":0,"type":"host","name":"started\nvalid: 5 events"}"#)
                == #"line 1: seq 5: expected seq 1 (the first event), got seq 5 (host "started\nvalid: 5 events")"#
        )
        #expect(
            failure(#"{"seq":3,"t":0,"type":"error","op":"\t"}"#)
                == #"line 1: seq 3: expected seq 1 (the first event), got seq 3 (error "\t")"#
        )
        // A controller name from the stack, in what the model expected next.
        let launch = [
            #"{"seq":1,"t":0,"type":"process","scene":"A","event":"spawned","pid":7}"#,
            #"{"seq":2,"t":0,"type":"callback","scene":"A","name":"willFinishLaunching"}"#,
            #"{"seq":3,"t":0,"type":"callback","scene":"A","name":"didFinishLaunching"}"#,
            #"{"seq":4,"t":0,"type":"callback","scene":"A","name":"willConnectTo"}"#,
            #"{"seq":5,"t":0,"type":"callback","scene":"A","name":"loadView","vc":"R\n"}"#,
            #"{"seq":6,"t":0,"type":"callback","scene":"A","name":"viewDidLoad","vc":"other"}"#,
        ]
        #expect(
            failure(launch.joined(separator: "\n"))
                == #"line 6: seq 6, scene A: expected callback viewDidLoad (vc "R\n"), got callback viewDidLoad (vc other)"#
        )
        // Clean names are shown as they are.
        #expect(
            failure(#"{"seq":2,"t":0,"type":"callback","scene":"A","name":"loadView","vc":"Root"}"#)
                == "line 1: seq 2, scene A: expected seq 1 (the first event), got seq 2 (callback loadView (vc Root))"
        )
    }
}
