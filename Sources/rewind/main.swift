import RewindTool

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// All logic lives in RewindTool so tests can run commands in-process; this only forwards the arguments.
exit(RewindCommandLine.standard.run(arguments: Array(CommandLine.arguments.dropFirst())))
