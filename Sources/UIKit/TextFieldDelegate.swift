/// What a text field tells its delegate, as UIKit's `UITextFieldDelegate`: the runtime's
/// protocol, and the method that takes Foundation's `NSRange` (which the runtime does not
/// link): the UIKit module asks it for the runtime (`UITextField.shouldChangeCharacters`).
@MainActor
public protocol UITextFieldDelegate: SceneWorker.UITextFieldDelegate {
    /// Whether the characters in `range` may be replaced by `string`. The user's hands type a
    /// text as a paste over the field's whole text: `range` is all of it. Default: true.
    func textField(
        _ textField: UITextField,
        shouldChangeCharactersIn range: NSRange,
        replacementString string: String
    ) -> Bool
}

extension UITextFieldDelegate {
    public func textField(
        _ textField: UITextField,
        shouldChangeCharactersIn range: NSRange,
        replacementString string: String
    ) -> Bool { true }
}

/// The runtime's question to an app's text field delegate that adopts UIKit's protocol.
enum TextFieldChanges {
    /// Whether `field`'s delegate lets `replacement` replace its text (`count` UTF-16 units).
    @MainActor static func ask(_ field: UITextField, count: Int, replacement: String) -> Bool {
        guard let delegate = field.delegate as? any UITextFieldDelegate else { return true }
        return delegate.textField(
            field,
            shouldChangeCharactersIn: NSRange(location: 0, length: count),
            replacementString: replacement
        )
    }
}
