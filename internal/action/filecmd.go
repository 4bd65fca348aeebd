package action

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
)

// Output is one step output: a name and its value.
type Output struct {
	Name, Value string
}

// writeOutputs appends step outputs to the runner's output file
// ($GITHUB_OUTPUT) in the multi-line form
//
//	name<<DELIMITER
//	value
//	DELIMITER
//
// with a delimiter drawn at random for each output. The runner ends a
// value at the first line equal to its delimiter, so a fixed delimiter (the
// one go-githubactions writes) lets a value that contains it, such as a
// trace path or a server name chosen by whoever opened the pull request,
// end the value early and set outputs of its own.
func writeOutputs(path string, outputs []Output) error {
	if path == "" {
		return fmt.Errorf("GITHUB_OUTPUT is not set: the runner gives every step an output file")
	}
	var b strings.Builder
	for _, o := range outputs {
		entry, err := outputEntry(o)
		if err != nil {
			return err
		}
		b.WriteString(entry)
	}
	return appendFile(path, b.String())
}

func outputEntry(o Output) (string, error) {
	if o.Name == "" || strings.ContainsAny(o.Name, "\r\n=<") {
		return "", fmt.Errorf("output name %q cannot be written as a file command", o.Name)
	}
	delimiter, err := randomDelimiter()
	if err != nil {
		return "", err
	}
	// A value holding the delimiter could still end itself early; with 128
	// random bits it never does, but the check costs nothing.
	if strings.Contains(o.Value, delimiter) || strings.Contains(o.Name, delimiter) {
		return "", fmt.Errorf("output %s holds its own delimiter", o.Name)
	}
	return o.Name + "<<" + delimiter + "\n" + o.Value + "\n" + delimiter + "\n", nil
}

// randomDelimiter is what the runner's own toolkit uses: ghadelimiter_
// followed by random hex.
func randomDelimiter() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("no randomness for an output delimiter: %w", err)
	}
	return "ghadelimiter_" + hex.EncodeToString(b[:]), nil
}

// appendFile appends text to a file the runner reads after the step.
func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("cannot append to %s: %w", path, err)
	}
	_, werr := f.WriteString(text)
	cerr := f.Close()
	if werr != nil {
		return fmt.Errorf("cannot append to %s: %w", path, werr)
	}
	return cerr
}
