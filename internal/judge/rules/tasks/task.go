package tasks

import (
	"time"

	"github.com/mcpverdict/mcpverdict/internal/judge/message"
)

// task is a Task object as a receiver reports it.
type task struct {
	TaskID        any     `json:"taskId"`
	Status        string  `json:"status"`
	StatusMessage *string `json:"statusMessage"`
	CreatedAt     *string `json:"createdAt"`
	LastUpdatedAt *string `json:"lastUpdatedAt"`
	TTL           *any    `json:"ttl"`
	HasTTL        bool    `json:"-"`
}

// readTask decodes a Task object; ok is false when raw is no object.
func readTask(raw []byte) (t task, ok bool) {
	if !message.Decode(raw, &t) {
		return t, false
	}
	t.HasTTL = message.ObjectMember(raw, "ttl") != nil
	return t, true
}

// id is the task id when it is a string.
func (t task) id() (string, bool) {
	s, ok := t.TaskID.(string)
	return s, ok
}

// terminal reports whether a status is one a task never leaves.
func terminal(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}

// isoTimestamp reports whether s is an ISO 8601 date-time as RFC 3339
// profiles it.
func isoTimestamp(s *string) bool {
	if s == nil {
		return false
	}
	_, err := time.Parse(time.RFC3339Nano, *s)
	return err == nil
}

// relatedTaskKey is the _meta key that ties a message to a task.
const relatedTaskKey = "io.modelcontextprotocol/related-task"

// relatedTask is the task id a _meta object names, and whether it names one.
func relatedTask(meta []byte) (string, bool) {
	rel := message.ObjectMember(meta, relatedTaskKey)
	if rel == nil {
		return "", false
	}
	id, _ := message.StringField(rel, "taskId")
	return id, true
}
