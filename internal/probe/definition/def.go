package definition

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Definition is a probe definition: the server, its state and the tools to
// probe. It is decoded strictly from TOML by Load.
type Definition struct {
	// Name names the definition in reports; default: its folder's name.
	Name        string `toml:"name"`
	Description string `toml:"description"`
	Server      Server `toml:"server"`
	State       State  `toml:"state"`
	// Adapters observe every place the server keeps state.
	Adapters []Adapter `toml:"adapters"`
	// Tools are the calls to probe, one entry per argument set.
	Tools []ToolCase `toml:"tools"`

	// Path is the file the definition was read from; Dir is its folder,
	// the value of {target}.
	Path string `toml:"-"`
	Dir  string `toml:"-"`
}

// Server says how to start the server under probe.
type Server struct {
	// Command is the server's argv; {state}, {target} and {self} are
	// replaced in every word.
	Command []string `toml:"command"`
	// Env adds to the inherited environment; values take placeholders.
	Env map[string]string `toml:"env"`
	// Cwd is the server's working directory (placeholders allowed);
	// default: the session's state directory, so that relative writes land
	// where they are observed.
	Cwd string `toml:"cwd"`
	// StartupTimeout bounds start-up and initialize (default 30s: npx is
	// slow the first time); CallTimeout bounds each other request (10s).
	StartupTimeout duration `toml:"startup_timeout"`
	CallTimeout    duration `toml:"call_timeout"`
}

// State declares what the adapters cannot see.
type State struct {
	// Unobserved names places the server keeps state that no adapter can
	// observe (process memory, a remote service). Any entry makes coverage
	// incomplete, and a claim that depends on state cannot pass.
	Unobserved []string `toml:"unobserved"`
}

// Adapter observes one place the server keeps state.
type Adapter struct {
	// Kind is sqlite, fs, json or jsonl.
	Kind string `toml:"kind"`
	// Path is the database, file or directory, relative to the state
	// directory.
	Path string `toml:"path"`
	// Seed is copied (fs, json, jsonl) or executed as SQL (sqlite) into
	// Path at every reset; relative to the definition's folder. Without a
	// seed the state starts absent.
	Seed string `toml:"seed"`
	// Business, AppendOnly and Unclassified classify regions: sqlite
	// tables; fs glob patterns over paths relative to Path; json and jsonl
	// region names (the value at Region in each record). A region listed
	// nowhere is unclassified.
	Business     []string `toml:"business"`
	AppendOnly   []string `toml:"append_only"`
	Unclassified []string `toml:"unclassified"`
	// Records (json) is the dot path of the array or object holding the
	// records; empty means the document itself.
	Records string `toml:"records"`
	// Key (json, jsonl) lists the dot paths that identify a record; a
	// record holding none of them is identified by its whole value.
	Key []string `toml:"key"`
	// Region (json, jsonl) is the dot path of the field naming a record's
	// region; default: every record is in region "records".
	Region string `toml:"region"`
	// Masks name the volatile values to ignore.
	Masks []Mask `toml:"masks"`
}

// Mask hides one volatile field before snapshots are compared.
type Mask struct {
	// Region is the table, pattern or region name; Field the column or
	// dot path ("content" for fs); Kind one of timestamp, uuid, counter,
	// random.
	Region string `toml:"region"`
	Field  string `toml:"field"`
	Kind   string `toml:"kind"`
}

// ToolCase is one argument set of one tool.
type ToolCase struct {
	Name string `toml:"name"`
	// Variant names the argument set: the case is NAME[VARIANT].
	Variant   string         `toml:"variant"`
	Arguments map[string]any `toml:"arguments"`
	// Expected holds a fixture's known verdicts; targets have none.
	Expected *Expected `toml:"expected"`
}

// ID is the case's name as --tool takes it: NAME or NAME[VARIANT].
func (t ToolCase) ID() string {
	if t.Variant == "" {
		return t.Name
	}
	return t.Name + "[" + t.Variant + "]"
}

// Expected is a fixture's known outcome per test, each "VERDICT" or
// "VERDICT:PRIMARY_REASON".
type Expected struct {
	ReadOnly              string `toml:"read_only"`
	Destructive           string `toml:"destructive"`
	SequentialIdempotence string `toml:"sequential_idempotence"`
	ConcurrentIdempotence string `toml:"concurrent_idempotence"`
	OpenWorld             string `toml:"open_world"`
	// ConcurrentViolationModes lists the modes that must each have
	// diverged at least once.
	ConcurrentViolationModes []string `toml:"concurrent_violation_modes"`
}

