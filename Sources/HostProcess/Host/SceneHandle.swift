import Protocol
import SceneModel

/// One scene of a `SceneHost`: an async method per operation, each run after every
/// operation enqueued before it. Refused operations throw `HostError.refused` (or
/// `HostError.requestTooLarge`, see `RequestLimits`) and change nothing.
public struct SceneHandle: Sendable {
    package let controller: SceneController
    /// The frame limit requests are checked against (`RequestLimits`).
    package let frameLimit: Int

    package init(controller: SceneController, frameLimit: Int) {
        self.controller = controller
        self.frameLimit = frameLimit
    }

    /// The session's persistent identifier.
    public var identifier: String { controller.id }

    /// Runs any operation but the host's own fan-outs to an app's other windows
    /// (`windowTerminate`, `windowMemoryWarning`), which are refused: those hear nothing when
    /// their window has no worker, so a client's own request must not take that form.
    public nonisolated(nonsending) func perform(_ op: SceneOperation) async throws {
        // A pattern, not `==`: every request passes here.
        switch op {
        case .windowTerminate, .windowMemoryWarning:
            throw HostError.refused(
                scene: identifier,
                op: op.name,
                reason:
                    "a window's share of its app's \(op.name) is the host's own: ask \(op.name) of any of the app's windows, and the others hear of it"
            )
        default: break
        }
        try RequestLimits.check(op, scene: identifier, frameLimit: frameLimit)
        try await controller.perform(op)
    }

    /// Connects the scene; `launch` carries the URL it is opened with and the size it
    /// launches at.
    public nonisolated(nonsending) func connect(
        background: Bool = false,
        root: String = "Root",
        worker: [String]? = nil,
        launch: LaunchParameters = LaunchParameters()
    ) async throws {
        try await perform(.connect(background: background, root: root, worker: worker, launch: launch))
    }
    public nonisolated(nonsending) func activate() async throws { try await perform(.activate) }
    public nonisolated(nonsending) func deactivate() async throws { try await perform(.deactivate) }
    public nonisolated(nonsending) func background() async throws { try await perform(.background) }
    public nonisolated(nonsending) func foreground() async throws { try await perform(.foreground) }
    public nonisolated(nonsending) func disconnect() async throws { try await perform(.disconnect) }
    public nonisolated(nonsending) func discard() async throws { try await perform(.discard) }
    /// Pushes a controller named `viewController`; `payload` goes to the worker's controller
    /// factory with the name (the item to show, say), so names need not encode it.
    public nonisolated(nonsending) func push(_ viewController: String, payload: JSONValue? = nil) async throws {
        try await perform(.push(viewController: viewController, payload: payload))
    }
    public nonisolated(nonsending) func pop() async throws { try await perform(.pop) }
    /// Selects tab `index` (from 0) of a tab bar root (connected with `LaunchParameters.tabs`).
    public nonisolated(nonsending) func selectTab(_ index: Int) async throws {
        try await perform(.selectTab(index: index))
    }
    /// Presents `viewController` over the stack (`pageSheet` unless `style` says otherwise).
    /// `modalInPresentation`: the user cannot swipe it away (a swipe only tells the delegate).
    public nonisolated(nonsending) func present(
        _ viewController: String,
        style: PresentationStyle = .pageSheet,
        modalInPresentation: Bool = false
    ) async throws {
        try await perform(
            .present(viewController: viewController, style: style, modalInPresentation: modalInPresentation)
        )
    }
    /// Pops the stack to its root (the middle controllers are released with no callbacks).
    public nonisolated(nonsending) func popToRoot() async throws { try await perform(.popToRoot) }
    /// Dismisses the presented controller (programmatically).
    public nonisolated(nonsending) func dismiss() async throws { try await perform(.dismiss) }
    /// The user swipes the presented sheet down; `completes: false` lets it spring back.
    public nonisolated(nonsending) func swipeDismiss(completes: Bool = true) async throws {
        try await perform(.swipeDismiss(completes: completes))
    }
    /// The user swipes back (interactive pop); `completes: false` cancels it.
    public nonisolated(nonsending) func swipeBack(completes: Bool = true) async throws {
        try await perform(.swipeBack(completes: completes))
    }
    /// The frontmost controller (the presented one, else the top of the stack) adds a child
    /// named `viewController`, which loads and appears (LIFECYCLE.md §3a).
    public nonisolated(nonsending) func addChild(_ viewController: String) async throws {
        try await perform(.addChild(viewController: viewController))
    }
    /// The frontmost controller removes its child named `viewController`, which disappears
    /// and is released.
    public nonisolated(nonsending) func removeChild(_ viewController: String) async throws {
        try await perform(.removeChild(viewController: viewController))
    }
    public nonisolated(nonsending) func resize(width: Int, height: Int) async throws {
        try await perform(.resize(width: width, height: height))
    }
    public nonisolated(nonsending) func memoryWarning() async throws { try await perform(.memoryWarning) }
    public nonisolated(nonsending) func notify(_ name: String, value: JSONValue = .null) async throws {
        try await perform(.notify(name: name, value: value))
    }
    public nonisolated(nonsending) func beginBackgroundTask() async throws { try await perform(.beginBackgroundTask) }
    public nonisolated(nonsending) func endBackgroundTask() async throws { try await perform(.endBackgroundTask) }
    public nonisolated(nonsending) func kill(signal: Int32 = 9) async throws {
        try await perform(.kill(signal: signal))
    }
    public nonisolated(nonsending) func terminate() async throws { try await perform(.terminate) }
    /// Taps the frontmost controller: `touchesBegan`, `touchesEnded`. Refused
    /// (`HostError.refused`, nothing delivered) unless the scene is `foregroundActive`.
    public nonisolated(nonsending) func tap() async throws { try await perform(.tap) }

