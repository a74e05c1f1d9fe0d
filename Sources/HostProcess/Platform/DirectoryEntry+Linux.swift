#if canImport(Glibc)
import Glibc
#endif

/// The name of a `readdir` entry, read in place.
///
/// A `dirent` from `readdir` is only as long as its name (`d_reclen`), not the 256 bytes its
/// type declares: copying `d_name` (`withUnsafeBytes(of: entry.pointee.d_name)`) reads past
/// the end of the last record of the buffer, which AddressSanitizer caught in a directory of
/// 30,000 session files. This reads up to the name's NUL, where it really is.
package func directoryEntryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
    withUnsafeMutablePointer(to: &entry.pointee.d_name) { field in
        field.withMemoryRebound(to: CChar.self, capacity: 1) { String(cString: $0) }
    }
}
