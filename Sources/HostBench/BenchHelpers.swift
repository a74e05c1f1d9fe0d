import Glibc

/// The hidden helper modes `hostctl bench` spawns for its floors. Dispatched from `main.swift`
/// before anything else so that they start as fast as the worker does.
package enum BenchHelpers {
    /// `hostctl bench-echo`: copies stdin to stdout as it arrives (a line in, the same line
    /// out) until EOF. The transport floor of a request round trip.
    package static func echo() -> Never {
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        while true {
            let count = read(0, buffer, size)
            if count == 0 { exit(0) }
            if count < 0 {
                if errno == EINTR { continue }
                exit(1)
            }
            var offset = 0
            while offset < count {
                let written = write(1, buffer + offset, count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    exit(1)
                }
                offset += written
            }
        }
    }

    /// `hostctl bench-ready`: prints one line and exits. The floor of `connect`.
    package static func ready() -> Never {
        let line: StaticString = "ready\n"
        _ = write(1, line.utf8Start, line.utf8CodeUnitCount)
        exit(0)
    }
}
