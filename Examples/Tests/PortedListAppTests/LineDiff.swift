import Glibc

/// Counts a line diff's changed lines: each hunk (a run of removed and added lines between
/// common ones) counts as its longer side, so a replaced line is one change, as in a review.
enum LineDiff {
    static func changedLines(from old: [Substring], to new: [Substring]) -> Int {
        // Longest common subsequence table, from the ends.
        var table = [[Int]](repeating: [Int](repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                table[i][j] = old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var (i, j, removed, added, changed) = (0, 0, 0, 0, 0)
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                changed += max(removed, added)
                (removed, added) = (0, 0)
                i += 1
                j += 1
            } else if j < new.count, i == old.count || table[i][j + 1] >= table[i + 1][j] {
                added += 1
                j += 1
            } else {
                removed += 1
                i += 1
            }
        }
        return changed + max(removed, added)
    }
}

/// The whole text of the file at `path`, or nil when it cannot be read.
func readText(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count == 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
}
