package definition

import (
	"os"
	"strings"
)

// StateDirEnv tells the server its state directory, as {state} does in
// its command line.
const StateDirEnv = "MCPVERDICT_STATE_DIR"

// Expander replaces the placeholders of a definition: {state} (the
// session's fresh state directory), {target} (the definition's folder) and
// {self} (the mcpverdict executable running the probe).
type Expander struct {
	Target, Self string
}

func (e Expander) Expand(s, stateDir string) string {
	return strings.NewReplacer("{state}", stateDir, "{target}", e.Target, "{self}", e.Self).Replace(s)
}

func (e Expander) Argv(words []string, stateDir string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = e.Expand(w, stateDir)
	}
	return out
}

// Env is the inherited environment with the definition's additions and
// the state directory.
func (e Expander) Env(add map[string]string, stateDir string) []string {
	env := os.Environ()
	for _, k := range SortedKeys(add) {
		env = append(env, k+"="+e.Expand(add[k], stateDir))
	}
	return append(env, StateDirEnv+"="+stateDir)
}

// value replaces placeholders in every string of a tool's arguments.
func (e Expander) value(v any, stateDir string) any {
	switch v := v.(type) {
	case string:
		return e.Expand(v, stateDir)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = e.value(x, stateDir)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = e.value(x, stateDir)
		}
		return out
	case []map[string]any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = e.value(x, stateDir)
		}
		return out
	}
	return v
}

func (e Expander) Arguments(args map[string]any, stateDir string) map[string]any {
	if args == nil {
		return map[string]any{}
	}
	return e.value(args, stateDir).(map[string]any)
}
