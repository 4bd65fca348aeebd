package definition

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// HintValue is what a tool declared for one hint. Absent is never false: a
// missing hint declares nothing, and the specification's defaults are not
// applied here.
type HintValue string

// The hint values: true, false, absent (the key is missing), and malformed
// (present but not a JSON boolean: "true", 1, null). Unread is a report's
// way of saying the tools were never listed: after an unverified reset no
// session runs.
const (
	HintTrue      HintValue = "true"
	HintFalse     HintValue = "false"
	HintAbsent    HintValue = "absent"
	HintMalformed HintValue = "malformed"
	HintUnread    HintValue = "unread"
)

// Hint names, as they appear in a tool's annotations.
const (
	ReadOnlyHint    = "readOnlyHint"
	DestructiveHint = "destructiveHint"
	IdempotentHint  = "idempotentHint"
	OpenWorldHint   = "openWorldHint"
)

// HintNames lists the four behavioural hints in a fixed order.
var HintNames = []string{ReadOnlyHint, DestructiveHint, IdempotentHint, OpenWorldHint}

// Hint is one declared hint: its tri-state value and, when malformed, the
// raw JSON text that was sent.
type Hint struct {
	Value HintValue `json:"value"`
	Raw   string    `json:"raw,omitempty"`
}

// Contract is what one tool declared, read from the bytes it was sent in.
type Contract struct {
	Tool  string          `json:"tool"`
	Hints map[string]Hint `json:"hints"`
	// Annotations is the tool's annotations object exactly as sent, or
	// empty when the tool has none.
	Annotations json.RawMessage `json:"annotations,omitempty"`
}

// Hint returns the declared value of one hint.
func (c Contract) Hint(name string) Hint {
	h, ok := c.Hints[name]
	if !ok {
		return Hint{Value: HintAbsent}
	}
	return h
}

// ParseContracts reads every tool's contract from the raw result of one
// tools/list page. Only the outer structure is decoded; each annotation
// value is judged from its own bytes, so "true" (a string) or 1 is reported
// as malformed instead of being coerced to true.
func ParseContracts(result []byte) ([]Contract, error) {
	var page struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(result, &page); err != nil {
		return nil, fmt.Errorf("the tools/list result is not an object with a tools array: %w", err)
	}
	contracts := make([]Contract, 0, len(page.Tools))
	for i, raw := range page.Tools {
		c, err := parseContract(raw)
		if err != nil {
			return nil, fmt.Errorf("tools[%d]: %w", i, err)
		}
		contracts = append(contracts, c)
	}
	return contracts, nil
}

func parseContract(raw json.RawMessage) (Contract, error) {
	var tool struct {
		Name        string          `json:"name"`
		Annotations json.RawMessage `json:"annotations"`
	}
	if err := json.Unmarshal(raw, &tool); err != nil {
		return Contract{}, fmt.Errorf("not a tool object: %w", err)
	}
	if tool.Name == "" {
		return Contract{}, fmt.Errorf("a tool has no name")
	}
	c := Contract{Tool: tool.Name, Hints: map[string]Hint{}}
	if len(tool.Annotations) == 0 || string(tool.Annotations) == "null" {
		return c.withAbsent(), nil
	}
	c.Annotations = tool.Annotations
	fields, err := objectFields(tool.Annotations)
	if err != nil {
		return Contract{}, fmt.Errorf("tool %q: annotations: %w", tool.Name, err)
	}
	for _, name := range HintNames {
		c.Hints[name] = hintFrom(fields[name])
	}
	return c, nil
}

func (c Contract) withAbsent() Contract {
	for _, name := range HintNames {
		c.Hints[name] = Hint{Value: HintAbsent}
	}
	return c
}

// hintFrom judges one annotation value from its raw bytes; values lists
// every occurrence of the key, so a duplicated key is malformed.
func hintFrom(values []json.RawMessage) Hint {
	switch {
	case len(values) == 0:
		return Hint{Value: HintAbsent}
	case len(values) > 1:
		return Hint{Value: HintMalformed, Raw: joinRaw(values)}
	}
	switch v := bytes.TrimSpace(values[0]); string(v) {
	case "true":
		return Hint{Value: HintTrue}
	case "false":
		return Hint{Value: HintFalse}
	default:
		return Hint{Value: HintMalformed, Raw: string(v)}
	}
}

// objectFields splits a JSON object into its members, keeping every value
// of a repeated key and each value's exact bytes.
func objectFields(obj json.RawMessage) (map[string][]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	fields := map[string][]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		key := tok.(string)
		fields[key] = append(fields[key], value)
	}
	return fields, nil
}

func joinRaw(values []json.RawMessage) string {
	parts := make([][]byte, len(values))
	for i, v := range values {
		parts[i] = v
	}
	return string(bytes.Join(parts, []byte(", ")))
}
