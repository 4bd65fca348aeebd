package definition

import "testing"

// FuzzDecodeDefinition feeds arbitrary TOML to the strict decoder and the
// field checks: a definition is untrusted input, and any refusal must be
// an error, never a panic.
func FuzzDecodeDefinition(f *testing.F) {
	f.Add("[server]\ncommand = [\"x\"]\n[[tools]]\nname = \"t\"\narguments = { a = 1 }\n")
	f.Add("[[adapters]]\nkind = \"json\"\npath = \"a\"\nrecords = \"x.y\"\nkey = [\"k\"]\nmasks = [{region=\"r\", field=\"f\", kind=\"uuid\"}]\n")
	f.Add("[[tools]]\nname = \"t\"\n[tools.expected]\nread_only = \"VIOLATION:X\"\n")
	f.Fuzz(func(t *testing.T, data string) {
		def, err := decode("fuzz.toml", data)
		if err != nil {
			return
		}
		_ = def.validate()
	})
}
