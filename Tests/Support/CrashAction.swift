import Foundation
import Rewind

/// The action `rewind-crash-child` journals and the kill -9 harness (CrashTests) reads back: its content
/// is a function of the sequence number, so the parent can check every recovered event.
public struct CrashAction: Codable, Sendable, Equatable {
  public var value: UInt64
  public var text: String

  /// The action for `sequence`.
  public init(_ sequence: UInt64) {
    value = sequence &* 2_654_435_761
    text = "event-" + String(sequence)
  }
}

/// The event the crash child appends at `sequence`.
public func crashEvent(_ sequence: UInt64) -> Event<CrashAction> {
  Event(
    sequence: sequence, timestamp: Date(timeIntervalSince1970: Double(sequence)),
    metadata: EventMetadata(actor: "crash", source: .user, correlationID: CorrelationID(rawValue: sequence)),
    action: CrashAction(sequence))
}
