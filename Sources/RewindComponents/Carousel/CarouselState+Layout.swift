// The full layout of the visible window: a pure function of the state.
extension CarouselState {
  /// The point all item transforms are relative to: the bounds' centre moved by the content offset.
  public var anchor: CarouselVector {
    CarouselVector(
      x: bounds.width / 2 + properties.contentOffset.x, y: bounds.height / 2 + properties.contentOffset.y)
  }

  /// The layout of every item in ``visibleWindow``, ascending by index, with depth order assigned.
  ///
  /// - Parameter custom: the transform for ``CarouselType/custom``; the base transform when nil.
  /// - Complexity: O(v log v) for v visible items.
  public func layout(custom: CarouselCustomTransform? = nil) -> [CarouselItemLayout] {
    let window = visibleWindow
    guard !window.isEmpty else { return [] }
    let anchor = anchor
    let showsBackfaces = showsBackfaces
    var items: [CarouselItemLayout] = []
    items.reserveCapacity(window.count)
    for index in window {
      let offset = offset(forItem: index)
      let transform = transform(forOffset: offset, custom: custom)
      let position = transform.projectedOrigin.map { CarouselVector(x: anchor.x + $0.x, y: anchor.y + $0.y) }
      items.append(
        CarouselItemLayout(
          index: index, placeholder: placeholderNumber(forIndex: index), offset: offset, transform: transform,
          position: position, alpha: alpha(forOffset: offset),
          isHidden: !(showsBackfaces || transform.m33 > 0),
          zOrder: 0))
    }
    assignDepthOrder(&items)
    return items
  }

  /// Sorts back to front by the depth key; ties put the item farther from the current one behind.
  private func assignDepthOrder(_ items: inout [CarouselItemLayout]) {
    let vertical = properties.isVertical
    let current = currentItemIndex
    let centre = items.first(where: { $0.index == current })?.position ?? anchor
    func distance(_ item: CarouselItemLayout) -> Double {
      guard let position = item.position else { return .infinity }
      return vertical ? abs(position.y - centre.y) : abs(position.x - centre.x)
    }
    let order = items.indices.sorted { a, b in
      // A custom transform may produce NaN; sort it to the back so the order stays total.
      let keyA = items[a].transform.depthKey.isNaN ? -Double.infinity : items[a].transform.depthKey
      let keyB = items[b].transform.depthKey.isNaN ? -Double.infinity : items[b].transform.depthKey
      if keyA != keyB { return keyA < keyB }
      let distanceA = distance(items[a])
      let distanceB = distance(items[b])
      if distanceA != distanceB { return distanceA > distanceB }
      return items[a].index < items[b].index
    }
    for (depth, position) in order.enumerated() { items[position].zOrder = depth }
  }
}
