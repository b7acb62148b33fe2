/// A coding path built one link per nested container, so encoding and decoding a field does not copy the
/// path of its parent; the array form is made only when asked for (mostly for error messages).
indirect enum CodingPath {
  case root
  case key(any CodingKey, parent: CodingPath)

  func appending(_ key: any CodingKey) -> CodingPath { .key(key, parent: self) }

  var keys: [any CodingKey] {
    var keys: [any CodingKey] = []
    var node = self
    while case .key(let key, let parent) = node {
      keys.append(key)
      node = parent
    }
    return keys.reversed()
  }
}
