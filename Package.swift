// swift-tools-version: 6.2
import PackageDescription

// Rewind: an event-sourced state store. No package dependencies, by design.
let package = Package(
  name: "Rewind",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Rewind", targets: ["Rewind"]),
    .library(name: "RewindDiff", targets: ["RewindDiff"]),
    .library(name: "RewindLog", targets: ["RewindLog"]),
    .library(name: "RewindComponents", targets: ["RewindComponents"]),
    .library(name: "RewindTesting", targets: ["RewindTesting"]),
    .library(name: "RewindInspector", targets: ["RewindInspector"]),
    .library(name: "RewindShip", targets: ["RewindShip"]),
    .library(name: "RewindTool", targets: ["RewindTool"]),
    .executable(name: "rewind", targets: ["rewind"]),
    .executable(name: "rewind-bench", targets: ["rewind-bench"]),
    .executable(name: "Mailbox", targets: ["Mailbox"]),
    .executable(name: "Inbox", targets: ["Inbox"]),
  ],
  targets: [
    .target(name: "RewindDiff"),
    // What Swift cannot say (a prefetch, a thread variable, enum value witnesses, the x86 SHA instructions,
    // the CRC-32C instruction);
    // not a package dependency.
    .target(name: "CRewind"),
    .target(name: "Rewind", dependencies: ["RewindDiff", "CRewind"], swiftSettings: [.strictMemorySafety()]),
    .target(name: "RewindLog", dependencies: ["Rewind", "CRewind"]),
    .target(name: "RewindComponents", dependencies: ["Rewind", "RewindDiff"]),
    .target(name: "RewindTesting", dependencies: ["Rewind"]),
    // Live time travel over loopback (Docs/Inspector.md): nothing network-facing lives in Rewind itself.
    .target(name: "RewindInspector", dependencies: ["Rewind"]),
    // Ships a log to NATS JetStream (its own small NATS client) and verifies what a stream holds.
    .target(name: "RewindShip", dependencies: ["Rewind", "RewindLog"]),
    .target(name: "RewindTool", dependencies: ["Rewind", "RewindLog", "RewindInspector", "RewindShip"]),
    .executableTarget(name: "rewind", dependencies: ["RewindTool"]),
    .executableTarget(
      name: "rewind-bench",
      dependencies: [
        "Rewind", "RewindDiff", "RewindLog", "RewindComponents", "RewindTesting", "RewindInspector",
        "RewindShip", "RewindTool",
      ],
      path: "Benchmarks"
    ),
    .executableTarget(name: "Mailbox", dependencies: ["Rewind"], path: "Examples/Mailbox"),
    // The Inbox example: its reducer and session in a library the tests drive, a thin executable on top.
    .target(
      name: "InboxCore", dependencies: ["Rewind", "RewindDiff", "RewindLog", "RewindComponents"],
      path: "Examples/InboxCore"),
    .executableTarget(
      name: "Inbox",
      dependencies: [
        "InboxCore", "Rewind", "RewindDiff", "RewindLog", "RewindComponents", "RewindInspector",
      ],
      path: "Examples/Inbox"),
    // Fixtures shared by the test targets and the crash child (a plain target: executables can depend on it).
    .target(name: "RewindTestSupport", dependencies: ["Rewind"], path: "Tests/Support"),
    .executableTarget(
      name: "rewind-crash-child", dependencies: ["Rewind", "RewindLog", "RewindTestSupport"],
      path: "Tests/CrashChild"),
    .testTarget(name: "RewindDiffTests", dependencies: ["RewindDiff", "RewindTesting"]),
    .testTarget(name: "RewindTests", dependencies: ["Rewind", "RewindTesting", "RewindTestSupport"]),
    .testTarget(name: "RewindTestingTests", dependencies: ["Rewind", "RewindTesting"]),
    .testTarget(
      name: "RewindInspectorTests",
      dependencies: ["RewindInspector", "Rewind", "RewindTesting", "RewindTestSupport"]),
    .testTarget(
      name: "RewindComponentsTests",
      dependencies: ["RewindComponents", "Rewind", "RewindDiff", "RewindTesting", "RewindTestSupport"]),
    .testTarget(
      // The kill -9 harness launches rewind-crash-child: depending on it makes `swift test` build it.
      name: "RewindLogTests",
      dependencies: ["RewindLog", "Rewind", "RewindTesting", "RewindTestSupport", "rewind-crash-child"]),
    .testTarget(
      // Runs the built Inbox executable (scripted, through a pseudo-terminal, and attached to by the built
      // `rewind` with a headless browser on its live page): depending on them builds them.
      name: "InboxTests",
      dependencies: [
        "InboxCore", "Inbox", "Rewind", "RewindComponents", "RewindLog", "RewindTesting", "RewindTestSupport",
        "RewindInspector", "rewind",
      ]),
    .testTarget(
      // Starts Debian's nats-server on loopback ports, and kills `rewind ship` children: it builds `rewind`.
      name: "RewindShipTests",
      dependencies: [
        "RewindShip", "RewindLog", "Rewind", "RewindTesting", "RewindTestSupport", "rewind",
        "rewind-crash-child",
      ]),
    .testTarget(
      // The guides' Swift blocks, written into Generated/ by Scripts/docs-snippets.sh: the build compiles
      // them, and a test fails when they are out of date with README.md and Docs/.
      name: "DocsSnippetTests",
      dependencies: [
        "Rewind", "RewindDiff", "RewindLog", "RewindTesting", "RewindComponents", "RewindShip", "RewindTool",
        "RewindInspector",
      ]),
    .testTarget(
      // Runs the real `rewind` executable: depending on it makes `swift test` build it. Replays Inbox
      // sessions (InboxCore).
      name: "RewindToolTests",
      dependencies: [
        "RewindTool", "RewindLog", "Rewind", "RewindTesting", "RewindTestSupport", "rewind", "InboxCore",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
