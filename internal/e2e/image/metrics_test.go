package image

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"sync"
)

var metricsMu sync.Mutex

// metric records a measurement for scripts/bench-image, which sets
// MCPVERDICT_IMAGE_METRICS to the JSON Lines file it renders into
// docs/performance.md; other runs keep nothing.
func metric(name string, value float64) {
	path := os.Getenv("MCPVERDICT_IMAGE_METRICS")
	if path == "" {
		return
	}
	metricsMu.Lock()
	defer metricsMu.Unlock()
	line, _ := json.Marshal(map[string]any{"name": name, "value": value})
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	f.Write(append(line, '\n'))
}

// measuring reports whether scripts/bench-image asked for the figures.
func measuring() bool { return os.Getenv("MCPVERDICT_IMAGE_METRICS") != "" }

func parseFloat(s string) float64 {
	v, _ := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return v
}
