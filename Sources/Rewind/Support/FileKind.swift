#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// What a file of `mode` (from `stat`) is when it is not a regular file, as error messages name it; `nil`
/// for a regular file. Shared by the checks that refuse anything else where a file was expected (a token
/// file, a report's destination).
package func nonRegularFileKind(_ mode: mode_t) -> String? {
  switch mode & S_IFMT {
  case S_IFREG: nil
  case S_IFLNK: "a symbolic link"
  case S_IFDIR: "a directory"
  case S_IFIFO: "a FIFO"
  case S_IFSOCK: "a socket"
  case S_IFCHR, S_IFBLK: "a device"
  default: "not a regular file"
  }
}
