// The module a ported app imports as UIKit (Linux only, so the name collides with nothing):
// the worker runtime under UIKit's names, Foundation as UIKit re-exports it, and the parts
// of UIKit that need Foundation: the main run loop, lifecycle notifications, `@main` on the
// app delegate. docs/PORTING.md says what still differs on Linux.

@_exported import Foundation
@_exported import SceneWorker

// Names both Foundation and the runtime declare: UIKit's meaning wins in a file that imports
// UIKit (Foundation's `IndexPath` has no `row` or `section` on Linux).

/// A row's position in a table, `IndexPath(row:section:)`.
public typealias IndexPath = SceneWorker.IndexPath
/// The keyed coder of `init?(coder:)` and the app's state restoration.
public typealias NSCoder = SceneWorker.NSCoder
/// A size in points, so that `viewWillTransition(to size: CGSize, with:)` is the method the
/// runtime calls. Integral: the host sends sizes as integers.
public typealias CGSize = SceneWorker.Size

extension UIView {
    /// A view with the frame's size (there is no layout: only the size is kept).
    public convenience init(frame: CGRect) {
        self.init(size: Size(width: Int(frame.width), height: Int(frame.height)))
    }
}

extension Size {
    /// A size of `width` × `height` points, rounded to whole points; a value that is not
    /// finite is 0 and a huge one is cut to `Int`'s range (UIKit accepts any `CGFloat`).
    public init(width: CGFloat, height: CGFloat) {
        self.init(width: Self.points(width), height: Self.points(height))
    }

    private static func points(_ value: CGFloat) -> Int {
        guard value.isFinite else { return 0 }
        return Int(exactly: value.rounded()) ?? (value < 0 ? Int.min : Int.max)
    }
}

extension UITableView {
    /// A table of `style`; the frame is ignored (nothing is laid out).
    public convenience init(frame: CGRect, style: UITableView.Style) {
        self.init(style: style)
    }
}

// `Bundle.main` where UIKit takes a bundle: there is one storyboard and no nibs, so the
// bundle names nothing. Disfavoured, so that `bundle: nil` keeps meaning the runtime's.

extension UIStoryboard {
    /// The app's storyboard, as `UIStoryboard(name: "Main", bundle: Bundle.main)`: the app's
    /// controller factory whatever the name and bundle.
    @_disfavoredOverload
    public convenience init(name: String, bundle: Bundle?) {
        self.init(name: name, bundle: NibBundle?.none)
    }
}

extension UIViewController {
    /// A controller made as `UIViewController(nibName:bundle: Bundle.main)`: the bundle is
    /// ignored (there are no nibs) and a `nibName` serves as the identity.
    @_disfavoredOverload
    public convenience init(nibName: String?, bundle: Bundle?) {
        self.init(nibName: nibName, bundle: NibBundle?.none)
    }
}

extension OpenURLContext {
    /// The URL to open, as `UIOpenURLContext.url`. The host lets through only URLs that
    /// Foundation parses (`SceneLimits.urlRefusal`), as the system hands an app only URLs.
    public var url: URL {
        guard let url = URL(string: absoluteString) else {
            // Unreachable for a context the runtime made; a trap names the URL, where a
            // placeholder would send the app's code down a path it never takes on a device.
            preconditionFailure("scenehost: \(absoluteString) passed the host's URL check but Foundation refuses it")
        }
        return url
    }
}
