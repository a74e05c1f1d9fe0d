import Protocol
import Testing

@testable import SceneWorker

/// Code that styles views and lays them out with Auto Layout runs as written and reads back
/// what it set; nothing is drawn or solved.
@MainActor @Suite struct ViewAppearanceTests {
    @Test func constraintsAreKeptByTheirFirstViewWhileActive() {
        let root = View()
        let label = UILabel()
        root.addSubview(label)
        let leading = label.leadingAnchor.constraint(equalTo: root.safeAreaLayoutGuide.leadingAnchor, constant: 16)
        let height = label.heightAnchor.constraint(equalToConstant: 44)
        let guideTop = root.layoutMarginsGuide.topAnchor.constraint(equalTo: root.topAnchor)
        #expect(label.constraints.isEmpty, "made, not active")
        NSLayoutConstraint.activate([leading, height, guideTop])
        #expect(label.constraints.map(ObjectIdentifier.init) == [leading, height].map(ObjectIdentifier.init))
        #expect(root.constraints.count == 1, "a guide's constraint is its view's")
        #expect(leading.secondItem === root.safeAreaLayoutGuide && leading.secondAttribute == .leading)
        #expect(height.secondItem == nil && height.constant == 44 && height.relation == .equal)
        leading.isActive = false
        leading.isActive = false
        #expect(label.constraints.count == 1)
        height.isActive = true
        #expect(label.constraints.count == 1, "activating twice keeps one")
        #expect(UILayoutPriority.defaultHigh - 1 < .defaultHigh && UILayoutPriority.required.rawValue == 1000)
    }

    @Test func aStackArrangesInOrderAndForgetsAViewTakenOut() {
        let (first, second, third) = (UILabel(), UILabel(), UILabel())
        let stack = UIStackView(arrangedSubviews: [first, third])
        stack.insertArrangedSubview(second, at: 1)
        #expect(stack.arrangedSubviews.map(ObjectIdentifier.init) == [first, second, third].map(ObjectIdentifier.init))
        #expect(stack.subviews.map(ObjectIdentifier.init) == [first, second, third].map(ObjectIdentifier.init))
        // Moved to the front: arranged and shown first.
        stack.insertArrangedSubview(third, at: 0)
        #expect(stack.subviews.map(ObjectIdentifier.init) == [third, first, second].map(ObjectIdentifier.init))
        // No longer arranged, still a subview; taken out of the stack, neither.
        stack.removeArrangedSubview(first)
        #expect(stack.arrangedSubviews.count == 2 && stack.subviews.count == 3)
        second.removeFromSuperview()
        #expect(stack.arrangedSubviews.map(ObjectIdentifier.init) == [ObjectIdentifier(third)])
        stack.addArrangedSubview(stack)
        #expect(stack.arrangedSubviews.count == 1, "a stack never arranges itself")
    }

    @Test func tintIsInheritedAndColorsClamp() {
        let root = View()
        let child = View()
        root.addSubview(child)
        #expect(child.tintColor == .systemBlue)
        root.tintColor = .systemRed
        #expect(child.tintColor == .systemRed)
        child.tintColor = .label
        #expect(child.tintColor == .label)
        let color = UIColor(red: 2, green: -1, blue: 0.5, alpha: 1).withAlphaComponent(0.25)
        #expect(color.red == 1 && color.green == 0 && color.blue == 0.5 && color.alpha == 0.25 && color.name == nil)
        #expect(UIFont.preferredFont(forTextStyle: .headline).pointSize == 17)
        root.clipsToBounds = true
        #expect(root.layer.masksToBounds)
    }
}

/// A controller that notes its view's size when it loads.
@MainActor
final class SizeNotingViewController: UIViewController {
    var sizeAtLoad: Size?
    override func viewDidLoad() { sizeAtLoad = view.size }
}

@MainActor @Suite struct DefaultViewSizeTests {
    /// UIKit's default view is screen-sized in `viewDidLoad`; here, the window's: a root's, a
    /// pushed controller's and a presented one's alike.
    @Test func theDefaultViewHasTheWindowsSizeWhenItLoads() throws {
        let made = MadeControllers()
        let log = Log()
        let h = Harness(
            app: WorkerApp(
                makeApplicationDelegate: { LoggingApplicationDelegate(log: log) },
                makeSceneDelegate: { LoggingSceneDelegate(log: log) },
                makeViewController: { name in made.make(name) }
            )
        )
        var options = ConnectOptions(session: "A", background: false, root: "Root")
        (options.width, options.height) = (390, 844)
        _ = h.send(WorkerOperation.connect(options))
        _ = h.send(WorkerOperation.push(viewController: "Pushed"))
        _ = h.send(WorkerOperation.present(viewController: "Sheet", style: PresentationStyle.pageSheet))
        for name in ["Root", "Pushed", "Sheet"] {
            #expect(made.controllers[name]?.sizeAtLoad == Size(width: 390, height: 844), "\(name)")
        }
    }
}

/// The controllers a test's app made, by name.
@MainActor
final class MadeControllers {
    var controllers: [String: SizeNotingViewController] = [:]

    func make(_ name: String) -> UIViewController {
        let controller = SizeNotingViewController(restorationIdentifier: name)
        controllers[name] = controller
        return controller
    }
}
