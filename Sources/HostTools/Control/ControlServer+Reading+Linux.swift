import HostProcess
import Protocol
import SceneModel

#if canImport(Glibc)
import Glibc
#endif

// Reading requests from a client: the socket's bytes into the connection's decoder, frames
// out of it into the connection's queue, within the connection's limits and the budget.
extension ControlServer {
    func readRequests(
        from connection: ControlConnection,
        _ loop: inout Serving,
        buffer: UnsafeMutableRawBufferPointer
    ) {
        let id = connection.id
        var reads = 0
        while reads < Self.readsPerEvent, connection.wantsRead {
            // Frames a paused connection left in its decoder come first (it may have resumed on
            // another thread meanwhile), and no read while they pause it again: the decoder
            // never holds more than one read's worth, and an end of stream is read only once
            // every whole frame before it was taken.
            guard takeBufferedFrames(of: connection, &loop) == .drained else { return }
            // A read may add up to a buffer's worth to what is held: reserve that first, so
            // that no read ever takes the total over the budget.
            guard reserveForRead(by: id, &loop) else { return }
            let result = connection.read(into: buffer)
            let count: Int
            if case .bytes(let read) = result { count = read } else { count = 0 }
            budget.release(Self.readBufferSize - count)
            guard var reader = loop.readers[id] else {
                budget.release(count)
                return
            }
            reader.charged += count
            defer {
                settleCharge(of: &reader)
                loop.readers[id] = reader
            }
            switch result {
            case .bytes(let count):
                reads += 1
                reader.decoder.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                guard takeFrames(from: connection, &reader) == .drained else { return }
            case .wouldBlock:
                return
            case .endOfStream:
                if (try? reader.decoder.finish()) == nil {
                    _ = connection.enqueue(
                        refusal: ControlReply(
                            id: .null,
                            result: .failure(
                                ProtocolError(.truncatedFrame, "the connection ended inside a request (no newline)")
                            )
                        ).frame,
                        bytes: 0
                    )
                }
                connection.endReading()
                return
            case .failed:
                // The client went away (a reset): what it sent still runs, as after a hang-up.
                connection.close()
                return
            }
        }
    }

    /// What taking a decoder's frames came to.
    enum FramesTaken {
        /// Every whole frame is queued.
        case drained
        /// The connection paused (its limits) with frames left: its resumption takes them
        /// (`takeFramesLeftBehind`); nothing may be read meanwhile.
        case paused
        /// The connection reads no more (a frame too large, the budget used up).
        case ended
    }

    /// Queues the frames `reader`'s decoder holds, in order, while the connection takes more.
    private func takeFrames(from connection: ControlConnection, _ reader: inout Reader) -> FramesTaken {
        // One frame at a time, and none once the connection pauses (too many requests or
        // bytes queued): each queued request or refusal holds more than its frame, so a read
        // of tiny frames would queue far past the connection's limits. What is left stays in
        // the decoder (at most a read's worth, charged), taken when the connection resumes.
        while true {
            // Seen paused once, it stays so for this turn: a resumption on another thread
            // schedules `takeFramesLeftBehind` after it.
            guard connection.wantsRead else { return connection.hasEndedReading ? .ended : .paused }
            guard let output = reader.decoder.next() else { return .drained }
            switch output {
            case .frame(let frame):
                let request: ControlRequest
                do {
                    request = try ControlRequest(frame: frame)
                } catch {
                    // In its turn: after the replies of the requests before it. Held
                    // encoded (its id echoed, perhaps as large as the frame) and charged
                    // what it holds, as a request is.
                    let refusal = ControlReply(id: error.id, result: .failure(error.error)).frame
                    let held = max(frame.count, refusal.count + Self.queuedRefusalOverhead)
                    guard budget.reserve(held - frame.count) else {
                        refuseOverBudget(connection, id: .null, held: held)
                        return .ended
                    }
                    if connection.enqueue(refusal: refusal, bytes: held) {
                        reader.charged -= frame.count
                    } else {
                        budget.release(held - frame.count)
                    }
                    continue
                }
                // The frame is charged already; the decoded request holds more. It is
                // charged what it holds (its estimate) until it is answered.
                let held = max(frame.count, request.estimatedSize)
                guard budget.reserve(held - frame.count) else {
                    refuseOverBudget(connection, id: request.id, held: held)
                    return .ended
                }
                if connection.enqueue(request, bytes: held) {
                    reader.charged -= frame.count
                } else {
                    budget.release(held - frame.count)
                }
            case .oversized(let length):
                let limit = FrameLimits.defaultMaximumFrameSize
                // Small (a null id) and the last of this connection: not charged.
                _ = connection.enqueue(
                    refusal: ControlReply(
                        id: .null,
                        result: .failure(
                            ProtocolError(
                                .frameTooLarge,
                                "request frame of \(length)+ bytes exceeds the \(limit)-byte limit; disconnecting"
                            )
                        )
                    ).frame,
                    bytes: 0
                )
                connection.endReading()
                return .ended
            }
        }
    }

    /// Takes the frames client `id`'s decoder holds, charging what stays there.
    private func takeBufferedFrames(of connection: ControlConnection, _ loop: inout Serving) -> FramesTaken {
        let id = connection.id
        guard var reader = loop.readers[id] else { return .ended }
        guard reader.decoder.bufferedByteCount > 0 else { return .drained }
        defer {
            settleCharge(of: &reader)
            loop.readers[id] = reader
        }
        return takeFrames(from: connection, &reader)
    }

    /// What the decoder still holds (the unfinished frame, and whole frames a pause left)
    /// stays charged to the reader; the rest of what it was charged went to queued requests
    /// (charged to the connection) or was dropped, and goes back to the budget.
    private func settleCharge(of reader: inout Reader) {
        let held = reader.decoder.bufferedByteCount
        budget.release(reader.charged - held)
        reader.charged = held
    }

    /// Client `id`'s connection resumed reading (its replies went out): the frames it left
    /// in its decoder are taken now, since no new byte may come to wake the loop for them.
    func takeFramesLeftBehind(by id: UInt64) {
        serving.withLock { (loop: inout Serving) in
            guard !loop.isTornDown, let connection = connections.withLock({ $0[id] }), connection.wantsRead else {
                return
            }
            _ = takeBufferedFrames(of: connection, &loop)
        }
    }
}
