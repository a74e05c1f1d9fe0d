import HostProcess
import Protocol
import SceneModel

// The control protocol of `hostctl serve`: newline-delimited JSON frames over a Unix socket.
//
//   request   {"id":1,"op":"push","scene":"A","vc":"Detail"}    a scenario step plus "id"
//             {"id":2,"op":"ps"}  {"id":3,"op":"events","fromSeq":1,"follow":true}  {"id":4,"op":"quit"}
//   reply     {"id":1,"ok":true}
//             {"id":2,"ok":true,"scenes":[{"scene":"A","session":true,...}]}
//             {"id":1,"ok":false,"error":{"code":1,"message":"scene A: push refused: ..."}}
//   events    {"event":{...one trace event...}} per event, then the request's reply
//
// Every request gets exactly one reply. `id` is echoed as given (any JSON value; null when
// the request had none or could not be read). Requests on one connection run in order.

/// One request to a serving host.
public struct ControlRequest: Sendable, Hashable {
    public enum Body: Sendable, Hashable {
        /// Any scenario step (an operation on a scene, `memoryPressure`, `waitFor`, `sleep`, `quit`).
        case step(Scenario.Step)
        /// Every scene's status.
        case ps
        /// The trace from `fromSeq` on; with `follow`, then every new event until the host quits.
        case events(fromSeq: Int, follow: Bool)
    }

    public var id: JSONValue
    public var body: Body

    public init(id: JSONValue, body: Body) {
        self.id = id
        self.body = body
    }

    /// The ops that are not scenario steps.
    public static let controlOps: Set<String> = ["ps", "events"]

    /// A request that cannot be served, with the `id` when it could be read.
    public struct DecodingError: Error, Sendable, Hashable {
        public var id: JSONValue
        public var error: ProtocolError
    }

