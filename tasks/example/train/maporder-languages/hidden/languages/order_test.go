package languages

import "testing"

func TestSummaryOrder(t *testing.T) {
	counts := map[string]int{"Go": 1, "Rust": 3, "C": 5, "Python": 2, "Java": 4, "Kotlin": 1, "Swift": 3, "Ruby": 5, "PHP": 2, "Perl": 4, "Lua": 1, "Haskell": 3, "OCaml": 5, "Elixir": 2, "Erlang": 4, "Scala": 1, "Dart": 3, "Julia": 5, "Zig": 2, "Nim": 4, "Fortran": 1, "COBOL": 3}
	want := "C: 5\nJulia: 5\nOCaml: 5\nRuby: 5\nErlang: 4\nJava: 4\nNim: 4\nPerl: 4\nCOBOL: 3\nDart: 3\nHaskell: 3\nRust: 3\nSwift: 3\nElixir: 2\nPHP: 2\nPython: 2\nZig: 2\nFortran: 1\nGo: 1\nKotlin: 1\nLua: 1\nScala: 1\n"
	for range 3 {
		if got := Summary(counts); got != want {
			t.Fatalf("Summary =\n%s\nwant\n%s", got, want)
		}
	}
}
