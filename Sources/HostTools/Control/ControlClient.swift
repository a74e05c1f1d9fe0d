import HostProcess
import Protocol
import SceneModel

#if canImport(Glibc)
import Glibc
#endif

/// A blocking client connection to `hostctl serve` (for the command line, not for tasks:
/// every call blocks its thread).
public final class ControlClient {
    private var descriptor: Int32
    private var decoder = FrameDecoder(maximumFrameSize: 16 << 20)
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    /// A decoder output taken by `hasPendingFrames`, returned by the next `nextFrame()`.
    private var peeked: FrameDecoder.Output?

    /// Why the conversation with the host failed.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
        package init(_ description: String) { self.description = description }
    }

    public init(path: String) throws(ControlSocketError) {
        HostSignals.ignoreWriteSignals()
        descriptor = try ControlSocket.connect(path: path)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Sends one frame (newline included).
    public func send(_ frame: [UInt8]) throws(Failure) {
        let code: Int32? = frame.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count > 0 {
                    offset += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    return errno
                }
            }
            return nil
        }
        if let code { throw Failure("cannot send to the host: \(ControlSocket.errorText(code))") }
    }

    /// The next frame (without its newline); nil when the host closed the connection.
    /// Blocks until one arrives.
    public func nextFrame() throws(Failure) -> [UInt8]? {
        while true {
            if let output = peeked ?? decoder.next() {
                peeked = nil
                switch output {
                case .frame(let frame): return frame
                case .oversized(let length): throw Failure("the host sent a frame of \(length)+ bytes")
                }
            }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            } else if count == 0 {
                return nil
            } else if errno != EINTR {
                throw Failure("cannot read from the host: \(ControlSocket.errorText())")
            }
        }
    }

    /// Sends `request` and returns its reply, handing every event frame before it to `onEvent`.
    public func perform(
        _ request: ControlRequest,
        onEvent: (TraceEvent) -> Void = { _ in }
    ) throws(Failure) -> ControlReply {
        try send(request.frame)
        while true {
            guard let frame = try nextFrame() else {
                throw Failure("the host closed the connection before replying")
            }
            let decoded: ControlServerFrame
            do {
                decoded = try ControlServerFrame(frame: frame)
            } catch {
                throw Failure("unreadable frame from the host: \(error.message)")
            }
            switch decoded {
            case .event(let event):
                onEvent(event)
            case .reply(let reply) where reply.id == request.id:
                return reply
            case .reply(let reply):
                if case .failure(let error) = reply.result, reply.id == .null {
                    // The host could not read the request at all.
                    return ControlReply(id: request.id, result: .failure(error))
                }
            }
        }
    }

    /// Whether `nextFrame()` would return without waiting (so output can be flushed before it blocks).
    public var hasPendingFrames: Bool {
        if peeked != nil { return true }
        if let output = decoder.next() {
            peeked = output
            return true
        }
        var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&pollDescriptor, 1, 0) > 0
    }
}
