// `import RewindComponents` brings the store its reducers run in too: no second import.
@_exported import Rewind
