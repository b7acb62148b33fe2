import Rewind

/// iCarousel's behaviour as a reducer: layouts, scrolling, flings, paging, wrapping and view recycling.
///
/// Each action clears ``CarouselState/events`` and appends the delegate events it causes, in upstream
/// order. Time enters only as data: every action carries its display time (`at`), and a running scroll
/// animation or fling is kept in state as what it is, so a view samples ``CarouselState/layout(at:custom:)``
/// at each frame without sending anything. The end of a motion is one event: the reducer schedules a timer
/// effect, sleeping on the clock dependency (`DependencyValues.clock`), that sends
/// ``CarouselAction/animationFinished(id:)`` when it is due. Out-of-range indices on
/// removal are reported as a `Diagnostic`; other bad input is clamped or ignored as documented on each
/// action.
///
/// ```swift
/// let reducer = CarouselReducer()
/// let store = Store(initialState: CarouselState(itemWidth: 200), reducer: reducer)
/// store.send(.reload(count: 10, at: 0))           // settles on item 0 in 0.4 s; the timer ends it
/// let items = store.state.layout(at: 0.2)         // a frame halfway through
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

  /// The layout of the visible items of `state` at its ``CarouselState/time``, using this reducer's custom
  /// transform.
  public func layout(of state: CarouselState) -> [CarouselItemLayout] {
    state.layout(custom: customTransform)
  }

  /// The layout a display frame at `now` shows, using this reducer's custom transform.
  public func layout(of state: CarouselState, at now: Double) -> [CarouselItemLayout] {
    state.layout(at: now, custom: customTransform)
  }

  /// Applies `action`, then schedules (or stops) the timer of the motion it started (or ended); the
  /// state's ``CarouselState/events`` then hold what the action caused.
  public func reduce(into state: inout CarouselState, action: CarouselAction) -> Effect<CarouselAction> {
    state.events.removeAll(keepingCapacity: true)
    let running = state.runningAnimationID
    let wasTimed = state.runningAnimationEndTime != nil
    if let now = action.time { state.advance(to: now, reporting: true) }
    let effect = apply(action, to: &state)
    state.checkInvariantsIfEnabled()
    let timed = state.runningAnimationEndTime
    let restarts = if case .resumeAnimation = action { true } else { false }
    guard restarts || state.runningAnimationID != running || wasTimed != (timed != nil) else { return effect }
    if let id = state.runningAnimationID, let end = timed {
      return effect.merge(with: CarouselTimer.finish(id: id, after: end - state.time, name: state.timerID))
    }
    // Ended early (interrupted, or finished by a sample): its timer would send a finish that is ignored,
    // yet recorded. When the timer itself sent the finish, cancelling it is harmless.
    return effect.merge(with: CarouselTimer.cancel(name: state.timerID))
  }

  private func apply(_ action: CarouselAction, to state: inout CarouselState) -> Effect<CarouselAction> {
    switch action {
    case .reload(let count, let placeholders, _):
      state.reload(count: count, placeholders: placeholders)
    case .insertItem(let index, _):
      guard state.numberOfItems < CarouselConstants.maxItemCount else { return .none }
      state.insert(at: index)
    case .removeItem(let index, _):
      if !state.remove(at: index) {
        return .diagnostic(
          Diagnostic(kind: .invalidInput, message: "carousel: removeItem(\(index)) with no items; ignored"))
      }
    case .reloadItem(let index, _):
      state.reloadItem(index)
    case .setType(let type, _):
      state.type = type
      state.layOut()
    case .setOptions(let options, _):
      state.options = options
      state.layOut()
    case .setProperties(let properties, _):
      let relayout =
        properties.isVertical != state.properties.isVertical
        || properties.contentOffset != state.properties.contentOffset
      state.properties = properties
      if relayout { state.layOut() } else { state.updateLoadedItems() }
    case .setBounds(let bounds, _):
      guard bounds.isValid else { return .none }
      state.bounds = bounds
      state.layOut()
    case .setItemWidth(let width, _):
      guard width > 0, width.isFinite else { return .none }
      state.itemWidth = width
      state.layOut()
    case .setAutoscroll(let speed, _):
      guard speed.isFinite else { return .none }
      // Autoscroll runs from this action's time: the offset is a function of the time since, so it
      // cannot jump over an idle gap as upstream's first step after its timer restarts does (spec 2.11 ⚠).
      state.autoscroll = speed
    case .layout:
      state.layOut()
    case .setScrollOffset(let offset, _):
      guard offset.isFinite else { return .none }
      state.setOffset(offset)
    case .setCurrentItemIndex(let index, _):
      state.setOffset(Double(index))
    case .scrollToItem(let index, let animated, _):
      state.scroll(toItem: index, duration: animated ? CarouselConstants.scrollDuration : 0)
    case .scrollByItems(let count, let animated, _):
      state.scroll(byItems: count, duration: animated ? CarouselConstants.scrollDuration : 0)
    case .scrollToOffset(let offset, let animated, _):
      guard offset.isFinite else { return .none }
      state.scroll(toOffset: offset, duration: animated ? CarouselConstants.scrollDuration : 0)
    case .touchDown:
      // A finger already dragging cannot touch down again; ignore rather than lose the drag's end.
      guard state.properties.isScrollEnabled, !state.isDragging else { return .none }
      state.interruptMotion()
    case .dragBegan(let translation, let perpendicular, _):
      _ = state.beginDrag(translation: translation, perpendicular: perpendicular)
    case .dragChanged(let translation, let velocity, _):
      state.moveDrag(translation: translation, velocity: velocity)
    case .dragEnded(let translation, let velocity, _):
      state.moveDrag(translation: translation, velocity: velocity)
      state.endDrag()
    case .tapItem(let item, _):
      state.tap(item: item, shouldSelect: shouldSelectItem ?? { _ in true })
    case .tapAt(let point, _):
      let hit = state.hitTest(point, custom: customTransform)
      state.tap(item: hit, shouldSelect: shouldSelectItem ?? { _ in true })
    case .resumeAnimation:
      // Bringing the state to `at` (above) ended what was over; the timer of what runs is restarted below.
      break
    case .animationFinished(let id):
      // The timer's (or a view's) word that the motion is due: end it at its own end time.
      guard state.runningAnimationID == id, let end = state.runningAnimationEndTime else { return .none }
      state.advance(to: end, reporting: true)
      if state.runningAnimationID == id { state.finishRunningMotion(reporting: true) }
    }
    return .none
  }
}
