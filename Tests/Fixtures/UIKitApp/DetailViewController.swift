// swift-format-ignore-file
import UIKit

class DetailViewController: UIViewController, UITextFieldDelegate {
    let index: Int
    let titleField = UITextField()
    let autosaveLabel = UILabel()
    private var autosave: Timer?
    private(set) var autosaves = 0

    init(index: Int) {
        self.index = index
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = NoteStore.shared.notes[index].title
        titleField.placeholder = "Title"
        titleField.accessibilityIdentifier = "title"
        titleField.text = NoteStore.shared.notes[index].title
        titleField.delegate = self
        view.addSubview(titleField)
        autosaveLabel.accessibilityIdentifier = "autosaves.transient"
        view.addSubview(autosaveLabel)
        navigationItem.rightBarButtonItem = UIBarButtonItem(title: "Save", image: nil, primaryAction: UIAction { [weak self] _ in
            self?.save()
        }, menu: nil)
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        // A timer autosave, on the main run loop.
        autosave = Timer.scheduledTimer(withTimeInterval: 0.02, repeats: true) { [weak self] _ in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.autosaves += 1
                self.autosaveLabel.text = "\(self.autosaves)"
            }
        }
        let activity = NSUserActivity(activityType: "com.example.notes.editing")
        activity.userInfo = ["index": index]
        view.window?.windowScene?.userActivity = activity
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        autosave?.invalidate()
    }

    // A title of at most 40 characters, as the app's own rule.
    func textField(_ textField: UITextField, shouldChangeCharactersIn range: NSRange, replacementString string: String) -> Bool {
        let current = (textField.text ?? "") as NSString
        return current.replacingCharacters(in: range, with: string).count <= 40
    }

    // Return dismisses the keyboard and saves.
    func textFieldShouldReturn(_ textField: UITextField) -> Bool {
        textField.resignFirstResponder()
        save()
        return true
    }

    private func save() {
        NoteStore.shared.notes[index].title = titleField.text ?? ""
        Journal.shared.note("saved after \(autosaves > 0 ? "autosave" : "no autosave")")
        navigationController?.popViewController(animated: true)
    }
}
