import Foundation
import Protocol
import Testing

/// The host hands an app only URLs Foundation parses: `UIOpenURLContext.url` is a `URL`, and
/// on a device the system opens nothing else.
@Suite struct URLSyntaxTests {
    @Test(arguments: [
        "notes://7", "notes://item/7?draft=1#top", "notes:", "notes:///path", "mailto:a@b.example",
        "https://user:pw@example.com:8443/a%20b", "http://[::1]:8080/x", "x+y-z.w:opaque", "notes://h/%E2%9C%93",
    ])
    func absoluteURLsPass(_ url: String) {
        #expect(SceneLimits.urlRefusal(url) == nil)
        #expect(URL(string: url) != nil)
    }

    @Test(arguments: [
        ("", "scheme"), ("item/7", "scheme"), ("7notes://x", "scheme"), (":x", "scheme"),
        ("notes://a b", "character"), ("notes://é", "character"), ("notes://x\n", "character"),
        ("notes://%zz", "escape"), ("notes://x%2", "escape"), ("notes://x#a#b", "second #"),
        ("notes://x/[a]", "[ and ]"), ("http://[zz]/", "IPv6"), ("http://[::1", "lacks"),
        ("http://h:99999/", "port"), ("http://h:8a/", "port"), ("http://a@b@c/", "user part"),
    ])
    func everythingElseIsRefusedWithWhatToChange(_ url: String, _ says: String) throws {
        let refusal = try #require(SceneLimits.urlRefusal(url))
        #expect(refusal.contains(says), "\(refusal)")
    }

    /// Property: whatever the check lets through, Foundation parses (random strings built from
    /// the characters that decide it, after the prefixes where they matter).
    @Test func everyURLTheCheckPassesFoundationParses() {
        var generator = SplitMix64(state: 0x5CE7E)
        let alphabet = Array("ab:/?#[]@!$&'()*+,;=%2f-._~ 0\u{e9}^{}|\\\"<>9")
        let prefixes = ["notes:", "notes://", "http://", "x:", "http://[::1]", "http://[", "http://u@h:", ""]
        var passed = 0
        for _ in 0..<200_000 {
            let prefix = prefixes[Int(generator.next() % UInt64(prefixes.count))]
            let length = Int(generator.next() % 12)
            let url =
                prefix + String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            guard SceneLimits.urlRefusal(url) == nil else { continue }
            passed += 1
            #expect(URL(string: url) != nil, "the check passed \(url), Foundation refuses it")
        }
        #expect(passed > 10_000)
    }
}
