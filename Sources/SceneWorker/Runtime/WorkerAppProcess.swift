import Protocol

/// The scenes of one app in this worker process (an app process, `connect`'s `app` on the
/// host): the host tags each frame with its scene (`SceneTag`), and each scene gets a session
/// of its own, sharing the application (and so the app delegate, launched once) of the
/// process's first session, which did the handshake.
@MainActor
final class WorkerAppProcess {
    let primary: WorkerSession
    /// The scenes' sessions, in the order they first appeared.
    ///
    /// Unchecked: main-actor state, and no access to it runs app code, which alone could
    /// reach the process back. The runtime's check of each access cost calls on every frame.
    @exclusivity(unchecked) private var sessions: [Member] = []

    /// A scene's session, with the tag its frames carry.
    private struct Member {
        let scene: String
        let session: WorkerSession
        /// The scene's tag as `SceneTag.tagFrame` puts it on a frame: encoded once, not at
        /// every write.
        var tag: [UInt8] = []
    }

    /// Called with each scene's new session (the worker's test faults go on it).
    private let prepare: (WorkerSession) -> Void

    init(primary: WorkerSession, prepare: @escaping (WorkerSession) -> Void = { _ in }) {
        self.primary = primary
        self.prepare = prepare
        primary.application.appProcess = self
    }

    /// The session of `scene`, if it has one here.
    func session(_ scene: String) -> WorkerSession? {
        memberIndex(of: scene).map { sessions[$0].session }
    }

    /// Calls `body` with each scene's session (not the handshake's), in the order they came.
    func forEachMember(_ body: (WorkerSession) -> Void) {
        for index in sessions.indices { body(sessions[index].session) }
    }

    /// Whether a device could suspend the app now: none of its scenes in the foreground, and
    /// no background task running in any (the app's whole process is suspended, not a window).
    var isSuspendable: Bool {
        primary.backgroundTask == nil
            && sessions.allSatisfy { member in
                let session = member.session
                return (session.scene == nil || session.state == .background) && session.backgroundTask == nil
            }
    }

    /// The scene session holding the background task `identifier`, if one does.
    func session(holdingTask identifier: BackgroundTaskIdentifier) -> WorkerSession? {
        for index in sessions.indices where sessions[index].session.backgroundTask?.identifier == identifier {
            return sessions[index].session
        }
        return nil
    }

    /// Whether a scene other than `session`'s is connected in this process.
    func hasOtherScenes(than session: WorkerSession) -> Bool {
        sessions.contains { $0.session !== session && $0.session.scene != nil }
    }

    /// Whether UIKit posts the application-level notification `name` after a callback of
    /// `session`'s scene: the application's state is its scenes' together (the most active
    /// one's), so it enters the foreground with the first scene to, becomes active with the
    /// first to, resigns with the last active one and enters the background with the last in
    /// the foreground; a scene-level notification is always posted (LIFECYCLE.md §4a).
    func postsApplicationNotification(_ name: CallbackName, for session: WorkerSession) -> Bool {
        func others(_ condition: (ActivationState) -> Bool) -> Bool {
            sessions.contains { member in
                member.session !== session && member.session.scene.map { condition($0.activationState) } == true
            }
        }
        switch name {
        case .applicationWillEnterForegroundNotification:
            return !others(\.isForeground)
        case .applicationDidEnterBackgroundNotification:
            // A scene that connects into the background leaves no foreground: the app was
            // in the background already, unless it is the app's only scene (a launch).
            guard session.leftTheForeground || !hasOtherScenes(than: session) else { return false }
            return !others(\.isForeground)
        case .applicationDidBecomeActiveNotification, .applicationWillResignActiveNotification:
            return !others { $0 == .foregroundActive }
        default:
            return true
        }
    }

    /// Handles one frame with a scene tag, where it lies; false when its tag is not one (the
    /// caller then hands the frame to the process's session, which refuses it).
    func handleTaggedFrame(_ frame: UnsafeRawBufferPointer) -> Bool {
        guard let tagged = SceneTag.tagged(frame) else { return false }
        handleFrame(scene: tagged.scene) { $0.handleFrame(tagged) }
        return true
    }

    /// Handles one tagged frame, without its tag.
    func handleFrame(scene: String, body: [UInt8]) {
        handleFrame(scene: scene) { $0.handleFrame(body) }
    }

    /// Hands a frame of `scene`'s to `handle` with the session it is for: before the handshake
    /// the process's (which refuses it); after it, `scene`'s, made for a scene new here.
    private func handleFrame(scene: String, _ handle: (WorkerSession) -> Void) {
        guard primary.phase == .running else {
            handle(primary)
            return
        }
        let session: WorkerSession
        var joined = false
        if let index = memberIndex(of: scene) {
            session = sessions[index].session
        } else {
            session = WorkerSession(sharing: primary, in: self)
            prepare(session)
            sessions.append(Member(scene: scene, session: session))
            joined = true
        }
        // Most frames are the same scene's as the last one: the application stays with it
        // (a session's sink is its own, and only `takeApplication` hands it over).
        if primary.application.sink !== session.sink { session.takeApplication() }
        let sceneBefore = session.scene
        handle(session)
        if joined || session.scene !== sceneBefore { noteScenes() }
    }

    /// The position of `scene`'s member. A loop, not `firstIndex(where:)`: its closure got
    /// each member copied (its name, session and tag retained and released), on every frame.
    private func memberIndex(of scene: String) -> Int? {
        for index in sessions.indices where sessions[index].scene == scene { return index }
        return nil
    }

    /// Tells the application which scenes are connected here (`connectedScenes`): called
    /// when a scene joined, connected, disconnected or left.
    private func noteScenes() {
        primary.application.appProcessScenes = sessions.compactMap(\.session.scene)
    }

    /// Writes what every session recorded, each scene's messages tagged with its scene, and
    /// lets go of the sessions whose scene left (or never connected).
    func drain(into output: OutputWriter) {
        let folding = primary.hostReadsFoldedReplies
        output.take(from: primary.sink, foldingReplies: folding)
        // One pass over the members, in place: this runs after every frame.
        var someLeft = false
        for index in sessions.indices {
            let session = sessions[index].session
            if !session.sink.messages.isEmpty {
                output.take(
                    from: session.sink,
                    foldingReplies: folding,
                    scene: sessions[index].scene,
                    tag: &sessions[index].tag
                )
            }
            if Self.hasLeft(session) { someLeft = true }
        }
        guard someLeft else { return }
        sessions.removeAll { Self.hasLeft($0.session) }
        noteScenes()
    }

    /// Whether `session`'s scene left the process, or never connected in it.
    private static func hasLeft(_ session: WorkerSession) -> Bool {
        session.hasDetached || (session.scene == nil && session.exitStatus == nil)
    }

    /// The status to exit with, once a session decided the process ends.
    var exitStatus: Int32? {
        primary.exitStatus ?? sessions.lazy.compactMap(\.session.exitStatus).first
    }
}
