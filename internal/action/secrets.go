package action

import (
	"os"
	"strings"
)

// withheldPrefixes name the variables the action reads but the programs it
// starts must not see: its inputs (the token input among them) and the
// runner's own credentials (ACTIONS_RUNTIME_TOKEN for the artifact
// service, ACTIONS_ID_TOKEN_REQUEST_TOKEN and _URL for an OIDC token). The
// server under test is untrusted code; what the workflow means it to have,
// it gives in the step's env.
var withheldPrefixes = []string{"INPUT_", "ACTIONS_"}

// WithholdRunnerSecrets removes those variables from the process
// environment, so that no child inherits them, and returns a getenv that
// still reads them for the action itself.
func WithholdRunnerSecrets() func(string) string {
	kept := map[string]string{}
	for _, kv := range os.Environ() {
		name, value, _ := strings.Cut(kv, "=")
		if withheld(name) {
			kept[name] = value
			os.Unsetenv(name)
		}
	}
	return func(key string) string {
		if withheld(key) {
			return kept[key]
		}
		return os.Getenv(key)
	}
}

func withheld(name string) bool {
	for _, p := range withheldPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
