package merge

import (
	"fmt"
	"os"
)

// AppendSummary adds the merged job summary to the file GitHub Actions
// names in GITHUB_STEP_SUMMARY; an empty path is no job summary.
func AppendSummary(path string, md []byte) error {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("cannot write the job summary: %v", unwrapPath(err))
	}
	if _, err := f.Write(md); err != nil {
		f.Close()
		return fmt.Errorf("cannot write the job summary: %v", unwrapPath(err))
	}
	return f.Close()
}
