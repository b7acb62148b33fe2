/// The `quarantine` subdirectory where recovery and repair move what they take out of the log: nothing is
/// ever deleted.
enum Quarantine {
  static let directoryName = "quarantine"

  /// Moves `name` from `directory` into its quarantine, under a name that never overwrites, and syncs both
  /// directories.
  @discardableResult
  static func move(_ name: String, in directory: String, fileSystem: any LogFileSystem) throws(IOError)
    -> String
  {
    let quarantine = directory + "/" + directoryName
    try fileSystem.createDirectory(quarantine)
    var target = name
    var attempt = 1
    while fileSystem.exists(quarantine + "/" + target) {
      attempt += 1
      target = name + "." + String(attempt)
    }
    try fileSystem.rename(directory + "/" + name, to: quarantine + "/" + target)
    try fileSystem.syncDirectory(quarantine)
    try fileSystem.syncDirectory(directory)
    return quarantine + "/" + target
  }
}
