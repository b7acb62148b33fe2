import Foundation
import Testing

@testable import Rewind

/// How ``EnumCases`` reads each shape of case: in place (a copy), or through `Mirror` when the payload is
/// not stored as itself. A wrong "in place" would read the wrong bytes; these pin down the decision.
@Suite struct EnumCasesTests {
  private struct Row: Equatable, Sendable {
    var id: Int
    var title: String
    var isDone: Bool
  }

  private enum Inner: Equatable, Sendable { case a, b(Int) }

  private enum Shapes: Sendable {
    case int(Int)
    case text(String)
    case labeled(id: Int)
    case pair(Int, String)
    case labeledPair(from: Int, to: Int)
    case inner(Inner)
    case optional(Int?)
    case row(Row)
    indirect case boxed(Int)
    case any(any Sendable)
    case object(Box)
    case void(Void)
    case single(Single)
    case none
  }

  private final class Box: Sendable {}

  /// An enum of one case: a payload of no size.
  private enum Single: Equatable, Sendable { case only }

  private func mode(of value: Shapes) -> UInt {
    guard let cases = EnumCases.of(Shapes.self) else { return .max }
    return cases.slot(cases.tag(of: value), of: value) & EnumCases.Slot.modeMask
  }

  @Test func valuesStoredAsThemselvesAreReadInPlace() {
    let inPlace: [Shapes] = [
      .int(1), .text("a"), .labeled(id: 2), .pair(1, "b"), .labeledPair(from: 1, to: 2), .inner(.b(3)),
      .optional(nil), .row(Row(id: 1, title: "Milk", isDone: true)), .void(()), .single(.only),
    ]
    for value in inPlace { #expect(mode(of: value) == EnumCases.Slot.inPlace, "\(value)") }
  }

  @Test func boxedOrHiddenPayloadsAreReflected() {
    for value: Shapes in [.boxed(1), .any(1), .any("text"), .object(Box())] {
      #expect(mode(of: value) == EnumCases.Slot.reflected, "\(value)")
    }
    #expect(mode(of: .none) == EnumCases.Slot.noPayload)
  }

  @Test func anEnumIsToldFromOtherTypes() {
    #expect(EnumCases.of(Shapes.self) != nil)
    #expect(EnumCases.of(Int?.self) != nil)
    #expect(EnumCases.of(Row.self) == nil)
    #expect(EnumCases.of(Int.self) == nil)
    #expect(EnumCases.of((Int, Int).self) == nil)
    #expect(EnumCases.of(Shapes.self) === EnumCases.of(Shapes.self), "shared by every path")
  }

  @Test func tuplesAreStoredAlikeWhateverTheirLabels() {
    func address(_ type: Any.Type) -> UInt { UInt(bitPattern: EnumCases.metadata(of: type)) }
    #expect(EnumCases.sameTupleLayout(address((from: Int, to: Int).self), address((Int, Int).self)))
    #expect(!EnumCases.sameTupleLayout(address((Int, String).self), address((Int, Int).self)))
    #expect(!EnumCases.sameTupleLayout(address((Int, Int, Int).self), address((Int, Int).self)))
    #expect(!EnumCases.sameTupleLayout(address(Int.self), address(Int.self)), "not tuples")
  }
}
