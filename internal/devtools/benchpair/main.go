// Command benchpair times two builds of mcpverdict side by side: it runs
// `validate TRACE` with one and then the other, in alternating order, for
// a number of pairs, and prints the CPU time ratio of each pair with the
// median and quartiles. A machine whose core changes speed from minute to
// minute moves both runs of a pair together, so the pair's ratio says more
// than either run's time. Pin it to one core (taskset) to keep the runs off
// each other's cache.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	pairs := flag.Int("pairs", 20, "how many pairs of runs")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: benchpair [-pairs N] OLD NEW TRACE")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 3 || *pairs < 1 {
		flag.Usage()
		os.Exit(2)
	}
	oldBin, newBin, trace := flag.Arg(0), flag.Arg(1), flag.Arg(2)
	ratios, oldTimes, newTimes, err := compare(oldBin, newBin, trace, *pairs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchpair:", err)
		os.Exit(1)
	}
	fmt.Printf("%d pairs on %s, CPU time (user + system) of %s over %s:\n", *pairs, trace, filepath.Base(oldBin), filepath.Base(newBin))
	fmt.Printf("  ratio: median %.3f, quartiles %.3f to %.3f, range %.3f to %.3f\n",
		quantile(ratios, 0.5), quantile(ratios, 0.25), quantile(ratios, 0.75), quantile(ratios, 0), quantile(ratios, 1))
	fmt.Printf("  old: median %.3f s, fastest %.3f s; new: median %.3f s, fastest %.3f s\n",
		quantile(oldTimes, 0.5), quantile(oldTimes, 0), quantile(newTimes, 0.5), quantile(newTimes, 0))
}

// compare runs the pairs, the old build first in even pairs and the new
// one first in odd pairs, so that neither always runs on a warmer cache.
func compare(oldBin, newBin, trace string, pairs int) (ratios, oldTimes, newTimes []float64, err error) {
	for i := range pairs {
		first, second := oldBin, newBin
		if i%2 == 1 {
			first, second = newBin, oldBin
		}
		a, err := cpuSeconds(first, trace)
		if err != nil {
			return nil, nil, nil, err
		}
		b, err := cpuSeconds(second, trace)
		if err != nil {
			return nil, nil, nil, err
		}
		o, n := a, b
		if i%2 == 1 {
			o, n = b, a
		}
		ratios, oldTimes, newTimes = append(ratios, o/n), append(oldTimes, o), append(newTimes, n)
	}
	return ratios, oldTimes, newTimes, nil
}

// cpuSeconds runs `bin validate trace` and returns its CPU time. A verdict
// other than pass exits 1, which is a run like any other here; only a run
// that could not judge (2 or 3) is an error.
func cpuSeconds(bin, trace string) (float64, error) {
	cmd := exec.Command(bin, "validate", trace)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 {
		err = nil
	}
	if err != nil {
		said, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return 0, fmt.Errorf("%s validate %s: %v: %s", bin, trace, err, said)
	}
	return (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds(), nil
}

// quantile returns the q-quantile of xs by the nearest rank.
func quantile(xs []float64, q float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	return s[int(q*float64(len(s)-1)+0.5)]
}
