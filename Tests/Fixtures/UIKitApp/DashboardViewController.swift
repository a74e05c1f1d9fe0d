// swift-format-ignore-file
import UIKit

/// A container as Apple's "Implementing a container view controller" writes one: in
/// `viewDidLoad`, `addChild(_:)`, the child's view added and pinned with Auto Layout, then
/// `didMove(toParent:)`.
class DashboardViewController: UIViewController {
    let notes = ListViewController()

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Dashboard"
        let summary = UILabel()
        summary.text = "3 notes"
        summary.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(summary)

        addChild(notes)
        notes.view.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(notes.view)
        NSLayoutConstraint.activate([
            summary.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor),
            summary.leadingAnchor.constraint(equalTo: view.leadingAnchor, constant: 16),
            notes.view.topAnchor.constraint(equalTo: summary.bottomAnchor, constant: 8),
            notes.view.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            notes.view.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            notes.view.bottomAnchor.constraint(equalTo: view.bottomAnchor),
        ])
        notes.didMove(toParent: self)
    }
}
