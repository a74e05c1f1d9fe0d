/// A scene's waiting callers by caller id (`SceneController` keeps their continuations).
///
/// Usually one or two: a transition registers one and removes it, and a search of a few
/// entries costs less than hashing the id twice (a dictionary did, on every transition).
/// Beyond a few (thousands of `waitFor`s may wait on one scene) the rest go to a dictionary,
/// so that resuming them all stays linear.
import SceneModel

package struct WaitingCallers<Continuation> {
    /// How many are kept in the array that is searched.
    package static var searched: Int { 8 }

    private var few: [(caller: SceneMachine.CallerID, continuation: Continuation)] = []
    private var many: [SceneMachine.CallerID: Continuation] = [:]

    /// How many wait.
    package var count: Int { few.count + many.count }

    package mutating func add(_ caller: SceneMachine.CallerID, _ continuation: Continuation) {
        if few.count < Self.searched {
            few.append((caller, continuation))
        } else {
            many[caller] = continuation
        }
    }

    /// Removes and returns `caller`'s continuation; nil if it was taken already.
    package mutating func remove(_ caller: SceneMachine.CallerID) -> Continuation? {
        if let index = few.firstIndex(where: { $0.caller == caller }) {
            // Order does not matter: the last entry takes the removed one's place.
            few.swapAt(index, few.count - 1)
            return few.removeLast().continuation
        }
        guard !many.isEmpty else { return nil }
        return many.removeValue(forKey: caller)
    }
}
