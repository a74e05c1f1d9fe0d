// Table view and text field delegate methods UIKit calls that scenehost does not: there is
// no display pass, no highlight, no row height and no clear button. Declaring one in a
// controller (`UIViewController`), in a separate delegate object (`NSObject`, as UIKit's
// delegates are on iOS) or in a view that is its own delegate (`UIView`: a cell, a custom
// form view) fails to compile ("declared in extension … cannot be overridden"), and the
// compiler's note points here, where each says what to write instead. Written three times:
// the three classes share no base an extension could go on, and a message is a literal.

extension UIViewController {
    /// Not called: there is no display pass; a cell is made when the visible tree or the app asks for it (`cellForRowAt`).
    @available(*, deprecated, message: "not called: cells are made by cellForRowAt when shown; configure them there")
    public func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {}

    /// Not called: there is no display pass, so no cell goes off screen.
    @available(*, deprecated, message: "not called: nothing scrolls, so no cell goes off screen")
    public func tableView(
        _ tableView: UITableView,
        didEndDisplaying cell: UITableViewCell,
        forRowAt indexPath: IndexPath
    ) {}

    /// Not called: a tap (`selectRow`) has no highlight to show. `shouldHighlightRowAt` is asked, then `willSelectRowAt` and `didSelectRowAt`.
    @available(
        *,
        deprecated,
        message:
            "not called: a tap asks shouldHighlightRowAt, then willSelectRowAt and didSelectRowAt; do the work there"
    )
    public func tableView(_ tableView: UITableView, didHighlightRowAt indexPath: IndexPath) {}

    /// Not called: a tap has no highlight to remove (see `didHighlightRowAt`).
    @available(
        *,
        deprecated,
        message:
            "not called: a tap asks shouldHighlightRowAt, then willSelectRowAt and didSelectRowAt; do the work there"
    )
    public func tableView(_ tableView: UITableView, didUnhighlightRowAt indexPath: IndexPath) {}

    /// Not asked: a tap on another row deselects the selected one; `didDeselectRowAt` tells.
    @available(
        *,
        deprecated,
        message: "not asked: a tap on another row deselects the selected one; do the work in didDeselectRowAt"
    )
    public func tableView(_ tableView: UITableView, willDeselectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }

    /// Not called: rows show no accessory button to tap; `selectRow` taps the row.
    @available(
        *,
        deprecated,
        message: "not called: there is no accessory button to tap; selectRow taps the row (didSelectRowAt)"
    )
    public func tableView(_ tableView: UITableView, accessoryButtonTappedForRowWith indexPath: IndexPath) {}

    /// Not asked: rows have no height (there is no layout engine). Keep it for iOS (`#if os(iOS)`).
    @available(
        *,
        deprecated,
        message: "not asked: rows have no height under scenehost; keep it for iOS with #if os(iOS)"
    )
    public func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat { 44 }

    /// Not asked: rows have no height (there is no layout engine). Keep it for iOS (`#if os(iOS)`).
    @available(
        *,
        deprecated,
        message: "not asked: rows have no height under scenehost; keep it for iOS with #if os(iOS)"
    )
    public func tableView(_ tableView: UITableView, estimatedHeightForRowAt indexPath: IndexPath) -> CGFloat { 44 }

    /// Not asked: a section's header is its title (`titleForHeaderInSection`), which the visible tree shows.
    @available(
        *,
        deprecated,
        message:
            "not asked: a section's header is its titleForHeaderInSection; keep custom header views for iOS with #if os(iOS)"
    )
    public func tableView(_ tableView: UITableView, viewForHeaderInSection section: Int) -> UIView? { nil }

    /// Not asked: a section's footer is its title (`titleForFooterInSection`), which the visible tree shows.
    @available(
        *,
        deprecated,
        message:
            "not asked: a section's footer is its titleForFooterInSection; keep custom footer views for iOS with #if os(iOS)"
    )
    public func tableView(_ tableView: UITableView, viewForFooterInSection section: Int) -> UIView? { nil }

    /// Not asked: headers have no height (there is no layout engine). Keep it for iOS (`#if os(iOS)`).
    @available(
        *,
        deprecated,
        message: "not asked: headers have no height under scenehost; keep it for iOS with #if os(iOS)"
    )
    public func tableView(_ tableView: UITableView, heightForHeaderInSection section: Int) -> CGFloat { 0 }

    /// Not asked: footers have no height (there is no layout engine). Keep it for iOS (`#if os(iOS)`).
    @available(
        *,
        deprecated,
        message: "not asked: footers have no height under scenehost; keep it for iOS with #if os(iOS)"
    )
    public func tableView(_ tableView: UITableView, heightForFooterInSection section: Int) -> CGFloat { 0 }

