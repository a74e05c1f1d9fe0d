// The Foundation half of `hostctl bench`'s codec benchmark: encode + decode of Codable
// structs equivalent to the protocol's callback event and request, with JSONEncoder and
// JSONDecoder. A separate executable so that `hostctl` (which is also every worker) does not
// link Foundation. Prints one JSON line: nanoseconds per encode+decode, one figure per batch.
//
//   FoundationJSONBench --batches 50 --iterations 2000
//   {"callback":[1520.3,...],"request":[1480.9,...]}
//
// FoundationEssentials holds JSONEncoder and JSONDecoder (swift-foundation); importing it
// alone keeps ICU and the rest of Foundation out of this binary.
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// `{"type":"callback","name":"viewDidAppear","vc":"Detail"}`
struct CallbackMessage: Codable {
    var type: String
    var name: String
    var vc: String?
}

/// `{"id":42,"op":"push","vc":"Detail"}`
struct RequestMessage: Codable {
    var id: Int
    var op: String
    var vc: String?
}

func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
}

func option(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
        let number = Int(arguments[index + 1]), number > 0
    else { return value }
    return number
}

let batches = option("--batches", default: 50)
let iterations = option("--iterations", default: 2000)
let encoder = JSONEncoder()
let decoder = JSONDecoder()
let callback = CallbackMessage(type: "callback", name: "viewDidAppear", vc: "Detail")
let request = RequestMessage(id: 42, op: "push", vc: "Detail")
var sink = 0
var callbackFigures: [Double] = []
var requestFigures: [Double] = []
do {
    for batch in 0..<(batches + 1) {
        var start = now()
        for _ in 0..<iterations {
            let data = try encoder.encode(callback)
            let decoded = try decoder.decode(CallbackMessage.self, from: data)
            if decoded.vc != nil { sink &+= 1 }
        }
        var end = now()
        if batch > 0 { callbackFigures.append(Double(end - start) / Double(iterations)) }

        start = now()
        for _ in 0..<iterations {
            let data = try encoder.encode(request)
            let decoded = try decoder.decode(RequestMessage.self, from: data)
            if decoded.id == 42 { sink &+= 1 }
        }
        end = now()
        if batch > 0 { requestFigures.append(Double(end - start) / Double(iterations)) }
    }
} catch {
    let line = Array("FoundationJSONBench: \(error)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}
precondition(sink == 2 * (batches + 1) * iterations)
/// Tenths of a nanosecond are plenty: `1520.3`.
func list(_ figures: [Double]) -> String {
    figures.map { figure in
        let tenths = Int((figure * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }.joined(separator: ",")
}
print("{\"callback\":[\(list(callbackFigures))],\"request\":[\(list(requestFigures))]}")
