/// Headless models of UI components as reducers: swipe cells, carousels, text editing and editable lists.
///
/// Each component is a `State`, an `Action` and a reducer, with geometry and animation computed as pure
/// functions of state and time; UIKit or SwiftUI code only renders them.
public enum RewindComponents {
  /// The revision of the behaviour these components follow: the page and the month it was last specified.
  ///
  /// The behaviour is the one Docs/Components.md describes and the parity cases in
  /// Tests/RewindComponentsTests check (one test per upstream case, `MG-…`, `MK-…`, `LL-…`, `IC-…`). The
  /// value changes when a component's behaviour does, so a renderer can tell which revision it was built
  /// against.
  public static let specVersion = "Docs/Components.md, 2026-11"
}
