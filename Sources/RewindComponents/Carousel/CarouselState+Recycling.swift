// The loaded set and the two reuse pools (spec 2.7): views are tokens, only their counts are modelled.
extension CarouselState {
  /// Brings ``loadedIndices`` to the visible window: unloads first, then loads, each ascending.
  mutating func updateLoadedItems() {
    hasLoadedWindow = true
    let window = visibleWindow
    guard window != loadedIndices else { return }
    var kept: [Int] = []
    kept.reserveCapacity(window.count)
    var w = 0
    for index in loadedIndices {
      while w < window.count, window[w] < index { w += 1 }
      if w < window.count, window[w] == index {
        kept.append(index)
      } else {
        unload(index)
      }
    }
    var k = 0
    for index in window {
      while k < kept.count, kept[k] < index { k += 1 }
      if k < kept.count, kept[k] == index { continue }
      load(index)
    }
    loadedIndices = window
  }

  /// Parks the view of `index` in its pool and reports the unload.
  private mutating func unload(_ index: Int) {
    if index < 0 || index >= numberOfItems {
      placeholderPoolSize += 1
    } else {
      itemPoolSize += 1
    }
    emit(.unloadItem(index: index))
  }

  /// Takes a view for `index` from its pool when one is parked and reports the load.
  private mutating func load(_ index: Int) {
    let placeholder = placeholderNumber(forIndex: index)
    var reused = false
    if placeholder != nil {
      if placeholderPoolSize > 0 {
        placeholderPoolSize -= 1
        reused = true
      }
    } else if itemPoolSize > 0 {
      itemPoolSize -= 1
      reused = true
    }
    emit(.loadItem(index: index, placeholder: placeholder, reused: reused))
  }

  /// Re-requests the view of a loaded index with its old view as the reuse candidate (upstream's
  /// `reloadItemAtIndex`); the pools end as they were.
  mutating func reloadItem(_ index: Int) {
    guard loadedIndices.contains(index) else { return }
    unload(index)
    load(index)
  }

  /// Discards every loaded view and both pools, as upstream's reload does.
  mutating func discardAllViews() {
    for index in loadedIndices { emit(.unloadItem(index: index)) }
    loadedIndices = []
    itemPoolSize = 0
    placeholderPoolSize = 0
  }
}
