//go:build !linux

package action

// becomeWorkspaceOwner does nothing where the action's container cannot
// run: GitHub runs docker actions on Linux only.
func becomeWorkspaceOwner(string) (string, error) { return "", nil }
