import Rewind

/// iCarousel's behaviour as a reducer: layouts, scrolling, flings, paging, wrapping and view recycling.
///
/// Each action clears ``CarouselState/events`` and appends the delegate events it causes, in upstream
/// order. Time enters only through ``CarouselAction/tick(now:)``. Out-of-range indices on removal are
/// reported as a `Diagnostic`; other bad input is clamped or ignored as documented on each action.
///
/// ```swift
/// let store = Store(initialState: CarouselState(itemWidth: 200), reducer: CarouselReducer())
/// store.send(.reload(count: 10))
/// store.send(.tick(now: 0.4))
/// let items = CarouselReducer().layout(of: store.state)
/// ```
public struct CarouselReducer: Reducer, Sendable {
  /// The transform for ``CarouselType/custom``; the base transform when nil.
  public var customTransform: CarouselCustomTransform?
  /// Whether a tapped item may be selected; all may when nil.
  public var shouldSelectItem: (@Sendable (Int) -> Bool)?

  /// Creates the reducer with an optional custom layout and selection filter.
  public init(
    customTransform: CarouselCustomTransform? = nil, shouldSelectItem: (@Sendable (Int) -> Bool)? = nil
  ) {
    self.customTransform = customTransform
    self.shouldSelectItem = shouldSelectItem
  }

  /// The layout of the visible items of `state`, using this reducer's custom transform.
  public func layout(of state: CarouselState) -> [CarouselItemLayout] {
    state.layout(custom: customTransform)
  }

  /// Applies `action`; the state's ``CarouselState/events`` then hold what it caused.
  public func reduce(into state: inout CarouselState, action: CarouselAction) -> Effect<CarouselAction> {
    state.events.removeAll(keepingCapacity: true)
    let effect = apply(action, to: &state)
    state._checkInvariants()
    return effect
  }

  private func apply(_ action: CarouselAction, to state: inout CarouselState) -> Effect<CarouselAction> {
    switch action {
    case .reload(let count, let placeholders):
      state.reload(count: count, placeholders: placeholders)
    case .insert(let index):
      guard state.numberOfItems < CarouselConstants.maxItemCount else { return .none }
      state.insert(at: index)
    case .remove(let index):
      if !state.remove(at: index) {
        return .diagnostic(
          Diagnostic(kind: .invalidInput, message: "carousel: remove(at: \(index)) with no items; ignored"))
      }
    case .reloadItem(let index):
      state.reloadItem(index)
    case .setType(let type):
      state.type = type
      state.layOut()
    case .setOptions(let options):
      state.options = options
      state.layOut()
    case .setProperties(let properties):
      let relayout =
        properties.isVertical != state.properties.isVertical
        || properties.contentOffset != state.properties.contentOffset
      state.properties = properties
      if relayout { state.layOut() } else { state.updateLoadedItems() }
    case .setBounds(let bounds):
      guard bounds.isValid else { return .none }
      state.bounds = bounds
      state.layOut()
    case .setItemWidth(let width):
      guard width > 0, width.isFinite else { return .none }
      state.itemWidth = width
      state.layOut()
    case .setAutoscroll(let speed):
      guard speed.isFinite else { return .none }
      // Corrected: autoscroll measures from the next tick, not from a tick long ago (spec 2.11 ⚠).
      if state.autoscroll == 0 { state.lastTickTime = nil }
      state.autoscroll = speed
    case .layout:
      state.layOut()
    case .setScrollOffset(let offset):
      guard offset.isFinite else { return .none }
      state.setOffset(offset)
    case .setCurrentItemIndex(let index):
      state.setOffset(Double(index))
    case .scrollToItem(let index, let animated):
      state.scroll(toItem: index, duration: animated ? CarouselConstants.scrollDuration : 0)
    case .scrollByItems(let count, let animated):
      state.scroll(byItems: count, duration: animated ? CarouselConstants.scrollDuration : 0)
    case .scrollToOffset(let offset, let animated):
      guard offset.isFinite else { return .none }
      state.scroll(toOffset: offset, duration: animated ? CarouselConstants.scrollDuration : 0)
    case .touchDown:
      // A finger already dragging cannot touch down again; ignore rather than lose the drag's end.
      guard state.properties.isScrollEnabled, !state.isDragging else { return .none }
      state.interruptMotion()
    case .dragBegan(let translation, let perpendicular):
      _ = state.beginDrag(translation: translation, perpendicular: perpendicular)
    case .dragChanged(let translation, let velocity):
      state.moveDrag(translation: translation, velocity: velocity)
    case .dragEnded(let translation, let velocity):
      state.moveDrag(translation: translation, velocity: velocity)
      state.endDrag()
    case .tapItem(let item):
      state.tap(item: item, shouldSelect: shouldSelectItem ?? { _ in true })
    case .tapAt(let point):
      let hit = state.hitTest(point, custom: customTransform)
      state.tap(item: hit, shouldSelect: shouldSelectItem ?? { _ in true })
    case .tick(let now):
      state.tick(now: now)
    }
    return .none
  }
}
