/// What may go in a NATS subject or in a JetStream name that becomes part of one (a stream, a durable
/// consumer): the protocol's control lines separate fields with spaces and end with CR LF, so a name
/// holding either would end the line early and let the rest be read as another operation.
enum NATSName {
  /// Why `subject` cannot be sent as a subject, or `nil`: empty, or holding a space or a control character.
  static func subjectProblem(_ subject: String) -> String? {
    if subject.isEmpty { return "a subject may not be empty" }
    if subject.unicodeScalars.contains(where: isSeparatorOrControl) {
      return "a subject may not hold spaces or control characters: \(subject.debugDescription)"
    }
    return nil
  }

  /// Why `name` cannot name a JetStream `kind` (a stream, a durable consumer), or `nil`: empty, longer
  /// than the server's 255 characters, or holding what would change the API subject it is put in (a dot,
  /// a wildcard, a space, a control character) or a path separator.
  static func problem(_ name: String, kind: String) -> String? {
    if name.isEmpty { return "a \(kind) name may not be empty" }
    if name.utf8.count > 255 { return "a \(kind) name may be at most 255 bytes long" }
    if name.unicodeScalars.contains(where: {
      isSeparatorOrControl($0) || ".*>/\\".unicodeScalars.contains($0)
    }) {
      return "a \(kind) name may not hold spaces, control characters, dots, '*', '>' or slashes"
    }
    return nil
  }

  private static func isSeparatorOrControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value <= 0x20 || scalar.value == 0x7F
  }
}