    // A user's hands: each only while `foregroundActive` (else `HostError.refused`), and the
    // worker fails it (`HostError.workerError` with code `operationFailed`), nothing changed,
    // when the frontmost screen has no such row, field, control or alert action.

    /// The user taps row `row` of section `section` of the frontmost controller's table.
    public nonisolated(nonsending) func selectRow(_ row: Int, section: Int = 0) async throws {
        try await perform(.user(.selectRow(section: section, row: row)))
    }

    /// The user types `text` into the field whose accessibility identifier or placeholder is
    /// `field`.
    public nonisolated(nonsending) func typeText(_ text: String, into field: String) async throws {
        try await perform(.user(.typeText(field: field, text: text)))
    }

    /// The user taps the button or bar button item whose title or accessibility identifier
    /// is `control`.
    public nonisolated(nonsending) func tapControl(_ control: String) async throws {
        try await perform(.user(.tapControl(control: control)))
    }

    /// The user chooses the action titled `title` of the presented alert.
    public nonisolated(nonsending) func alertAction(_ title: String) async throws {
        try await perform(.user(.alertAction(title: title)))
    }

    /// The user swipes row `row` of section `section` of the frontmost table from `edge` and
    /// taps the swipe action titled `action` (`"Delete"`); nil swipes all the way, which
    /// performs the first action, as UIKit's full swipe.
    public nonisolated(nonsending) func swipeRow(
        _ row: Int,
        section: Int = 0,
        edge: UserAction.SwipeEdge = .trailing,
        action: String? = nil
    ) async throws {
        try await perform(.user(.swipeRow(section: section, row: row, edge: edge, action: action)))
    }

    /// The user drags row `row` of section `section` of the frontmost table, which is editing,
    /// by its reorder control to row `toRow` of `toSection` (nil: the same section).
    public nonisolated(nonsending) func moveRow(
        _ row: Int,
        section: Int = 0,
        to toRow: Int,
        toSection: Int? = nil
    ) async throws {
        try await perform(.user(.moveRow(section: section, row: row, toSection: toSection ?? section, toRow: toRow)))
    }

    /// What the scene shows, as a user sees it: the visible tree (docs/PORTING.md,
    /// "What a user sees and does"). Refused while the worker is suspended or not attached.
    public nonisolated(nonsending) func inspect() async throws -> JSONValue {
        try RequestLimits.check(.inspect, scene: identifier, frameLimit: frameLimit)
        return try await controller.performReturningValue(.inspect)
    }
    /// Opens `url` in the scene: a connected scene gets `openURLContexts` (brought to the
    /// foreground first, resumed if suspended); one with no live worker launches with the URL.
    public nonisolated(nonsending) func openURL(_ url: String) async throws { try await perform(.openURL(url: url)) }
    /// Hands the connected scene a user activity (`continueUserActivity`), in the foreground.
    public nonisolated(nonsending) func continueUserActivity(
        _ activityType: String,
        userInfo: JSONValue? = nil
    ) async throws {
        try await perform(.continueUserActivity(activityType: activityType, userInfo: userInfo))
    }
    /// A home-screen quick action of `type`: a running scene gets `performActionFor`, one with
    /// no worker launches with it as the connection options' shortcut item.
    public nonisolated(nonsending) func quickAction(_ type: String, userInfo: JSONValue? = nil) async throws {
        try await perform(.quickAction(type: type, userInfo: userInfo))
    }
    /// The user taps a notification carrying `userInfo`: a running app's notification center
    /// delegate hears of it, one with no worker launches with it as the notification response.
    public nonisolated(nonsending) func openNotification(
        userInfo: JSONValue? = nil,
        actionIdentifier: String = SceneOperation.defaultNotificationAction
    ) async throws {
        try await perform(.openNotification(userInfo: userInfo, actionIdentifier: actionIdentifier))
    }
    /// A silent push for the scene's app: `didReceiveRemoteNotification` in the app's state.
    public nonisolated(nonsending) func remoteNotification(userInfo: JSONValue? = nil) async throws {
        try await perform(.remoteNotification(userInfo: userInfo))
    }

    /// Sets this scene's restart policy (nil: never restart), overriding the host's.
    public nonisolated(nonsending) func setRestartPolicy(_ policy: RestartPolicy?) async {
        await controller.setRestartPolicy(policy)
    }

    /// The scene's current status.
    public nonisolated(nonsending) func status() async -> SceneStatus { await controller.status }

    /// What the scene last launched with: a connect's parameters (its tabs, style, size,
    /// app), and what the system opened it for since.
    package nonisolated(nonsending) func lastLaunch() async -> LaunchParameters { await controller.lastLaunch }

    /// The longest `waitFor` waits unless told otherwise.
    public static let defaultWaitLimit: Duration = .seconds(10)

    /// Waits until the scene reaches `state`, at most `timeout` (default 10 s; nil: until the
    /// host quits); then throws `HostError.timedOut`, saying where the scene is instead.
    public nonisolated(nonsending) func waitFor(
        _ state: ActivationState,
        timeout: Duration? = SceneHandle.defaultWaitLimit
    ) async throws {
        try await controller.waitUntil("state \(state)", timeout: timeout) { $0.activation == state }
    }

    /// Waits until the scene's worker reaches `process` state, at most `timeout` (as
    /// `waitFor(_:timeout:)`).
    public nonisolated(nonsending) func waitFor(
        process: ProcessState,
        timeout: Duration? = SceneHandle.defaultWaitLimit
    ) async throws {
        try await controller.waitUntil("process \(process)", timeout: timeout) { $0.process == process }
    }
}
