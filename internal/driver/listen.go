package driver

import (
	"context"
	"fmt"
	"time"
)

// ackWait bounds how long the driver waits for a subscription's
// acknowledgement.
const ackWait = 3 * time.Second

// subscriptionsListen opens a 2026-07-28 subscriptions/listen stream for
// every change notification the server declared (and updates of its first
// resource), waits for the acknowledgement, then cancels the stream.
func (d *run) subscriptionsListen(ctx context.Context, f *found) {
	if !d.stateless() {
		return
	}
	filter := d.listenFilter(f)
	if len(filter) == 0 {
		return
	}
	d.step("subscriptions/listen")
	id, ch, err := d.begin("subscriptions/listen", map[string]any{"notifications": filter}, callOpts{})
	if err != nil {
		return
	}
	t := time.NewTimer(min(ackWait, d.opts.StepTimeout))
	defer t.Stop()
	select {
	case <-d.acks.arrived(fmt.Sprint(id)):
	case r, ok := <-ch:
		if ok && r.Err != nil {
			d.note("subscriptions/listen: %v", r.Err)
		}
		return
	case <-t.C:
		d.note("subscriptions/listen: no notifications/subscriptions/acknowledged within %s", min(ackWait, d.opts.StepTimeout))
	case <-ctx.Done():
		return
	}
	d.cancel(id, "the driver is done listening")
	d.awaitCancelled(ctx, id, ch)
}

// listenFilter asks for each kind of change notification the server's
// capabilities promise.
func (d *run) listenFilter(f *found) map[string]any {
	filter := map[string]any{}
	for capability, field := range map[string]string{"tools": "toolsListChanged", "prompts": "promptsListChanged", "resources": "resourcesListChanged"} {
		if d.has(capability, "listChanged") {
			filter[field] = true
		}
	}
	if d.has("resources", "subscribe") && len(f.resources) > 0 {
		filter["resourceSubscriptions"] = []string{f.resources[0].URI}
	}
	return filter
}
