/// What a text field tells its delegate, as `UITextFieldDelegate` (every method optional).
@MainActor
public protocol UITextFieldDelegate: AnyObject {
    /// Whether editing may begin (the field may become first responder). Default: true.
    func textFieldShouldBeginEditing(_ textField: UITextField) -> Bool
    /// Editing began.
    func textFieldDidBeginEditing(_ textField: UITextField)
    /// The text changed (after `editingChanged` actions).
    func textFieldDidChangeSelection(_ textField: UITextField)
    /// Whether editing may end (the field may resign first responder). Not asked when the
    /// field leaves its window or `endEditing(true)` ends it. Default: true.
    func textFieldShouldEndEditing(_ textField: UITextField) -> Bool
    /// Editing ended, and why. Default: calls `textFieldDidEndEditing(_:)`, as UIKit calls
    /// that one only when this one is not implemented.
    func textFieldDidEndEditing(_ textField: UITextField, reason: UITextField.DidEndEditingReason)
    /// Editing ended.
    func textFieldDidEndEditing(_ textField: UITextField)
    /// Return was pressed. Default: true.
    func textFieldShouldReturn(_ textField: UITextField) -> Bool
}

extension UITextFieldDelegate {
    public func textFieldShouldBeginEditing(_ textField: UITextField) -> Bool { true }
    public func textFieldDidBeginEditing(_ textField: UITextField) {}
    public func textFieldDidChangeSelection(_ textField: UITextField) {}
    public func textFieldShouldEndEditing(_ textField: UITextField) -> Bool { true }
    public func textFieldDidEndEditing(_ textField: UITextField, reason: UITextField.DidEndEditingReason) {
        textFieldDidEndEditing(textField)
    }
    public func textFieldDidEndEditing(_ textField: UITextField) {}
    public func textFieldShouldReturn(_ textField: UITextField) -> Bool { true }
}

/// A text field, as `UITextField`. The user's hands find it by `accessibilityIdentifier` or
/// `placeholder` (`typeText --field`).
@MainActor
open class UITextField: UIControl {
    /// The text.
    public var text: String? = ""
    /// What the empty field shows.
    public var placeholder: String?
    /// The delegate.
    public weak var delegate: (any UITextFieldDelegate)?
    /// Whether the field is being edited: it is its window's first responder.
    public private(set) var isEditing = false
    /// A secure field's text is shown as dots in the visible tree.
    public var isSecureTextEntry = false
    /// The text's color, font and alignment (kept, not drawn).
    public var textColor: UIColor? = .label
    public var font: UIFont? = .systemFont(ofSize: 17)
    public var textAlignment = NSTextAlignment.natural
    /// The field's border (kept, not drawn).
    public var borderStyle = UITextField.BorderStyle.none
    /// When the clear button shows (there is no clear button to tap: type an empty text).
    public var clearButtonMode = UITextField.ViewMode.never
    /// The keyboard the field asks for; the user's hands type any text.
    public var keyboardType = UIKeyboardType.default
    public var returnKeyType = UIReturnKeyType.default
    public var autocapitalizationType = UITextAutocapitalizationType.sentences
    public var autocorrectionType = UITextAutocorrectionType.default

    /// A field's border, as `UITextField.BorderStyle`.
    public enum BorderStyle: Int, Sendable { case none, line, bezel, roundedRect }
    /// When an overlay view shows, as `UITextField.ViewMode`.
    public enum ViewMode: Int, Sendable { case never, whileEditing, unlessEditing, always }
    /// Why editing ended, as `UITextField.DidEndEditingReason`.
    public enum DidEndEditingReason: Int, Sendable { case committed, cancelled }

    /// An empty field.
    public override init(size: Size = .zero) {
        super.init(size: size)
    }

    /// A field can become first responder while it is enabled.
    open override var canBecomeFirstResponder: Bool { isEnabled }

