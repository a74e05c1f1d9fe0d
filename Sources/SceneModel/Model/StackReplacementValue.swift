import Protocol

/// What a replaced stack keeps and adds (`replaceStack`, LIFECYCLE.md §3b), as the first
/// `loadView` of the replacement carries it (`value`), so that the checker follows the
/// replacement from the trace alone.
///
/// Two forms: the kept indices alone, `[0]`, when the new top is the only new controller
/// (that `loadView` names it); `{"below":["List"],"kept":[0],"vc":"Detail"}` when new
/// controllers load below the new top (that `loadView` names the first of them).
package struct StackReplacementValue: Sendable, Hashable {
    /// The indices in the old stack of the controllers kept, increasing.
    package var kept: [Int]
    /// The new controllers between the kept ones and the new top, bottom first.
    package var below: [String]
    /// The new top: nil in the short form, where the `loadView` carrying it names it.
    package var top: String?

    /// The value of a replacement keeping `kept`, loading `below`, and pushing `top`.
    package init(kept: [Int], below: [String], top: String) {
        self.kept = kept
        self.below = below
        self.top = below.isEmpty ? nil : top
    }

    /// The form `value` takes in the trace.
    package var json: JSONValue {
        let indices = JSONValue.array(kept.map { .int($0) })
        guard let top else { return indices }
        return .object(["kept": indices, "below": .array(below.map { .string($0) }), "vc": .string(top)])
    }

    /// Reads `value`: nil unless it is one of the two forms, with non-negative indices in
    /// increasing order and non-empty names (at least one below the top in the long form).
    package init?(_ value: JSONValue?) {
        switch value {
        case .array(let items)?:
            guard let kept = Self.indices(items) else { return nil }
            // No controller below the new top: the carrying `loadView` names the top.
            self.init(kept: kept, below: [], top: "")
        case .object(let fields)? where fields.count == 3:
            guard case .array(let items)? = fields["kept"], let kept = Self.indices(items),
                case .array(let names)? = fields["below"], !names.isEmpty,
                case .string(let top)? = fields["vc"], !top.isEmpty
            else { return nil }
            var below: [String] = []
            for name in names {
                guard case .string(let name) = name, !name.isEmpty else { return nil }
                below.append(name)
            }
            self.init(kept: kept, below: below, top: top)
        default:
            return nil
        }
    }

    /// Every new controller, bottom first, the new top last; `firstLoaded` names the one
    /// the carrying `loadView` loaded (the new top, in the short form).
    package func newControllers(firstLoaded: String) -> [String] {
        guard let top else { return [firstLoaded] }
        return below + [top]
    }

    private static func indices(_ items: [JSONValue]) -> [Int]? {
        var kept: [Int] = []
        for item in items {
            guard case .int(let index) = item, index > kept.last ?? -1 else { return nil }
            kept.append(index)
        }
        return kept
    }
}
