package joblinks

import (
	"net/url"
	"testing"
)

func TestJobsURL(t *testing.T) {
	u, err := url.Parse(JobsURL("nurse", 2))
	if err != nil {
		t.Fatal(err)
	}
	if u.Scheme+"://"+u.Host+u.Path != "https://jobs.example.org/find" {
		t.Fatalf("link to %s", u)
	}
	if q := u.Query(); q.Get("title") != "nurse" || q.Get("p") != "2" {
		t.Fatalf("query %v", q)
	}
}
