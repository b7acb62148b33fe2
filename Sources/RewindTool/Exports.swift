// `import RewindTool` brings the log and the store it reads too: a debugger needs no second import.
@_exported import RewindLog
