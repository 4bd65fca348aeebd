// Command plaindecode is the floor the judge's speed is measured against:
// it decodes every line of a trace with encoding/json into a generic value
// and does nothing else.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"time"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: plaindecode TRACE")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "plaindecode:", err)
		os.Exit(2)
	}
	start := time.Now()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var lines, bytes int
	for sc.Scan() {
		var v any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			fmt.Fprintf(os.Stderr, "plaindecode: line %d: %v\n", lines+1, err)
			os.Exit(3)
		}
		lines++
		bytes += len(sc.Bytes()) + 1
	}
	fmt.Printf("%d lines, %d bytes, %.3f s\n", lines, bytes, time.Since(start).Seconds())
}
