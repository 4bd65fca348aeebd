package capture

import (
	"bytes"
	"os"
	"strconv"
)

// onlyZombiesIn reports whether every process of group pgid is a zombie,
// from each process's state and group in /proc. Without /proc it cannot
// tell, and says no.
func onlyZombiesIn(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // it ended meanwhile
		}
		if state, group, ok := parseStat(stat); ok && group == pgid && state != 'Z' && state != 'X' {
			return false
		}
	}
	return true
}

// parseStat reads the state and process group from /proc/PID/stat:
// "PID (COMM) STATE PPID PGRP ...", where COMM may hold spaces and
// parentheses of its own.
func parseStat(stat []byte) (state byte, pgrp int, ok bool) {
	end := bytes.LastIndexByte(stat, ')')
	if end < 0 {
		return 0, 0, false
	}
	fields := bytes.Fields(stat[end+1:])
	if len(fields) < 3 || len(fields[0]) != 1 {
		return 0, 0, false
	}
	pgrp, err := strconv.Atoi(string(fields[2]))
	return fields[0][0], pgrp, err == nil
}
