import Protocol
import Testing

@testable import SceneWorker

/// `setViewControllers(_:animated:)` on the stack on screen (docs/LIFECYCLE.md §3b): the
/// change the worker reports, then exactly the callbacks it runs, in order.
@MainActor
@Suite("App stack replacement")
struct AppStackReplacementTests {
    private func navigation(_ h: Harness) -> NavigationController {
        h.session.scene!.window.navigationStack
    }

    private func titles(_ h: Harness) -> [String] {
        navigation(h).viewControllers.map(\.restorationIdentifier)
    }

    private func app(_ names: [String]) -> [String] { names.map { $0 + "@app" } }

    /// A new top over the root: the push transition to it, then the controllers left out
    /// released top-most first, every callback the app's; the stack is the root and the new top.
    @Test func aNewTopIsPushedThenTheControllersLeftOutGoTopMostFirst() {
        let h = Harness()
        h.connect()
        h.send(.push(viewController: "Detail"))
        h.send(.push(viewController: "More"))
        _ = h.session.takeOutput()
        // The root held in a variable: a stack read in the statement would keep the controllers
        // the change releases alive until the statement ends.
        do {
            let root = navigation(h).viewControllers[0]
            navigation(h).setViewControllers([root, UIViewController(restorationIdentifier: "Home")], animated: true)
        }
        #expect(
            h.render(h.session.takeOutput())
                == ["change replaceStack [0] Home"]
                + app(push("Home", over: "More") + ["More.deinit", "Detail.deinit"])
        )
        #expect(titles(h) == ["Root", "Home"])
        #expect(navigation(h).viewControllers[1].navigationController === navigation(h))
    }

    /// A whole new stack (after a login): the old root goes too, and the new top is the root.
    @Test func aStackOfANewControllerAloneReplacesTheRoot() {
        let h = Harness()
        h.connect()
        _ = h.session.takeOutput()
        navigation(h).setViewControllers([UIViewController(restorationIdentifier: "Home")], animated: true)
        #expect(
            h.render(h.session.takeOutput())
                == ["change replaceStack [] Home"] + app(push("Home", over: "Root") + ["Root.deinit"])
        )
        #expect(titles(h) == ["Home"])
    }

    /// The bottom part of the stack is a pop to its top; the stack plus a new top, a push; the
    /// stack itself, nothing.
    @Test func aBottomPartPopsAndAStackWithANewTopPushes() {
        let h = Harness()
        h.connect()
        for name in ["Detail", "More", "Extra"] { h.send(.push(viewController: name)) }
        _ = h.session.takeOutput()
        do {
            let stack = navigation(h).viewControllers
            navigation(h).setViewControllers(stack, animated: true)
        }
        #expect(h.session.takeOutput().isEmpty)
        do {
            let root = navigation(h).viewControllers[0]
            let detail = navigation(h).viewControllers[1]
            navigation(h).setViewControllers([root, detail], animated: true)
        }
        #expect(
            h.render(h.session.takeOutput())
                == ["change popTo 1"]
                + app([
                    "Extra.viewWillDisappear", "Detail.viewWillAppear", "Detail.viewIsAppearing", "More.deinit",
                    "Extra.viewDidDisappear", "Detail.viewDidAppear", "Extra.deinit",
                ])
        )
        do {
            let stack = navigation(h).viewControllers
            navigation(h).setViewControllers(stack + [UIViewController(restorationIdentifier: "Next")], animated: true)
        }
        #expect(
            h.render(h.session.takeOutput()) == ["change push Next"] + app(push("Next", over: "Detail"))
        )
        #expect(titles(h) == ["Root", "Detail", "Next"])
    }

    /// A deep link: new controllers below the new top load first, bottom first, as the
    /// model's choice (UIKit would load each once a pop reveals it), then the push transition
    /// to the new top, then the controllers left out go; with the whole stack kept, nothing
    /// goes. Each controller afterwards pops as any other.
    @Test func newControllersBelowTheNewTopLoadFirstBottomFirst() {
        let h = Harness()
        h.connect()
        for name in ["Detail", "More"] { h.send(.push(viewController: name)) }
        _ = h.session.takeOutput()
        do {
            let root = navigation(h).viewControllers[0]
            let new = ["Inbox", "Thread", "Message"].map { UIViewController(restorationIdentifier: $0) }
            navigation(h).setViewControllers([root] + new, animated: true)
        }
        #expect(
            h.render(h.session.takeOutput())
                == ["change replaceStack [0] Inbox,Thread + Message"]
                + app(
                    ["Inbox.loadView", "Inbox.viewDidLoad", "Thread.loadView", "Thread.viewDidLoad"]
                        + push("Message", over: "More") + ["More.deinit", "Detail.deinit"]
                )
        )
        #expect(titles(h) == ["Root", "Inbox", "Thread", "Message"])
        #expect(navigation(h).viewControllers.allSatisfy { $0.navigationController === navigation(h) })
        do {
            let stack = navigation(h).viewControllers
            let new = ["Compose", "Draft"].map { UIViewController(restorationIdentifier: $0) }
            navigation(h).setViewControllers(stack + new, animated: true)
        }
        #expect(
            h.render(h.session.takeOutput())
                == ["change replaceStack [0,1,2,3] Compose + Draft"]
                + app(["Compose.loadView", "Compose.viewDidLoad"] + push("Draft", over: "Message"))
        )
        navigation(h).popViewController(animated: true)
        #expect(
            h.render(h.session.takeOutput())
                == ["change pop"]
                + app([
                    "Draft.viewWillDisappear", "Compose.viewWillAppear", "Compose.viewIsAppearing",
                    "Compose.viewWillLayoutSubviews", "Compose.viewDidLayoutSubviews", "Draft.viewDidDisappear",
                    "Compose.viewDidAppear", "Draft.deinit",
                ])
        )
        #expect(titles(h) == ["Root", "Inbox", "Thread", "Message", "Compose"])
    }

    /// What scenehost cannot run as UIKit would is refused, nothing changed and nothing sent:
    /// a controller of the stack above a new one or out of its order, the top kept with
    /// controllers below it dropped, a controller twice, a new controller whose view is loaded
    /// already (its loadView would not run) or that another stack holds, an empty stack.
    @Test func whatTheModelCannotFollowIsRefusedWithNothingChanged() {
        let h = Harness()
        h.connect()
        for name in ["Detail", "More"] { h.send(.push(viewController: name)) }
        let loaded = UIViewController(restorationIdentifier: "Loaded")
        loaded.runLoadViewIfNeeded()
        let elsewhere = UIViewController(restorationIdentifier: "Elsewhere")
        let otherStack = UINavigationController(rootViewController: elsewhere)
        _ = h.session.takeOutput()
        let stack = navigation(h).viewControllers
        let new = UIViewController(restorationIdentifier: "New")
        for attempt in [
            [stack[0], UIViewController(restorationIdentifier: "List"), stack[1], new],
            [stack[1], stack[0], new],
            [stack[0], stack[2]],
            [stack[0], new, new],
            [stack[0], loaded, new],
            [stack[0], loaded],
            [stack[0], elsewhere, new],
            [stack[0], elsewhere],
            [],
        ] {
            navigation(h).setViewControllers(attempt, animated: true)
        }
        #expect(h.session.takeOutput().isEmpty)
        #expect(titles(h) == ["Root", "Detail", "More"])
        #expect(otherStack.viewControllers.map(\.restorationIdentifier) == ["Elsewhere"])
    }

    /// Asked for inside a request's callback, the replacement waits for its reply, and is
    /// judged against the stack it finds then.
    @Test func aReplacementAskedForInsideACallbackRunsAfterTheReply() {
        let delegate = ScriptedSceneDelegate()
        delegate.onNotification = { scene, _ in
            let home = UIViewController(restorationIdentifier: "Home")
            scene.window.navigationStack.setViewControllers([home], animated: true)
        }
        let h = Harness(sceneDelegate: delegate)
        h.connect()
        h.send(.push(viewController: "Detail"))
        #expect(
            h.send(.notify(name: "loggedIn", value: .null))
                == ["didReceiveNotification", "reply 3", "change replaceStack [] Home"]
                + app(push("Home", over: "Detail") + ["Detail.deinit", "Root.deinit"])
        )
        #expect(titles(h) == ["Home"])
    }

    /// A presentation asked for in the same callback as a deep link that puts its controller
    /// in the stack is judged again when it runs, after the replacement: the controller is
    /// shown by then, so it is refused and logged, and nothing is loaded twice.
    @Test func aPresentationOfAControllerTheDeepLinkShowsIsRefusedWhenItRuns() {
        let delegate = ScriptedSceneDelegate()
        delegate.onNotification = { scene, _ in
            let stack = scene.window.navigationStack
            let root = stack.viewControllers[0]
            let inbox = UIViewController(restorationIdentifier: "Inbox")
            stack.setViewControllers([root, inbox, UIViewController(restorationIdentifier: "Thread")], animated: true)
            root.present(inbox, animated: true)
        }
        let h = Harness(sceneDelegate: delegate)
        h.connect()
        #expect(
            h.send(.notify(name: "openThread", value: .null))
                == ["didReceiveNotification", "reply 2", "change replaceStack [0] Inbox + Thread"]
                + app(["Inbox.loadView", "Inbox.viewDidLoad"] + push("Thread", over: "Root"))
        )
        #expect(titles(h) == ["Root", "Inbox", "Thread"])
        #expect(navigation(h).presentedChain.isEmpty)
    }

    /// A child added to the new top of a deep link asked for in the same callback is added
    /// once the replacement ran, as after a push: the top is frontmost by then.
    @Test func aChildOfTheDeepLinksTopIsAddedAfterTheReplacement() {
        let delegate = ScriptedSceneDelegate()
        delegate.onNotification = { scene, _ in
            let stack = scene.window.navigationStack
            let thread = UIViewController(restorationIdentifier: "Thread")
            stack.setViewControllers(
                [stack.viewControllers[0], UIViewController(restorationIdentifier: "Inbox"), thread],
                animated: true
            )
            thread.addChild(UIViewController(restorationIdentifier: "Composer"))
        }
        let h = Harness(sceneDelegate: delegate)
        h.connect()
        h.send(.push(viewController: "Detail"))
        #expect(
            h.send(.notify(name: "openThread", value: .null))
                == ["didReceiveNotification", "reply 3", "change replaceStack [0] Inbox + Thread"]
                + app(["Inbox.loadView", "Inbox.viewDidLoad"] + push("Thread", over: "Detail") + ["Detail.deinit"])
                + appAddedChild("Composer")
        )
        #expect(titles(h) == ["Root", "Inbox", "Thread"])
        #expect(navigation(h).topViewController?.children.map(\.restorationIdentifier) == ["Composer"])
    }
}
