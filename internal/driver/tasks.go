package driver

import (
	"context"
	"encoding/json"
	"time"
)

// The tasks step (2025-11-25, experimental): with a server that declares
// the tasks capability, list the tasks, ask for one that does not exist
// and, when the call policy allows a tool that runs as a task, call it as
// one, poll tasks/get until the task is terminal, fetch tasks/result, list
// again and try to cancel the finished task, which the server must refuse.

// noSuchTask is the id the driver asks for to see an unknown task refused.
const noSuchTask = "mcpverdict-no-such-task"

// Polling bounds: the interval the server suggests is clamped to these,
// and the polls of one task stop after taskPollBudget.
const (
	minPoll        = 100 * time.Millisecond
	maxPoll        = 2 * time.Second
	taskPollBudget = 60 * time.Second
)

// taskRequired reports whether the server declared task-augmented
// tools/call and the tool requires it: the tasks step calls such a tool.
func (d *run) taskRequired(t tool) bool {
	return d.tasksForTools() && t.Execution.TaskSupport == "required"
}

// tasksForTools reports whether the server declared tasks.requests.tools.call.
func (d *run) tasksForTools() bool {
	var c struct {
		Requests struct {
			Tools struct {
				Call json.RawMessage `json:"call"`
			} `json:"tools"`
		} `json:"requests"`
	}
	raw, ok := d.caps["tasks"]
	if !ok || json.Unmarshal(raw, &c) != nil {
		return false
	}
	call := string(c.Requests.Tools.Call)
	return call != "" && call != "null" && call != "false"
}

func (d *run) tasks(ctx context.Context, _ *found) {
	if d.stateless() || !d.has("tasks") {
		return
	}
	if d.has("tasks", "list") {
		d.step("tasks/list")
		d.call(ctx, "tasks/list", map[string]any{})
	}
	d.step("tasks/get of an unknown task")
	d.callWith(ctx, "tasks/get", map[string]any{"taskId": noSuchTask}, callOpts{expectError: true})
	t := d.taskTool()
	if t == nil {
		return
	}
	d.runTask(ctx, *t)
}

// taskTool is the first callable tool that runs as a task, or nil (with a
// note when the policy left such a tool out).
func (d *run) taskTool() *tool {
	if !d.tasksForTools() {
		return nil
	}
	for _, t := range d.callable() {
		if t.Execution.TaskSupport == "required" || t.Execution.TaskSupport == "optional" {
			return &t
		}
	}
	for _, t := range d.tools {
		if t.Execution.TaskSupport == "required" || t.Execution.TaskSupport == "optional" {
			d.note("tasks: tool %s runs as a task but the call policy (--call %s) leaves it out; --call all calls it", t.Name, d.opts.Call)
			break
		}
	}
	return nil
}

// runTask calls the tool as a task and follows the task to its end.
func (d *run) runTask(ctx context.Context, t tool) {
	args, ok := SmallArguments(t.InputSchema)
	if !ok {
		d.note("tasks: tool %s skipped, its input schema asks for arguments the driver cannot build", t.Name)
		return
	}
	d.step("tools/call " + t.Name + " as a task")
	res, err := d.call(ctx, "tools/call", map[string]any{"name": t.Name, "arguments": args, "task": map[string]any{"ttl": 60000}})
	var created struct {
		Task taskState `json:"task"`
	}
	if err != nil || json.Unmarshal(res, &created) != nil || created.Task.TaskID == "" {
		d.note("tasks: tools/call %s as a task was not answered with a task", t.Name)
		return
	}
	id := created.Task.TaskID
	if !d.pollTask(ctx, id, created.Task) {
		return
	}
	d.step("tasks/result")
	d.callWith(ctx, "tasks/result", map[string]any{"taskId": id}, callOpts{expectError: true})
	if d.has("tasks", "list") {
		d.step("tasks/list")
		d.call(ctx, "tasks/list", map[string]any{})
	}
	if d.has("tasks", "cancel") {
		d.step("tasks/cancel of a finished task")
		d.callWith(ctx, "tasks/cancel", map[string]any{"taskId": id}, callOpts{expectError: true})
	}
}

// taskState is what the driver reads of a Task.
type taskState struct {
	TaskID       string `json:"taskId"`
	Status       string `json:"status"`
	PollInterval *int64 `json:"pollInterval"`
}

func (s taskState) terminal() bool {
	return s.Status == "completed" || s.Status == "failed" || s.Status == "cancelled"
}

// wait is the pause before the next poll: the server's pollInterval,
// clamped.
func (s taskState) wait() time.Duration {
	w := 500 * time.Millisecond
	if s.PollInterval != nil {
		w = time.Duration(*s.PollInterval) * time.Millisecond
	}
	return min(max(w, minPoll), maxPoll)
}

// pollTask polls tasks/get until the task is terminal (true), or the
// budget is spent, the task needs input the driver gives through
// tasks/result, or the session ends (false).
func (d *run) pollTask(ctx context.Context, id string, st taskState) bool {
	d.step("tasks/get until the task ends")
	deadline := time.Now().Add(taskPollBudget)
	for !st.terminal() {
		if st.Status == "input_required" {
			return true // tasks/result delivers the input requests, and blocks until the end
		}
		if time.Now().After(deadline) {
			d.note("tasks: task %s was still %s after %s of polling; the driver stopped", id, st.Status, taskPollBudget)
			return false
		}
		select {
		case <-time.After(st.wait()):
		case <-ctx.Done():
			return false
		}
		res, err := d.call(ctx, "tasks/get", map[string]any{"taskId": id})
		if err != nil || json.Unmarshal(res, &st) != nil {
			return false
		}
	}
	return true
}
