import CRewind
import Synchronization

/// What is known of the cases of one enum type, learned from its values: for each case, whether it has a
/// payload, and whether that payload can be read in place, as a value of a known type.
///
/// An ``ActionPath`` made from a case (``ActionPath/init(_:)``) finds a value's case through the enum's
/// `getEnumTag` value witness (a call, not a reflection), and looks the case up here. The first value of
/// each case is reflected once with `Mirror`; everything after that is a tag and an atomic load. Shared by
/// every path into the same enum, for the life of the process (types do not go away).
@usableFromInline
@safe
final class EnumCases: @unchecked Sendable {
  // @unchecked: `slots` is written only through its atomics, and never freed (see `deinit`).

  /// The enum's type metadata.
  @usableFromInline let type: UnsafeRawPointer
  /// One word per case tag below ``capacity``: 0 while unknown, else a ``Slot``.
  @usableFromInline let slots: UnsafeMutablePointer<Atomic<UInt>>

  /// The cases learned per enum; tags at or above it are reflected every time.
  @usableFromInline static var capacity: UInt32 { 256 }

  /// What a case slot holds: the two low bits say how its payload is read, the others, for a payload
  /// read in place, the address of its type's metadata (aligned to at least 4 bytes).
  @usableFromInline
  enum Slot {
    @usableFromInline static var unknown: UInt { 0 }
    /// The case has no payload.
    @usableFromInline static var noPayload: UInt { 1 }
    /// The payload is read with `Mirror` and a dynamic cast: an indirect case, an existential, a class,
    /// or any payload not shown to be stored as itself.
    @usableFromInline static var reflected: UInt { 2 }
    /// The payload is stored as a value of the type in the high bits: projected out of a copy.
    @usableFromInline static var inPlace: UInt { 3 }
    @usableFromInline static var modeMask: UInt { 3 }
  }

  private static let registry = Locked<[ObjectIdentifier: EnumCases]>([:])

  private init(type: UnsafeRawPointer) {
    unsafe self.type = type
    unsafe slots = .allocate(capacity: Int(Self.capacity))
    for index in 0..<Int(Self.capacity) { unsafe (slots + index).initialize(to: Atomic(0)) }
  }

  // Never deinitialized: instances live in the registry for the life of the process.

