/// The client's first frame: its token, the protocol versions it speaks, where to start streaming.
public struct Hello: Equatable, Sendable {
  /// The token, as hexadecimal text.
  public var token: String
  /// The protocol versions the client speaks.
  public var versions: [UInt64]
  /// The first event to stream.
  public var from: UInt64
  /// The client's name, for the app's log.
  public var client: String?

  /// The protocol versions this implementation speaks.
  public static var supportedVersions: [UInt64] { [1] }

  /// Creates a hello.
  public init(
    token: String, versions: [UInt64] = Hello.supportedVersions, from: UInt64 = 1, client: String? = nil
  ) {
    (self.token, self.versions, self.from, self.client) = (token, versions, from, client)
  }

  /// Reads a hello from the client's first message.
  /// - Throws: ``ProtocolViolation`` when the message is not a well-formed hello.
  public init(_ message: InspectorJSON) throws(ProtocolViolation) {
    guard case .object(let fields) = message, message["type"]?.stringValue == "hello" else {
      throw ProtocolViolation("the first frame must be a hello")
    }
    var reader = FieldReader(fields: fields, command: "hello")
    guard let token = try reader.optionalString("token") else {
      throw ProtocolViolation("hello: missing token")
    }
    guard let list = try reader.value("versions").arrayValue, !list.isEmpty, list.count <= 16 else {
      throw ProtocolViolation("hello: versions must be a list of 1 to 16 numbers")
    }
    var versions: [UInt64] = []
    for value in list {
      guard let version = value.unsignedValue else {
        throw ProtocolViolation("hello: a version must be a number")
      }
      versions.append(version)
    }
    self.token = token
    self.versions = versions
    from = try reader.optionalUnsigned("from") ?? 1
    client = try reader.optionalString("client").map { String($0.prefix(100)) }
    try reader.finish()
  }

  /// The hello as a message.
  public var message: InspectorJSON {
    var fields: [(String, InspectorJSON)] = [
      ("type", .string("hello")), ("token", .string(token)),
      ("versions", .array(versions.map(InspectorJSON.unsigned))),
      ("from", .unsigned(from)),
    ]
    if let client { fields.append(("client", .string(client))) }
    return .object(fields)
  }
}
