import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

/// `hostctl verify` on the app level (docs/LIFECYCLE.md §3c): each new order is accepted,
/// and the same order with one pair swapped is rejected.
@Suite struct AppLevelTraceTests {
    @Test func theLaunchStartsWithWillFinishLaunching() {
        var good = TraceBuilder()
        good.connectToForeground()
        #expect(firstViolation(good.events) == nil)

        var swapped = good.events
        swapped.swapAt(1, 2)  // didFinishLaunching before willFinishLaunching
        for index in swapped.indices { swapped[index].seq = index + 1 }
        let violation = firstViolation(swapped)
        #expect(violation?.seq == 2)
        #expect(violation?.expected == "callback willFinishLaunching")

        var missing = good.events
        missing.remove(at: 1)
        for index in missing.indices { missing[index].seq = index + 1 }
        #expect(firstViolation(missing)?.expected == "callback willFinishLaunching")
    }

    @Test func aTapIsTouchesBeganThenTouchesEndedOnTheTop() {
        var good = TraceBuilder()
        good.connectToForeground()
        good.push("Detail", over: "Root")
        good.callback(.touchesBegan, "Detail")
        good.callback(.touchesEnded, "Detail")
        #expect(firstViolation(good.events) == nil)

        var swapped = good.events
        swapped.swapAt(swapped.count - 2, swapped.count - 1)
        for index in swapped.indices { swapped[index].seq = index + 1 }
        #expect(firstViolation(swapped)?.seq == swapped.count - 1)

        // Not the frontmost controller.
        var hidden = TraceBuilder()
        hidden.connectToForeground()
        hidden.push("Detail", over: "Root")
        hidden.callback(.touchesBegan, "Root")
        #expect(firstViolation(hidden.events) != nil)
    }

    /// real-ios-orders-3 c07, c10, c12: from the background, between `sceneWillEnterForeground`
    /// and `sceneDidBecomeActive`; in the foreground, on its own.
    @Test func whatTheSystemHandsABackgroundSceneComesOnItsWayToTheForeground() {
        for name in [
            CallbackName.openURLContexts, .continueUserActivity, .performActionFor, .userNotificationCenterDidReceive,
        ] {
            var good = TraceBuilder()
            good.connectToForeground()
            good.toBackground()
            good.callback(.sceneWillEnterForeground)
            good.state(.background, .foregroundInactive)
            good.callback(name)
            good.callback(.sceneDidBecomeActive)
            good.state(.foregroundInactive, .foregroundActive)
            #expect(firstViolation(good.events) == nil, "\(name)")
            // An active scene gets it on its own.
            var active = good
            active.callback(name)
            #expect(firstViolation(active.events) == nil, "\(name)")

            // Swapped with sceneWillEnterForeground: in the background, never.
            var swapped = good.events
            swapped.swapAt(swapped.count - 5, swapped.count - 3)
            for index in swapped.indices { swapped[index].seq = index + 1 }
            #expect(firstViolation(swapped)?.seq == swapped.count - 4, "\(name)")

            // After sceneDidBecomeActive but before its state event: inside the become-active step.
            var late = good.events
            late.swapAt(late.count - 3, late.count - 2)
            for index in late.indices { late[index].seq = index + 1 }
            #expect(firstViolation(late)?.seq == late.count - 1, "\(name)")

            var background = TraceBuilder()
            background.connectToForeground()
            background.toBackground()
            background.callback(name)
            #expect(firstViolation(background.events)?.seq == background.events.count, "\(name)")
        }
    }

    @Test func anInactiveOrBackgroundSceneReceivesNoTouches() {
        var inactive = TraceBuilder()
        inactive.connectToForeground()
        inactive.callback(.sceneWillResignActive)
        inactive.state(.foregroundActive, .foregroundInactive)
        inactive.callback(.touchesBegan, "Root")
        #expect(firstViolation(inactive.events)?.seq == inactive.events.count)

        var background = TraceBuilder()
        background.connectToForeground()
        background.toBackground()
        background.callback(.touchesBegan, "Root")
        #expect(firstViolation(background.events)?.seq == background.events.count)
    }
}
