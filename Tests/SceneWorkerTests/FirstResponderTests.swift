import Protocol
import Testing

@testable import SceneWorker

/// A form of two fields whose delegate logs what UIKit tells it, and a table whose delegate
/// may refuse a tap's highlight: the code an iOS developer writes for a sign-in screen.
@MainActor
private final class FormController: UIViewController, UITextFieldDelegate, UITableViewDataSource,
    UITableViewDelegate
{
    let name = UITextField()
    let email = UITextField()
    let table = UITableView()
    var log: [String] = []
    var mayEnd = true
    var highlights = true
    var resignsOnReturn = true

    override func viewDidLoad() {
        for (field, identifier) in [(name, "name"), (email, "email")] {
            field.accessibilityIdentifier = identifier
            field.delegate = self
            field.addAction(
                UIAction { [weak self] _ in self?.log.append("\(identifier) didBegin action") },
                for: .editingDidBegin
            )
            view.addSubview(field)
        }
        table.dataSource = self
        table.delegate = self
        view.addSubview(table)
    }

    private func id(_ field: UITextField) -> String { field.accessibilityIdentifier ?? "?" }

    func textFieldShouldBeginEditing(_ textField: UITextField) -> Bool {
        log.append("\(id(textField)) shouldBegin")
        return true
    }

    func textFieldDidBeginEditing(_ textField: UITextField) { log.append("\(id(textField)) didBegin") }

    func textFieldShouldEndEditing(_ textField: UITextField) -> Bool {
        log.append("\(id(textField)) shouldEnd")
        return mayEnd
    }

    func textFieldDidEndEditing(_ textField: UITextField, reason: UITextField.DidEndEditingReason) {
        log.append("\(id(textField)) didEnd \(reason)")
        // An app that validates as editing ends takes the keyboard back for a wrong entry.
        if textField === name, name.text == "invalid" { name.becomeFirstResponder() }
    }

    func textFieldShouldReturn(_ textField: UITextField) -> Bool {
        log.append("\(id(textField)) shouldReturn")
        // As most apps do: Return moves to the next field, or dismisses the keyboard.
        if textField === name {
            email.becomeFirstResponder()
        } else if resignsOnReturn {
            textField.resignFirstResponder()
        }
        return true
    }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 2 }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        UITableViewCell(reuseIdentifier: nil)
    }

    func tableView(_ tableView: UITableView, shouldHighlightRowAt indexPath: IndexPath) -> Bool {
        log.append("shouldHighlight \(indexPath.row)")
        return highlights
    }

    func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? {
        log.append("willSelect \(indexPath.row)")
        return indexPath
    }

    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        log.append("didSelect \(indexPath.row)")
    }
}

/// A field stays first responder after the user types, as with the keyboard up, until the app
/// resigns it, another field takes over, or it leaves the window; the delegate is asked and
/// told as UIKit asks and tells it.
@MainActor @Suite struct FirstResponderTests {
    private func type(_ text: String, into field: String) -> WorkerOperation {
        .user(.typeText(field: field, text: text))
    }

    private func form() throws -> (Harness, FormController) {
        let h = Harness(makingControllers: {
            $0 == "Root" ? FormController(restorationIdentifier: $0) : UIViewController(restorationIdentifier: $0)
        })
        let form = try #require(try h.connectedRoot() as? FormController)
        return (h, form)
    }

    @Test func typingMakesTheFieldFirstResponderAndItStaysSo() throws {
        let (h, form) = try form()
        #expect(!form.name.isFirstResponder && !form.name.isEditing)
        #expect(h.send(type("Ada", into: "name")) == ["userAction", "reply 2"])
        #expect(form.log == ["name shouldBegin", "name didBegin action", "name didBegin"])
        #expect(form.name.isFirstResponder && form.name.isEditing, "the keyboard stays up")
        #expect(form.name.text == "Ada")
        #expect(VisibleTree.controller(form)["views"]?[0]?["editing"] == true, "the visible tree shows it")
        #expect(VisibleTree.controller(form)["views"]?[1]?["field"] == "email")
        #expect(VisibleTree.controller(form)["views"]?[1]?["editing"] == nil)
        // Typing again goes to the same first responder: nothing begins again.
        form.log = []
        #expect(h.send(type("Ada L", into: "name")) == ["userAction", "reply 3"])
        #expect(form.log.isEmpty)
    }

