package door

// Exposed to the external tests.
var (
	WriteBackForTest = writeBack
	DotPathForTest   = dotPath
)
