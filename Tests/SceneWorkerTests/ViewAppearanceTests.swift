import Protocol
import Testing

@testable import SceneWorker

/// Code that styles views and lays them out with Auto Layout runs as written and reads back
/// what it set; nothing is drawn or solved.
@MainActor @Suite struct ViewAppearanceTests {
    @Test func anActiveConstraintIsHeldByItsItemsNearestCommonAncestor() {
        let root = View()
        let label = UILabel()
        let field = UITextField()
        root.addSubview(label)
        root.addSubview(field)
        let leading = label.leadingAnchor.constraint(equalTo: root.safeAreaLayoutGuide.leadingAnchor, constant: 16)
        let spacing = field.topAnchor.constraint(equalTo: label.bottomAnchor, constant: 8)
        let height = label.heightAnchor.constraint(equalToConstant: 44)
        #expect(!leading.isActive && root.constraints.isEmpty, "made, not active")
        NSLayoutConstraint.activate([leading, spacing, height])
        #expect(root.constraints.map(ObjectIdentifier.init) == [leading, spacing].map(ObjectIdentifier.init))
        #expect(label.constraints.map(ObjectIdentifier.init) == [ObjectIdentifier(height)], "a constant: its view's")
        #expect(leading.secondItem === root.safeAreaLayoutGuide && leading.secondAttribute == .leading)
        #expect(height.secondItem == nil && height.constant == 44 && height.relation == .equal)
        leading.isActive = false
        leading.isActive = false
        #expect(root.constraints.count == 1)
        // Taken out of the tree: the constraints tying it to the views it leaves go.
        field.removeFromSuperview()
        #expect(!spacing.isActive && root.constraints.isEmpty)
        #expect(height.isActive, "one inside the removed view's own tree stays")
        // Items in no common tree (UIKit raises): not activated.
        let stranger = View()
        let apart = stranger.widthAnchor.constraint(equalTo: label.widthAnchor)
        apart.isActive = true
        #expect(!apart.isActive)
        // Added to a view: held by it, as UIKit's pre-anchor form, if it contains the items.
        label.addConstraint(leading)
        #expect(!leading.isActive, "the label does not contain the root's guide")
        root.addConstraint(leading)
        #expect(leading.isActive && root.constraints.count == 1)
        // Brought to the front: nothing removed, its constraints stay.
        root.addSubview(label)
        root.insertSubview(label, at: 0)
        #expect(leading.isActive && height.isActive)
        #expect(UILayoutPriority.defaultHigh - 1 < .defaultHigh && UILayoutPriority.required.rawValue == 1000)
    }

    @Test func aConstraintKeepsNeitherOfItsItemsAlive() {
        let root = View()
        var constraint: NSLayoutConstraint?
        do {
            let label = UILabel()
            root.addSubview(label)
            constraint = label.widthAnchor.constraint(equalTo: root.widthAnchor)
            constraint?.isActive = true
            label.removeFromSuperview()
        }
        #expect(constraint?.firstItem == nil && constraint?.isActive == false)
    }

