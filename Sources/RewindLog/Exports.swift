// `import RewindLog` brings the store it persists too: `Store.open(directory:…)` needs no second import.
@_exported import Rewind
