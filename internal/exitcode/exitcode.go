// Package exitcode names mcpverdict's exit statuses, says once what each
// means, and maps errors to them in one place.
package exitcode

import (
	"errors"
	"fmt"
)

// The exit statuses every mcpverdict command uses; Table says what each
// means. capture is the one exception: it exits with the status of the
// server it wrapped.
const (
	// OK: the command did its job and the verdict (if any) is a pass.
	OK = 0
	// Fail: a clause failed, or warned under --strict; or a check refused.
	Fail = 1
	// Usage: bad invocation, nothing judgeable, or an output not written.
	Usage = 2
	// Malformed: an input trace could not be read whole.
	Malformed = 3
)

// Error carries the exit status an error should end the command with.
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// New returns an error that exits with code.
func New(code int, format string, args ...any) error {
	return &Error{Code: code, Err: fmt.Errorf(format, args...)}
}

// Wrap gives err the exit status code; a nil err stays nil.
func Wrap(code int, err error) error {
	if err == nil {
		return nil
	}
	return &Error{Code: code, Err: err}
}

// Of returns the exit status for err: OK for nil, the carried code for an
// *Error, and Usage for anything else, since an error nobody classified is
// most often a bad argument or an unwritable output.
func Of(err error) int {
	if err == nil {
		return OK
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Usage
}
