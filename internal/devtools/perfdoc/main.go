// Command perfdoc writes one section of docs/performance.md from the
// measurements a benchmark script collected (JSON Lines of {"name",
// "value"}), keeping the file's other sections as they are. Each section
// lies between <!-- perfdoc:NAME --> and <!-- /perfdoc:NAME -->.
//
//	go run ./internal/devtools/perfdoc -section image -title "The container image" \
//	  -metrics metrics.jsonl -ratio "build runtime (s)/pull from a registry on loopback (s)=building ÷ pulling" docs/performance.md
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"
)

type ratios []string

func (r *ratios) String() string     { return strings.Join(*r, ", ") }
func (r *ratios) Set(v string) error { *r = append(*r, v); return nil }

func main() {
	section := flag.String("section", "", "the section's name")
	title := flag.String("title", "", "the section's heading")
	metricsPath := flag.String("metrics", "", "the measurements, JSON Lines of {\"name\", \"value\"}")
	note := flag.String("note", "", "a sentence under the heading: how the figures were measured")
	var rs ratios
	flag.Var(&rs, "ratio", "NUMERATOR/DENOMINATOR=LABEL: a ratio of two measurements (repeatable)")
	flag.Parse()
	if *section == "" || *title == "" || *metricsPath == "" || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: perfdoc -section NAME -title TITLE -metrics FILE [-note TEXT] [-ratio A/B=LABEL] docs/performance.md")
		os.Exit(2)
	}
	if err := run(*section, *title, *note, *metricsPath, rs, flag.Arg(0)); err != nil {
		fmt.Fprintf(os.Stderr, "perfdoc: %v\n", err)
		os.Exit(1)
	}
}

func run(section, title, note, metricsPath string, rs []string, docPath string) error {
	names, values, err := readMetrics(metricsPath)
	if err != nil {
		return err
	}
	body, err := render(title, note, names, values, rs)
	if err != nil {
		return err
	}
	doc, err := os.ReadFile(docPath)
	if os.IsNotExist(err) {
		doc = []byte("# Performance\n\nFigures measured on this project's development machine by the scripts named in each section; every ratio is of two figures from the same run.\n")
	} else if err != nil {
		return err
	}
	return os.WriteFile(docPath, []byte(splice(string(doc), section, body)), 0o644)
}

// readMetrics reads the measurements in the order first seen; a name seen
// again keeps its last value.
func readMetrics(path string) ([]string, map[string]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var names []string
	values := map[string]float64{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var m struct {
			Name  string
			Value float64
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil || m.Name == "" {
			return nil, nil, fmt.Errorf("%s:%d: not a measurement {\"name\", \"value\"}", path, line)
		}
		if _, seen := values[m.Name]; !seen {
			names = append(names, m.Name)
		}
		values[m.Name] = m.Value
	}
	if len(names) == 0 {
		return nil, nil, fmt.Errorf("%s holds no measurement", path)
	}
	return names, values, sc.Err()
}

func render(title, note string, names []string, values map[string]float64, rs []string) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", title)
	if note != "" {
		fmt.Fprintf(&b, "%s\n\n", note)
	}
	fmt.Fprintf(&b, "Measured %s.\n\n| measurement | value |\n|---|---|\n", time.Now().UTC().Format("2006-01-02"))
	for _, n := range names {
		fmt.Fprintf(&b, "| %s | %s |\n", n, figure(values[n]))
	}
	for _, r := range rs {
		spec, label, ok := strings.Cut(r, "=")
		num, den, ok2 := strings.Cut(spec, "/")
		if !ok || !ok2 {
			return "", fmt.Errorf("-ratio %q is not NUMERATOR/DENOMINATOR=LABEL", r)
		}
		a, okA := values[num]
		d, okD := values[den]
		if !okA || !okD || d == 0 {
			return "", fmt.Errorf("-ratio %q: no measurement %q or %q (or it is zero)", r, num, den)
		}
		fmt.Fprintf(&b, "| %s | %.1f× |\n", label, a/d)
	}
	return b.String(), nil
}

func figure(v float64) string {
	switch {
	case v >= 100 || v == float64(int64(v)):
		return fmt.Sprintf("%.0f", v)
	case v < 10:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

// splice replaces the section's text between its markers, or appends the
// section when the document has none.
func splice(doc, section, body string) string {
	open, end := "<!-- perfdoc:"+section+" -->", "<!-- /perfdoc:"+section+" -->"
	block := open + "\n" + body + end + "\n"
	i, j := strings.Index(doc, open), strings.Index(doc, end)
	if i >= 0 && j > i {
		return doc[:i] + block + strings.TrimPrefix(doc[j+len(end):], "\n")
	}
	return strings.TrimRight(doc, "\n") + "\n\n" + block
}