    /// Begins editing, as UIKit's: asks the delegate's `textFieldShouldBeginEditing`, has the
    /// window's current first responder resign (a refusal keeps it, and this field does not
    /// begin), then `editingDidBegin` actions and `textFieldDidBeginEditing`. Fails for a
    /// field in no window.
    @discardableResult
    open override func becomeFirstResponder() -> Bool {
        if isFirstResponder { return true }
        guard canBecomeFirstResponder, hostingWindow != nil, delegate?.textFieldShouldBeginEditing(self) ?? true,
            super.becomeFirstResponder()
        else { return false }
        // Begun already, by a call from the resigning field's callbacks.
        guard !isEditing else { return true }
        isEditing = true
        sendActions(for: .editingDidBegin)
        delegate?.textFieldDidBeginEditing(self)
        return true
    }

    /// Ends editing, as UIKit's: unless the delegate's `textFieldShouldEndEditing` refuses,
    /// `editingDidEnd` actions and `textFieldDidEndEditing(_:reason:)`.
    @discardableResult
    open override func resignFirstResponder() -> Bool {
        guard isFirstResponder else { return true }
        guard delegate?.textFieldShouldEndEditing(self) ?? true else { return false }
        return super.resignFirstResponder()
    }

    override func firstResponderEnded() {
        isEditing = false
        sendActions(for: .editingDidEnd)
        delegate?.textFieldDidEndEditing(self, reason: .committed)
    }

    /// Asks the app whether `replacement` may replace the field's whole text (its first
    /// `count` UTF-16 units), as UIKit asks `textField(_:shouldChangeCharactersIn:replacementString:)`
    /// of the delegate: the UIKit module sets it, as that method takes Foundation's `NSRange`
    /// (which the runtime does not link). nil: every change is taken.
    package static var shouldChangeCharacters: (@MainActor (UITextField, _ count: Int, _ replacement: String) -> Bool)?

    /// What typing `typed` does, as a tap on the field and a paste that replaces its text:
    /// the field becomes first responder (unless it or the current one refuses: then nothing
    /// changes, and the tap was still the user's); the new text, unless the delegate's
    /// `shouldChangeCharactersIn` refuses it, with its `editingChanged` actions and
    /// `textFieldDidChangeSelection`; a final newline is the Return key (a field holds one
    /// line): `textFieldShouldReturn`, and when it says true the `editingDidEndOnExit`
    /// actions, after which a field with such actions resigns, as UIKit's. Otherwise the
    /// field stays first responder, as with the keyboard up, until the app resigns it, another
    /// field takes over, or it leaves its window.
    func typeAsUser(_ typed: String) {
        guard isEnabled, becomeFirstResponder() else { return }
        let pressesReturn = typed.hasSuffix("\n")
        let newText = pressesReturn ? String(typed.dropLast()) : typed
        if Self.shouldChangeCharacters?(self, (text ?? "").utf16.count, newText) ?? true {
            text = newText
            sendActions(for: .editingChanged)
            delegate?.textFieldDidChangeSelection(self)
        }
        if pressesReturn, delegate?.textFieldShouldReturn(self) ?? true {
            sendActions(for: .editingDidEndOnExit)
            if hasActions(for: .editingDidEndOnExit) { resignFirstResponder() }
        }
    }
}

/// The keyboard a text field asks for, as `UIKeyboardType`.
public enum UIKeyboardType: Int, Sendable {
    case `default`, asciiCapable, numbersAndPunctuation, URL, numberPad, phonePad, namePhonePad, emailAddress
    case decimalPad, twitter, webSearch, asciiCapableNumberPad
}

/// The return key's title, as `UIReturnKeyType`.
public enum UIReturnKeyType: Int, Sendable {
    case `default`, go, google, join, next, route, search, send, yahoo, done, emergencyCall, `continue`
}

/// How typed text is capitalized, as `UITextAutocapitalizationType` (the user's hands type
/// the text as given).
public enum UITextAutocapitalizationType: Int, Sendable { case none, words, sentences, allCharacters }

/// Whether typed text is autocorrected, as `UITextAutocorrectionType` (it never is here).
public enum UITextAutocorrectionType: Int, Sendable { case `default`, no, yes }
