package action

import (
	"fmt"
	"os"
	"syscall"
)

// becomeWorkspaceOwner gives up root for the workspace's owner before
// anything is written. GitHub runs a docker action as root, but the
// workspace belongs to the runner's user (1001 on hosted runners, anyone
// on self-hosted ones): as that owner, every file and folder the action
// creates is theirs, so later steps can read, edit and delete them, and
// the server under test, started from here, does not run as root. Go
// changes the ids of every thread of the process. It returns what to say
// in the log; a process that is not root is left as it is.
func becomeWorkspaceOwner(workspace string) (string, error) {
	if os.Geteuid() != 0 {
		return "", nil
	}
	info, err := os.Stat(workspace)
	if err != nil {
		return "", fmt.Errorf("cannot read the workspace's owner: %v", err)
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return "", nil
	}
	if st.Uid == 0 {
		return fmt.Sprintf("the workspace %s belongs to root, so mcpverdict and the server under test run as root", workspace), nil
	}
	uid, gid := int(st.Uid), int(st.Gid)
	if err := syscall.Setgroups([]int{gid}); err != nil {
		return "", fmt.Errorf("cannot drop root's groups: %v", err)
	}
	if err := syscall.Setgid(gid); err != nil {
		return "", fmt.Errorf("cannot become group %d, the workspace's: %v", gid, err)
	}
	if err := syscall.Setuid(uid); err != nil {
		return "", fmt.Errorf("cannot become user %d, the workspace's owner: %v", uid, err)
	}
	return fmt.Sprintf("running as uid %d, gid %d, the owner of the workspace, as is the server under test", uid, gid), nil
}
