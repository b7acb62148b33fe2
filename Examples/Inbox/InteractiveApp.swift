struct InteractiveApp {
  var directory: String
  func run() -> Int32 { 0 }
}
