package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"ratchet/internal/show"
)

// Status is the fleet at one moment.
type Status struct {
	MaxDeliver  int          `json:"max_deliver"`
	AckWait     string       `json:"ack_wait"`
	Queued      uint64       `json:"queued"`      // waiting for a worker
	InFlight    int          `json:"in_flight"`   // taken, not yet acknowledged
	Redelivered int          `json:"redelivered"` // in flight after at least one failed delivery
	Results     int          `json:"results"`     // recorded results
	Failed      []string     `json:"failed"`      // reasons of jobs that failed
	Workers     []WorkerInfo `json:"workers"`     // those seen in the last 30 s
}

// Status reads the queue, the workers' heartbeats and the failures.
func (f *Fleet) Status(ctx context.Context) (Status, error) {
	info, err := f.queue.Info(ctx)
	if err != nil {
		return Status{}, err
	}
	s := Status{MaxDeliver: info.Config.MaxDeliver, AckWait: info.Config.AckWait.String(), Queued: info.NumPending,
		InFlight: info.NumAckPending, Redelivered: info.NumRedelivered, Failed: []string{}, Workers: []WorkerInfo{}}
	if keys, err := f.results.ListKeys(ctx); err == nil {
		for k := range keys.Keys() {
			switch {
			case strings.HasPrefix(k, "result."):
				s.Results++
			case strings.HasPrefix(k, "failed."):
				if e, err := f.results.Get(ctx, k); err == nil {
					var fail Failure
					json.Unmarshal(e.Value(), &fail)
					s.Failed = append(s.Failed, fmt.Sprintf("%s %s: %s", e.Created().Format(time.DateTime), fail.Worker, fail.Reason))
				}
			}
		}
	}
	if keys, err := f.workers.ListKeys(ctx); err == nil {
		for k := range keys.Keys() {
			if e, err := f.workers.Get(ctx, k); err == nil {
				var wi WorkerInfo
				if json.Unmarshal(e.Value(), &wi) == nil {
					s.Workers = append(s.Workers, wi)
				}
			}
		}
	}
	slices.SortFunc(s.Workers, func(a, b WorkerInfo) int { return strings.Compare(a.Name, b.Name) })
	slices.Sort(s.Failed)
	return s, nil
}

// Print writes s for people.
func (s Status) Print(out io.Writer) error {
	fmt.Fprintf(out, "queue: %d waiting, %d in flight (%d redelivered); %d results recorded; max %d deliveries, ack wait %s\n",
		s.Queued, s.InFlight, s.Redelivered, s.Results, s.MaxDeliver, s.AckWait)
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "worker\thost\tmodel\tanchor\tjobs\tdone\trefused\tfailed\trunning\n")
	for _, w := range s.Workers {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.12s\t%d\t%d\t%d\t%d\t%s\n", show.Line(w.Name, 60), show.Line(w.Host, 60), show.Line(w.Model, 80),
			show.Line(w.AnchorBuild, 64), w.Jobs, w.Done, w.Refused, w.Failed, show.Line(strings.Join(w.Running, " "), 300))
	}
	if len(s.Workers) == 0 {
		fmt.Fprintf(tw, "(no worker seen in the last 30 s)\n")
	}
	tw.Flush()
	for _, f := range s.Failed {
		fmt.Fprintf(out, "failed: %s\n", show.Line(f, 2000))
	}
	return nil
}