// ByTest returns the expectation for a test, "" when none was recorded.
func (e *Expected) ByTest(test string) string {
	if e == nil {
		return ""
	}
	return map[string]string{
		TestReadOnly: e.ReadOnly, TestDestructive: e.Destructive,
		TestSequentialIdempotence: e.SequentialIdempotence,
		TestConcurrentIdempotence: e.ConcurrentIdempotence, TestOpenWorld: e.OpenWorld,
	}[test]
}

// duration is a TOML string such as "10s".
type duration struct{ time.Duration }

func (d *duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil || v <= 0 {
		return fmt.Errorf("%q is not a positive duration such as \"10s\"", b)
	}
	d.Duration = v
	return nil
}

// DefError is a definition that cannot be used: the file, the key, and why.
type DefError struct {
	File string
	Key  string
	Msg  string
}

func (e *DefError) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", e.File, e.Key, e.Msg)
}

func DefErr(file, key, format string, args ...any) error {
	return &DefError{File: file, Key: key, Msg: oneLine(fmt.Sprintf(format, args...))}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Load reads a definition strictly: a syntax error, an unknown key, a value
// still starting with TODO(, an invalid field, a seed that fails to load or
// a classification or mask that matches nothing in the seeded state is a
// *DefError naming the file and the key.
func Load(path string) (*Definition, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, DefErr(path, "", "cannot read the definition: %v", UnwrapPathErr(err))
	}
	def, err := decode(path, string(data))
	if err != nil {
		return nil, err
	}
	if err := def.validate(); err != nil {
		return nil, err
	}
	if err := def.checkSeeds(); err != nil {
		return nil, err
	}
	return def, nil
}

func decode(path, data string) (*Definition, error) {
	var generic map[string]any
	if _, err := toml.Decode(data, &generic); err != nil {
		return nil, tomlErr(path, err)
	}
	if key := findTODO("", generic); key != "" {
		return nil, DefErr(path, key, "still holds a TODO( placeholder; replace it with a real value before probing")
	}
	def := &Definition{}
	md, err := toml.Decode(data, def)
	if err != nil {
		return nil, tomlErr(path, err)
	}
	if key := unknownKey(md.Undecoded()); key != "" {
		return nil, DefErr(path, key, "unknown key (check its spelling against the probe definition reference in docs/probe.md)")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, DefErr(path, "", "%v", err)
	}
	def.Path, def.Dir = path, filepath.Dir(abs)
	if def.Name == "" {
		def.Name = filepath.Base(def.Dir)
	}
	return def, nil
}

// unknownKey returns the first key nothing decoded, apart from those inside
// a tool's arguments: those are free-form, and the decoder does not mark
// tables inside arrays there as decoded.
func unknownKey(keys []toml.Key) string {
	for _, k := range keys {
		if len(k) > 2 && k[0] == "tools" && k[1] == "arguments" {
			continue
		}
		return k.String()
	}
	return ""
}

// tomlErr turns a decode error into a one-line DefError with the key the
// parser was at.
func tomlErr(path string, err error) error {
	if pe, ok := err.(toml.ParseError); ok {
		return DefErr(path, pe.LastKey, "line %d: %s", pe.Position.Line, pe.Message)
	}
	return DefErr(path, "", "%v", err)
}

// findTODO returns the key path of the first string value starting with
// "TODO(", searching tables and arrays in a stable order.
func findTODO(prefix string, v any) string {
	switch v := v.(type) {
	case string:
		if strings.HasPrefix(strings.TrimSpace(v), "TODO(") {
			return prefix
		}
	case map[string]any:
		for _, k := range SortedKeys(v) {
			if key := findTODO(joinKey(prefix, k), v[k]); key != "" {
				return key
			}
		}
	case []map[string]any:
		for i, e := range v {
			if key := findTODO(fmt.Sprintf("%s[%d]", prefix, i), e); key != "" {
				return key
			}
		}
	case []any:
		for i, e := range v {
			if key := findTODO(fmt.Sprintf("%s[%d]", prefix, i), e); key != "" {
				return key
			}
		}
	}
	return ""
}

func joinKey(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

func UnwrapPathErr(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
