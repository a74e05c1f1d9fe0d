import Testing

/// The port's proof: the ported app's source differs from its UIKit original in at most ten
/// lines. (`main.swift` is new: it says what Main.storyboard and Info.plist say in the UIKit
/// app, which has no Swift for it.)
@Suite struct PortDiffTests {
    static let examples = String(#filePath.split(separator: "/Tests/", omittingEmptySubsequences: false)[0])

    static func lines(_ relativePath: String) throws -> [Substring] {
        let path = examples + "/" + relativePath
        let text = try #require(readText(path), "cannot read \(path)")
        return text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    @Test func thePortChangesAtMostTenLinesOfTheUIKitApp() throws {
        let original = try Self.lines("Porting/ListApp.uikit.swift.txt")
        let port = try Self.lines("Sources/PortedListApp/ListApp.swift")
        #expect(original.count > 90)
        let changed = LineDiff.changedLines(from: original, to: port)
        #expect(changed <= 10, "the port changes \(changed) lines of the UIKit app")
        #expect(changed > 0)
    }

    /// The notes app, written with `import UIKit` and `@main`: at most five lines change (the
    /// issue's bar), storyboard outlets and `@objc` aside (it has neither).
    @Test func theNotesAppPortChangesAtMostFiveLines() throws {
        let original = try Self.lines("Porting/NotesApp.uikit.swift.txt")
        let port = try Self.lines("Sources/NotesApp/NotesApp.swift")
        #expect(original.count > 120)
        let changed = LineDiff.changedLines(from: original, to: port)
        #expect(changed <= 5, "the port changes \(changed) lines of the UIKit app")
    }

    @Test func theCountTakesEachHunkAtItsLongerSide() {
        #expect(LineDiff.changedLines(from: ["a", "b", "c"], to: ["a", "b", "c"]) == 0)
        #expect(LineDiff.changedLines(from: ["a", "b", "c"], to: ["a", "x", "c"]) == 1)
        #expect(LineDiff.changedLines(from: ["a", "b", "c"], to: ["a", "c"]) == 1)
        #expect(LineDiff.changedLines(from: ["a"], to: ["x", "y", "a", "z"]) == 3)
        #expect(LineDiff.changedLines(from: ["a", "b"], to: ["c", "d", "e"]) == 3)
    }
}
