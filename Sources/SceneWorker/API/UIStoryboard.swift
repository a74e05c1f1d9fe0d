import Protocol

/// The app's controller factory seen from app code, as `UIStoryboard`: what the host's
/// `connect` and `push` use (`WorkerApp.makeViewController`), so that the app's own pushes
/// can make a controller by name and payload exactly as a host request would.
///
/// `UIStoryboard(name: "Main", bundle: nil)` is the factory whatever the name (an app has one);
/// outside a running worker it makes plain controllers named by the identifier.
@MainActor
public final class UIStoryboard {
    /// The storyboard's name, as given.
    public let name: String

    /// The app's factory under `name`. `bundle` is always nil (there are no bundles).
    public init(name: String, bundle: NibBundle?) {
        self.name = name
    }

    /// A new controller for `identifier`, from the app's factory with no payload.
    public func instantiateViewController(withIdentifier identifier: String) -> UIViewController {
        instantiateViewController(withIdentifier: identifier, payload: nil)
    }

    /// A new controller for `identifier` and `payload` (the item it shows), from the app's
    /// factory: the same call the host's `push` with a payload makes. Its `awakeFromNib()`
    /// runs before it is returned, as for a controller UIKit decodes from a storyboard
    /// (unreported: the trace's `initWithCoder` and `awakeFromNib` are a storyboard root's).
    public func instantiateViewController(withIdentifier identifier: String, payload: JSONValue?) -> UIViewController {
        let controller =
            Application.shared.changeHandler.map { $0.app.makeViewController(identifier, payload) }
            ?? UIViewController(restorationIdentifier: identifier)
        controller.awakeFromNib()
        return controller
    }
}

extension UIViewController {
    /// The app's storyboard (its controller factory), as UIKit's `storyboard` of a
    /// controller loaded from one: set for every controller while a worker runs.
    public var storyboard: UIStoryboard? {
        Application.shared.changeHandler == nil ? nil : UIStoryboard(name: "Main", bundle: nil)
    }
}
