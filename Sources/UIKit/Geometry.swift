// UIKit's geometry in Core Graphics' types, over the runtime's integral sizes: a view keeps a
// size (there is no layout, so no origin), and the host sets a root view's to the window's.

/// A layer's color: the `UIColor` itself (`layer.borderColor = UIColor.gray.cgColor`).
public typealias CGColor = UIColor

extension UIView {
    /// The view's frame: its size at the origin (a frame's origin is not kept).
    public var frame: CGRect {
        get { CGRect(x: 0, y: 0, width: CGFloat(size.width), height: CGFloat(size.height)) }
        set { size = Size(width: newValue.width, height: newValue.height) }
    }

    /// The view's bounds: its size at the origin.
    public var bounds: CGRect {
        get { frame }
        set { frame = newValue }
    }
}