  /// Tables recently asked for, by their enum's metadata address (the address of a table, which the
  /// registry keeps forever): a path built on every send (in a `body`) finds its table with one atomic
  /// load instead of the registry's lock. Two enums that share an entry only take turns in it.
  private nonisolated(unsafe) static let recent: UnsafeMutablePointer<Atomic<UInt>> = {
    let entries = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: recentCount)
    for index in 0..<recentCount { unsafe (entries + index).initialize(to: Atomic(0)) }
    return unsafe entries
  }()
  private static let recentCount = 64

  /// The cases of `Root`, shared by all paths into it; `nil` when `Root` is not an enum.
  @usableFromInline
  static func of<Root>(_: Root.Type) -> EnumCases? {
    let type = unsafe metadata(of: Root.self)
    let entry = Int((UInt(bitPattern: type) >> 4) % UInt(recentCount))
    if let recent = unsafe UnsafeRawPointer(bitPattern: recent[entry].load(ordering: .acquiring)) {
      let cases = unsafe Unmanaged<EnumCases>.fromOpaque(recent).takeUnretainedValue()
      if unsafe cases.type == type { return cases }
    }
    guard unsafe rewind_is_enum(type) != 0 else { return nil }
    let cases = registry.withLock { registry in
      if let known = registry[ObjectIdentifier(Root.self)] { return known }
      let made = unsafe EnumCases(type: type)
      registry[ObjectIdentifier(Root.self)] = made
      return made
    }
    let address = unsafe UInt(bitPattern: Unmanaged.passUnretained(cases).toOpaque())
    unsafe recent[entry].store(address, ordering: .releasing)
    return cases
  }

  /// The address of `type`'s metadata.
  @inlinable
  static func metadata(of type: Any.Type) -> UnsafeRawPointer {
    unsafe unsafeBitCast(type, to: UnsafeRawPointer.self)
  }

  /// The case of `root`, an enum of this type.
  @inlinable
  func tag<Root>(of root: Root) -> UInt32 {
    unsafe withUnsafePointer(to: root) { unsafe rewind_enum_tag($0, type) }
  }

  /// The slot of case `tag` in `root` (of that case), reflecting the first value of each case.
  @inlinable
  func slot<Root>(_ tag: UInt32, of root: Root) -> UInt {
    guard tag < Self.capacity else { return unsafe Self.learn(root, type: type) }
    let known = unsafe slots[Int(tag)].load(ordering: .acquiring)
    if known != Slot.unknown { return known }
    let learned = unsafe Self.learn(root, type: type)
    // Two threads may learn the same case: they learn the same thing, so either store is right.
    unsafe slots[Int(tag)].store(learned, ordering: .releasing)
    return learned
  }

  /// Whether the types at metadata addresses `a` and `b` are tuples stored alike (their labels aside).
  @inlinable
  static func sameTupleLayout(_ a: UInt, _ b: UInt) -> Bool {
    guard let a = unsafe UnsafeRawPointer(bitPattern: a) else { return false }
    guard let b = unsafe UnsafeRawPointer(bitPattern: b) else { return false }
    return unsafe rewind_same_tuple_layout(a, b) != 0
  }

  /// The payload of `root`, of case `tag`, whose payload is stored as a `Value`: projected out of a copy.
  @inlinable
  func readInPlace<Root, Value>(_ root: Root, tag: UInt32, as _: Value.Type) -> Value? {
    unsafe withUnsafeTemporaryAllocation(
      byteCount: MemoryLayout<Root>.size, alignment: MemoryLayout<Root>.alignment
    ) { buffer -> Value? in
      guard let base = buffer.baseAddress else { return nil }
      unsafe base.initializeMemory(as: Root.self, to: root)
      unsafe rewind_enum_project(base, type)
      let value = unsafe base.bindMemory(to: Value.self, capacity: 1).move()
      // A payload of no size (`case tap(Void)`, an enum of one case) moved nothing: the copy, which may
      // hold the box of an indirect case, is put back and released.
      if MemoryLayout<Value>.size == 0 {
        unsafe rewind_enum_inject(base, tag, type)
        unsafe base.bindMemory(to: Root.self, capacity: 1).deinitialize(count: 1)
      }
      return value
    }
  }

  /// The payload of `root` as `Value`, through `Mirror`: the dynamic cast that is always right.
  @inlinable
  static func reflectPayload<Root, Value>(_ root: Root, as _: Value.Type) -> Value? {
    guard let child = Mirror(reflecting: root).children.first else { return nil }
    return unwrapSingleElement(child.value) as? Value
  }

  /// A case declared with one labeled value (`case select(id: Int)`) reflects its payload as a tuple of
  /// one element, `(id: Int)`, which no cast turns into an `Int`: its element is the payload.
  @usableFromInline
  static func unwrapSingleElement(_ payload: Any) -> Any {
    let mirror = Mirror(reflecting: payload)
    guard mirror.displayStyle == .tuple, mirror.children.count == 1, let only = mirror.children.first else {
      return payload
    }
    return only.value
  }

  /// Reflects `root` once to learn how its case's payload is read.
  @usableFromInline
  static func learn<Root>(_ root: Root, type: UnsafeRawPointer) -> UInt {
    guard let child = Mirror(reflecting: root).children.first else { return Slot.noPayload }
    // Opened: `payload` is the payload's dynamic type.
    return unsafe learn(unwrapSingleElement(child.value), in: root, type: type)
  }

  private static func learn<Payload, Root>(_ payload: Payload, in root: Root, type: UnsafeRawPointer) -> UInt
  {
    let payloadType = unsafe metadata(of: Payload.self)
    let size = MemoryLayout<Payload>.size
    // Only value types that cannot hide another type: a class payload may be a subclass, an existential
    // holds some type, a metatype or function is rarely an action.
    switch unsafe rewind_metadata_kind(payloadType) {
    case 0x200, 0x201, 0x202, 0x301: break  // a struct, an enum, an optional, a tuple
    default: return Slot.reflected
    }
    guard size <= MemoryLayout<Root>.size, UInt(bitPattern: payloadType) & Slot.modeMask == 0 else {
      return Slot.reflected
    }
    let tag = unsafe withUnsafePointer(to: root) { unsafe rewind_enum_tag($0, type) }
    let matches = unsafe withUnsafeTemporaryAllocation(
      byteCount: MemoryLayout<Root>.size, alignment: MemoryLayout<Root>.alignment
    ) { buffer -> Bool in
      guard let base = buffer.baseAddress else { return false }
      unsafe base.initializeMemory(as: Root.self, to: root)
      unsafe rewind_enum_project(base, type)
      defer {
        unsafe rewind_enum_inject(base, tag, type)
        unsafe base.assumingMemoryBound(to: Root.self).deinitialize(count: 1)
      }
      // Stored as itself, its bytes are the payload's bytes. An indirect case or a boxed existential
      // stores a reference to a box there instead.
      let same = unsafe withUnsafeBytes(of: payload) { expected in
        unsafe expected.elementsEqual(UnsafeRawBufferPointer(start: base, count: size))
      }
      // An existential that holds the value inline has it first, then its type after three words.
      let wordSize = MemoryLayout<UInt>.size
      let looksExistential =
        unsafe MemoryLayout<Root>.size >= 4 * wordSize
        && base.loadUnaligned(fromByteOffset: 3 * wordSize, as: UInt.self) == UInt(bitPattern: payloadType)
      return same && !looksExistential
    }
    return matches ? UInt(bitPattern: payloadType) | Slot.inPlace : Slot.reflected
  }
}
