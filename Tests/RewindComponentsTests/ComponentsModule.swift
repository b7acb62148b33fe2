import RewindComponents
import Testing

@Test func componentsModuleLinks() {
  #expect(RewindComponents.specVersion.isEmpty == false)
}
