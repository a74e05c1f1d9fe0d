import Protocol
import Testing

/// `withoutTransientViews`: what two trees of the same screen may differ in, and no more.
@Suite struct VisibleTreeComparisonTests {
    @Test func transientViewsAndARowsSelectionGoTheSelectedTabStays() throws {
        let tree = try JSONParser.parse(
            Array(
                #"""
                {"tabs":{"selected":1,"titles":["Inbox","Settings"]},
                 "top":{"views":[{"id":"spinner.transient","transient":true},{"id":"title"}],
                        "tables":[{"rows":[{"text":"A","selected":true},{"text":"B"}]}]}}
                """#.utf8
            )
        )
        let expected = try JSONParser.parse(
            Array(
                #"""
                {"tabs":{"selected":1,"titles":["Inbox","Settings"]},
                 "top":{"views":[{"id":"title"}],"tables":[{"rows":[{"text":"A"},{"text":"B"}]}]}}
                """#.utf8
            )
        )
        #expect(tree.withoutTransientViews == expected)
        // A screen restored on another tab is another screen.
        let otherTab = try JSONParser.parse(Array(#"{"tabs":{"selected":0,"titles":["Inbox","Settings"]}}"#.utf8))
        let sameTab = try JSONParser.parse(Array(#"{"tabs":{"selected":1,"titles":["Inbox","Settings"]}}"#.utf8))
        #expect(otherTab.withoutTransientViews != sameTab.withoutTransientViews)
    }
}
