import Protocol
import Testing

@testable import HostTools

/// What the fuzzer reads off a visible tree to choose the user's next step.
@Suite struct FuzzScreenTests {
    /// The first table's rows, and whether it edits (then its rows can be dragged: `moveRow`).
    @Test func theFirstTablesRowsAndEditingModeAreRead() throws {
        let tree = try JSONParser.parse(
            Array(
                #"""
                {"stack":[{"vc":"List","views":[{"table":[{"rows":[{"text":"A"},{"text":"B"}]}],"editing":true},
                {"button":"Tap"}],"navigationItem":{"right":[{"button":"Done","edit":true}]}}]}
                """#.utf8
            )
        )
        let screen = FuzzScreen(tree)
        #expect(screen.rowCount == 2 && screen.tableEditing)
        #expect(screen.controls == ["Done", "Tap"])
        let resting = FuzzScreen(
            try JSONParser.parse(Array(#"{"stack":[{"views":[{"table":[{"rows":[{"text":"A"}]}]}]}]}"#.utf8))
        )
        #expect(resting.rowCount == 1 && !resting.tableEditing)
    }
}
