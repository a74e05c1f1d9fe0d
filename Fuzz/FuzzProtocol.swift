// libFuzzer entry point for the protocol's byte-level code: the frame decoder, the JSON
// parser and the wire codec. Built by Fuzz/run.sh together with Sources/Protocol into one
// module (so internal API such as `FrameDecoder.bufferedByteCount` is visible); it is not
// part of Package.swift.
//
// Every input goes through every decoder. A decoder may only ever answer with a value or a
// typed `ProtocolError` (typed throws make anything else impossible); on top of that the
// target checks properties and traps (a reported crash) when one fails:
// - whatever the parser accepts survives a write/parse round trip unchanged;
// - every command or message the codec accepts re-encodes to a frame that decodes to
//   the same value;
// - the frame decoder gives the same frames (and oversize reports) for any chunking, never a frame
//   with a newline or over the limit, and never holds more than one partial frame;
// - every URL the host's check passes (`SceneLimits.urlRefusal`), Foundation's `URL(string:)`
//   parses: the worker hands it to the app as a `URL`.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProtocol(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = UnsafeRawBufferPointer(start: data.map(UnsafeRawPointer.init), count: data == nil ? 0 : size)
    checkParser(input)
    checkCodec(input)
    checkFrameDecoder(input)
    checkURLRefusal(input)
    return 0
}

private func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("property failed: \(message())") }
}

private func checkParser(_ input: UnsafeRawBufferPointer) {
    let value: JSONValue
    do {
        value = try JSONParser.parse(input)
    } catch {
        // Typed: `error` is a `ProtocolError`; its message must be short and name a byte.
        require(error.message.contains("byte"), "error without an offset: \(error)")
        require(error.code == .parseError || error.code == .nestingTooDeep, "unexpected code \(error)")
        return
    }
    var written: [UInt8] = []
    JSONWriter.write(value, into: &written)
    require((try? JSONParser.parse(written)) == value, "round trip changed \(value)")
}

private func checkCodec(_ input: UnsafeRawBufferPointer) {
    if let command = try? HostCommand(frame: input) {
        var written: [UInt8] = []
        command.encode(into: &written)
        require(written.last == ASCII.newline, "command frame without newline")
        require(!written.dropLast().contains(ASCII.newline), "newline inside an encoded command")
        require((try? HostCommand(frame: Array(written.dropLast()))) == command, "command round trip: \(command)")
    }
    if let message = try? WorkerMessage(frame: input) {
        var written: [UInt8] = []
        message.encode(into: &written)
        require(written.last == ASCII.newline, "message frame without newline")
        require(!written.dropLast().contains(ASCII.newline), "newline inside an encoded message")
        require((try? WorkerMessage(frame: Array(written.dropLast()))) == message, "message round trip: \(message)")
    }
}

private func checkFrameDecoder(_ input: UnsafeRawBufferPointer) {
    guard input.count > 0 else { return }
    // The first byte picks the frame limit (1...64) and the chunk size (1...16) for the rest.
    let control = input[0]
    let limit = Int(control & 0x3F) + 1
    let chunk = Int(control >> 4) + 1
    let stream = UnsafeRawBufferPointer(rebasing: input[1...])

    func decode(chunkSize: Int) -> (outputs: [FrameDecoder.Output], truncated: Bool) {
        var decoder = FrameDecoder(maximumFrameSize: limit)
        var outputs: [FrameDecoder.Output] = []
        var position = 0
        while position < stream.count {
            let end = min(stream.count, position + chunkSize)
            decoder.append(UnsafeRawBufferPointer(rebasing: stream[position..<end]))
            // One partial frame (under the limit) plus complete frames not yet taken.
            require(decoder.bufferedByteCount <= end, "decoder holds more than it was given")
            while let output = decoder.next() {
                outputs.append(output)
            }
            require(decoder.bufferedByteCount < limit, "partial frame over the limit")
            position = end
        }
        var truncated = false
        do {
            try decoder.finish()
        } catch {
            require(error.code == .truncatedFrame, "finish threw \(error)")
            truncated = true
        }
        // A second finish never throws again.
        do { try decoder.finish() } catch { require(false, "second finish threw") }
        require(decoder.next() == nil, "output after finish")
        return (outputs, truncated)
    }

    let whole = decode(chunkSize: max(1, stream.count))
    let chunked = decode(chunkSize: chunk)
    // An oversize report carries the length seen so far, which depends on the chunking;
    // its position among the frames does not.
    func normalized(_ outputs: [FrameDecoder.Output]) -> [FrameDecoder.Output] {
        outputs.map { output in
            if case .oversized = output { return .oversized(length: 0) }
            return output
        }
    }
    require(normalized(whole.outputs) == normalized(chunked.outputs), "chunking changed the frames")
    require(whole.truncated == chunked.truncated, "chunking changed truncation")
    for output in whole.outputs {
        switch output {
        case .frame(let frame):
            require(!frame.isEmpty, "empty frame")
            require(frame.count < limit, "frame over the limit")
            require(!frame.contains(ASCII.newline), "frame with a newline")
        case .oversized(let length):
            require(length >= limit, "oversize report under the limit")
        }
    }
}

private func checkURLRefusal(_ input: UnsafeRawBufferPointer) {
    let url = String(decoding: input, as: UTF8.self)
    guard SceneLimits.urlRefusal(url) == nil else { return }
    require(URL(string: url) != nil, "the host's check passed \(url), Foundation refuses it")
}
