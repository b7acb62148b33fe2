// RewindTesting