    /// Decodes one frame (without its newline).
    public init(frame: [UInt8]) throws(DecodingError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(frame)
        } catch {
            throw DecodingError(id: .null, error: error)
        }
        try self.init(json: value)
    }

    /// Decodes a request object.
    public init(json value: JSONValue) throws(DecodingError) {
        guard case .object(var object) = value else {
            throw DecodingError(id: .null, error: ProtocolError(.invalidMessage, "a request must be a JSON object"))
        }
        let id = object.removeValue(forKey: "id") ?? .null
        func failure(_ code: ProtocolError.Code, _ message: String) -> DecodingError {
            DecodingError(id: id, error: ProtocolError(code, message))
        }
        guard case .string(let op)? = object["op"] else {
            throw failure(.invalidMessage, "a request needs \"op\" (a string)")
        }
        switch op {
        case "ps":
            for key in object.keys where key != "op" {
                throw failure(.invalidParameters, "ps: unknown field \(quoted(key))")
            }
            self.init(id: id, body: .ps)
        case "events":
            var fromSeq = 1
            var follow = false
            for (key, field) in object where key != "op" {
                switch (key, field) {
                case ("fromSeq", .int(let number)) where number >= 1:
                    fromSeq = number
                case ("fromSeq", _):
                    throw failure(.invalidParameters, "events: \"fromSeq\" must be an integer of at least 1")
                case ("follow", .bool(let flag)):
                    follow = flag
                case ("follow", _):
                    throw failure(.invalidParameters, "events: \"follow\" must be true or false")
                default:
                    throw failure(.invalidParameters, "events: unknown field \(quoted(key))")
                }
            }
            self.init(id: id, body: .events(fromSeq: fromSeq, follow: follow))
        default:
            guard Scenario.isStepOp(op) else {
                let known = (Scenario.stepOps + Self.controlOps).sorted().joined(separator: ", ")
                throw failure(.unknownOperation, "unknown op \(quoted(op)) (known: \(known))")
            }
            do {
                self.init(id: id, body: .step(try Scenario.step(fromJSON: .object(object))))
            } catch {
                throw failure(.invalidParameters, error.message)
            }
        }
    }

    /// The request object.
    public var json: JSONValue {
        var object: [String: JSONValue]
        switch body {
        case .step(let step):
            object = step.jsonObject
        case .ps:
            object = ["op": .string("ps")]
        case .events(let fromSeq, let follow):
            object = ["op": .string("events"), "fromSeq": .int(fromSeq), "follow": .bool(follow)]
        }
        object["id"] = id
        return .object(object)
    }

    /// The request as one frame, newline included.
    public var frame: [UInt8] {
        var bytes: [UInt8] = []
        JSONWriter.write(json, into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}

/// A serving host's answer to one request.
public struct ControlReply: Sendable, Hashable {
    public enum Result: Sendable, Hashable {
        case ok
        /// The answer to `ps`.
        case scenes([ControlSceneRow])
        /// What an operation returned (`inspect`: the visible tree), as `"result"`.
        case value(JSONValue)
        case failure(ProtocolError)
    }

    public var id: JSONValue
    public var result: Result
    /// For `ps`: the rows left out because the reply is limited in size
    /// (`ControlServer.maximumPsReplyBytes`); `"omitted"` on the wire, absent when 0.
    public var omittedRows: Int

    public init(id: JSONValue, result: Result, omittedRows: Int = 0) {
        self.id = id
        self.result = result
        self.omittedRows = omittedRows
    }

    /// The reply as one frame, newline included.
    public var frame: [UInt8] {
        var object: [String: JSONValue] = ["id": id]
        switch result {
        case .ok:
            object["ok"] = .bool(true)
        case .scenes(let rows):
            object["ok"] = .bool(true)
            object["scenes"] = .array(rows.map(\.json))
            if omittedRows > 0 { object["omitted"] = .int(omittedRows) }
        case .value(let value):
            object["ok"] = .bool(true)
            object["result"] = value
        case .failure(let error):
            object["ok"] = .bool(false)
            object["error"] = .object(["code": .int(error.code.rawValue), "message": .string(error.message)])
        }
        var bytes: [UInt8] = []
        JSONWriter.write(.object(object), into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Decodes a reply object (`nil` when `value` is not one).
    public init?(json value: JSONValue) {
        guard case .object(let object) = value, case .bool(let ok)? = object["ok"] else { return nil }
        let id = object["id"] ?? .null
        if !ok {
            guard case .object(let error)? = object["error"], case .int(let number)? = error["code"],
                case .string(let message)? = error["message"]
            else { return nil }
            // A code this build does not know still fails; `operationFailed` stands in for it.
            let code = ProtocolError.Code(rawValue: number) ?? .operationFailed
            self.init(id: id, result: .failure(ProtocolError(code, message)))
            return
        }
        if let value = object["result"] {
            self.init(id: id, result: .value(value))
            return
        }
        guard let scenes = object["scenes"] else {
            self.init(id: id, result: .ok)
            return
        }
        guard case .array(let items) = scenes else { return nil }
        var rows: [ControlSceneRow] = []
        for item in items {
            guard let row = ControlSceneRow(json: item) else { return nil }
            rows.append(row)
        }
        var omitted = 0
        if case .int(let count)? = object["omitted"], count > 0 { omitted = count }
        self.init(id: id, result: .scenes(rows), omittedRows: omitted)
    }
}

/// One frame a client receives: a trace event of an `events` request, or a reply.
public enum ControlServerFrame: Sendable, Hashable {
    case event(TraceEvent)
    case reply(ControlReply)

    /// `{"event":{...}}`: the trace event exactly as the trace file writes it, newline included.
    public static func eventFrame(_ event: TraceEvent, into buffer: inout [UInt8]) {
        buffer.append(contentsOf: #"{"event":"#.utf8)
        event.appendJSONLine(to: &buffer)
        buffer.removeLast()  // the trace line's newline
        buffer.append(contentsOf: "}\n".utf8)
    }

    /// Decodes one frame (without its newline). One level more than the JSON limit is read:
    /// the frame's own object around an event whose trace line may use all 64 (a worker's
    /// restoration state, say).
    public init(frame: [UInt8]) throws(ProtocolError) {
        let value = try JSONParser.parse(frame, maximumDepth: JSONParser.defaultMaximumDepth + 1)
        if case .object(let object) = value, let event = object["event"], object.count == 1 {
            var line: [UInt8] = []
            JSONWriter.write(event, into: &line)
            do {
                self = .event(try TraceEvent(jsonLine: line))
            } catch {
                throw ProtocolError(.invalidMessage, "bad event frame: \(error)")
            }
            return
        }
        guard let reply = ControlReply(json: value) else {
            throw ProtocolError(.invalidMessage, "not a reply or an event frame")
        }
        self = .reply(reply)
    }
}
