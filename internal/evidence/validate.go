package evidence

import (
	"fmt"
	"slices"
	"strings"
)

// Report is the outcome of comparing a manifest with an observation batch,
// shaped as mcp-evidence-validator's ({"summary", "findings"}), with the
// healthy results listed too.
type Report struct {
	Summary  Summary   `json:"summary"`
	Findings []Finding `json:"findings"`
	// Healthy lists the observations whose contract held and was bound
	// (bound_unmutated): evidence of what was checked, not findings.
	Healthy []Finding `json:"healthy,omitempty"`
}

// Summary counts what was compared.
type Summary struct {
	DeclaredTools int `json:"declared_tools"`
	Observations  int `json:"observations"`
	Findings      int `json:"findings"`
	// ContractRecipes lists every recipe in play, on either side.
	ContractRecipes []Recipe `json:"contract_recipes"`
	Checks          []Check  `json:"checks"`
}

// validateChecks are the checks Validate runs, in the order reported.
var validateChecks = []Check{BoundUnmutated, ContractMutated, ScopeViolation, UnknownTool, UnboundAnnotation, RecipeMismatch}

// Validate compares what a server declared with what was observed: for each
// observation, whether the tool was declared, whether its contract still
// holds under the declaration's recipe (and is bound by an annotation), and
// whether its arguments stay inside the declared input schema.
func Validate(d *Declared, o *Observed) (*Report, error) {
	rep := &Report{Findings: []Finding{}}
	recipes := map[Recipe]bool{d.Recipe: true}
	if o.Recipe != "" {
		recipes[o.Recipe] = true
	}
	for _, obs := range o.Observations {
		if err := rep.observe(d, obs, recipes); err != nil {
			return nil, err
		}
	}
	rep.Summary = Summary{
		DeclaredTools: len(d.Tools), Observations: len(o.Observations), Findings: len(rep.Findings),
		Checks: validateChecks,
	}
	for r := range recipes {
		rep.Summary.ContractRecipes = append(rep.Summary.ContractRecipes, r)
	}
	slices.Sort(rep.Summary.ContractRecipes)
	return rep, nil
}

func (rep *Report) observe(d *Declared, obs Observation, recipes map[Recipe]bool) error {
	index := obs.Index
	base := Finding{ObservationIndex: &index, Tool: obs.Tool}
	observedRecipe := obs.Recipe
	if obs.ContractHash != "" && observedRecipe == "" {
		observedRecipe = LegacyRecipe // a hash with no recipe predates recipes
	}
	if observedRecipe != "" {
		recipes[observedRecipe] = true
	}
	decl := d.Tool(obs.Tool)
	if decl == nil {
		rep.add(base, UnknownTool, fmt.Sprintf("tool %q observed but not declared", obs.Tool))
		return nil
	}
	recipes[decl.Recipe] = true
	current, err := Fingerprint(decl.Decl, decl.Recipe)
	if err != nil {
		return fmt.Errorf("tool %q: %w", decl.Name, err)
	}
	if obs.ContractHash != "" {
		rep.compare(base, d, decl, obs, observedRecipe, current)
	}
	if obs.HasArgs {
		schema, _ := decl.Decl.Get("input_schema")
		rep.scope(base, JudgeArgs(schema, obs.Args))
	}
	return nil
}

// compare holds the observed contract hash to the declared one, refusing
// to when they were made under different recipes.
func (rep *Report) compare(base Finding, d *Declared, decl *DeclaredTool, obs Observation, observedRecipe Recipe, current string) {
	if observedRecipe != decl.Recipe {
		f := base
		f.DeclaredRecipe, f.ObservedRecipe = decl.Recipe, observedRecipe
		stated := obs.Recipe != ""
		f.ObservedRecipeStated = &stated
		detail := fmt.Sprintf("observed contract hash was computed under recipe %s, the declaration is recipe %s; the two are not comparable", observedRecipe, decl.Recipe)
		if !stated {
			detail += fmt.Sprintf(`. The observation states no recipe, so it is read as recipe %s, which is what a ledger issued before recipes existed carries. To judge it under the recipe that produced it, state "contract_recipe": %q on the declaration`, LegacyRecipe, LegacyRecipe)
		}
		rep.add(f, RecipeMismatch, detail)
		return
	}
	f := base
	f.Recipe = decl.Recipe
	if obs.ContractHash != current {
		f.DeclaredContract, f.ObservedContract = current, obs.ContractHash
		rep.add(f, ContractMutated, "annotation bound to contract that has changed since declaration")
		return
	}
	bound := slices.ContainsFunc(d.Annotations, func(a Annotation) bool { return a.Tool == decl.Name && a.BoundContract == current })
	if !bound {
		rep.add(f, UnboundAnnotation, fmt.Sprintf("tool %q observed with no annotation bound to the current contract", decl.Name))
		return
	}
	f.Check, f.DeclaredContract, f.Detail = BoundUnmutated, current, "the observed contract is the declared one, and an annotation is bound to it"
	rep.Healthy = append(rep.Healthy, f)
}

func (rep *Report) scope(base Finding, violations []Violation) {
	if len(violations) == 0 {
		return
	}
	parts := make([]string, 0, 5)
	for _, v := range violations[:min(5, len(violations))] {
		parts = append(parts, v.Path+": "+v.Problem)
	}
	detail := "arguments outside the declared input schema: " + strings.Join(parts, "; ")
	if len(violations) > 5 {
		detail += fmt.Sprintf("; and %d more", len(violations)-5)
	}
	f := base
	f.Violations = violations
	rep.add(f, ScopeViolation, detail)
}

func (rep *Report) add(f Finding, c Check, detail string) {
	f.Check, f.Severity, f.Detail = c, c.Info().Severity, detail
	rep.Findings = append(rep.Findings, f)
}
