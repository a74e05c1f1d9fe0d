import Protocol

/// How a presented controller covers its presenter (`UIModalPresentationStyle`): `pageSheet`
/// (the default) or `fullScreen`.
public typealias ModalPresentationStyle = PresentationStyle

/// Hears of the user's swipes on a presented sheet, as
/// `UIAdaptivePresentationControllerDelegate`. None of these runs for a programmatic
/// dismissal (docs/LIFECYCLE.md §3a).
@MainActor
public protocol AdaptivePresentationControllerDelegate: AnyObject {
    /// A swipe down is about to dismiss the sheet (it may still be cancelled).
    func presentationControllerWillDismiss(_ presentationController: PresentationController)
    /// A swipe down dismissed the sheet.
    func presentationControllerDidDismiss(_ presentationController: PresentationController)
    /// The user swiped down a sheet whose controller is `isModalInPresentation`: nothing
    /// was dismissed.
    func presentationControllerDidAttemptToDismiss(_ presentationController: PresentationController)
}

extension AdaptivePresentationControllerDelegate {
    public func presentationControllerWillDismiss(_ presentationController: PresentationController) {}
    public func presentationControllerDidDismiss(_ presentationController: PresentationController) {}
    public func presentationControllerDidAttemptToDismiss(_ presentationController: PresentationController) {}
}

/// The object that manages a presentation, as `UIPresentationController`: set its `delegate`
/// to hear of swipes on the sheet.
@MainActor
public final class PresentationController {
    /// The controller this presentation shows.
    public private(set) weak var presentedViewController: ViewController?
    /// Hears of the user's swipes (held weakly, as UIKit does).
    public weak var delegate: (any AdaptivePresentationControllerDelegate)?

    init(presentedViewController: ViewController) {
        self.presentedViewController = presentedViewController
    }
}
