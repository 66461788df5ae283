package door

import (
	"fmt"
	"strings"
)

// Context is the first user message of a request in a session: earlier
// requests, then the current one. It keeps the current request whole, the
// opening request and the most recent ones as far as budget (characters)
// allows, and replaces the middle with a summary labelled as one. A call is
// never shown without its observation: whole requests are kept or
// summarised, and a kept request's observations are clipped, not dropped.
func Context(prior []Record, request string, budget int) string {
	if len(prior) == 0 {
		return request
	}
	turns := make([]string, len(prior))
	for i, r := range prior {
		turns[i] = turn(i+1, r, 600)
	}
	keep := map[int]bool{0: true} // the opening request
	used := len(turns[0])
	for i := len(turns) - 1; i > 0 && used+len(turns[i]) <= budget; i-- {
		keep[i], used = true, used+len(turns[i])
	}
	var b strings.Builder
	b.WriteString("This request continues a session. Earlier requests in it, oldest first:\n\n")
	var summary []string
	flush := func() {
		if len(summary) > 0 {
			fmt.Fprintf(&b, "[Summary of %d earlier requests; their calls and observations are left out]\n%s\n\n", len(summary), strings.Join(summary, "\n"))
			summary = nil
		}
	}
	for i, r := range prior {
		if keep[i] {
			flush()
			b.WriteString(turns[i])
			continue
		}
		summary = append(summary, fmt.Sprintf("- request %d: %q -> %s; changed %s", i+1, Clip(r.Request, 120), r.Outcome, strings.Join(r.Changed, ", ")))
	}
	flush()
	b.WriteString("Current request:\n")
	b.WriteString(request)
	return b.String()
}

func turn(n int, r Record, obs int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[request %d] %s\n", n, r.Request)
	for _, c := range r.Calls {
		fmt.Fprintf(&b, "  call %s %s\n    -> %s\n", c.Name, Clip(c.Args, 200), Clip(c.Observation, obs))
	}
	fmt.Fprintf(&b, "  outcome: %s; answer: %s; changed: %s\n\n", r.Outcome, Clip(r.Answer, 400), strings.Join(r.Changed, ", "))
	return b.String()
}
