package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func (c *Command) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the module version and the commit it was built from",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(cmd.OutOrStdout(), VersionString())
			return nil
		},
	}
}

// Version returns the module version from the build information, "(devel)"
// for a build from a work tree.
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok || info.Main.Version == "" {
		return "(devel)"
	}
	return info.Main.Version
}

// VersionString is the one line `mcpverdict version` prints: module version,
// commit and Go version, as the build recorded them.
func VersionString() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "mcpverdict (devel)"
	}
	commit, dirty := "unknown", ""
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	return fmt.Sprintf("mcpverdict %s (commit %s%s, %s)", Version(), commit, dirty, info.GoVersion)
}