    /// Not asked: a field has no clear button to tap; `typeText` with an empty text clears it.
    @available(
        *,
        deprecated,
        message:
            "not asked: there is no clear button to tap; typing an empty text clears the field (shouldChangeCharactersIn is asked)"
    )
    public func textFieldShouldClear(_ textField: UITextField) -> Bool { true }
}

extension NSObject {
    /// Not called: there is no display pass; a cell is made when the visible tree or the app asks for it (`cellForRowAt`).
    @available(*, deprecated, message: "not called: cells are made by cellForRowAt when shown; configure them there")
    public func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {}

    /// Not called: there is no display pass, so no cell goes off screen.
    @available(*, deprecated, message: "not called: nothing scrolls, so no cell goes off screen")
    public func tableView(
        _ tableView: UITableView,
        didEndDisplaying cell: UITableViewCell,
        forRowAt indexPath: IndexPath
    ) {}

    /// Not called: a tap (`selectRow`) has no highlight to show. `shouldHighlightRowAt` is asked, then `willSelectRowAt` and `didSelectRowAt`.
    @available(
        *,
        deprecated,
        message:
            "not called: a tap asks shouldHighlightRowAt, then willSelectRowAt and didSelectRowAt; do the work there"
    )
    public func tableView(_ tableView: UITableView, didHighlightRowAt indexPath: IndexPath) {}

    /// Not called: a tap has no highlight to remove (see `didHighlightRowAt`).
    @available(
        *,
        deprecated,
        message:
            "not called: a tap asks shouldHighlightRowAt, then willSelectRowAt and didSelectRowAt; do the work there"
    )
    public func tableView(_ tableView: UITableView, didUnhighlightRowAt indexPath: IndexPath) {}

    /// Not asked: a tap on another row deselects the selected one; `didDeselectRowAt` tells.
    @available(
        *,
        deprecated,
        message: "not asked: a tap on another row deselects the selected one; do the work in didDeselectRowAt"
    )
    public func tableView(_ tableView: UITableView, willDeselectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }

    /// Not called: rows show no accessory button to tap; `selectRow` taps the row.
    @available(
        *,
        deprecated,
        message: "not called: there is no accessory button to tap; selectRow taps the row (didSelectRowAt)"
    )
    public func tableView(_ tableView: UITableView, accessoryButtonTappedForRowWith indexPath: IndexPath) {}

    /// Not asked: rows have no height (there is no layout engine). Keep it for iOS (`#if os(iOS)`).
    @available(
        *,
        deprecated,
        message: "not asked: rows have no height under scenehost; keep it for iOS with #if os(iOS)"
    )
    public func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat { 44 }

    /// Not asked: rows have no height (there is no layout engine). Keep it for iOS (`#if os(iOS)`).
    @available(
        *,
        deprecated,
        message: "not asked: rows have no height under scenehost; keep it for iOS with #if os(iOS)"
    )
    public func tableView(_ tableView: UITableView, estimatedHeightForRowAt indexPath: IndexPath) -> CGFloat { 44 }

    /// Not asked: a section's header is its title (`titleForHeaderInSection`), which the visible tree shows.
    @available(
        *,
        deprecated,
        message:
            "not asked: a section's header is its titleForHeaderInSection; keep custom header views for iOS with #if os(iOS)"
    )
    public func tableView(_ tableView: UITableView, viewForHeaderInSection section: Int) -> UIView? { nil }

    /// Not asked: a section's footer is its title (`titleForFooterInSection`), which the visible tree shows.
    @available(
        *,
        deprecated,
        message:
            "not asked: a section's footer is its titleForFooterInSection; keep custom footer views for iOS with #if os(iOS)"
    )
    public func tableView(_ tableView: UITableView, viewForFooterInSection section: Int) -> UIView? { nil }

    /// Not asked: headers have no height (there is no layout engine). Keep it for iOS (`#if os(iOS)`).
    @available(
        *,
        deprecated,
        message: "not asked: headers have no height under scenehost; keep it for iOS with #if os(iOS)"
    )
    public func tableView(_ tableView: UITableView, heightForHeaderInSection section: Int) -> CGFloat { 0 }

    /// Not asked: footers have no height (there is no layout engine). Keep it for iOS (`#if os(iOS)`).
    @available(
        *,
        deprecated,
        message: "not asked: footers have no height under scenehost; keep it for iOS with #if os(iOS)"
    )
    public func tableView(_ tableView: UITableView, heightForFooterInSection section: Int) -> CGFloat { 0 }

