/// Headless models of UI components as reducers: swipe cells, carousels, text editing and editable lists.
///
/// Each component is a `State`, an `Action` and a reducer, with geometry and animation computed as pure
/// functions of state and time; UIKit or SwiftUI code only renders them.
public enum RewindComponents {
  /// The behavioural specification these components follow (shared/specs/COMPONENTS.md).
  public static let specVersion = "COMPONENTS.md, 2026-11"
}
