package main

import (
	"flag"
	"fmt"
	"os"
	"text/tabwriter"

	"ratchet/door"
	"ratchet/internal/show"
)

const sessionsUsage = `usage: ratchet sessions [--show ID] [--json] [flags]
Lists the saved request records (RATCHET_HOME/sessions.db), or prints one session's.
` + doorFlagEnv

// sessionsCommand is ratchet sessions: the saved request records.
func sessionsCommand(args []string) error {
	fs := flag.NewFlagSet("sessions", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print JSON")
	showID := fs.String("show", "", "print the records of this session, or the record with this id")
	doorFlags(fs)
	if err := parseFlags(fs, args, sessionsUsage); err != nil {
		return err
	}
	// Reading the records creates nothing: no home, no database.
	home := fs.Lookup("home").Value.String()
	if home == "" {
		return usageErr("no folder for the request records: set RATCHET_HOME or HOME, or pass --home DIR")
	}
	d, err := door.OpenRecords(home)
	if err != nil {
		return err
	}
	defer d.Close()
	if *showID != "" {
		recs, err := d.Show(*showID)
		if err != nil {
			return err
		}
		if len(recs) == 0 {
			return usageErr("no session or record %q in %s; ratchet sessions lists them", *showID, home)
		}
		return printJSONIndented(recs)
	}
	ss, err := d.Sessions()
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(ss)
	}
	if len(ss) == 0 {
		fmt.Printf("no sessions yet in %s; ratchet run \"request\" starts one\n", home)
		return nil
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tREQUESTS\tLAST\tOUTCOME\tPROJECT")
	for _, s := range ss {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", show.Line(s.ID, 40), s.Requests, show.Line(s.Last, 40), show.Line(s.Outcome, 40),
			show.Line(s.Project, 200))
	}
	return tw.Flush()
}
