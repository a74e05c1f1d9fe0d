import HostProcess
import Protocol
import SceneModel

/// Renders a trace as a readable per-scene timeline: one block per scene, each line a
/// callback, state change, process event or refusal, with its time and the worker's pid.
public enum TimelineFormatter {
    /// The timeline of `events` (host-wide events first, then each scene in order of appearance).
    public static func render(_ events: [TraceEvent]) -> String {
        var sceneOrder: [String] = []
        var byScene: [String: [TraceEvent]] = [:]
        var hostEvents: [TraceEvent] = []
        for event in events {
            guard let scene = event.scene else {
                hostEvents.append(event)
                continue
            }
            if byScene[scene] == nil { sceneOrder.append(scene) }
            byScene[scene, default: []].append(event)
        }
        var output = ""
        if !hostEvents.isEmpty {
            output += "host\n"
            for event in hostEvents {
                // A host-wide error (a damaged session file set aside) says what it is.
                output += "  \(time(event))  \(pad("", 9))  \(escapingTerminalControls(describe(event)))\n"
            }
        }
        for scene in sceneOrder {
            output += "\nscene \(scene)\n"
            var pid: Int32?
            for event in byScene[scene] ?? [] {
                if event.processEvent == .spawned || event.processEvent == .attached { pid = event.pid }
                let pidColumn = pad(pid.map { "pid \($0)" } ?? "", 9)
                // Names come from clients, scenarios and workers: shown, never acted on.
                output += "  \(time(event))  \(pidColumn)  \(escapingTerminalControls(describe(event)))\n"
                if event.processEvent == .exited || event.processEvent == .detached { pid = nil }
            }
        }
        return output
    }

    /// One event as the timeline shows it.
    public static func describe(_ event: TraceEvent) -> String {
        switch event.kind {
        case .callback:
            var text = event.name ?? "?"
            if let vc = event.viewController { text = pad(text, 26) + vc }
            if let restoration = event.restoration {
                // What the scene (or an app-based app) saved, or what it was given back at launch.
                let saves = [CallbackName.stateRestorationActivity, .shouldSaveSecureApplicationState]
                let verb = saves.contains { $0.rawValue == event.name } ? "saved" : "restored"
                text += "  \(verb) \(restoration.jsonText)"
            }
            if let notification = event.notification {
                text += "  \(notification) = \((event.value ?? .null).jsonText)"
            } else if let value = event.value {
                // What the scene was opened with: a URL, a user activity.
                text += "  \(value.jsonText)"
            }
            // The app's own changes stand out from the host's requests.
            if let origin = event.origin { text += "  (\(origin))" }
            return text
        case .state:
            return "state  \(event.from?.rawValue ?? "?") → \(event.to?.rawValue ?? "?")"
        case .process:
            let what = event.processEvent?.rawValue ?? "?"
            guard event.processEvent == .exited else {
                return "process \(what)" + (event.pid.map { " (pid \($0))" } ?? "")
            }
            var detail = event.reason?.rawValue ?? "?"
            if let signal = event.signal { detail += ", signal \(signal)" }
            if let status = event.status { detail += ", status \(status)" }
            return "process exited (\(detail))"
        case .host:
            let name = event.name ?? "host"
            // An app process's event (`appReclaimed`) names the process: no scene does.
            guard let app = event.app else { return name }
            return "\(name)  app \(app)" + (event.pid.map { ", pid \($0)" } ?? "")
        case .error:
            return "error  \(event.op ?? "?"): \(event.message ?? "")"
        }
    }

    private static func time(_ event: TraceEvent) -> String {
        let milliseconds = Int((event.time * 1000).rounded())
        let text = "\(milliseconds / 1000).\(String(milliseconds % 1000).leftPadded(to: 3, with: "0"))s"
        return text.leftPadded(to: 8, with: " ")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

extension String {
    package func leftPadded(to width: Int, with character: Character) -> String {
        count >= width ? self : String(repeating: character, count: width - count) + self
    }
}
