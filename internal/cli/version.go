package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func (c *Command) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the module version and the commit it was built from",
		Long: `version prints one line: mcpverdict's module version ("(devel)" for a build
from a work tree), the commit it was built from (with +dirty when the work
tree had changes, "unknown" when the build recorded none) and the Go version.
mcpverdict --version prints the same line.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(cmd.OutOrStdout(), VersionString())
			return nil
		},
	}
}

// stampedVersion and stampedCommit are set with -ldflags -X by builds that
// have no VCS information to record: the image (built without .git) and
// the release.
var stampedVersion, stampedCommit string

// Version returns the version the build was stamped with, else the module
// version from the build information, "(devel)" for a build from a work
// tree.
func Version() string {
	if stampedVersion != "" {
		return stampedVersion
	}
	info, ok := debug.ReadBuildInfo()
	if !ok || info.Main.Version == "" {
		return "(devel)"
	}
	return info.Main.Version
}

// VersionString is the one line `mcpverdict version` prints: version,
// commit and Go version, as the build recorded them.
func VersionString() string {
	commit, dirty, goVersion := buildCommit()
	return fmt.Sprintf("mcpverdict %s (commit %s%s, %s)", Version(), commit, dirty, goVersion)
}

// buildCommit is the commit the binary was built from, "+dirty" when the
// work tree had changes, and the Go version.
func buildCommit() (commit, dirty, goVersion string) {
	commit, goVersion = "unknown", runtime.Version()
	if info, ok := debug.ReadBuildInfo(); ok {
		goVersion = info.GoVersion
		for _, s := range info.Settings {
			switch {
			case s.Key == "vcs.revision":
				commit = s.Value
			case s.Key == "vcs.modified" && s.Value == "true":
				dirty = "+dirty"
			}
		}
	}
	if stampedCommit != "" {
		commit, dirty = stampedCommit, ""
	}
	return commit, dirty, goVersion
}
