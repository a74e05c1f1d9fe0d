import Glibc
import HostProcess
import HostTools
import Protocol
import SceneModel
import Testing

/// Builds a multi-scene trace: each scene's events at their own times, merged by time and
/// numbered 1, 2, 3, … at the end.
struct MultiSceneTrace {
    var pending: [(time: Double, order: Int, event: TraceEvent)] = []

    mutating func add(_ time: Double, _ event: TraceEvent) {
        pending.append((time, pending.count, event))
    }

    var events: [TraceEvent] {
        pending.sorted { ($0.time, $0.order) < ($1.time, $1.order) }.enumerated().map { index, entry in
            var event = entry.event
            event.seq = index + 1
            event.time = entry.time
            return event
        }
    }

    /// One scene's life from `start`: launch into foreground, an interruption, background,
    /// suspension, resume, back to foreground, then killed. `pid` is its worker.
    mutating func typicalScene(_ scene: String, start: Double, pid: Int32) {
        var t = start
        func next(_ step: Double = 0.0001) -> Double {
            t += step
            return t
        }
        add(next(), TraceEvent(kind: .process, scene: scene, processEvent: .spawned, pid: pid))
        for (name, vc) in [
            ("willFinishLaunching", nil), ("didFinishLaunching", nil), ("configurationForConnecting", nil),
            ("willConnectTo", nil),
            ("loadView", "Root"), ("viewDidLoad", "Root"), ("viewWillAppear", "Root"), ("viewIsAppearing", "Root"),
            ("viewWillLayoutSubviews", "Root"), ("viewDidLayoutSubviews", "Root"),
        ] as [(String, String?)] {
            add(next(), TraceEvent(kind: .callback, scene: scene, name: name, viewController: vc))
        }
        add(next(), TraceEvent(kind: .callback, scene: scene, name: "sceneWillEnterForeground"))
        add(next(), TraceEvent(kind: .state, scene: scene, from: .unattached, to: .foregroundInactive))
        add(next(), TraceEvent(kind: .callback, scene: scene, name: "sceneDidBecomeActive"))
        add(next(), TraceEvent(kind: .state, scene: scene, from: .foregroundInactive, to: .foregroundActive))
        add(next(), TraceEvent(kind: .callback, scene: scene, name: "viewDidAppear", viewController: "Root"))
        // An interruption.
        add(next(0.01), TraceEvent(kind: .callback, scene: scene, name: "sceneWillResignActive"))
        add(next(), TraceEvent(kind: .state, scene: scene, from: .foregroundActive, to: .foregroundInactive))
        add(next(0.002), TraceEvent(kind: .callback, scene: scene, name: "sceneDidBecomeActive"))
        add(next(), TraceEvent(kind: .state, scene: scene, from: .foregroundInactive, to: .foregroundActive))
        // Background, suspended, a refused push, resumed, foreground.
        add(next(0.01), TraceEvent(kind: .callback, scene: scene, name: "sceneWillResignActive"))
        add(next(), TraceEvent(kind: .state, scene: scene, from: .foregroundActive, to: .foregroundInactive))
        add(next(), TraceEvent(kind: .callback, scene: scene, name: "sceneDidEnterBackground"))
        add(next(), TraceEvent(kind: .state, scene: scene, from: .foregroundInactive, to: .background))
        add(next(), TraceEvent(kind: .callback, scene: scene, name: "stateRestorationActivity"))
        add(next(0.05), TraceEvent(kind: .process, scene: scene, processEvent: .suspended, pid: pid))
        add(
            next(0.005),
            TraceEvent(
                kind: .error,
                scene: scene,
                op: "push",
                code: 1,
                message: "push needs a foreground scene"
            )
        )
        add(next(0.02), TraceEvent(kind: .process, scene: scene, processEvent: .resumed, pid: pid))
        add(
            next(),
            TraceEvent(
                kind: .callback,
                scene: scene,
                name: "didReceiveNotification",
                notification: "sync",
                value: .int(2)
            )
        )
        add(next(), TraceEvent(kind: .callback, scene: scene, name: "sceneWillEnterForeground"))
        add(next(), TraceEvent(kind: .state, scene: scene, from: .background, to: .foregroundInactive))
        add(next(), TraceEvent(kind: .callback, scene: scene, name: "sceneDidBecomeActive"))
        add(next(), TraceEvent(kind: .state, scene: scene, from: .foregroundInactive, to: .foregroundActive))
        // Killed.
        add(
            next(0.03),
            TraceEvent(
                kind: .process,
                scene: scene,
                processEvent: .exited,
                pid: pid,
                reason: .killed,
                signal: "KILL"
            )
        )
        add(next(), TraceEvent(kind: .state, scene: scene, from: .foregroundActive, to: .unattached))
    }

    /// `count` scenes, each starting a little after the previous one, with host events around them.
    static func scenes(_ names: [String]) -> [TraceEvent] {
        var trace = MultiSceneTrace()
        trace.add(0.0003, TraceEvent(kind: .host, name: "started", pid: 1))
        for (index, name) in names.enumerated() {
            trace.typicalScene(name, start: 0.001 + Double(index) * 0.004, pid: Int32(1000 + index))
        }
        trace.add(0.4, TraceEvent(kind: .host, name: "quit"))
        return trace.events
    }
}

let threeScenes = ["Mail", "Notes", "Music"]
let fiftyScenes = (0..<50).map { "Scene\($0)" }
