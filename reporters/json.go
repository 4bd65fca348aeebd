package reporters

import (
	"encoding/json"
	"io"

	"github.com/mcpverdict/mcpverdict/internal/judge"
)

// JSON writes the whole report as data, every finding included.
type JSON struct{}

var _ Reporter = JSON{}

func init() { register(JSON{}) }

// Name is "json".
func (JSON) Name() string { return "json" }

func (JSON) Write(w io.Writer, rep *judge.Report, _ Options) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}
