import Testing

@testable import Protocol

/// A small deterministic generator (SplitMix64) so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct FuzzTests {
    /// Runs `bytes` through every decoder; only checks that nothing traps and that
    /// anything the parser accepts survives a write/parse round trip.
    static func exercise(_ bytes: [UInt8]) {
        if let value = try? JSONParser.parse(bytes) {
            var written: [UInt8] = []
            JSONWriter.write(value, into: &written)
            #expect((try? JSONParser.parse(written)) == value, "\(bytes)")
        }
        if let command = try? HostCommand(frame: bytes) {
            var written: [UInt8] = []
            command.encode(into: &written)
            #expect((try? HostCommand(frame: Array(written.dropLast()))) == command)
        }
        if let message = try? WorkerMessage(frame: bytes) {
            var written: [UInt8] = []
            message.encode(into: &written)
            #expect((try? WorkerMessage(frame: Array(written.dropLast()))) == message)
        }
        var decoder = FrameDecoder(maximumFrameSize: 16)
        decoder.append(bytes)
        while decoder.next() != nil {}
        try? decoder.finish()
    }

    @Test func randomAndMutatedInputsNeverCrash() {
        var random = SplitMix64(state: 0x5EED)
        var seeds: [[UInt8]] = []
        for operation in allOperations {
            var buffer: [UInt8] = []
            HostCommand.request(id: 12, operation).encode(into: &buffer)
            seeds.append(Array(buffer.dropLast()))
        }
        for message in allMessages {
            var buffer: [UInt8] = []
            message.encode(into: &buffer)
            seeds.append(Array(buffer.dropLast()))
        }
        seeds.append(Array(#"[1,-2.5e+3,"\u00e9\ud83d\ude00",{"a":[true,false,null]},{}]"#.utf8))
        let alphabet = Array(#"{}[]:,"\-+.eE0123456789tfnu "#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xED, 0xFF]

        var accepted = 0
        for iteration in 0..<20_000 {
            var bytes: [UInt8]
            switch iteration % 4 {
            case 0:
                // Random bytes from the JSON-ish alphabet.
                let length = Int.random(in: 0..<40, using: &random)
                bytes = (0..<length).map { _ in alphabet.randomElement(using: &random) ?? 0 }
            case 1:
                // Entirely random bytes.
                let length = Int.random(in: 0..<40, using: &random)
                bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            default:
                // A valid message with a few mutations.
                bytes = seeds.randomElement(using: &random) ?? []
                for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
                    let position = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: bytes[position] = alphabet.randomElement(using: &random) ?? 0
                    case 1: bytes.remove(at: position)
                    case 2: bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
                    default: bytes = Array(bytes[..<position])
                    }
                }
            }
            Self.exercise(bytes)
            if (try? JSONParser.parse(bytes)) != nil { accepted += 1 }
        }
        // The mutations keep some inputs valid, so both paths are exercised.
        #expect(accepted > 100)
    }
}
