package ledger

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mcpverdict/mcpverdict/internal/wiretext"
)

// WriteProblems tells why the ledger at path did not verify, one line per
// problem made safe for a terminal (a problem may quote the ledger).
func (res *Result) WriteProblems(w io.Writer, path string) {
	fmt.Fprintf(w, "mcpverdict: ledger %s not verified (%d blocks, %s), %d problems:\n", wiretext.Visible(path), res.Blocks, wiretext.Visible(res.Format), len(res.Problems))
	for _, p := range res.Problems {
		fmt.Fprintln(w, "  - "+wiretext.Visible(p))
	}
}

// WriteIntact tells what a verified ledger holds.
func (res *Result) WriteIntact(w io.Writer) {
	types, _ := json.Marshal(res.Types) // encoding/json sorts map keys
	fmt.Fprintf(w, "ledger intact: %d blocks, chain verified against the expected head\n", res.Blocks)
	fmt.Fprintf(w, "format: %s\n", wiretext.Visible(res.Format))
	fmt.Fprintf(w, "block types: %s\n", wiretext.Visible(string(types)))
	if len(res.Recipes) > 0 {
		fmt.Fprintf(w, "contract recipes: %s\n", wiretext.Visible(strings.Join(res.Recipes, ", ")))
	}
}
