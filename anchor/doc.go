// Package anchor is Layer 0 of Ratchet: the frozen judge. It snapshots
// harnesses, builds them, runs them on tasks inside bubblewrap with a metered
// model proxy as the only way out, scores the result, keeps the ledger in
// SQLite, and applies or rejects candidate edits by a fixed rule.
//
// It imports nothing of the project and no third-party module but
// modernc.org/sqlite, makes no model calls of its own, and stays small enough
// to review by hand (nollm_test.go holds its size; see docs/ARCHITECTURE.md,
// "Size of the anchor"). anchor/README.md indexes it by defence: every
// invariant and attack, the file and function that stop it, and the tests.
package anchor