    /// Not asked: a field has no clear button to tap; `typeText` with an empty text clears it.
    @available(
        *,
        deprecated,
        message:
            "not asked: there is no clear button to tap; typing an empty text clears the field (shouldChangeCharactersIn is asked)"
    )
    public func textFieldShouldClear(_ textField: UITextField) -> Bool { true }
}

extension UIView {
    /// Not called: there is no display pass; a cell is made when the visible tree or the app asks for it (`cellForRowAt`).
    @available(*, deprecated, message: "not called: cells are made by cellForRowAt when shown; configure them there")
    public func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {}

    /// Not called: there is no display pass, so no cell goes off screen.
    @available(*, deprecated, message: "not called: nothing scrolls, so no cell goes off screen")
    public func tableView(
        _ tableView: UITableView,
        didEndDisplaying cell: UITableViewCell,
        forRowAt indexPath: IndexPath
    ) {}

    /// Not called: a tap (`selectRow`) has no highlight to show. `shouldHighlightRowAt` is asked, then `willSelectRowAt` and `didSelectRowAt`.
    @available(
        *,
        deprecated,
        message:
            "not called: a tap asks shouldHighlightRowAt, then willSelectRowAt and didSelectRowAt; do the work there"
    )
    public func tableView(_ tableView: UITableView, didHighlightRowAt indexPath: IndexPath) {}

    /// Not called: a tap has no highlight to remove (see `didHighlightRowAt`).
    @available(
        *,
        deprecated,
        message:
            "not called: a tap asks shouldHighlightRowAt, then willSelectRowAt and didSelectRowAt; do the work there"
    )
    public func tableView(_ tableView: UITableView, didUnhighlightRowAt indexPath: IndexPath) {}

    /// Not asked: a tap on another row deselects the selected one; `didDeselectRowAt` tells.
    @available(
        *,
        deprecated,
        message: "not asked: a tap on another row deselects the selected one; do the work in didDeselectRowAt"
    )
    public func tableView(_ tableView: UITableView, willDeselectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }

    /// Not called: rows show no accessory button to tap; `selectRow` taps the row.
    @available(
        *,
        deprecated,
        message: "not called: there is no accessory button to tap; selectRow taps the row (didSelectRowAt)"
    )
    public func tableView(_ tableView: UITableView, accessoryButtonTappedForRowWith indexPath: IndexPath) {}

    /// Not asked: rows have no height (there is no layout engine). Keep it for iOS (`#if os(iOS)`).
    @available(
        *,
        deprecated,
        message: "not asked: rows have no height under scenehost; keep it for iOS with #if os(iOS)"
    )
    public func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat { 44 }

    /// Not asked: rows have no height (there is no layout engine). Keep it for iOS (`#if os(iOS)`).
    @available(
        *,
        deprecated,
        message: "not asked: rows have no height under scenehost; keep it for iOS with #if os(iOS)"
    )
    public func tableView(_ tableView: UITableView, estimatedHeightForRowAt indexPath: IndexPath) -> CGFloat { 44 }

    /// Not asked: a section's header is its title (`titleForHeaderInSection`), which the visible tree shows.
    @available(
        *,
        deprecated,
        message:
            "not asked: a section's header is its titleForHeaderInSection; keep custom header views for iOS with #if os(iOS)"
    )
    public func tableView(_ tableView: UITableView, viewForHeaderInSection section: Int) -> UIView? { nil }

    /// Not asked: a section's footer is its title (`titleForFooterInSection`), which the visible tree shows.
    @available(
        *,
        deprecated,
        message:
            "not asked: a section's footer is its titleForFooterInSection; keep custom footer views for iOS with #if os(iOS)"
    )
    public func tableView(_ tableView: UITableView, viewForFooterInSection section: Int) -> UIView? { nil }

    /// Not asked: headers have no height (there is no layout engine). Keep it for iOS (`#if os(iOS)`).
    @available(
        *,
        deprecated,
        message: "not asked: headers have no height under scenehost; keep it for iOS with #if os(iOS)"
    )
    public func tableView(_ tableView: UITableView, heightForHeaderInSection section: Int) -> CGFloat { 0 }

    /// Not asked: footers have no height (there is no layout engine). Keep it for iOS (`#if os(iOS)`).
    @available(
        *,
        deprecated,
        message: "not asked: footers have no height under scenehost; keep it for iOS with #if os(iOS)"
    )
    public func tableView(_ tableView: UITableView, heightForFooterInSection section: Int) -> CGFloat { 0 }

    /// Not asked: a field has no clear button to tap; `typeText` with an empty text clears it.
    @available(
        *,
        deprecated,
        message:
            "not asked: there is no clear button to tap; typing an empty text clears the field (shouldChangeCharactersIn is asked)"
    )
    public func textFieldShouldClear(_ textField: UITextField) -> Bool { true }
}
