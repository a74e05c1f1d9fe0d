import Protocol
import SceneModel

/// Starting a scene's worker: a prewarmed one, a fork on the blocking-work thread, or the
/// scene's app's process (joined, or waited for while it starts or ends).
extension SceneController {
    /// Starts the worker for `argv`; returns the event to feed at once, if the outcome is
    /// known now (a prewarmed worker, the app's running process, a failure to submit the fork).
    func launch(argv: [String], app: String?) -> SceneMachine.Event? {
        if let app {
            switch context.apps.join(app, self) {
            case .attach(let process):
                return .attached(process)
            case .wait:
                argvWaitingForApp = argv
                return nil
            case .spawn:
                break
            }
        }
        if let child = context.prewarmed.take(argv: argv) { return .spawned(child) }
        // Forked on the blocking-work thread (never on the loop); the outcome comes back as an
        // event, in the loop's order with everything else.
        let scene = id
        let scheduling = context.configuration.workerScheduling
        let environment = context.configuration.workerEnvironment
        do {
            try BlockingWorkThread.spawnThread().trySubmit { [self] in
                let outcome: Result<ChildProcess, HostError>
                do throws(HostError) {
                    outcome = .success(
                        try WorkerConnection.spawn(
                            scene: scene,
                            argv: argv,
                            scheduling: scheduling,
                            environment: environment
                        )
                    )
                } catch {
                    outcome = .failure(error)
                }
                EventLoop.shared.execute { [self] in
                    self.onLoop { $0.spawnFinished(outcome) }
                }
            }
            return nil
        } catch {
            return .spawnFailed(.spawnFailed(scene: id, message: "\(error)"))
        }
    }

    /// The app's process this scene waited for ended (it took no more scenes): the launch
    /// starts over, and joins, waits for or starts the app's next process. Nothing happens
    /// when the scene no longer waits (its launch failed or was given up meanwhile).
    func launchAgain() {
        guard let argv = argvWaitingForApp.take(), machine.awaitsWorker, let app = machine.appName else { return }
        if let event = launch(argv: argv, app: app) { apply(feed(event)) }
    }

    /// Fails the launch waiting for its app's process, given up meanwhile (a kill or a
    /// terminate asked, or the host quitting): it leaves the wait and starts or joins no
    /// process, where its pending SIGKILL would end the app's other scenes too.
    func abandonAppWait() {
        argvWaitingForApp = nil
        guard let app = machine.appName else { return }
        context.apps.leave(app, self)
        apply(machine.abandonLaunch())
    }
}
