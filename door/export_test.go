package door

// WriteBackForTest exposes writeBack to the external tests.
var WriteBackForTest = writeBack
