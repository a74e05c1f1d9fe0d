import HostProcess
import Protocol

/// The readable report of a fuzz failure: the steps, the two visible trees side by side (a
/// restoration failure), and the failing run's timeline.
public enum FuzzReportText {
    public static func render(_ failure: FuzzFailure, report: FuzzReport, seed: UInt64) -> String {
        var lines = [
            "hostctl fuzz found: \(failure)",
            "seed \(seed), run \(report.failingRun.map(String.init) ?? "?"); shrunk from "
                + "\(report.original?.steps.count ?? failure.steps.count) to \(failure.steps.count) steps",
            "",
            "steps (after connect):",
        ]
        lines += failure.steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }
        if let left = failure.left, let restored = failure.restored {
            lines += ["", "the screen the user left | the screen restoration brought back"]
            lines += sideBySide(outline(left.restorable), outline(restored.restorable))
        }
        lines += ["", "timeline:", TimelineFormatter.render(failure.events)]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A tree as indented lines: one per key and value.
    static func outline(_ value: JSONValue, indent: String = "") -> [String] {
        switch value {
        case .object(let object):
            return object.keys.sorted().flatMap { key -> [String] in
                let member = object[key]!
                switch member {
                case .object, .array: return [indent + key + ":"] + outline(member, indent: indent + "  ")
                default: return [indent + key + ": " + member.description]
                }
            }
        case .array(let items):
            return items.enumerated().flatMap { index, item -> [String] in
                switch item {
                case .object, .array: return [indent + "- [\(index)]"] + outline(item, indent: indent + "  ")
                default: return [indent + "- " + item.description]
                }
            }
        default:
            return [indent + value.description]
        }
    }

    static func sideBySide(_ left: [String], _ right: [String]) -> [String] {
        let width = min(60, (left.map(\.count).max() ?? 0))
        return (0..<max(left.count, right.count)).map { index in
            let a = index < left.count ? left[index] : ""
            let b = index < right.count ? right[index] : ""
            let mark = a == b ? " " : "≠"
            let padded = a.count >= width ? String(a.prefix(width)) : a + String(repeating: " ", count: width - a.count)
            return "\(padded) \(mark)| \(b)"
        }
    }
}
