// Package engine runs the judge over a trace: it reads the events in order,
// keeps each session's state (its phase, the requests in flight, what each
// party declared), hands every message to the rules that watch its class, and
// turns what the rules report into clause outcomes, totals and a verdict.
// Rules register here at init; the judge package imports every rule folder.
package engine
