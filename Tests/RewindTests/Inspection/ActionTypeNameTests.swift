import Rewind
import Testing

/// The full path of an action's type, as the inspector and the tool show it.
@Suite struct ActionTypeNameTests {
  enum Leaf: Equatable, Sendable { case panBegan(x: Double), panEnded, tap(String) }
  enum Middle: Equatable, Sendable { case swipe(IdentifiedAction<Int, Leaf>), optional(Leaf?), plain }
  enum Root: Equatable, Sendable, CustomStringConvertible {
    case list(Middle), select(id: Int, at: Double), reset

    var description: String { "a description that is not the case name" }
  }

  @Test func pathsFollowEveryCaseDown() {
    #expect(
      ActionTypeName.path(of: Root.list(.swipe(IdentifiedAction(id: 3, action: .panBegan(x: 1)))))
        == "list.swipe.panBegan")
    #expect(
      ActionTypeName.path(of: Root.list(.swipe(IdentifiedAction(id: 3, action: .panEnded))))
        == "list.swipe.panEnded")
    #expect(ActionTypeName.path(of: Root.list(.optional(.tap("x")))) == "list.optional.tap")
    #expect(ActionTypeName.path(of: Root.list(.optional(nil))) == "list.optional")
    #expect(ActionTypeName.path(of: Root.list(.plain)) == "list.plain")
    #expect(
      ActionTypeName.path(of: Root.select(id: 1, at: 2)) == "select",
      "a case with several values ends the path")
    #expect(ActionTypeName.path(of: Root.reset) == "reset", "the case name, not the description")
    #expect(ActionTypeName.path(of: 42) == "Int")
  }
}
