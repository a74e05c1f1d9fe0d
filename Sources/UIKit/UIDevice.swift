/// The device, as `UIDevice`: one iPhone, as the host's windows are one (a split view is
/// collapsed as on an iPhone). Its names and version are fixed, so code that branches on
/// them takes the same branch in every run.
@MainActor
public final class UIDevice {
    /// The device the app runs on.
    public static let current = UIDevice()

    /// The kinds of device, as `UIUserInterfaceIdiom`.
    public enum UserInterfaceIdiom: Int, Sendable {
        case unspecified = -1
        case phone, pad, tv, carPlay
        case mac = 5
        case vision
    }

    /// The device's orientation, as `UIDeviceOrientation`.
    public enum Orientation: Int, Sendable {
        case unknown, portrait, portraitUpsideDown, landscapeLeft, landscapeRight, faceUp, faceDown

        public var isPortrait: Bool { self == .portrait || self == .portraitUpsideDown }
        public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }
        public var isFlat: Bool { self == .faceUp || self == .faceDown }
        public var isValidInterfaceOrientation: Bool { isPortrait || isLandscape }
    }

    private init() {}

    /// `.phone`.
    public var userInterfaceIdiom: UserInterfaceIdiom { .phone }
    /// The device's name: "iPhone".
    public var name: String { "iPhone" }
    /// "iPhone".
    public var model: String { "iPhone" }
    /// "iPhone".
    public var localizedModel: String { "iPhone" }
    /// "iOS".
    public var systemName: String { "iOS" }
    /// The iOS version whose lifecycle the host models: "17.0" (`viewIsAppearing` and the
    /// scene lifecycle of iOS 13 and later are there).
    public var systemVersion: String { "17.0" }
    /// The same identifier in every run: one device, one vendor.
    public var identifierForVendor: UUID? { UUID(uuidString: "5CE7E057-0000-4000-8000-000000000001") }
    /// The orientation of the scene's window: portrait when it is at least as tall as wide.
    public var orientation: Orientation {
        guard let size = UIApplication.shared.connectedScene?.window.size else { return .unknown }
        // The interface's orientation (`InterfaceOrientation(size:)`), as the device's: turned
        // left, a device shows its interface landscape right.
        return UIInterfaceOrientation(size: size).isPortrait ? .portrait : .landscapeLeft
    }
    /// Whether the device runs apps side by side: true.
    public var isMultitaskingSupported: Bool { true }
}

extension UITraitCollection {
    /// The device's idiom, as the traits carry it: `.phone`.
    public var userInterfaceIdiom: UIDevice.UserInterfaceIdiom { .phone }
}

/// `UIUserInterfaceIdiom`: the kinds of device.
public typealias UIUserInterfaceIdiom = UIDevice.UserInterfaceIdiom
/// `UIDeviceOrientation`: the device's orientation.
public typealias UIDeviceOrientation = UIDevice.Orientation
