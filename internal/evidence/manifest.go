package evidence

import (
	"github.com/mcpverdict/mcpverdict/internal/canon"
)

// Declared is a declaration manifest in mcp-evidence-validator's format:
// {"server", "contract_recipe", "tools": [...], "annotations": [...]}.
type Declared struct {
	// Raw is the file as read, for the ledger.
	Raw canon.Value
	// Recipe is the manifest's recipe; RecipeStated says whether it named
	// one (else it is the legacy recipe 1).
	Recipe       Recipe
	RecipeStated bool
	Tools        []DeclaredTool
	Annotations  []Annotation
}

// DeclaredTool is one tool of a manifest, under the recipe it is hashed by.
type DeclaredTool struct {
	Name   string
	Decl   canon.Value
	Recipe Recipe
}

// Annotation binds a statement about a tool to one of its contracts.
type Annotation struct {
	ID, Tool, BoundContract string
}

// Tool returns the declared tool called name.
func (d *Declared) Tool(name string) *DeclaredTool {
	for i := range d.Tools {
		if d.Tools[i].Name == name {
			return &d.Tools[i]
		}
	}
	return nil
}

// ReadDeclared parses a manifest; file names it in errors.
func ReadDeclared(file string, data []byte) (*Declared, error) {
	raw, r, top, err := readTop(file, data)
	if err != nil {
		return nil, err
	}
	d := &Declared{Raw: raw, Recipe: LegacyRecipe}
	stated, err := top.recipe()
	if err != nil {
		return nil, err
	}
	if stated != "" {
		d.Recipe, d.RecipeStated = stated, true
	}
	if err := d.readTools(r, top); err != nil {
		return nil, err
	}
	return d, d.readAnnotations(r, top)
}

func (d *Declared) readTools(r reader, top fields) error {
	tools, err := top.require("tools", canon.Array)
	if err != nil {
		return err
	}
	seen := map[string]int{}
	for i, tv := range tools.Items {
		p := canon.Path{}.Key("tools").Index(i)
		t, err := readDeclaredTool(r, tv, p, d.Recipe)
		if err != nil {
			return err
		}
		if first, dup := seen[t.Name]; dup {
			return r.fail(p.Key("name"), "duplicate tool name %q (first at $.tools[%d])", t.Name, first)
		}
		seen[t.Name] = i
		d.Tools = append(d.Tools, t)
	}
	return nil
}

func readDeclaredTool(r reader, v canon.Value, p canon.Path, manifest Recipe) (DeclaredTool, error) {
	f, err := r.fields(v, p)
	if err != nil {
		return DeclaredTool{}, err
	}
	name, err := f.require("name", canon.String)
	if err != nil {
		return DeclaredTool{}, err
	}
	if name.Text == "" {
		return DeclaredTool{}, f.fail("name", "empty tool name")
	}
	for key, kind := range map[string]canon.Kind{"input_schema": canon.Object, "permissions": canon.Array} {
		if _, _, err := f.get(key, kind); err != nil {
			return DeclaredTool{}, err
		}
	}
	recipe, err := f.recipe()
	if recipe == "" {
		recipe = manifest
	}
	return DeclaredTool{Name: name.Text, Decl: v, Recipe: recipe}, err
}

func (d *Declared) readAnnotations(r reader, top fields) error {
	list, _, err := top.get("annotations", canon.Array)
	if err != nil {
		return err
	}
	for i, av := range list.Items {
		f, err := r.fields(av, canon.Path{}.Key("annotations").Index(i))
		if err != nil {
			return err
		}
		var a Annotation
		for key, dst := range map[string]*string{"id": &a.ID, "tool": &a.Tool, "bound_contract": &a.BoundContract} {
			if *dst, err = f.optString(key); err != nil {
				return err
			}
		}
		d.Annotations = append(d.Annotations, a)
	}
	return nil
}

// Observed is a batch of runtime observations in mcp-evidence-validator's
// format: {"server", "observations": [{"index", "tool", "args",
// "contract_hash", "contract_recipe"}]}.
type Observed struct {
	Raw canon.Value
	// Recipe is the file's own contract_recipe, if it names one; each
	// observation's hash is read under the observation's own.
	Recipe       Recipe
	Observations []Observation
}

// Observation is one observed call.
type Observation struct {
	Index int
	Tool  string
	// Args are the call's arguments; HasArgs is false when none were recorded.
	Args    canon.Value
	HasArgs bool
	// ContractHash is the contract seen at call time ("" when none).
	ContractHash string
	// Recipe is the recipe the observation states ("" when none).
	Recipe Recipe
}

// ReadObserved parses an observation batch; file names it in errors.
func ReadObserved(file string, data []byte) (*Observed, error) {
	raw, r, top, err := readTop(file, data)
	if err != nil {
		return nil, err
	}
	o := &Observed{Raw: raw}
	if o.Recipe, err = top.recipe(); err != nil {
		return nil, err
	}
	list, err := top.require("observations", canon.Array)
	if err != nil {
		return nil, err
	}
	for i, ov := range list.Items {
		obs, err := readObservation(r, ov, canon.Path{}.Key("observations").Index(i))
		if err != nil {
			return nil, err
		}
		o.Observations = append(o.Observations, obs)
	}
	return o, nil
}

func readObservation(r reader, v canon.Value, p canon.Path) (Observation, error) {
	f, err := r.fields(v, p)
	if err != nil {
		return Observation{}, err
	}
	var o Observation
	tool, err := f.require("tool", canon.String)
	if err != nil {
		return o, err
	}
	o.Tool = tool.Text
	if o.Index, err = f.optInt("index"); err != nil {
		return o, err
	}
	if o.Args, o.HasArgs, err = f.get("args", canon.Object); err != nil {
		return o, err
	}
	if o.ContractHash, err = f.optString("contract_hash"); err != nil {
		return o, err
	}
	o.Recipe, err = f.recipe()
	return o, err
}

// readTop parses a whole input file whose top level must be an object.
func readTop(file string, data []byte) (canon.Value, reader, fields, error) {
	r := reader{file}
	raw, err := decodeFile(file, data)
	if err != nil {
		return raw, r, fields{}, err
	}
	top, err := r.fields(raw, nil)
	return raw, r, top, err
}
