/// What navigation, tab bar and split view controllers share: they are view controllers, as
/// in UIKit (a window's `rootViewController` may be any), but not controllers of the model. Their
/// stacks' controllers load, appear and report; a container's own callbacks are never called,
/// so overriding one fails to compile, naming what to write instead.
@MainActor
open class ContainerViewController: UIViewController {
    /// A container with nothing in it yet.
    public init() {
        super.init(container: ())
    }

    /// Not made from a storyboard under scenehost (a storyboard makes the view controllers a
    /// container holds; containers are made in code): always nil.
    public required init?(coder: NSCoder) {
        return nil
    }

    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func loadView() {}
    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func viewDidLoad() {}
    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func awakeFromNib() {}
    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func viewWillAppear(_ animated: Bool) {}
    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func viewIsAppearing(_ animated: Bool) {}
    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func traitCollectionDidChange(_ previousTraitCollection: TraitCollection?) {}
    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func willTransition(to newCollection: TraitCollection, with coordinator: TransitionCoordinator) {}
    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func viewDidAppear(_ animated: Bool) {}
    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func viewWillDisappear(_ animated: Bool) {}
    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func viewDidDisappear(_ animated: Bool) {}
    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func viewWillLayoutSubviews() {}
    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func viewDidLayoutSubviews() {}
    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {}
    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func didReceiveMemoryWarning() {}
    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func touchesBegan(_ touches: Set<Touch>) {}
    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func touchesEnded(_ touches: Set<Touch>) {}
    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func touchesBegan(_ touches: Set<Touch>, with event: UIEvent?) {}
    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func touchesEnded(_ touches: Set<Touch>, with event: UIEvent?) {}
    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func willMove(toParent parent: UIViewController?) {}
    @available(
        *,
        unavailable,
        message:
            "a container's own callbacks are not called under scenehost: override the callback in the controllers it holds"
    )
    open override func didMove(toParent parent: UIViewController?) {}
}