    @Test func anotherFieldTakesOverOnlyWhenTheCurrentOneMayEnd() throws {
        let (h, form) = try form()
        h.send(type("Ada", into: "name"))
        form.log = []
        form.mayEnd = false
        h.send(type("ada@example.com", into: "email"))
        #expect(form.log == ["email shouldBegin", "name shouldEnd"], "the name field keeps the keyboard")
        #expect(form.name.isFirstResponder && form.email.text == "" && !form.email.isEditing)
        form.log = []
        form.mayEnd = true
        h.send(type("ada@example.com", into: "email"))
        #expect(
            form.log == [
                "email shouldBegin", "name shouldEnd", "name didEnd committed", "email didBegin action",
                "email didBegin",
            ]
        )
        #expect(form.email.isFirstResponder && !form.name.isFirstResponder && !form.name.isEditing)
    }

    /// Return: the app's `textFieldShouldReturn` moves to the next field, then resigns the last.
    @Test func returnRunsTheAppsOwnFirstResponderCalls() throws {
        let (h, form) = try form()
        h.send(type("Ada\n", into: "name"))
        #expect(
            form.log == [
                "name shouldBegin", "name didBegin action", "name didBegin", "name shouldReturn", "email shouldBegin",
                "name shouldEnd", "name didEnd committed", "email didBegin action", "email didBegin",
            ]
        )
        #expect(form.email.isFirstResponder && !form.name.isFirstResponder && !form.name.isEditing)
        form.log = []
        h.send(type("ada@example.com\n", into: "email"))
        #expect(form.log == ["email shouldReturn", "email shouldEnd", "email didEnd committed"])
        #expect(!form.email.isFirstResponder && !form.email.isEditing)
    }

    /// `endEditing(true)` ends without asking; a field that leaves the window ends too.
    @Test func endEditingAndLeavingTheWindowEndEditingUnasked() throws {
        let (h, form) = try form()
        h.send(type("Ada", into: "name"))
        form.mayEnd = false
        #expect(!form.view.endEditing(false), "asked, and refused")
        #expect(form.name.isFirstResponder)
        form.log = []
        #expect(form.view.endEditing(true))
        #expect(form.log == ["name didEnd committed"] && !form.name.isFirstResponder)
        h.send(type("Ada", into: "name"))
        form.log = []
        h.send(.push(viewController: "Detail"))
        #expect(form.log == ["name didEnd committed"], "its view left the window: no shouldEnd")
        #expect(!form.name.isFirstResponder)
    }

    /// A field taken out of its superview leaves the window: it resigns, unasked; one moved
    /// to another superview stays first responder.
    @Test func aFieldTakenOutResignsAndOneMovedStays() throws {
        let (h, form) = try form()
        h.send(type("Ada", into: "name"))
        form.mayEnd = false
        let box = UIView()
        form.view.addSubview(box)
        box.addSubview(form.name)
        #expect(form.name.isFirstResponder, "moved within the window")
        form.log = []
        form.name.removeFromSuperview()
        #expect(form.log == ["name didEnd committed"] && !form.name.isFirstResponder)
    }

    /// The resigning field's `textFieldDidEndEditing` takes the keyboard back: it stays with
    /// it, and the field that asked does not begin (nor is left editing).
    @Test func aFieldThatTakesTheKeyboardBackAsItEndsKeepsIt() throws {
        let (h, form) = try form()
        h.send(type("invalid", into: "name"))
        form.log = []
        h.send(type("ada@example.com", into: "email"))
        #expect(
            form.log == [
                "email shouldBegin", "name shouldEnd", "name didEnd committed", "name shouldBegin",
                "name didBegin action", "name didBegin",
            ]
        )
        #expect(form.name.isFirstResponder && form.name.isEditing)
        #expect(!form.email.isFirstResponder && !form.email.isEditing)
    }

    /// A first responder moved into a view outside the window leaves it: it resigns, unasked.
    @Test func aFieldMovedOutOfTheWindowResigns() throws {
        let (h, form) = try form()
        h.send(type("Ada", into: "name"))
        form.log = []
        UIView().addSubview(form.name)
        #expect(form.log == ["name didEnd committed"] && !form.name.isFirstResponder)
    }

    @Test func aFieldOutsideAWindowCannotBecomeFirstResponder() {
        let field = UITextField()
        #expect(!field.becomeFirstResponder() && !field.isFirstResponder)
        #expect(field.resignFirstResponder(), "not first responder: nothing to refuse")
    }

    /// A tap on a row asks `shouldHighlightRowAt` first; false halts it: nothing is selected.
    @Test func aRefusedHighlightSelectsNothing() throws {
        let (h, form) = try form()
        #expect(h.send(.user(.selectRow(section: 0, row: 1))) == ["userAction", "reply 2"])
        #expect(form.log == ["shouldHighlight 1", "willSelect 1", "didSelect 1"])
        form.log = []
        form.highlights = false
        h.send(.user(.selectRow(section: 0, row: 0)))
        #expect(form.log == ["shouldHighlight 0"])
        #expect(form.table.indexPathForSelectedRow == IndexPath(row: 1, section: 0), "the selection stays")
    }
}
