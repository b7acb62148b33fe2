// `import RewindInspector` brings the store it inspects too: `store.inspect()` needs no second import.
@_exported import Rewind
