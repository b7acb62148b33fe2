// Rewind