    @Test func aStackShowsItsArrangedViewsInOrderAndForgetsAViewTakenOut() {
        let (first, second, third) = (UILabel(), UILabel(), UILabel())
        let stack = UIStackView(arrangedSubviews: [first, third])
        stack.insertArrangedSubview(second, at: 1)
        let ids = { (views: [View]) in views.map(ObjectIdentifier.init) }
        #expect(ids(stack.arrangedSubviews) == ids([first, second, third]))
        // Subviews in the order they were added, as UIKit's; the user sees the arranged order.
        #expect(ids(stack.subviews) == ids([first, third, second]))
        #expect(ids(stack.subviewsInVisibleOrder) == ids([first, second, third]))
        stack.insertArrangedSubview(third, at: 0)
        #expect(ids(stack.subviewsInVisibleOrder) == ids([third, first, second]))
        // No longer arranged, still a subview (shown after the arranged ones).
        stack.removeArrangedSubview(first)
        #expect(ids(stack.arrangedSubviews) == ids([third, second]) && stack.subviews.count == 3)
        #expect(ids(stack.subviewsInVisibleOrder) == ids([third, second, first]))
        // Taken out: neither; added back as a plain subview: not arranged again.
        stack.setCustomSpacing(24, after: second)
        second.removeFromSuperview()
        stack.addSubview(second)
        #expect(ids(stack.arrangedSubviews) == ids([third]))
        #expect(stack.customSpacing(after: second) == UIStackView.spacingUseDefault)
        stack.addArrangedSubview(stack)
        #expect(stack.arrangedSubviews.count == 1, "a stack never arranges itself")
        // Reordered among the stack's subviews: still arranged.
        stack.insertSubview(third, at: 2)
        #expect(ids(stack.arrangedSubviews) == ids([third]))
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
        root.alpha = 1.5
        #expect(root.alpha == 1 && root.layer.opacity == 1)
        root.layer.opacity = 0.5
        #expect(root.alpha == 0.5)
        let button = UIButton(type: .system)
        button.setTitleColor(.white, for: .normal)
        button.setTitleColor(.gray, for: .disabled)
        #expect(button.titleColor(for: .normal) == .white && button.titleColor(for: .disabled) == .gray)
        #expect(button.titleColor(for: .highlighted) == .white, "the normal state's, by default")
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
        let h = Harness(makingControllers: { name in made.make(name) })
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

@MainActor @Suite struct BarTests {
    /// A tab shows its tab bar item's title, else its controller's; a navigation controller's
    /// own item wins over its root's, and a title set later is the tab's too, as UIKit's.
    @Test func aTabShowsItsTabBarItemsTitle() {
        let list = UIViewController(restorationIdentifier: "List")
        list.title = "Notes"
        let navigation = NavigationController(rootViewController: list)
        let settings = UIViewController(restorationIdentifier: "Settings")
        settings.title = "Settings"
        let tabs = TabBarController()
        tabs.viewControllers = [navigation, settings]
        #expect(tabs.tabTitles == ["Notes", "Settings"])
        settings.tabBarItem = UITabBarItem(title: "Prefs", image: UIImage(systemName: "gear"), tag: 1)
        navigation.tabBarItem = UITabBarItem(tabBarSystemItem: .favorites, tag: 0)
        #expect(tabs.tabTitles == ["Favorites", "Prefs"])
        settings.title = "General"
        #expect(tabs.tabTitles == ["Favorites", "General"] && settings.tabBarItem.tag == 1)
        // A system item keeps the system's title; an item set with none shows none.
        navigation.title = "Mine"
        list.title = "Inbox"
        #expect(tabs.tabTitles[0] == "Favorites")
        settings.tabBarItem = UITabBarItem(title: nil, image: UIImage(systemName: "gear"), tag: 2)
        #expect(tabs.tabTitles[1] == "")
        // A navigation controller whose item was only read shows its root's title.
        let other = NavigationController(rootViewController: UIViewController(restorationIdentifier: "Other"))
        other.viewControllers[0].title = "Other"
        _ = other.tabBarItem
        tabs.viewControllers = [other]
        #expect(tabs.tabTitles == ["Other"])
    }

    /// A hidden navigation bar takes the navigation item out of the visible tree (and out of
    /// the user's reach, `showsNavigationBar`).
    @Test func aHiddenNavigationBarShowsNoItem() {
        let root = UIViewController(restorationIdentifier: "Root")
        root.navigationItem.rightBarButtonItem = UIBarButtonItem(
            title: "Add",
            image: nil,
            primaryAction: nil,
            menu: nil
        )
        let navigation = NavigationController(rootViewController: root)
        #expect(VisibleTree.controller(root)["navigationItem"] != nil && root.showsNavigationBar)
        let child = UIViewController(restorationIdentifier: "Child")
        root.addChild(child)
        navigation.setNavigationBarHidden(true, animated: true)
        #expect(VisibleTree.controller(root)["navigationItem"] == nil && !root.showsNavigationBar)
        #expect(!child.showsNavigationBar, "a child's bar is its parent's")
        navigation.navigationBar.prefersLargeTitles = true
        root.navigationItem.largeTitleDisplayMode = .never
        #expect(navigation.navigationBar.prefersLargeTitles && root.navigationItem.largeTitleDisplayMode == .never)
    }
}

/// A controller whose only bar button item shows an image.
@MainActor
final class GearViewController: UIViewController {
    var taps = 0
    override func viewDidLoad() {
        navigationItem.rightBarButtonItem = UIBarButtonItem(
            title: nil,
            image: UIImage(systemName: "gear"),
            primaryAction: UIAction { [weak self] _ in self?.taps += 1 },
            menu: nil
        )
    }
}

@MainActor @Suite struct ImageBarItemTests {
    /// The visible tree names an image-only bar button item by its image: the user's hands
    /// reach it by that name.
    @Test func anImageOnlyBarItemIsTappedByItsImagesName() throws {
        let h = Harness(makingControllers: { name in GearViewController(restorationIdentifier: name) })
        let root = try #require(try h.connectedRoot() as? GearViewController)
        let tree = VisibleTree.controller(root)
        #expect(tree["navigationItem"]?["right"]?[0]?["button"] == "gear", "\(tree)")
        _ = h.send(WorkerOperation.user(.tapControl(control: "gear")))
        #expect(root.taps == 1)
    }
}
