package minutes

import (
	"fmt"
	"strings"
)

func writeTitle(b strings.Builder, title string) {
	b.WriteString(title)
	b.WriteString("\n")
}

func writeItem(b strings.Builder, n int, item string) {
	fmt.Fprintf(&b, "%d: %s\n", n, item)
}
