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

    @Test func aURLOrAnActivityComesAfterTheForegroundTripNotInsideIt() {
        for name in [CallbackName.openURLContexts, .continueUserActivity] {
            var good = TraceBuilder()
            good.connectToForeground()
            good.toBackground()
            good.callback(.sceneWillEnterForeground)
            good.state(.background, .foregroundInactive)
            good.callback(.sceneDidBecomeActive)
            good.state(.foregroundInactive, .foregroundActive)
            good.callback(name)
            #expect(firstViolation(good.events) == nil)

            // Swapped with the become-active pair: inside the enter-foreground atom.
            var swapped = good.events
            swapped.insert(swapped.removeLast(), at: swapped.count - 2)
            for index in swapped.indices { swapped[index].seq = index + 1 }
            #expect(firstViolation(swapped)?.seq == swapped.count - 2)

            // In the background: never (the host brings the scene forward first).
            var background = TraceBuilder()
            background.connectToForeground()
            background.toBackground()
            background.callback(name)
            #expect(firstViolation(background.events)?.seq == background.events.count)
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
