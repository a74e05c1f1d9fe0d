/// The host's record of the scene's child controllers (LIFECYCLE.md §3a): only the frontmost
/// controller adds or removes children, but a controller covered by a push, a full-screen
/// presentation or another tab keeps its own, and shows them again when it is uncovered.
package struct SceneContainment: Sendable, Hashable {
    /// Per controller of the shown stack, root first: its children. Shorter than the stack
    /// when the top controllers have none.
    package var stack: [[String]] = []
    /// Each presented controller's children, the first presented first.
    package var presented: [[String]] = []
    /// Per tab (by index): its stack's children, saved while another tab is shown.
    package var tabs: [Int: [[String]]] = [:]

    /// The children of the top of a stack of `stackCount` controllers.
    package func children(ofTopOf stackCount: Int) -> [String] {
        stack.indices.contains(stackCount - 1) ? stack[stackCount - 1] : []
    }

    package mutating func add(_ name: String, presented isPresented: Bool, stackCount: Int) {
        if isPresented {
            if !presented.isEmpty { presented[presented.count - 1].append(name) }
            return
        }
        guard stackCount > 0 else { return }
        while stack.count < stackCount { stack.append([]) }
        stack[stackCount - 1].append(name)
    }

    package mutating func remove(_ name: String, presented isPresented: Bool, stackCount: Int) {
        if isPresented {
            if !presented.isEmpty { presented[presented.count - 1].removeAll { $0 == name } }
            return
        }
        guard stack.indices.contains(stackCount - 1) else { return }
        stack[stackCount - 1].removeAll { $0 == name }
    }

    /// The top was popped: its children went with it.
    package mutating func popped(stackCount: Int) {
        if stack.count > stackCount { stack.removeLast(stack.count - stackCount) }
    }

    /// The tab bar shows `tab` instead of `old`.
    package mutating func select(tab: Int, from old: Int) {
        tabs[old] = stack
        stack = tabs.removeValue(forKey: tab) ?? []
    }
}
