/// The protocol version both sides announce in the handshake.
public enum ProtocolVersion {
    /// The version this build speaks.
    public static let current = 1
}

/// Size limits shared by both sides of a pipe.
public enum FrameLimits {
    /// The default maximum frame size in bytes (1 MiB), newline included.
    public static let defaultMaximumFrameSize = 1 << 20
}
