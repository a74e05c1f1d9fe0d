/// Callbacks that differ from the expected order. `description` is a line diff:
///
/// ```
/// callbacks of scene Inbox differ from the expected ones (- expected, + actual):
///   willConnectTo
/// - Root.loadView
/// + List.loadView
///   List.viewDidLoad
/// ```
public struct CallbackOrderMismatch: Error, Sendable, Hashable, CustomStringConvertible {
    /// The scene, when known.
    public var scene: String?
    public var expected: [String]
    public var actual: [String]
    /// Where the expectation was written (`File.swift:42`), when known: a thrown mismatch is
    /// reported where the test function starts, so the description says where it came from.
    public var location: String?

    public init(scene: String?, expected: [String], actual: [String], location: String? = nil) {
        self.scene = scene
        self.expected = expected
        self.actual = actual
        self.location = location
    }

    public var description: String {
        let subject = scene.map { "callbacks of scene \($0)" } ?? "callbacks"
        let place = location.map { " at \($0)" } ?? ""
        var lines = ["\(subject) differ from the expected ones\(place) (- expected, + actual):"]
        for line in Self.diff(expected, actual) {
            switch line {
            case .same(let callback): lines.append("  " + callback)
            case .missing(let callback): lines.append("- " + callback)
            case .unexpected(let callback): lines.append("+ " + callback)
            }
        }
        return lines.joined(separator: "\n")
    }

    enum DiffLine: Equatable {
        case same(String)
        case missing(String)
        case unexpected(String)
    }

    /// A shortest edit script by longest common subsequence. Beyond 4,096 lines a side (a
    /// table of 16 M entries) it lists both sides in full instead.
    static func diff(_ expected: [String], _ actual: [String]) -> [DiffLine] {
        let n = expected.count
        let m = actual.count
        guard n <= 4096, m <= 4096 else {
            return expected.map(DiffLine.missing) + actual.map(DiffLine.unexpected)
        }
        // common[i][j]: the longest common subsequence of expected[i...] and actual[j...].
        var common = [Int](repeating: 0, count: (n + 1) * (m + 1))
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                common[i * (m + 1) + j] =
                    expected[i] == actual[j]
                    ? common[(i + 1) * (m + 1) + j + 1] + 1
                    : max(common[(i + 1) * (m + 1) + j], common[i * (m + 1) + j + 1])
            }
        }
        var lines: [DiffLine] = []
        var i = 0
        var j = 0
        while i < n || j < m {
            if i < n, j < m, expected[i] == actual[j] {
                lines.append(.same(expected[i]))
                i += 1
                j += 1
            } else if i < n, j == m || common[(i + 1) * (m + 1) + j] >= common[i * (m + 1) + j + 1] {
                lines.append(.missing(expected[i]))
                i += 1
            } else {
                lines.append(.unexpected(actual[j]))
                j += 1
            }
        }
        return lines
    }
}

/// Throws `CallbackOrderMismatch` (its description a readable diff) unless `actual` is
/// exactly `expected`. In a Swift Testing test a thrown mismatch fails the test and prints
/// the diff.
public func expectCallbacks(
    _ actual: [String],
    _ expected: [String],
    scene: String? = nil,
    fileID: String = #fileID,
    line: Int = #line
) throws(CallbackOrderMismatch) {
    guard actual != expected else { return }
    throw CallbackOrderMismatch(scene: scene, expected: expected, actual: actual, location: "\(fileID):\(line)")
}
