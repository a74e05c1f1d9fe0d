import HostTools
import SceneModel
import Testing

/// The host builds only on Linux: no manifest claims an Apple platform, and the manifest and
/// the README both say Linux only.
@Suite struct ManifestHonestyTests {
    static let manifests = ["/Package.swift", "/Examples/Package.swift"]

    @Test(arguments: manifests)
    func noManifestClaimsAnApplePlatform(_ manifest: String) {
        let text = LifecycleDocsTests.read(LifecycleDocsTests.root + manifest)
        #expect(!text.isEmpty, "\(manifest) not found")
        // Code lines only: the comment that explains the absence may name it.
        let code = text.split(separator: "\n").filter { !$0.trimmingPrefix(while: \.isWhitespace).hasPrefix("//") }
        for claim in ["platforms:", ".macOS(", ".iOS(", ".tvOS(", ".watchOS(", ".visionOS(", ".macCatalyst("] {
            #expect(!code.contains { $0.contains(claim) }, "\(manifest) declares \(claim)")
        }
    }

    @Test func theManifestAndTheReadmeSayLinuxOnly() {
        let manifest = LifecycleDocsTests.read(LifecycleDocsTests.root + "/Package.swift")
        #expect(manifest.contains("// Linux only"))
        let readme = LifecycleDocsTests.read(LifecycleDocsTests.root + "/README.md")
        #expect(readme.contains("Linux only: the host"))
        #expect(readme.contains("nothing builds on macOS"))
    }
}

extension Substring {
    fileprivate func trimmingPrefix(while predicate: (Character) -> Bool) -> Substring {
        var rest = self
        while let first = rest.first, predicate(first) { rest = rest.dropFirst() }
        return rest
    }
}
