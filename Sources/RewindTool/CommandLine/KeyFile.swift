import Foundation
import RewindLog

/// The `--key-file` option every log command accepts, for logs whose chain is keyed.
enum KeyFile {
  static let option = CommandSpec.Option.value(
    "key-file", "FILE", help: "the chain key of a keyed log: hexadecimal text or raw bytes")

  /// The key named by `--key-file`, if given.
  static func key(_ arguments: ParsedArguments) throws(ToolError) -> ChainKey? {
    guard let path = arguments.value("key-file") else { return nil }
    return try read(path)
  }

  /// Reads a key file: hexadecimal text (as `ChainKey.hexadecimal` prints it, surrounding whitespace
  /// ignored) or, otherwise, the file's raw bytes.
  static func read(_ path: String) throws(ToolError) -> ChainKey {
    guard FileManager.default.fileExists(atPath: path) else {
      throw .noInput(path: path, cause: "no such key file")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .io(path: path, cause: "cannot read the key file")
    }
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    do {
      if !text.isEmpty, text.count % 2 == 0, text.allSatisfy(\.isHexDigit) { return try ChainKey(hex: text) }
      return try ChainKey(bytes: [UInt8](data))
    } catch {
      throw .usage(UsageError("--key-file \(path): \(error)"))
    }
  }
}
