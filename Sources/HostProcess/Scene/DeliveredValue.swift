import Protocol

/// A value a request's reply carried, handed from the loop to the caller it resumes (which
/// reads it only after that resumption).
final class DeliveredValue: @unchecked Sendable {
    var value: JSONValue?
}
