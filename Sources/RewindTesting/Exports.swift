// `import RewindTesting` brings the store it tests too: a test needs no second import.
@_exported import Rewind
